"""Two `sesame serve` processes on one PostgreSQL, with nginx in front round-robin, on 127.0.0.1.

`Cluster` starts them (`sesame init --store` once, then two `serve --store` with the same master
key) and stops them; run this file to keep one up for people (`make cluster`).
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "integration" / "support"))
from sesame_process import free_port, healthy, stop  # noqa: E402

SESAME_BIN = os.environ.get("SESAME_BIN", str(ROOT / ".build" / "debug" / "sesame"))
NGINX = os.environ.get("NGINX_BIN", shutil.which("nginx") or "/usr/sbin/nginx")
START_TIMEOUT = 30

NGINX_CONF = """
daemon off;
master_process on;
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    upstream sesame {{
        server 127.0.0.1:{port_a};
        server 127.0.0.1:{port_b};
        keepalive 8;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://sesame;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


class Cluster:
    def __init__(self, root: pathlib.Path, dsn: str):
        self.root, self.dsn = root, dsn
        self.front_port = free_port()
        self.public_url = f"http://localhost:{self.front_port}"
        self.ports = [free_port(), free_port()]
        self.urls = [f"http://localhost:{port}" for port in self.ports]
        self.processes: list[subprocess.Popen | None] = [None, None]
        self.nginx: subprocess.Popen | None = None
        self.keys = root / "keys"
        self.ids: dict = {}

    def start(self) -> "Cluster":
        init = subprocess.run(
            [SESAME_BIN, "init", "--store", self.dsn, "--data", str(self.keys), "--public-url", self.public_url,
             "--json"],
            capture_output=True, text=True, timeout=START_TIMEOUT, check=False,
        )
        assert init.returncode == 0, f"sesame init failed: {init.stderr}"
        self.ids = json.loads(init.stdout)
        for index in range(2):
            self.start_process(index)
        prefix = self.root / "nginx"
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (prefix / name).mkdir(parents=True, exist_ok=True)
        conf = prefix / "nginx.conf"
        conf.write_text(NGINX_CONF.format(
            user="user root;" if os.geteuid() == 0 else "", prefix=prefix, port=self.front_port,
            port_a=self.ports[0], port_b=self.ports[1]))
        self.nginx = subprocess.Popen(
            [NGINX, "-p", str(prefix), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        assert healthy(f"http://127.0.0.1:{self.front_port}", self.nginx, START_TIMEOUT), (
            (prefix / "error.log").read_text(errors="replace")[-4000:])
        return self

    def start_process(self, index: int) -> None:
        log = (self.root / f"server-{index}.log").open("ab")
        process = subprocess.Popen(
            [SESAME_BIN, "serve", "--store", self.dsn, "--data", str(self.keys),
             "--listen", f"127.0.0.1:{self.ports[index]}", "--public-url", self.public_url,
             "--trusted-proxy", "127.0.0.1", "--connections-per-ip", "0", "--rate-limit-per-ip", "0"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
        self.processes[index] = process
        assert healthy(self.urls[index], process, START_TIMEOUT), (
            (self.root / f"server-{index}.log").read_text(errors="replace")[-4000:])

    def kill(self, index: int) -> None:
        process = self.processes[index]
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=START_TIMEOUT)

    def stop(self) -> None:
        if self.nginx is not None:
            stop(self.nginx, START_TIMEOUT)
        for process in self.processes:
            if process is not None:
                stop(process, START_TIMEOUT)


@contextlib.contextmanager
def running_cluster(root: pathlib.Path, dsn: str):
    cluster = Cluster(root, dsn)
    try:
        yield cluster.start()
    finally:
        cluster.stop()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="sesame-cluster-") as directory:
        with running_cluster(pathlib.Path(directory), os.environ["SESAME_CLUSTER_DSN"]) as cluster:
            print(f"Sesame cluster: nginx at {cluster.public_url}, processes at {', '.join(cluster.urls)}")
            print(f"native client_id {cluster.ids['client_id']}, management client_id "
                  f"{cluster.ids['management_client_id']} (secret {cluster.ids['management_client_secret']})")
            print("Ctrl-C stops it.")
            try:
                while all(p is not None and p.poll() is None for p in cluster.processes):
                    time.sleep(1)
            except KeyboardInterrupt:
                pass

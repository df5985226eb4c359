"""Fixtures: `sesame serve` behind Debian's nginx, configured with deploy/nginx/*.conf (the files
docs/deployment.md tells operators to use), both on 127.0.0.1, stopped afterwards."""

import dataclasses
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "integration" / "support"))
from sesame_process import free_port, running_server, stop  # noqa: E402

START_TIMEOUT = 30
NGINX = os.environ.get("NGINX_BIN", shutil.which("nginx") or "/usr/sbin/nginx")

for _name in ("NO_PROXY", "no_proxy"):
    os.environ[_name] = ",".join(filter(None, [os.environ.get(_name), "localhost", "127.0.0.1"]))


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


signal.signal(signal.SIGTERM, _interrupt)

NGINX_CONF = """
daemon off;
master_process on;
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {deploy}/sesame-http.conf;
    upstream sesame {{
        server 127.0.0.1:{sesame_port};
        keepalive 8;
        keepalive_timeout 10s;
    }}
    server {{
        listen 127.0.0.1:{port};
        server_name localhost;
        include {deploy}/sesame-server.conf;
    }}
}}
"""


@dataclasses.dataclass
class Front:
    url: str  # nginx: the public URL, http://localhost:PORT
    port: int
    client_id: str
    log: pathlib.Path  # sesame's output


def _nginx_up(port: int, process: subprocess.Popen) -> bool:
    deadline = time.monotonic() + START_TIMEOUT
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with opener.open(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.1)
    return False


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    assert os.access(NGINX, os.X_OK), f"{NGINX} is not an executable (set NGINX_BIN)"
    root = tmp_path_factory.mktemp("front")
    port = free_port()
    public_url = f"http://localhost:{port}"
    serve_args = ["--trusted-proxy", "127.0.0.1", "--connections-per-ip", "0"]
    with running_server(root, START_TIMEOUT, public_url=public_url, serve_args=serve_args) as (url, ids, log):
        prefix = root / "nginx"
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (prefix / name).mkdir(parents=True, exist_ok=True)
        conf = prefix / "nginx.conf"
        conf.write_text(NGINX_CONF.format(
            user="user root;" if os.geteuid() == 0 else "",
            prefix=prefix, deploy=ROOT / "deploy" / "nginx", sesame_port=url.rsplit(":", 1)[1], port=port))
        test = subprocess.run([NGINX, "-t", "-p", str(prefix), "-c", str(conf)], capture_output=True, text=True)
        assert test.returncode == 0, f"nginx -t failed:\n{test.stderr}"
        process = subprocess.Popen(
            [NGINX, "-p", str(prefix), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        try:
            assert _nginx_up(port, process), (prefix / "error.log").read_text(errors="replace")[-4000:]
            yield Front(url=public_url, port=port, client_id=ids["client_id"], log=log)
        finally:
            stop(process, START_TIMEOUT)

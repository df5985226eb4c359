"""Fixtures: a fresh `sesame` server per test, initialised with `sesame init --json` in a temporary
data directory, served on a free 127.0.0.1 port and stopped with SIGTERM afterwards."""

import dataclasses
import json
import os
import pathlib
import signal
import socket
import subprocess
import time

import pytest

from android_client import SesameHTTP

HERE = pathlib.Path(__file__).resolve().parent
SESAME_BIN = os.environ.get("SESAME_BIN", str(HERE.parent.parent / ".build" / "debug" / "sesame"))
START_TIMEOUT = 30  # seconds for init, for the server to answer /healthz, and for it to stop

for _name in ("NO_PROXY", "no_proxy"):
    os.environ[_name] = ",".join(filter(None, [os.environ.get(_name), "localhost", "127.0.0.1"]))


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


# `timeout` stops a hung run with SIGTERM: make it an interrupt so the fixtures still stop the server.
signal.signal(signal.SIGTERM, _interrupt)


@dataclasses.dataclass
class Server:
    url: str  # the public URL, http://localhost:PORT
    tenant: str
    rp_id: str
    connection: str
    client_id: str
    management_client_id: str
    management_client_secret: str
    log: pathlib.Path
    http: SesameHTTP


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=START_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=START_TIMEOUT)


def _wait_healthy(http: SesameHTTP, process: subprocess.Popen) -> bool:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            if http.request("GET", "/healthz")[0] == 200:
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return False


@pytest.fixture
def server(tmp_path):
    assert os.access(SESAME_BIN, os.X_OK), f"{SESAME_BIN} is not an executable (set SESAME_BIN)"
    log = tmp_path / "server.log"
    # A port picked here may be taken before serve binds it: try a few, each with a fresh data dir.
    for attempt in range(3):
        port = _free_port()
        url = f"http://localhost:{port}"
        data = tmp_path / f"data-{attempt}"
        init = subprocess.run(
            [SESAME_BIN, "init", "--data", str(data), "--public-url", url, "--json"],
            capture_output=True, text=True, timeout=START_TIMEOUT, check=False,
        )
        assert init.returncode == 0, f"sesame init failed: {init.stderr}"
        ids = json.loads(init.stdout)
        with log.open("ab") as sink:
            process = subprocess.Popen(
                [SESAME_BIN, "serve", "--data", str(data), "--listen", f"127.0.0.1:{port}", "--public-url", url],
                stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )
        http = SesameHTTP(url)
        if _wait_healthy(http, process):
            break
        _stop(process)
    else:
        pytest.fail(f"sesame serve did not start:\n{log.read_text(errors='replace')[-4000:]}")
    try:
        yield Server(
            url=url, tenant=ids["tenant"], rp_id=ids["rp_id"], connection=ids["connection"],
            client_id=ids["client_id"], management_client_id=ids["management_client_id"],
            management_client_secret=ids["management_client_secret"], log=log, http=http,
        )
    finally:
        _stop(process)
        assert process.returncode == 0, f"sesame serve exited {process.returncode} after SIGTERM"

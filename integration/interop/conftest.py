"""Fixtures: a fresh `sesame` server per test, initialised with `sesame init --json` in a temporary
data directory, served on a free 127.0.0.1 port and stopped with SIGTERM afterwards."""

import dataclasses
import os
import pathlib
import signal
import sys

import pytest

from android_client import SesameHTTP

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
from sesame_process import running_server  # noqa: E402

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


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path, START_TIMEOUT) as (url, ids, log):
        yield Server(
            url=url, tenant=ids["tenant"], rp_id=ids["rp_id"], connection=ids["connection"],
            client_id=ids["client_id"], management_client_id=ids["management_client_id"],
            management_client_secret=ids["management_client_secret"], log=log, http=SesameHTTP(url),
        )

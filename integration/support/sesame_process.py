"""Starting and stopping `sesame serve` for the Python suites (integration/interop, integration/browser).

`running_server` runs `sesame init --json` in a fresh data directory, then `sesame serve` on a free
127.0.0.1 port with the public URL http://localhost:PORT, waits for /healthz, and on exit stops the
server with SIGTERM and checks that it exited cleanly. Only loopback addresses are used.

With SESAME_TEST_STORE=postgres, the server keeps its data in a fresh schema of the PostgreSQL
server SESAME_TEST_POSTGRES_DSN names (scripts/postgres.sh), dropped afterwards; the data
directory then holds only the master key.
"""

import contextlib
import json
import os
import pathlib
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SESAME_BIN = os.environ.get("SESAME_BIN", str(ROOT / ".build" / "debug" / "sesame"))

_no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(process: subprocess.Popen, timeout: float) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)


def healthy(url: str, process: subprocess.Popen, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with _no_proxy.open(f"{url}/healthz", timeout=timeout) as response:
                if response.status == 200:
                    return True
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.1)
    return False


STORE = os.environ.get("SESAME_TEST_STORE", "sqlite")
assert STORE in ("sqlite", "postgres"), f"SESAME_TEST_STORE must be sqlite or postgres, not {STORE}"


def _psql(dsn: str, sql: str) -> None:
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", dsn, "-c", sql],
                   check=True, capture_output=True, text=True, timeout=60)


@contextlib.contextmanager
def store_arguments(data: pathlib.Path):
    """The `--data`/`--store` arguments of init and serve for SESAME_TEST_STORE, with a fresh
    PostgreSQL schema for the postgres store (dropped on exit)."""
    if STORE == "sqlite":
        yield ["--data", str(data)]
        return
    base = os.environ.get("SESAME_TEST_POSTGRES_DSN", "")
    assert base, "SESAME_TEST_STORE=postgres needs SESAME_TEST_POSTGRES_DSN (scripts/postgres.sh start)"
    schema = "b_" + uuid.uuid4().hex
    _psql(base, f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in base else "?"
    dsn = base + separator + "options=" + urllib.parse.quote(f"-csearch_path={schema}", safe="-")
    try:
        yield ["--store", dsn, "--data", str(data)]
    finally:
        _psql(base, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@contextlib.contextmanager
def running_server(root: pathlib.Path, timeout: float, public_url=None, serve_args=()):
    """Yields (url, ids, log): url is where the server listens, ids `sesame init --json`'s output,
    log the server's output file. `public_url` (default: the listening URL) is the tenant's public
    URL, e.g. a proxy's; `serve_args` are more `sesame serve` flags."""
    assert os.access(SESAME_BIN, os.X_OK), f"{SESAME_BIN} is not an executable (set SESAME_BIN)"
    log = root / "server.log"
    with contextlib.ExitStack() as stack:
        for attempt in range(3):  # a free port may be taken before serve binds it: try again
            port = free_port()
            url = f"http://localhost:{port}"
            store = stack.enter_context(store_arguments(root / f"data-{attempt}"))
            init = subprocess.run(
                [SESAME_BIN, "init", *store, "--public-url", public_url or url, "--json"],
                capture_output=True, text=True, timeout=timeout, check=False,
            )
            assert init.returncode == 0, f"sesame init failed: {init.stderr}"
            ids = json.loads(init.stdout)
            with log.open("ab") as sink:
                process = subprocess.Popen(
                    [SESAME_BIN, "serve", *store, "--listen", f"127.0.0.1:{port}",
                     "--public-url", public_url or url, *serve_args],
                    stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                )
            if healthy(url, process, timeout):
                break
            stop(process, timeout)
        else:
            raise AssertionError(f"sesame serve did not start:\n{log.read_text(errors='replace')[-4000:]}")
        try:
            yield url, ids, log
        finally:
            stop(process, timeout)
            assert process.returncode == 0, f"sesame serve exited {process.returncode} after SIGTERM"

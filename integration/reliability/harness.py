"""What the reliability suites share: a `sesame serve` process that can be SIGKILLed and started
again on the same data (SQLite in a directory, or a PostgreSQL database), /proc readings, and
small HTTP helpers. Loopback only; every process started here is stopped by its owner.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "integration" / "interop"))
SESAME_BIN = os.environ.get("SESAME_BIN", str(ROOT / ".build" / "debug" / "sesame"))

_no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def log(message: str) -> None:
    print(f"[reliability] {message}", flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwt_claims(token: str) -> dict:
    """The payload of a compact JWS, unverified (the interop suite checks signatures)."""
    return json.loads(b64url_decode(token.split(".")[1]))


def rss_kib(pid: int) -> int:
    """VmRSS of `pid` in KiB, from /proc."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """utime + stime of `pid` in seconds, from /proc/PID/stat."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """One tenant's data (a directory, and a PostgreSQL database when `store` is given) and the
    `sesame serve` process currently serving it."""

    def __init__(self, root: pathlib.Path, store: str | None = None, serve_args=(), port: int | None = None):
        assert os.access(SESAME_BIN, os.X_OK), f"{SESAME_BIN} is not an executable (set SESAME_BIN)"
        self.root = root
        self.data = root / "data"
        self.store = store
        self.serve_args = list(serve_args)
        self.port = port or free_port()
        self.url = f"http://localhost:{self.port}"
        self.log_path = root / "server.log"
        self.process: subprocess.Popen | None = None
        self.starts = 0
        store_args = ["--store", store] if store else []
        init = subprocess.run(
            [SESAME_BIN, "init", "--data", str(self.data), *store_args, "--public-url", self.url, "--json"],
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert init.returncode == 0, f"sesame init failed: {init.stderr}"
        self.ids = json.loads(init.stdout)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout: float = 30, preexec=None) -> float:
        """Starts `sesame serve`; returns the seconds until /healthz answered 200."""
        assert self.process is None or self.process.poll() is not None
        store_args = ["--store", self.store] if self.store else []
        self.starts += 1
        began = time.monotonic()
        with self.log_path.open("ab") as sink:
            sink.write(f"\n--- start {self.starts} ---\n".encode())
            sink.flush()
            self.process = subprocess.Popen(
                [SESAME_BIN, "serve", "--data", str(self.data), *store_args, "--listen", f"127.0.0.1:{self.port}",
                 "--public-url", self.url, *self.serve_args],
                stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=preexec,
            )
        deadline = began + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"sesame serve exited {self.process.returncode} at start:\n{self.tail()}")
            if self.healthy(1.0):
                return time.monotonic() - began
            time.sleep(0.01)
        raise AssertionError(f"sesame serve did not answer /healthz within {timeout} s:\n{self.tail()}")

    def healthy(self, timeout: float) -> bool:
        try:
            with _no_proxy.open(f"http://127.0.0.1:{self.port}/healthz", timeout=timeout) as response:
                return response.status == 200
        except (OSError, urllib.error.URLError):
            return False

    def kill(self) -> None:
        """SIGKILL, and reap it."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        assert self.process.returncode == -signal.SIGKILL, self.process.returncode

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM; returns the exit status (killing it if it does not stop in time)."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else 0
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=timeout)
            return -signal.SIGKILL

    def tail(self, characters: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-characters:]
        except OSError:
            return ""

    def log_lines_since_start(self) -> list[str]:
        text = self.log_path.read_text(errors="replace")
        return text.rsplit(f"--- start {self.starts} ---", 1)[-1].splitlines()


@contextlib.contextmanager
def serving(server: Server, **start_args):
    """Starts `server` and always stops it; a clean SIGTERM exit is asserted by the caller."""
    try:
        server.start(**start_args)
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.stop()

"""Slowloris and 10,000 idle connections, with legitimate requests beside them.

An attacker holds `--idle` TCP connections that never send a byte, from a few loopback addresses
(127.0.0.2 …), and `--slow` slowloris connections that trickle a request header a byte at a time
and never finish it; whatever the server closes is opened again at once. Meanwhile a legitimate
client from another address (127.0.0.200) keeps making requests (a passkey challenge)
on fresh connections. The suite checks that every legitimate request is answered 200 within a
liveness bound (5 s: not a speed figure; a 503 shed while the server drains the attacker's backlog
counts if the retry after its Retry-After is a 200), that the server stays up, and reports how
many connections it held (its open descriptors) and how many the attacker had open.

With `--addresses N` the attacker spreads over N addresses instead (a distributed attacker).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import pathlib
import resource
import selectors
import socket
import statistics
import tempfile
import threading
import time
import urllib.request

from harness import Server, log

LIVENESS = 5.0


def raise_nofile(limit: int) -> None:
    """Raises this process's descriptor limit to `limit` (the hard limit too when allowed, as root
    with CAP_SYS_RESOURCE); fails clearly when the hard limit is lower and cannot be raised."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= limit:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, max(hard, limit)))
    except (ValueError, OSError):
        assert hard >= limit, f"RLIMIT_NOFILE hard limit {hard} < {limit} and cannot be raised (ulimit -Hn)"
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


class Attacker(threading.Thread):
    """Keeps `idle` silent and `slow` trickling connections open against the port."""

    SLOW_HEADER = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 100_000

    def __init__(self, port: int, idle: int, slow: int, addresses: list[str], slow_addresses: list[str],
                 reopen_per_second: int = 200):
        super().__init__(daemon=True)
        self.port, self.idle, self.slow = port, idle, slow
        self.addresses = {"idle": addresses, "slow": slow_addresses}
        self.reopen_per_second = reopen_per_second
        self.ramped = False
        self.selector = selectors.DefaultSelector()
        self.stop = threading.Event()
        self.sockets: dict[socket.socket, dict] = {}
        self.opened = 0
        self.closed_by_server = 0
        self.slow_bytes = 0
        self.serial = 0

    def open_one(self, kind: str) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sources = self.addresses[kind]
        source = sources[self.serial % len(sources)]
        self.serial += 1
        try:
            sock.bind((source, 0))
            code = sock.connect_ex(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            return
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            return
        self.sockets[sock] = {"kind": kind, "offset": 0}
        self.selector.register(sock, selectors.EVENT_READ)
        self.opened += 1

    def count(self, kind: str) -> int:
        return sum(1 for state in self.sockets.values() if state["kind"] == kind)

    def run(self):
        last_trickle = 0.0
        # The first `idle` + `slow` connections at once; then whatever the server closed is opened
        # again at `reopen_per_second` (holding connections, not flooding new ones).
        for kind, target in (("slow", self.slow), ("idle", self.idle)):
            for _ in range(target):
                self.open_one(kind)
        self.ramped = True
        last_round = time.monotonic()
        while not self.stop.is_set():
            now = time.monotonic()
            budget = int((now - last_round) * self.reopen_per_second)
            if budget > 0:
                last_round = now
            for kind, target in (("slow", self.slow), ("idle", self.idle)):
                missing = target - self.count(kind)
                for _ in range(max(0, min(missing, budget))):
                    self.open_one(kind)
                    budget -= 1
            for key, _ in self.selector.select(timeout=0.05):
                sock = key.fileobj
                try:
                    data = sock.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:  # closed (refused, reaped or timed out): open another next round
                    self.selector.unregister(sock)
                    self.sockets.pop(sock, None)
                    sock.close()
                    self.closed_by_server += 1
            now = time.monotonic()
            if now - last_trickle >= 0.2:
                last_trickle = now
                for sock, state in list(self.sockets.items()):
                    if state["kind"] != "slow":
                        continue
                    try:
                        sent = sock.send(self.SLOW_HEADER[state["offset"]:state["offset"] + 1])
                        state["offset"] += sent
                        self.slow_bytes += sent
                    except (BlockingIOError, OSError):
                        pass
        for sock in list(self.sockets):
            sock.close()


def legitimate(server: Server, source: str) -> tuple[int, float]:
    """One request on a fresh connection from `source`: (status, seconds)."""
    began = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=LIVENESS,
                                      source_address=(source, 0)) as sock:
            body = json.dumps({"client_id": server.ids["client_id"]}).encode()
            sock.sendall(b"POST /passkey/challenge HTTP/1.1\r\nHost: localhost:%d\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (server.port, len(body), body))
            response = b""
            while b"\r\n" not in response:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                response += chunk
            status = int(response.split(b" ", 2)[1]) if response.startswith(b"HTTP/1.1 ") else 0
    except OSError:
        status = 0
    return status, time.monotonic() - began


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def run(idle: int, slow: int, seconds: float, addresses: int, serve_args: list[str]) -> dict:
    raise_nofile(idle + slow + 4096)

    def server_limits():  # `ulimit -n` for the server: what this process may have, at least its connections
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    with tempfile.TemporaryDirectory(prefix="sesame-conns-") as directory:
        server = Server(pathlib.Path(directory), serve_args=["--log-level", "error", *serve_args])
        try:
            server.start(preexec=server_limits)
            # Attackers on 127.0.1.x, 127.0.2.x …; the slowloris on 127.0.0.2-11; the legitimate client
            # on 127.0.0.200 (all of 127/8 is loopback on Linux).
            sources = [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range(addresses)]
            slow_sources = [f"127.0.0.{2 + i}" for i in range(10)]
            attacker = Attacker(server.port, idle, slow, sources, slow_sources)
            attacker.start()
            ramp_deadline = time.monotonic() + 60
            while not attacker.ramped and time.monotonic() < ramp_deadline:
                time.sleep(0.1)
            time.sleep(1.0)  # let the server accept, refuse or close what it will
            held = (attacker.count("idle"), attacker.count("slow"))
            log(f"connections: the attacker opened {idle} idle + {slow} slowloris connections from {len(sources)} + "
                f"{len(slow_sources)} addresses and still has {held[0]} + {held[1]} open; the server holds "
                f"{open_descriptors(server.pid)} descriptors")
            results = []
            shed_then_retried = []
            descriptors = []
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                status, seconds_taken = legitimate(server, "127.0.0.200")
                if status == 503:
                    # Shed while the server drained the attacker's backlog: a client honours
                    # Retry-After (1 s) and asks again; that answer is the one that counts.
                    shed_then_retried.append(seconds_taken)
                    time.sleep(1.0)
                    status, seconds_taken = legitimate(server, "127.0.0.200")
                results.append((status, seconds_taken))
                descriptors.append(open_descriptors(server.pid))
                time.sleep(0.25)
            attacker_open = attacker.count("idle") + attacker.count("slow")
            attacker.stop.set()
            attacker.join(timeout=30)
            assert server.process.poll() is None, "the server died"
            after = legitimate(server, "127.0.0.200")
            served = [s for status, s in results if status == 200]
            result = {
                "attacker_idle_target": idle, "attacker_slow_target": slow, "attacker_addresses": len(sources),
                "attacker_open_after_ramp": sum(held), "attacker_open_at_end": attacker_open, "attacker_connections_opened": attacker.opened,
                "closed_by_server": attacker.closed_by_server, "slowloris_bytes_sent": attacker.slow_bytes,
                "server_descriptors_max": max(descriptors), "legitimate_requests": len(results),
                "legitimate_200": len(served), "legitimate_statuses": sorted({status for status, _ in results}),
                "legitimate_p50_ms": round(statistics.median(served) * 1000, 1) if served else None,
                "legitimate_max_ms": round(max(served) * 1000, 1) if served else None,
                "after_attack_status": after[0], "shed_once_then_retried": len(shed_then_retried),
            }
            log(f"connections result: {json.dumps(result)}")
            return result
        finally:
            status = server.stop()
            assert status == 0, f"sesame serve exited {status} after SIGTERM:\n{server.tail()}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=int, default=10_000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--addresses", type=int, default=10)
    arguments = parser.parse_args()
    result = run(arguments.idle, arguments.slow, arguments.seconds, arguments.addresses, [])
    assert result["legitimate_requests"] > 0
    assert result["legitimate_200"] == result["legitimate_requests"], (
        f"legitimate requests not served within {LIVENESS} s: {result}")
    assert result["after_attack_status"] == 200, result
    log("connections: every legitimate request was served while the attack went on")


if __name__ == "__main__":
    main()

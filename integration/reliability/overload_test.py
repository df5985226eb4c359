"""Overload at a multiple (default 5×) of the measured maximum rate.

The operation is a password login (the password-realm grant: an Argon2id hash, the most expensive
thing a client can ask for without credentials of its own). First its maximum rate on this machine
is measured closed loop; then requests arrive open loop at `--factor` times that rate, each on a
new connection, from many loopback addresses (127.0.0.2 …), for `--seconds`. The suite checks:

- the server sheds: some answers are 503 (or 429), and every 503/429 carries `Retry-After`;
  nothing else fails (no 500, no other 5xx);
- memory stays bounded: VmRSS sampled from /proc stays under a bound computed from the limits
  (hashes at once × their memory + connections × connection memory + the idle footprint + slack);
- it recovers: one second after the load stops, a normal login is answered 200.
"""

from __future__ import annotations

import argparse
import os
import asyncio
import collections
import json
import pathlib
import statistics
import tempfile
import threading
import time
import urllib.parse

from harness import Server, log, rss_kib
from loadlib import closed_loop, one_shot, request_bytes

CONNECTION = "Username-Password-Authentication"
REALM = "http://auth0.com/oauth/grant-type/password-realm"
PASSWORD = "a long enough pass phrase for overload tests"


def login_payload(server: Server, email: str) -> bytes:
    form = urllib.parse.urlencode({
        "grant_type": REALM, "client_id": server.ids["client_id"], "username": email, "password": PASSWORD,
        "realm": CONNECTION, "scope": "openid",
    }).encode()
    return request_bytes("POST", "/oauth/token", f"localhost:{server.port}", form,
                         "application/x-www-form-urlencoded", keep_alive=True)


def signup(server: Server, email: str) -> None:
    body = json.dumps({"client_id": server.ids["client_id"], "connection": CONNECTION, "email": email,
                       "password": PASSWORD}).encode()
    payload = request_bytes("POST", "/dbconnections/signup", f"localhost:{server.port}", body, "application/json")
    answer = asyncio.run(one_shot(server.port, "127.0.0.1", payload, 30))
    assert answer.status == 200, (answer.status, answer.body[:300])


class RSSSampler(threading.Thread):
    def __init__(self, pid: int, interval: float = 0.05):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.samples: list[int] = []
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            try:
                self.samples.append(rss_kib(self.pid))
            except OSError:
                return
            self.done.wait(self.interval)


def open_loop(server: Server, payloads: list[bytes], rate: float, seconds: float, sources: list[str],
              timeout: float) -> tuple[list, float]:
    """Starts one request every 1/rate s for `seconds`; returns the answers and when it stopped."""
    async def drive():
        tasks = []
        began = time.monotonic()
        sent = 0
        while True:
            now = time.monotonic()
            if now - began >= seconds:
                break
            due = int((now - began) * rate) + 1
            while sent < due:
                tasks.append(asyncio.create_task(one_shot(
                    server.port, sources[sent % len(sources)], payloads[sent % len(payloads)], timeout)))
                sent += 1
            await asyncio.sleep(0.002)
        stopped = time.monotonic()
        # The load stops: whatever is still unanswered is abandoned (its connection closed).
        pending = [task for task in tasks if not task.done()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return [task.result() for task in tasks if not task.cancelled()], len(pending), stopped

    answers, abandoned, stopped = asyncio.run(drive())
    return answers, abandoned, stopped


def run(factor: float, seconds: float, users: int, max_queue_wait: int | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="sesame-overload-") as directory:
        args = ["--rate-limit-per-ip", "0", "--log-level", "warn"]
        if max_queue_wait is not None:
            args += ["--max-queue-wait", str(max_queue_wait)]
        server = Server(pathlib.Path(directory), serve_args=args)
        try:
            server.start()
            emails = [f"load{i}@example.com" for i in range(users)]
            for email in emails:
                signup(server, email)
            payloads = [login_payload(server, email) for email in emails]
            idle_rss = rss_kib(server.pid)

            # 1. The maximum rate, closed loop: 4 keep-alive connections back to back.
            measured = asyncio.run(closed_loop(server.port, "127.0.0.1", payloads[0], 3.0, 4))
            assert measured and all(a.status == 200 for a in measured), (
        collections.Counter(a.status for a in measured), {a.body[:200] for a in measured if a.status != 200})
            max_rate = len(measured) / 3.0
            target = max_rate * factor
            log(f"overload: maximum password-login rate {max_rate:.1f}/s (closed loop, 4 connections); "
                f"driving {target:.1f}/s open loop for {seconds:.0f} s")

            # 2. Open loop at factor × that, a new connection per request, from 40 addresses.
            sampler = RSSSampler(server.pid)
            sampler.start()
            sources = [f"127.0.0.{i}" for i in range(2, 42)]
            load = [p.replace(b"\r\nAccept:", b"\r\nConnection: close\r\nAccept:", 1) for p in payloads]
            answers, abandoned, stopped = open_loop(server, load, target, seconds, sources, timeout=10)

            # 3. Recovery: a login sent one second after the load stopped.
            time.sleep(max(0.0, stopped + 1.0 - time.monotonic()))
            probe = asyncio.run(one_shot(server.port, "127.0.0.250", load[0], 5))
            sampler.done.set()
            sampler.join()
            assert server.process.poll() is None, "the server died under load"

            statuses = collections.Counter(a.status for a in answers)
            shed = [a for a in answers if a.status in (429, 503)]
            served = [a for a in answers if a.status == 200]
            failures = collections.Counter(a.failure for a in answers if a.status == 0)
            peak_rss = max(sampler.samples)
            result = {
                "max_rate": round(max_rate, 1), "offered_rate": round(target, 1),
                "sent": len(answers) + abandoned, "statuses": dict(statuses), "unanswered": dict(failures),
                "abandoned_at_stop": abandoned,
                "shed_without_retry_after": sum(1 for a in shed if not a.retry_after),
                "shed_bodies": sorted({a.body.decode(errors="replace")[:120] for a in shed})[:3],
                "served_per_second": round(len(served) / seconds, 1),
                "served_p50_ms": round(statistics.median(a.seconds for a in served) * 1000) if served else None,
                "shed_p50_ms": round(statistics.median(a.seconds for a in shed) * 1000) if shed else None,
                "idle_rss_mib": round(idle_rss / 1024, 1), "peak_rss_mib": round(peak_rss / 1024, 1),
                "probe_status_1s_after": probe.status, "probe_ms": round(probe.seconds * 1000),
                "max_queue_wait_ms": max_queue_wait if max_queue_wait is not None else 500,
            }
            log(f"overload result: {json.dumps(result)}")
            return result, server
        finally:
            status = server.stop()
            assert status == 0, f"sesame serve exited {status} after SIGTERM:\n{server.tail()}"


def check(result: dict) -> None:
    statuses = result["statuses"]
    bad = {status: count for status, count in statuses.items() if status >= 500 and status != 503}
    assert not bad, f"answers other than 503 in the 5xx range: {bad}"
    shed = statuses.get(503, 0) + statuses.get(429, 0)
    assert shed > 0, f"no request was shed at {result['offered_rate']}/s: {statuses}"
    assert statuses.get(200, 0) > 0, f"nothing was served under load: {statuses}"
    assert result["shed_without_retry_after"] == 0, f"503/429 without Retry-After: {result}"
    # Hashes at once (one per core) × 19 MiB + 1,024 connections × 32 KiB + the idle footprint + 64 MiB.
    bound = result["idle_rss_mib"] + os.cpu_count() * 19 + 1024 * 32 / 1024 + 64
    assert result["peak_rss_mib"] <= bound, f"RSS {result['peak_rss_mib']} MiB over the bound {bound:.0f} MiB"
    assert result["probe_status_1s_after"] == 200, f"not recovered 1 s after the load: {result}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--factor", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--compare-unshed", action="store_true",
                        help="also run with --max-queue-wait 0 and report (not check) what happens")
    arguments = parser.parse_args()
    result, server = run(arguments.factor, arguments.seconds, arguments.users, None)
    check(result)
    log("overload: shed with Retry-After, memory bounded, recovered within a second")
    if arguments.compare_unshed:
        unshed, _ = run(arguments.factor, arguments.seconds, arguments.users, 0)
        log(f"overload without shedding (--max-queue-wait 0), for comparison: {json.dumps(unshed)}")


if __name__ == "__main__":
    main()

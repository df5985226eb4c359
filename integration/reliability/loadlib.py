"""A small asyncio HTTP/1.1 client for the load suites: one request per connection (open loop) or
many on one keep-alive connection (closed loop), from a chosen loopback source address. It parses
only what the suites look at: the status line, `Retry-After` and the body."""

from __future__ import annotations

import asyncio
import dataclasses
import time


@dataclasses.dataclass
class Answer:
    status: int  # 0: no answer (refused, reset, closed or timed out)
    retry_after: str | None
    body: bytes
    seconds: float
    failure: str = ""


def request_bytes(method: str, path: str, host: str, body: bytes = b"", content_type: str = "",
                  keep_alive: bool = False) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Accept: application/json"]
    if body:
        lines += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
    if not keep_alive:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, str | None, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return status, headers.get("retry-after"), body


async def one_shot(port: int, source: str, payload: bytes, timeout: float) -> Answer:
    """Connects from `source`, sends `payload`, reads one answer."""
    began = time.monotonic()
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            writer.write(payload)
            await writer.drain()
            status, retry_after, body = await read_answer(reader)
            return Answer(status, retry_after, body, time.monotonic() - began)
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as error:
        return Answer(0, None, b"", time.monotonic() - began, type(error).__name__)
    except TimeoutError:
        return Answer(0, None, b"", time.monotonic() - began, "timeout")
    finally:
        if writer is not None:
            writer.close()


async def closed_loop(port: int, source: str, payload: bytes, seconds: float, connections: int) -> list[Answer]:
    """`connections` keep-alive connections each sending `payload` back to back for `seconds`."""
    answers: list[Answer] = []
    deadline = time.monotonic() + seconds

    async def run_one():
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        try:
            while time.monotonic() < deadline:
                began = time.monotonic()
                writer.write(payload)
                await writer.drain()
                status, retry_after, body = await read_answer(reader)
                answers.append(Answer(status, retry_after, body, time.monotonic() - began))
        finally:
            writer.close()

    await asyncio.gather(*(run_one() for _ in range(connections)))
    return answers

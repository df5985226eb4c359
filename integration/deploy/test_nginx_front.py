"""The documented nginx front (deploy/nginx, docs/deployment.md) in front of `sesame serve`: it
passes the API through with the client's address, keeps /metrics private, refuses what Sesame
should never see (ambiguous Host headers), and cuts off slow clients itself."""

import json
import socket

import requests


def raw(front, data: bytes, source: str = "127.0.0.1", timeout: float = 30) -> bytes:
    """Sends raw bytes to nginx from `source` and returns everything it answers until it closes."""
    with socket.create_connection(("127.0.0.1", front.port), timeout=timeout, source_address=(source, 0)) as s:
        s.sendall(data)
        answer = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
        return answer


def test_the_api_passes_through(front):
    discovery = requests.get(f"{front.url}/.well-known/openid-configuration", timeout=10)
    assert discovery.status_code == 200
    assert discovery.json()["issuer"] == front.url + "/"
    assert discovery.headers["X-Content-Type-Options"] == "nosniff"
    challenge = requests.post(
        f"{front.url}/passkey/register",
        json={"client_id": front.client_id, "user_profile": {"email": "ada@example.com"}}, timeout=10)
    assert challenge.status_code == 200, challenge.text
    assert challenge.json()["auth_session"]


def test_sesame_sees_the_clients_address(front):
    answer = raw(front, b"GET /.well-known/jwks.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                 source="127.0.0.2")
    assert answer.startswith(b"HTTP/1.1 200")
    request_id = [line.split(b":", 1)[1].strip().decode() for line in answer.split(b"\r\n")
                  if line.lower().startswith(b"x-request-id:")][0]
    # nginx's request id reached Sesame (a trusted proxy's), and so did the client's address.
    entries = [json.loads(line) for line in front.log.read_text().splitlines() if line.startswith("{")]
    entry = next(e for e in entries if e.get("request_id") == request_id)
    assert entry["client_ip"] == "127.0.0.2"
    assert entry["route"] == "/.well-known/jwks.json"


def test_metrics_are_not_reachable_through_the_proxy(front):
    assert requests.get(f"{front.url}/metrics", timeout=10).status_code == 404


def test_ambiguous_host_headers_never_reach_sesame(front):
    twice = raw(front, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    assert twice.startswith(b"HTTP/1.1 400"), twice[:100]
    nul = raw(front, b"GET /healthz HTTP/1.1\r\nHost: localhost\x00evil\r\nConnection: close\r\n\r\n")
    assert nul.startswith(b"HTTP/1.1 400"), nul[:100]
    missing = raw(front, b"GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert missing.startswith(b"HTTP/1.1 400"), missing[:100]


def test_a_slow_client_is_cut_off_by_nginx(front):
    # Half a request head, then nothing: nginx ends it at client_header_timeout (10 s) on its own
    # (raw() raises if the connection is still open after 60 s).
    answer = raw(front, b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ", timeout=60)
    assert not answer.startswith(b"HTTP/1.1 200")

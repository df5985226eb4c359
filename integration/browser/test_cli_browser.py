"""End-to-end check of `sesame inspect` and `sesame verify` on responses made by a real browser.

Debian's Chromium, driven headless by Selenium through Debian's chromedriver, runs WebAuthn
ceremonies against a CDP virtual authenticator (CTAP2, internal transport, resident keys, user
verification). The page is static and is served on 127.0.0.1; its origin is http://localhost:PORT,
which is a secure context. Challenges are made here and injected with execute_async_script. Each
response is written to a file and given to the sesame binary named by $SESAME_BIN.

Nothing here touches the network beyond loopback: Selenium is given the chromedriver and Chromium
paths, so Selenium Manager has nothing to look up or download.
"""

import base64
import functools
import http.server
import json
import os
import pathlib
import secrets
import signal
import subprocess
import sys
import threading

import pytest



_stopping = threading.Event()


def _interrupt(signum, frame):
    _stopping.set()
    raise KeyboardInterrupt(f"signal {signum}")


# `timeout` stops a hung run with SIGTERM: make it an interrupt so pytest still runs the fixture
# teardowns that quit Chromium and stop the page server.
signal.signal(signal.SIGTERM, _interrupt)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import chromium  # noqa: E402  (sets Selenium offline before anything imports it)

HERE = pathlib.Path(__file__).resolve().parent
SESAME_BIN = os.environ.get("SESAME_BIN", str(HERE.parent.parent / ".build" / "debug" / "sesame"))

STEP_TIMEOUT = 20  # seconds: each script call, page load and sesame run
ES256, RS256 = -7, -257


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def fresh_challenge() -> str:
    return b64url(secrets.token_bytes(32))


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature fixed by the base class
        pass


@pytest.fixture(scope="module")
def origin():
    """Serves this directory on 127.0.0.1 with a free port; yields the page origin."""
    handler = functools.partial(QuietHandler, directory=str(HERE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="page-server", daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=STEP_TIMEOUT)


@pytest.fixture(scope="module")
def driver(origin):
    browser = chromium.start(STEP_TIMEOUT)
    try:
        browser.get(f"{origin}/page.html")
        assert browser.execute_script("return window.sesameReady === true && window.isSecureContext")
        browser.execute_cdp_cmd("WebAuthn.enable", {})
        yield browser
    finally:
        browser.quit()


@pytest.fixture
def authenticator(driver):
    """A fresh virtual platform authenticator per test, so discoverable requests see one credential."""
    # After SIGTERM chromedriver may already be gone; otherwise a failed removal is an error.
    with chromium.virtual_authenticator(driver, tolerate_removal_errors=_stopping.is_set) as authenticator_id:
        yield authenticator_id


def run_in_page(driver, function: str, options: dict) -> tuple[dict, dict]:
    """Calls window.<function>(options); returns the credential's WebAuthn JSON twice: the browser's
    own toJSON() form (the hand-built one when this Chromium lacks toJSON) and the hand-built form."""
    outcome = driver.execute_async_script(
        f"window.{function}(arguments[0], arguments[arguments.length - 1]);", options
    )
    assert outcome["ok"], f"{function} failed in the browser: {outcome['name']}: {outcome['message']}"
    manual, native = outcome["manual"], outcome["native"]
    if native is None:
        return manual, manual
    # The hand-built form must carry exactly the bytes the browser serialised.
    assert manual["id"] == native["id"] and manual["rawId"] == native["rawId"]
    for key, value in manual["response"].items():
        if key != "userHandle" or value is not None:
            assert native["response"][key] == value, key
    return native, manual


def sesame(*arguments: str) -> tuple[int, dict]:
    completed = subprocess.run(
        [SESAME_BIN, *arguments], capture_output=True, text=True, timeout=STEP_TIMEOUT, check=False
    )
    assert completed.returncode in (0, 1), (
        f"sesame {' '.join(arguments)} exited {completed.returncode}: {completed.stderr}"
    )
    output = completed.stdout.strip() or completed.stderr.strip()
    try:
        return completed.returncode, json.loads(output)
    except json.JSONDecodeError:
        pytest.fail(f"sesame {' '.join(arguments)} printed no JSON:\n{completed.stdout}\n{completed.stderr}")


def write_json(tmp_path: pathlib.Path, name: str, value: dict) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value, indent=2))
    return str(path)


def register(driver, origin, tmp_path, attestation: str, algorithms=(ES256, RS256), user_id=None):
    challenge = fresh_challenge()
    credential, manual = run_in_page(
        driver,
        "sesameCreate",
        {
            "rp": {"id": "localhost", "name": "Sesame browser test"},
            "user": {"id": user_id or b64url(secrets.token_bytes(16)), "name": "alice", "displayName": "Alice"},
            "challenge": challenge,
            "pubKeyCredParams": [{"type": "public-key", "alg": alg} for alg in algorithms],
            "authenticatorSelection": {"residentKey": "required", "userVerification": "required"},
            "attestation": attestation,
            "timeout": STEP_TIMEOUT * 1000,
        },
    )
    path = write_json(tmp_path, f"registration-{attestation}.json", credential)
    status, summary = sesame(
        "verify", "registration", "--rp-id", "localhost", "--origin", origin, "--challenge", challenge, path
    )
    assert status == 0, summary
    assert summary["credential_id"] == credential["id"]
    # The hand-built serialisation (the fallback for browsers without toJSON) verifies the same way.
    manual_path = write_json(tmp_path, f"registration-{attestation}-manual.json", manual)
    assert sesame(
        "verify", "registration", "--rp-id", "localhost", "--origin", origin, "--challenge", challenge, manual_path
    ) == (0, summary)
    return credential, challenge, path, summary


def authenticate(driver, origin, tmp_path, name: str, allow: list[str]):
    challenge = fresh_challenge()
    options = {
        "rpId": "localhost",
        "challenge": challenge,
        "userVerification": "required",
        "timeout": STEP_TIMEOUT * 1000,
    }
    if allow:
        options["allowCredentials"] = [{"type": "public-key", "id": credential_id} for credential_id in allow]
    assertion, manual = run_in_page(driver, "sesameGet", options)
    write_json(tmp_path, name.replace(".json", "-manual.json"), manual)
    return assertion, challenge, write_json(tmp_path, name, assertion)


def verify_assertion(origin, challenge, public_key, sign_count, path):
    return sesame(
        "verify", "authentication", "--rp-id", "localhost", "--origin", origin, "--challenge", challenge,
        "--public-key", public_key, "--sign-count", str(sign_count), path,
    )


# Chromium's virtual authenticator signs packed attestation with its "Batch Certificate": basic.
@pytest.mark.parametrize(
    ("attestation", "fmt", "attestation_type"),
    [("none", "none", "none"), ("direct", "packed", "basic")],
)
def test_registration_verifies_and_inspects(driver, authenticator, origin, tmp_path, attestation, fmt, attestation_type):
    credential, challenge, path, summary = register(driver, origin, tmp_path, attestation)
    assert (summary["fmt"], summary["attestation_type"]) == (fmt, attestation_type)
    assert summary["public_key"] and isinstance(summary["sign_count"], int)
    assert summary["backup_eligible"] is False and summary["backup_state"] is False

    status, breakdown = sesame("inspect", path, "--json")
    assert status == 0, breakdown
    assert breakdown["kind"] == "registration"
    assert breakdown["client_data"]["type"] == "webauthn.create"
    assert breakdown["client_data"]["challenge"] == challenge
    assert breakdown["client_data"]["origin"] == origin
    flags = breakdown["authenticator_data"]["flags"]
    assert flags["user_present"] and flags["user_verified"] and flags["attested_credential_data"]
    public_key = breakdown["authenticator_data"]["attested_credential_data"]["public_key"]
    assert (public_key["alg"], public_key["cose"]) == ("ES256", summary["public_key"])
    attested = breakdown["attestation"]
    assert (attested["fmt"], attested["verified"], attested["type"]) == (fmt, True, attestation_type)
    assert len(attested["certificates"]) == (1 if fmt == "packed" else 0)

    # The same response under a challenge the server never issued must fail the challenge check.
    status, failure = sesame(
        "verify", "registration", "--rp-id", "localhost", "--origin", origin, "--challenge", fresh_challenge(), path
    )
    assert (status, failure["check"]) == (1, "challenge"), failure


def test_rs256_registration_and_assertion(driver, authenticator, origin, tmp_path):
    credential, _, _, summary = register(driver, origin, tmp_path, "none", algorithms=(RS256,))
    status, breakdown = sesame("inspect", "--json", write_json(tmp_path, "rs256.json", credential))
    assert status == 0, breakdown
    public_key = breakdown["authenticator_data"]["attested_credential_data"]["public_key"]
    assert (public_key["kty"], public_key["alg"], public_key["cose"]) == ("RSA", "RS256", summary["public_key"])
    assertion, challenge, path = authenticate(driver, origin, tmp_path, "rs256-assertion.json", [credential["id"]])
    status, result = verify_assertion(origin, challenge, summary["public_key"], summary["sign_count"], path)
    assert status == 0, result
    assert result["sign_count"] > summary["sign_count"]


def test_assertions_verify_and_counter_advances(driver, authenticator, origin, tmp_path):
    user_id = b64url(secrets.token_bytes(16))
    credential, _, _, registration = register(driver, origin, tmp_path, "direct", user_id=user_id)
    public_key, sign_count = registration["public_key"], registration["sign_count"]

    for name, allow in (("allow-list", [credential["id"]]), ("discoverable", [])):
        assertion, challenge, path = authenticate(driver, origin, tmp_path, f"assertion-{name}.json", allow)
        assert assertion["id"] == credential["id"]
        if not allow:
            assert assertion["response"]["userHandle"] == user_id, "a discoverable assertion names its user"

        status, breakdown = sesame("inspect", "--json", path)
        assert status == 0, breakdown
        assert breakdown["kind"] == "authentication"
        assert breakdown["client_data"]["type"] == "webauthn.get"
        assert breakdown["client_data"]["challenge"] == challenge

        status, result = verify_assertion(origin, challenge, public_key, sign_count, path)
        assert status == 0, (name, result)
        manual_path = path.replace(".json", "-manual.json")
        assert verify_assertion(origin, challenge, public_key, sign_count, manual_path) == (0, result)
        assert result["credential_id"] == credential["id"]
        assert result["user_present"] is True and result["user_verified"] is True
        assert result["sign_count"] > sign_count, (name, result["sign_count"], sign_count)
        sign_count = result["sign_count"]

        # Replaying the assertion against the counter it produced must fail.
        status, failure = verify_assertion(origin, challenge, public_key, sign_count, path)
        assert (status, failure["check"]) == (1, "sign_count"), failure

    # Negative: the last assertion, each time with exactly one input wrong.
    status, failure = verify_assertion(origin, fresh_challenge(), public_key, sign_count - 1, path)
    assert (status, failure["check"]) == (1, "challenge"), failure

    status, failure = sesame(
        "verify", "authentication", "--rp-id", "localhost", "--origin", "http://localhost:1",
        "--challenge", challenge, "--public-key", public_key, "--sign-count", str(sign_count - 1), path,
    )
    assert (status, failure["check"]) == (1, "origin"), failure

    # And with the original inputs it still passes, so the failures above came from the one change.
    status, result = verify_assertion(origin, challenge, public_key, sign_count - 1, path)
    assert status == 0, result

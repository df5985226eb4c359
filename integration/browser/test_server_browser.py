"""End-to-end check of `sesame serve` with a real browser.

`sesame init` makes a data directory in a temporary directory, `sesame serve` serves it on a free
127.0.0.1 port with the public URL http://localhost:PORT (a secure context whose RP ID is
`localhost`), and Debian's headless Chromium opens the server's own landing page. Its demo client
(`window.sesameDemo`) runs navigator.credentials.create()/get() against a CDP virtual authenticator
and the native passkey API (/passkey/register, /passkey/challenge, /oauth/token); this test checks
the tokens it gets back. The server is stopped with SIGTERM at the end.

Nothing here touches the network beyond loopback: Selenium is given the chromedriver and Chromium
paths, so Selenium Manager has nothing to look up or download.
"""

import base64
import json
import pathlib
import signal
import sys
import time
import urllib.request

import pytest

def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


# `timeout` stops a hung run with SIGTERM: make it an interrupt so pytest still runs the fixture
# teardowns that quit Chromium and stop the server (unless test_cli_browser.py already did).
if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
    signal.signal(signal.SIGTERM, _interrupt)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import chromium  # noqa: E402  (sets Selenium offline before anything imports it)
from sesame_process import running_server  # noqa: E402

STEP_TIMEOUT = 20  # seconds: each script call, page load, HTTP call and sesame run
# The demo asks for the server's own timeout (60 s); a ceremony that can never finish must end
# well before the script timeout we give it.
CEREMONY_TIMEOUT = 90

_no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _get(url: str) -> tuple[int, bytes]:
    try:
        with _no_proxy.open(url, timeout=STEP_TIMEOUT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`sesame init --json` then `sesame serve` on a free loopback port; yields (url, init ids)."""
    with running_server(tmp_path_factory.mktemp("sesame-serve"), STEP_TIMEOUT) as (url, ids, _log):
        yield url, ids


@pytest.fixture(scope="module")
def driver(server):
    url, ids = server
    browser = chromium.start(STEP_TIMEOUT)
    try:
        browser.get(f"{url}/")
        assert browser.execute_script("return window.isSecureContext && typeof window.sesameDemo === 'object'")
        # The landing page offers the native client that init created as its demo client.
        demo_client = browser.execute_script("return document.getElementById('demo').dataset.clientId")
        assert demo_client == ids["client_id"], (demo_client, ids)
        browser.execute_cdp_cmd("WebAuthn.enable", {})
        yield browser
    finally:
        browser.quit()


@pytest.fixture
def authenticator(driver):
    """A fresh virtual platform authenticator per test, so discoverable requests see its credentials only."""
    with chromium.virtual_authenticator(driver) as authenticator_id:
        yield authenticator_id


def demo(driver, call: str, *arguments, timeout: int = STEP_TIMEOUT) -> dict:
    """Runs window.sesameDemo.<call>(...) in the page; returns {"ok", "value"} or {"ok": false, "name", "message"}."""
    driver.set_script_timeout(timeout)
    try:
        return driver.execute_async_script(
            f"""
            const done = arguments[arguments.length - 1];
            window.sesameDemo.{call}(...Array.from(arguments).slice(0, -1)).then(
              value => done({{ ok: true, value }}),
              error => done({{ ok: false, name: String(error && error.name), message: String(error && error.message) }}));
            """,
            *arguments,
        )
    finally:
        driver.set_script_timeout(STEP_TIMEOUT)


def jwt_payload(token: str) -> dict:
    parts = token.split(".")
    assert len(parts) == 3, token
    return json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))


def check_tokens(tokens: dict, url: str, client_id: str, email: str) -> dict:
    assert tokens["token_type"] == "Bearer" and tokens["access_token"] and tokens["id_token"], tokens
    claims = jwt_payload(tokens["id_token"])
    assert claims["iss"] == f"{url}/", claims
    assert claims["aud"] == client_id or client_id in claims["aud"], claims
    assert claims["email"] == email, claims
    assert isinstance(claims["sub"], str) and claims["sub"], claims
    assert claims["exp"] > time.time(), claims
    return claims


def test_signup_then_discoverable_and_allow_list_logins(server, driver, authenticator):
    url, ids = server
    email = "browser.user@example.com"

    signup = demo(driver, "signup", email)
    assert signup["ok"], f"signup failed in the browser: {signup}"
    credential_id = signup["value"]["credentialId"]
    claims = check_tokens(signup["value"]["tokens"], url, ids["client_id"], email)
    assert signup["value"]["tokens"].get("refresh_token"), "signup asked for offline_access"
    credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"], credentials

    # Discoverable: no allowCredentials, the authenticator offers its one passkey for localhost.
    login = demo(driver, "login")
    assert login["ok"], f"discoverable login failed in the browser: {login}"
    assert login["value"]["credentialId"] == credential_id
    assert check_tokens(login["value"]["tokens"], url, ids["client_id"], email)["sub"] == claims["sub"]

    # With allowCredentials naming the passkey.
    login = demo(driver, "login", credential_id)
    assert login["ok"], f"allow-list login failed in the browser: {login}"
    assert login["value"]["credentialId"] == credential_id
    assert check_tokens(login["value"]["tokens"], url, ids["client_id"], email)["sub"] == claims["sub"]

    # The same email cannot sign up twice (the server refuses before any ceremony).
    again = demo(driver, "signup", email)
    assert not again["ok"] and "invalid_request" in again["message"], again


def test_login_without_a_usable_authenticator_is_a_rejected_promise(server, driver, authenticator):
    url, ids = server
    email = "no.authenticator@example.com"
    signup = demo(driver, "signup", email)
    assert signup["ok"], f"signup failed in the browser: {signup}"
    credential_id = signup["value"]["credentialId"]
    driver.execute_cdp_cmd("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": authenticator})

    # No authenticator at all: Chromium waits out the timeout the server asked for (60 s), then
    # rejects; the demo's promise must reject too, not hang.
    outcome = demo(driver, "login", credential_id, timeout=CEREMONY_TIMEOUT)
    assert (outcome["ok"], outcome["name"]) == (False, "NotAllowedError"), outcome

    with chromium.virtual_authenticator(driver, tolerate_removal_errors=lambda: False):
        # An authenticator without the passkey rejects at once, with and without allowCredentials.
        for arguments in ((credential_id,), ()):
            outcome = demo(driver, "login", *arguments)
            assert (outcome["ok"], outcome["name"]) == (False, "NotAllowedError"), (arguments, outcome)

        # The page is still usable: the new authenticator signs up and logs in.
        other = "after.removal@example.com"
        fresh = demo(driver, "signup", other)
        assert fresh["ok"], fresh
        subject = check_tokens(fresh["value"]["tokens"], url, ids["client_id"], other)["sub"]
        login = demo(driver, "login")
        assert login["ok"], login
        assert check_tokens(login["value"]["tokens"], url, ids["client_id"], other)["sub"] == subject

"""Account security upgrades on the hosted pages (issue 13), in real Chromium.

A password user whose password is breached (Auth0's `AUTH0-TEST-` prefix, once breached-password
detection is on; each user signs up before it is switched on, since signup refuses a breached
password) signs in on the hosted login. Right after the password the "Account security" page offers
a passkey in the password's place (a CDP virtual authenticator creates it) and a strong password
under the connection's `passwordrules`; "Not now" continues to the app. The account page has the
same two upgrades, and Sign in with Apple once there is an Apple connection: `sesame-fake-apple`
(built next to `sesame`) plays Apple's web sign-in on loopback, and its page posts back to
/u/apple/callback. Afterwards the password-realm grant refuses the old password ("Wrong email or
password." after a strong password, "This account signs in with a passkey." after a passkey, "This
account signs in with Apple." after Sign in with Apple).
authlib (PyPI) plays the web application, as in test_hosted_pages.py. Screenshots go to
.build/browser-artifacts/upgrades/.
"""

import contextlib
import functools
import os
import pathlib
import re
import subprocess
import sys
import time
import urllib.parse

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import hosted_flow  # noqa: E402  (first: SIGTERM stops the run cleanly, and Selenium is set offline)
from hosted_flow import (  # noqa: E402
    CONNECTION, STEP_TIMEOUT, RelyingParty, describe, http, management_headers, password_user, wait_page,
    without_conditional_mediation)
from sesame_process import ROOT, SESAME_BIN, running_server, stop  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# authlib 1.x warns that its jose module will become joserfc; it is still the documented client.
pytestmark = pytest.mark.filterwarnings("ignore:authlib.jose module is deprecated")

ARTIFACTS = ROOT / ".build" / "browser-artifacts" / "upgrades"
BREACHED = "AUTH0-TEST-horse battery staple"  # breached by Auth0's test prefix, and meets the rules
STRONG = "a brand new passphrase, 42 long"
FAKE_APPLE_BIN = str(pathlib.Path(SESAME_BIN).resolve().parent / "sesame-fake-apple")
APPLE_TEAM, APPLE_KEY = "TEAM123456", "KEY1234567"
APPLE_BUNDLE, APPLE_SERVICES_ID = "com.example.sesame", "com.example.sesame.web"
shot = functools.partial(hosted_flow.shot, ARTIFACTS)
driver, authenticator = hosted_flow.browser_fixtures(ARTIFACTS, server_first=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("sesame-upgrades"), STEP_TIMEOUT) as (url, ids, _log):
        yield url, ids


@pytest.fixture(scope="module")
def metadata(server):
    url, _ = server
    return http.get(f"{url}/.well-known/openid-configuration", timeout=STEP_TIMEOUT).json()


@pytest.fixture(scope="module")
def management(server):
    url, ids = server
    return management_headers(url, ids)


def breached_user(server, management, email):
    """Signs `email` up with BREACHED while detection is off, then switches detection on."""
    url, ids = server
    detection = f"{url}/api/v2/attack-protection/breached-password-detection"
    off = http.patch(detection, json={"enabled": False}, headers=management, timeout=STEP_TIMEOUT)
    assert off.status_code == 200, off.text
    password_user(url, ids, email, BREACHED)
    on = http.patch(detection, json={"enabled": True}, headers=management, timeout=STEP_TIMEOUT)
    assert on.status_code == 200 and on.json()["enabled"] is True, on.text


def password_grant(server, email, password):
    url, ids = server
    return http.post(f"{url}/oauth/token", data={
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": ids["client_id"],
        "username": email, "password": password, "realm": CONNECTION, "scope": "openid"}, timeout=STEP_TIMEOUT)


def password_sign_in(driver, rp, email, password):
    """The hosted login's identifier and password steps, up to the upgrade page."""
    rp.begin(driver, login_hint=email, prompt="login")
    wait_page(driver, "login")
    field = driver.find_element(By.ID, "username")
    assert field.get_attribute("value") == email
    field.send_keys(Keys.ENTER)
    wait_page(driver, "password")
    driver.find_element(By.ID, "password").send_keys(password + Keys.ENTER)
    wait_page(driver, "enroll")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Account security", describe(driver)


def passkey_button_sign_in(driver):
    """The login page's passkey button, once it shows."""
    wait_page(driver, "login")
    button = driver.find_element(By.ID, "passkey-button")
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: button.is_displayed())
    return button


def test_a_breached_password_is_replaced_by_a_strong_one_on_the_upgrade_page(
        server, metadata, management, driver, authenticator):
    url, ids = server
    email = "breached.strong@example.com"
    breached_user(server, management, email)
    connections = http.get(f"{url}/api/v2/connections", headers=management, timeout=STEP_TIMEOUT).json()
    rules = next(c for c in connections if c["name"] == CONNECTION)["options"]["password_policy"]["rules"]

    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    password_sign_in(driver, rp, email, BREACHED)
    shot(driver, "upgrade-page-breached-en")
    assert "appeared in a data breach" in driver.find_element(By.CSS_SELECTOR, "main .lead").text
    passkey = driver.find_element(By.ID, "passkey-button")
    assert passkey.is_displayed() and passkey.text == "Replace my password with a passkey"
    form = driver.find_element(By.ID, "upgrade-password-form")
    assert form.get_attribute("action") == f"{url}/u/upgrade/password"
    field = driver.find_element(By.ID, "new-password")
    assert field.get_attribute("passwordrules") == rules
    assert field.get_attribute("autocomplete") == "new-password"
    assert driver.find_element(By.ID, "upgrade-later").is_displayed()

    field.send_keys(STRONG)
    driver.find_element(By.ID, "upgrade-password-button").click()
    claims = rp.finish(driver)
    assert claims["email"] == email

    old = password_grant(server, email, BREACHED)
    assert old.status_code == 403, old.text
    assert old.json()["error"] == "invalid_grant" and old.json()["error_description"] == "Wrong email or password."
    new = password_grant(server, email, STRONG)
    assert new.status_code == 200, new.text
    assert new.json().get("password_status") in (None, "ok"), new.text


def test_a_breached_password_is_replaced_by_a_passkey_on_the_upgrade_page(
        server, metadata, management, driver, authenticator):
    url, ids = server
    email = "breached.passkey@example.com"
    breached_user(server, management, email)

    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    password_sign_in(driver, rp, email, BREACHED)
    shot(driver, "upgrade-page-passkey-en")
    driver.find_element(By.ID, "passkey-button").click()
    claims = rp.finish(driver)
    subject = claims["sub"]
    credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1, credentials

    old = password_grant(server, email, BREACHED)
    assert old.status_code == 403, old.text
    assert old.json()["error"] == "invalid_grant", old.text
    assert old.json()["error_description"] == "This account signs in with a passkey.", old.text

    # The passkey signs in on the hosted login.
    driver.delete_all_cookies()
    script = without_conditional_mediation(driver)
    try:
        rp.begin(driver, prompt="login")
        button = passkey_button_sign_in(driver)
        shot(driver, "login-after-passkey-upgrade-en")
        button.click()
        again = rp.finish(driver)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    assert again["sub"] == subject and again["email"] == email


def test_the_account_page_upgrades_to_a_strong_password(server, metadata, management, driver, authenticator):
    url, ids = server
    email = "account.strong@example.com"
    breached_user(server, management, email)

    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    password_sign_in(driver, rp, email, BREACHED)
    driver.find_element(By.ID, "upgrade-later").click()
    assert rp.finish(driver)["email"] == email

    driver.get(f"{url}/account")
    wait_page(driver, "account")
    section = driver.find_element(By.ID, "upgrades")
    assert section.find_element(By.ID, "upgrade-passkey").get_attribute("href") == f"{url}/account/upgrade/passkey"
    assert section.find_element(By.ID, "upgrade-password").get_attribute("href") == f"{url}/account/upgrade/password"
    shot(driver, "account-upgrades-en")

    section.find_element(By.ID, "upgrade-password").click()
    wait_page(driver, "account-password")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Choose a strong password"
    assert not driver.find_elements(By.ID, "current"), "the fresh sign-in authorizes it, not the current password"
    field = driver.find_element(By.ID, "password")
    assert field.get_attribute("passwordrules").startswith("minlength: 12")
    shot(driver, "account-upgrade-password-en")
    field.send_keys(STRONG)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(field))
    wait_page(driver, "account")
    assert driver.current_url == f"{url}/account?done=upgraded", describe(driver)
    assert driver.find_element(By.CSS_SELECTOR, "p.notice").text == "Your account is safer now."
    shot(driver, "account-upgraded-password-en")

    new = password_grant(server, email, STRONG)
    assert new.status_code == 200, new.text
    old = password_grant(server, email, BREACHED)
    assert old.status_code == 403 and old.json()["error_description"] == "Wrong email or password.", old.text


def test_the_account_page_replaces_the_password_with_a_passkey(server, metadata, management, driver, authenticator):
    url, ids = server
    email = "account.passkey@example.com"
    breached_user(server, management, email)

    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    password_sign_in(driver, rp, email, BREACHED)
    driver.find_element(By.ID, "upgrade-later").click()
    assert rp.finish(driver)["email"] == email

    driver.get(f"{url}/account")
    wait_page(driver, "account")
    driver.find_element(By.ID, "upgrade-passkey").click()
    wait_page(driver, "enroll")
    assert driver.current_url == f"{url}/account/upgrade/passkey", describe(driver)
    assert driver.find_element(By.TAG_NAME, "h1").text == "Replace my password with a passkey"
    shot(driver, "account-upgrade-passkey-en")

    # The upgrade ends every session, this one too: the browser signs in again, with the passkey.
    script = without_conditional_mediation(driver)
    try:
        driver.find_element(By.ID, "passkey-button").click()
        button = passkey_button_sign_in(driver)
        assert "/u/login?tx=" in driver.current_url, describe(driver)
        shot(driver, "account-upgrade-passkey-sign-in-again-en")
        credentials = driver.execute_cdp_cmd(
            "WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        assert len(credentials) == 1, credentials
        button.click()
        wait_page(driver, "account")
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    assert driver.current_url == f"{url}/account", describe(driver)
    assert driver.find_element(By.ID, "password-replaced").text == "Replaced by a passkey"
    assert not driver.find_elements(By.ID, "upgrades"), "a replaced password has nothing to upgrade"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#passkeys .passkey")) == 1
    shot(driver, "account-password-replaced-en")

    old = password_grant(server, email, BREACHED)
    assert old.status_code == 403, old.text
    assert old.json()["error_description"] == "This account signs in with a passkey.", old.text


@contextlib.contextmanager
def fake_apple(root):
    """`sesame-fake-apple serve` on a free 127.0.0.1 port with a new .p8 registered; yields the
    .p8's PEM text and the URLs it printed (issuer, jwks_uri, token_endpoint,
    authorization_endpoint). Stopped with SIGTERM afterwards."""
    assert os.access(FAKE_APPLE_BIN, os.X_OK), f"{FAKE_APPLE_BIN} is missing: swift build --product sesame-fake-apple"
    p8 = root / "AuthKey.p8"
    made = subprocess.run([FAKE_APPLE_BIN, "p8", "--out", str(p8)], capture_output=True, text=True,
                          timeout=STEP_TIMEOUT, check=False)
    assert made.returncode == 0, made.stderr
    log = root / "fake-apple.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [FAKE_APPLE_BIN, "serve", "--state", str(root / "state"), "--port", "0", "--team-id", APPLE_TEAM,
             "--key-id", APPLE_KEY, "--p8", str(p8)],
            stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        urls = {}
        deadline = time.monotonic() + STEP_TIMEOUT
        while "authorization_endpoint" not in urls and time.monotonic() < deadline and process.poll() is None:
            urls = dict(re.findall(r"^\s+(issuer|jwks_uri|token_endpoint|authorization_endpoint)\s+(\S+)$",
                                   log.read_text(errors="replace"), re.MULTILINE))
            time.sleep(0.05)
        assert "authorization_endpoint" in urls, f"sesame-fake-apple did not start:\n{log.read_text(errors='replace')}"
        assert re.search(r"^listening on http://127\.0\.0\.1:\d+$", log.read_text(), re.MULTILINE)
        yield p8.read_text(), urls, log
    finally:
        stop(process, STEP_TIMEOUT)
        assert process.returncode == 0, f"sesame-fake-apple exited {process.returncode} after SIGTERM"


def test_the_account_page_replaces_the_password_with_sign_in_with_apple(
        server, metadata, management, driver, tmp_path):
    url, ids = server
    email = "account.apple@example.com"
    subject = "001234.browser.apple.user"
    with fake_apple(tmp_path) as (p8, apple, log):
        # The browser reaches only localhost (chromium.ARGUMENTS maps every other host, 127.0.0.1
        # too, to NOTFOUND), so the page it is sent to names the fake by localhost; Sesame itself
        # fetches the keys and redeems the code at the 127.0.0.1 URLs the fake printed.
        authorize = apple["authorization_endpoint"].replace("http://127.0.0.1:", "http://localhost:", 1)
        assert authorize.startswith("http://localhost:"), apple
        created = http.post(f"{url}/api/v2/connections", headers=management, timeout=STEP_TIMEOUT, json={
            "name": "apple", "strategy": "apple", "options": {
                "team_id": APPLE_TEAM, "kid": APPLE_KEY, "app_id": [APPLE_BUNDLE], "client_id": APPLE_SERVICES_ID,
                "app_secret": p8, "issuer": "https://appleid.apple.com", "jwks_uri": apple["jwks_uri"],
                "token_endpoint": apple["token_endpoint"],
                "authorization_endpoint": authorize}})
        assert created.status_code in (200, 201), created.text
        assert "app_secret" not in created.json().get("options", {}), "the .p8 is never returned"
        breached_user(server, management, email)

        driver.delete_all_cookies()
        rp = RelyingParty(url, ids["client_id"], metadata)
        password_sign_in(driver, rp, email, BREACHED)
        driver.find_element(By.ID, "upgrade-later").click()
        claims = rp.finish(driver)
        assert claims["email"] == email

        driver.get(f"{url}/account")
        wait_page(driver, "account")
        link = driver.find_element(By.ID, "upgrade-apple")
        assert link.get_attribute("href") == f"{url}/account/upgrade/apple", describe(driver)
        shot(driver, "account-upgrades-apple-en")

        link.click()
        WebDriverWait(driver, STEP_TIMEOUT).until(
            lambda d: d.current_url.startswith(authorize + "?")
            and d.execute_script("return document.readyState") == "complete")
        assert driver.find_element(By.TAG_NAME, "h1").text == "Sign in with Apple (fake)", describe(driver)
        assert f"client_id={APPLE_SERVICES_ID}" in driver.current_url, driver.current_url
        sub = driver.find_element(By.ID, "fake-apple-sub")
        sub.clear()
        sub.send_keys(subject)
        address = driver.find_element(By.ID, "fake-apple-email")
        address.clear()
        address.send_keys("apple.browser@privaterelay.appleid.com")
        shot(driver, "fake-apple-sign-in")
        driver.find_element(By.ID, "fake-apple-continue").click()

        # The fake's page posts code, id_token and state to /u/apple/callback, which redirects.
        WebDriverWait(driver, STEP_TIMEOUT).until(
            lambda d: d.current_url.startswith(url) and d.execute_script("return document.readyState") == "complete")
        assert driver.current_url == f"{url}/account?done=upgraded", \
            f"{describe(driver)}\nfake-apple:\n{log.read_text(errors='replace')}"
        wait_page(driver, "account")
        assert driver.find_element(By.CSS_SELECTOR, "p.notice").text == "Your account is safer now."
        assert driver.find_element(By.ID, "password-replaced").text == "Replaced by Sign in with Apple"
        assert not driver.find_elements(By.ID, "upgrades"), "a replaced password has nothing to upgrade"
        shot(driver, "account-password-replaced-apple-en")
        assert re.search(rf"POST /auth/token grant_type=authorization_code client_id={re.escape(APPLE_SERVICES_ID)}"
                         r" → 200", log.read_text()), log.read_text()

    old = password_grant(server, email, BREACHED)
    assert old.status_code == 403, old.text
    assert old.json()["error"] == "invalid_grant", old.text
    assert old.json()["error_description"] == "This account signs in with Apple.", old.text

    user = http.get(f"{url}/api/v2/users/{urllib.parse.quote(claims['sub'], safe='')}", headers=management, timeout=STEP_TIMEOUT)
    assert user.status_code == 200, user.text
    linked = [i for i in user.json()["identities"] if i["provider"] == "apple"]
    assert len(linked) == 1 and linked[0]["user_id"] == subject, user.text

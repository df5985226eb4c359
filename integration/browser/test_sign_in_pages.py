"""The sign-in and signup pages where a browser's own behaviour matters, driven by real Chromium and
an authlib relying party: a passkey the server refuses does not make autofill loop, and Enter in the
signup page's password field takes the password path.

A refused passkey: the CDP virtual authenticator holds a discoverable credential for rpId
"localhost" that the server never registered (a fresh P-256 key, made with `cryptography`, which
authlib depends on). It answers passkey autofill (conditional mediation) at once, so /u/login posts
it to /u/login/passkey and the server answers 400 with the identifier page again. That page must
wait for the user before asking for autofill again, or the same refused passkey is sent without
end; the server's request log (`sesame serve` writes a JSON line for every request) counts the
POSTs. The server never registered the credential, so nothing tells the authenticator to forget it.

Every test gets its own `sesame serve`. Screenshots of the refused-passkey page (a desktop in
English, a phone in Japanese) and of the signup page are saved under .build/browser-artifacts/sign-in/.
"""

import base64
import functools
import json
import pathlib
import secrets
import sys
import time
import urllib.parse

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import hosted_flow  # noqa: E402  (first: SIGTERM stops the run cleanly, and Selenium is set offline)
from hosted_flow import PASSWORD, STEP_TIMEOUT, RelyingParty, gone, http, page, replaced, wait_page  # noqa: E402
from sesame_process import ROOT, running_server  # noqa: E402

from cryptography.hazmat.primitives import serialization  # noqa: E402  (an authlib dependency)
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# authlib 1.x warns that its jose module will become joserfc; it is still the documented client.
pytestmark = pytest.mark.filterwarnings("ignore:authlib.jose module is deprecated")

ARTIFACTS = ROOT / ".build" / "browser-artifacts" / "sign-in"
screenshot = functools.partial(hosted_flow.screenshot, ARTIFACTS)
driver, authenticator = hosted_flow.browser_fixtures(ARTIFACTS)
# How long a refused page must stay put: an authenticator that answers at once loops within
# milliseconds, so three seconds would see dozens of POSTs.
QUIET = 3
NOT_REGISTERED = {
    "en": "That passkey is not registered here.",
    "ja": "このパスキーはここに登録されていません。",
}


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path, STEP_TIMEOUT) as (url, ids, log):
        metadata = http.get(f"{url}/.well-known/openid-configuration", timeout=STEP_TIMEOUT).json()
        yield url, ids, metadata, log


def requests_logged(log, method, route):
    """The statuses of the requests `sesame serve` logged for METHOD ROUTE, in order."""
    statuses = []
    for line in log.read_text(errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("msg") == "request" and entry.get("method") == method and entry.get("route") == route:
            statuses.append(entry.get("status"))
    return statuses


def passkey_posts(log):
    return requests_logged(log, "POST", "/u/login/passkey")


def conditional_mediation(driver):
    return driver.execute_script("return document.documentElement.dataset.conditionalMediation")


def navigation_status(driver):
    """The HTTP status of the page now shown (Chromium's Navigation Timing responseStatus)."""
    return driver.execute_script(
        "const [n] = performance.getEntriesByType('navigation'); return n ? n.responseStatus : null")


def error_text(driver):
    """The page's shown error boxes' text (read in one script: a looping page replaces its elements)."""
    return driver.execute_script("""
        return [...document.querySelectorAll('main .error')].filter(e => e.offsetParent !== null)
          .map(e => e.textContent.trim()).join(' ')""")


def unregistered_credential(driver, authenticator):
    """A discoverable credential for rpId "localhost" in the virtual authenticator that no server
    registered: a fresh P-256 key (PKCS#8), a random id and user handle. Its id, as CDP writes it."""
    key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    credential_id = base64.b64encode(secrets.token_bytes(16)).decode()
    driver.execute_cdp_cmd("WebAuthn.addCredential", {
        "authenticatorId": authenticator,
        "credential": {
            "credentialId": credential_id,
            "isResidentCredential": True,
            "rpId": "localhost",
            "privateKey": base64.b64encode(key).decode(),
            "userHandle": base64.b64encode(secrets.token_bytes(16)).decode(),
            "signCount": 0,
        },
    })
    return credential_id


def held_credentials(driver, authenticator):
    """The ids of the credentials the virtual authenticator holds (base64, as CDP writes them)."""
    credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    return [c["credentialId"] for c in credentials]


def refused_page(driver, log, locale, posts):
    """Waits for the identifier page the server sent back for the `posts`th refused passkey, and
    checks it stays put for QUIET seconds, says so, waits for the user, and keeps the passkey."""
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: len(passkey_posts(log)) >= posts)
    WebDriverWait(driver, STEP_TIMEOUT, ignored_exceptions=(WebDriverException,)).until(
        lambda d: page(d) == "login" and NOT_REGISTERED[locale] in error_text(d))
    time.sleep(QUIET)
    assert passkey_posts(log) == [400] * posts, f"the refused passkey was sent again: {passkey_posts(log)}"
    assert urllib.parse.urlsplit(driver.current_url).path == "/u/login/passkey", driver.current_url
    assert navigation_status(driver) in (400, 0), navigation_status(driver)  # 0: not reported
    assert page(driver) == "login" and NOT_REGISTERED[locale] in error_text(driver), error_text(driver)
    assert conditional_mediation(driver) == "waiting", conditional_mediation(driver)
    # The server never registered the passkey: nothing tells the authenticator to forget it.
    assert not driver.find_elements(By.ID, "signal-unknown-credential")
    assert driver.execute_script("return document.documentElement.dataset.signalled") is None


@pytest.mark.parametrize("locale,viewport", [("en", "desktop"), ("ja", "phone")])
def test_a_refused_passkey_does_not_loop(server, driver, authenticator, locale, viewport):
    url, ids, metadata, log = server
    credential = unregistered_credential(driver, authenticator)
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    # Autofill answers by itself with the only passkey there is: the page posts it at once.
    rp.begin(driver, prompt="login", ui_locales=locale)
    refused_page(driver, log, locale, posts=1)
    assert driver.execute_script("return document.documentElement.lang") == locale
    assert held_credentials(driver, authenticator) == [credential], "the authenticator was told to forget it"
    screenshot(driver, f"passkey-refused-{viewport}-{locale}", viewport)

    # The user acts: autofill starts again, and the authenticator, answering at once, sends the
    # passkey a second time; the answer waits again.
    field = driver.find_element(By.ID, "username")
    field.send_keys("a")
    WebDriverWait(driver, STEP_TIMEOUT).until(gone(field))
    refused_page(driver, log, locale, posts=2)

    # Without the passkey, typing starts autofill, which waits for a passkey to offer.
    assert held_credentials(driver, authenticator) == [credential]
    driver.execute_cdp_cmd("WebAuthn.removeCredential", {"authenticatorId": authenticator, "credentialId": credential})
    assert held_credentials(driver, authenticator) == []
    field = driver.find_element(By.ID, "username")
    field.send_keys("someone@example.com")
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: conditional_mediation(d) == "requested")
    time.sleep(1)
    assert passkey_posts(log) == [400, 400]
    assert field.get_attribute("value") == "someone@example.com"


def open_password_section(driver):
    details = driver.find_element(By.ID, "password-signup")
    if not details.get_attribute("open"):
        details.find_element(By.TAG_NAME, "summary").click()
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: d.find_element(By.ID, "password").is_displayed())
    return driver.find_element(By.ID, "password")


def test_enter_in_the_signup_password_field_takes_the_password_path(server, driver):
    url, ids, metadata, log = server
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)

    # A password the rules refuse, with the password button: the browser refuses it first (the
    # field's minlength); past that, the server does, and the page comes back with the section open.
    rp.begin(driver, prompt="create")
    wait_page(driver, "signup")
    assert driver.find_element(By.ID, "password-signup").get_attribute("open") is None, "open at first"
    driver.find_element(By.ID, "email").send_keys("short.password@example.com")
    password = open_password_section(driver)
    password.send_keys("short")
    button = driver.find_element(By.ID, "password-signup-button")
    button.click()
    assert page(driver) == "signup" and driver.execute_script("return arguments[0].validity.tooShort", password)
    assert requests_logged(log, "POST", "/u/signup") == []
    driver.execute_script("arguments[0].form.noValidate = true", password)
    button.click()
    replaced(driver, button, "signup")
    assert requests_logged(log, "POST", "/u/signup") == [400]
    assert driver.find_element(By.ID, "password-signup").get_attribute("open") is not None, "the section is closed"
    assert driver.find_element(By.ID, "password").is_displayed()
    assert error_text(driver), "no error for a short password"
    assert driver.find_element(By.ID, "email").get_attribute("value") == "short.password@example.com"
    screenshot(driver, "signup-short-password-desktop-en", "desktop")

    # Enter in the password field: the password path, not the passkey (the form's first button).
    driver.delete_all_cookies()
    email = "enter.key@example.com"
    rp.begin(driver, prompt="create")
    wait_page(driver, "signup")
    driver.find_element(By.ID, "email").send_keys(email)
    password = open_password_section(driver)
    # Which button the submission names (the script presses the password button; without it the
    # browser would name the first, the passkey's, and the server goes by the typed password).
    driver.execute_script("""
        arguments[0].form.addEventListener('submit', (e) => sessionStorage.setItem('sesame-test-submitter',
          JSON.stringify(e.submitter ? [e.submitter.name, e.submitter.value] : null)));""", password)
    password.send_keys(PASSWORD + Keys.ENTER)
    WebDriverWait(driver, STEP_TIMEOUT).until(gone(password))
    # Progressive enrollment may prompt for a passkey first: "Not now".
    WebDriverWait(driver, STEP_TIMEOUT).until(
        lambda d: d.current_url.startswith(rp.redirect_uri + "?") or page(d) not in (None, "signup"))
    assert page(driver) != "signup-passkey", "Enter took the passkey path"
    assert requests_logged(log, "POST", "/u/signup") == [400, 303]
    submitter = driver.execute_script("return JSON.parse(sessionStorage.getItem('sesame-test-submitter'))")
    assert submitter == ["method", "password"], f"Enter pressed {submitter}"
    if not driver.current_url.startswith(rp.redirect_uri + "?"):
        assert page(driver) == "enroll", page(driver)
        driver.find_element(By.CSS_SELECTOR, "button[name=choice][value=later]").click()
    claims = rp.finish(driver)
    assert claims["email"] == email
    assert "pwd" in claims.get("amr", ["pwd"]), claims
    # The password signs in.
    grant = http.post(f"{url}/oauth/token", json={
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": ids["client_id"],
        "username": email, "password": PASSWORD, "realm": "Username-Password-Authentication"},
        timeout=STEP_TIMEOUT)
    assert grant.status_code == 200, grant.text


def test_the_verification_link_asks_about_what_was_added_before(server, driver):
    """Someone signs up with another person's address and a password; the verification link, opened
    in another browser, lists that password and asks. "No, remove them" confirms the address, removes
    the password and says so; the page is looked at on a desktop and a phone, in both languages."""
    url, ids, metadata, _ = server
    email = "squatted.owner@example.com"
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    rp.begin(driver, prompt="create")
    wait_page(driver, "signup")
    driver.find_element(By.ID, "email").send_keys(email)
    open_password_section(driver).send_keys(PASSWORD + Keys.ENTER)
    WebDriverWait(driver, STEP_TIMEOUT).until(
        lambda d: d.current_url.startswith(rp.redirect_uri + "?") or page(d) not in (None, "signup"))

    outbox = http.get(f"{url}/api/v2/outbox?to={email}", timeout=STEP_TIMEOUT,
                      headers=hosted_flow.management_headers(url, ids)).json()
    text = next(m["text"] for m in outbox if m["template"] == "verify_email")
    link = next(word for word in text.split() if "/u/verify-email?ticket=" in word)

    driver.delete_all_cookies()  # the owner's browser, never signed in to this account
    for locale in ("ja", "en"):
        driver.get(f"{link}&ui_locales={locale}")
        wait_page(driver, "verify-email-prior")
        assert driver.execute_script("return document.documentElement.lang") == locale
        items = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#prior-sign-in li")]
        assert items == (["A password"] if locale == "en" else ["パスワード"]), items
        assert hosted_flow.low_contrast(driver, "main h1, main p, main li, main button, main a") == []
        for viewport in ("desktop", "phone"):
            screenshot(driver, f"verify-email-prior-{viewport}-{locale}", viewport)
    driver.find_element(By.CSS_SELECTOR, "button[name=prior][value=remove]").click()
    wait_page(driver, "verified-cleared")
    screenshot(driver, "verified-cleared-phone-en", "phone")
    grant = http.post(f"{url}/oauth/token", json={
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": ids["client_id"],
        "username": email, "password": PASSWORD, "realm": "Username-Password-Authentication"},
        timeout=STEP_TIMEOUT)
    assert grant.status_code == 403, grant.text  # the squatter's password is gone
    outbox = http.get(f"{url}/api/v2/outbox?to={email}", timeout=STEP_TIMEOUT,
                      headers=hosted_flow.management_headers(url, ids)).json()
    assert any(m["template"] == "credentials_removed" for m in outbox)
    # The way on: the account page, which starts a sign-in (with account recovery for a new way in).
    driver.find_element(By.ID, "set-up-sign-in").click()
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: page(d) == "login")


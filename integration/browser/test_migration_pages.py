"""The move from device keys (issue 12) in real Chromium: an app's legacy device key (made with PyPI
`cryptography`) re-authenticates a password user on a device now new enough for passkeys; the token
response's `passkey_enrollment` link opens in Chromium (the app's web view), which creates the
passkey with a CDP virtual authenticator and returns to the app's callback; the key is `migrated`.
Then the admin's adoption page draws the share. Screenshots go to .build/browser-artifacts/migration/.
"""

import datetime
import hashlib
import pathlib
import signal
import sys

import pytest


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
    signal.signal(signal.SIGTERM, _interrupt)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import chromium  # noqa: E402  (sets Selenium offline before anything imports it)
from sesame_process import ROOT, running_server  # noqa: E402

import requests  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

STEP_TIMEOUT = 20
ARTIFACTS = ROOT / ".build" / "browser-artifacts" / "migration"
PASSWORD = "correct horse battery staple"
CONNECTION = "Username-Password-Authentication"

http = requests.Session()
http.trust_env = False  # loopback only, never a proxy


def b64url(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def signed(purpose, challenge, client_id, key_id):
    """API.md §8's message, built from the contract's text."""
    return (b"sesame-device-key-v1\x00" + purpose.encode() + b"\x00" + b64url_decode(challenge)
            + hashlib.sha256(client_id.encode()).digest() + b64url_decode(key_id))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("sesame-migration"), STEP_TIMEOUT) as (url, ids, _log):
        yield url, ids


@pytest.fixture(scope="module")
def driver(server):
    with chromium.webauthn_browser(STEP_TIMEOUT, ARTIFACTS) as browser:
        yield browser


def wait_page(driver, name):
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.body && document.body.dataset.page") == name)


def test_a_device_key_reauth_prompt_enrolls_a_passkey_in_the_browser(server, driver):
    url, ids = server
    client = ids["client_id"]
    post = lambda path, **kwargs: http.post(url + path, timeout=STEP_TIMEOUT, **kwargs)  # noqa: E731
    assert post("/dbconnections/signup", json={
        "client_id": client, "connection": CONNECTION, "email": "legacy@example.com", "password": PASSWORD,
    }).status_code == 200
    login = post("/oauth/token", data={
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": client,
        "username": "legacy@example.com", "password": PASSWORD, "realm": CONNECTION, "audience": f"{url}/me/",
        "scope": "openid create:me:authentication_methods read:me:authentication_methods",
    }).json()
    token = login["access_token"]
    headers = {"Authorization": f"Bearer {token}"}

    # The app's old device key, registered from iOS 16.3.
    key = ec.generate_private_key(ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    challenge = post("/me/v1/device-keys/challenge", headers=headers).json()
    signature = key.sign(signed("register", challenge["challenge"], client, challenge["key_id"]), ec.ECDSA(hashes.SHA256()))
    created = post("/me/v1/device-keys", headers=headers, json={
        "auth_session": challenge["auth_session"], "signature": b64url(signature),
        "public_key": {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
                       "y": b64url(numbers.y.to_bytes(32, "big"))},
        "device": {"id": "install-1", "name": "Taro's iPhone", "platform": "ios", "os_version": "16.3"},
    })
    assert created.status_code == 201, created.text
    key_id = created.json()["id"]

    # A re-auth after the phone was updated to iOS 17: the prompt, returning to the app's callback.
    reauth = post("/device-key/challenge", headers=headers, json={"client_id": client, "key_id": key_id}).json()
    signature = key.sign(signed("reauth", reauth["challenge"], client, key_id), ec.ECDSA(hashes.SHA256()))
    tokens = post("/oauth/token", data={
        "grant_type": "urn:sesame:params:oauth:grant-type:device-key", "client_id": client,
        "auth_session": reauth["auth_session"], "key_id": key_id, "signature": b64url(signature),
        "os_version": "17.2", "redirect_uri": f"{url}/", "scope": "openid",
    })
    assert tokens.status_code == 200, tokens.text
    prompt = tokens.json()["passkey_enrollment"]
    assert prompt["reason"] == "device_key_reauth"

    # The app opens the link in its web view.
    with chromium.virtual_authenticator(driver):
        driver.delete_all_cookies()
        driver.get(prompt["enroll_url"])
        wait_page(driver, "enroll")
        assert "Switch to a passkey" in driver.page_source
        driver.save_screenshot(str(ARTIFACTS / "enroll-after-device-key-en.png"))
        driver.find_element(By.ID, "passkey-button").click()
        wait_page(driver, "enroll-done")
        driver.save_screenshot(str(ARTIFACTS / "enroll-done-en.png"))
        back = driver.find_element(By.ID, "return-to-app").get_attribute("href")
        assert back == f"{url}/?passkey_enrollment=created"

    keys = http.get(url + "/me/v1/device-keys", headers=headers, timeout=STEP_TIMEOUT).json()["device_keys"]
    assert keys[0]["status"] == "migrated" and keys[0]["expires_at"]


def test_the_adoption_page_draws_the_share(server, driver):
    url, ids = server
    with chromium.virtual_authenticator(driver):
        driver.delete_all_cookies()
        driver.get(ids["admin_setup_url"])
        wait_page(driver, "login")
        driver.find_element(By.ID, "username").send_keys("legacy@example.com")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait_page(driver, "password")
        driver.find_element(By.ID, "password").send_keys(PASSWORD)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait_page(driver, "admin-setup")
        driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        wait_page(driver, "admin")
        driver.find_element(By.LINK_TEXT, "Passkey adoption").click()
        wait_page(driver, "admin")
        today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
        assert driver.find_element(By.CSS_SELECTOR, "svg.chart").get_attribute("role") == "img"
        rows = driver.find_elements(By.CSS_SELECTOR, "main table tbody tr")
        assert rows and rows[0].find_elements(By.TAG_NAME, "td")[0].text == today
        driver.save_screenshot(str(ARTIFACTS / "admin-adoption-en.png"))

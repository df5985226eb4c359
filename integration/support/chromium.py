"""Headless Debian Chromium for the browser tests, offline and loopback-only.

Import this module before Selenium: it sets SE_OFFLINE so Selenium Manager never looks anything up,
and NO_PROXY for loopback. Selenium is given the chromedriver and Chromium paths explicitly.
"""

import contextlib
import os

os.environ["SE_OFFLINE"] = "true"
os.environ["SE_AVOID_STATS"] = "true"
for _name in ("NO_PROXY", "no_proxy"):
    os.environ[_name] = ",".join(filter(None, [os.environ.get(_name), "localhost", "127.0.0.1"]))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")

ARGUMENTS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-proxy-server",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost",
)


def start(timeout: float):
    """A headless Chromium with page-load and script timeouts of `timeout` seconds."""
    for path in (CHROMIUM, CHROMEDRIVER):
        assert os.access(path, os.X_OK), f"{path} is missing: apt-get install chromium chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ARGUMENTS:
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(timeout)
    browser.set_script_timeout(timeout)
    return browser


@contextlib.contextmanager
def webauthn_browser(timeout: float, artifacts):
    """`start(timeout)` at a desktop size with the CDP WebAuthn domain on and `artifacts` (a
    directory for screenshots) made; quits the browser afterwards."""
    browser = start(timeout)
    try:
        browser.set_window_size(1280, 900)
        browser.execute_cdp_cmd("WebAuthn.enable", {})
        artifacts.mkdir(parents=True, exist_ok=True)
        yield browser
    finally:
        browser.quit()


def add_virtual_authenticator(driver) -> str:
    """A CDP virtual platform authenticator: CTAP2, internal, resident keys, verified user."""
    return driver.execute_cdp_cmd(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )["authenticatorId"]


@contextlib.contextmanager
def virtual_authenticator(driver, tolerate_removal_errors=lambda: True):
    """A fresh virtual authenticator for one test, removed afterwards. A failed removal (the test
    removed it, or chromedriver is gone after SIGTERM) is ignored while `tolerate_removal_errors()`."""
    authenticator_id = add_virtual_authenticator(driver)
    try:
        yield authenticator_id
    finally:
        try:
            driver.execute_cdp_cmd("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": authenticator_id})
        except Exception:
            if not tolerate_removal_errors():
                raise

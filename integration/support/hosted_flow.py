"""What the hosted-page browser tests share (integration/browser/test_hosted_pages.py, test_upgrade_pages.py,
test_mfa_pages.py, test_sign_in_pages.py): the Chromium and virtual authenticator fixtures, the
authlib relying party, waiting for a page, a management API token and a password user, and
screenshots.

Import it first, once integration/support is on sys.path. Importing it makes SIGTERM (what `timeout`
sends) a KeyboardInterrupt, so pytest's teardown still stops `sesame serve` and Chromium, and
imports chromium, which sets Selenium offline, before anything imports Selenium. Every HTTP request
goes through `http`, which never uses a proxy: loopback only.
"""

import base64
import secrets
import signal


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
    signal.signal(signal.SIGTERM, _interrupt)

import chromium  # noqa: E402  (sets Selenium offline before anything imports it)

import pytest  # noqa: E402
import requests  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

STEP_TIMEOUT = 20
PASSWORD = "correct horse battery staple"
CONNECTION = "Username-Password-Authentication"
PASSWORD_REALM = "http://auth0.com/oauth/grant-type/password-realm"
VIEWPORTS = {"desktop": (1280, 800, False), "phone": (390, 844, True)}

http = requests.Session()
http.trust_env = False  # loopback only, never a proxy


def browser_fixtures(artifacts, server_first=False):
    """The module's `driver` fixture (one Chromium for the module, see chromium.webauthn_browser,
    its screenshots under `artifacts`) and `authenticator` fixture (a fresh virtual authenticator
    for each test): `driver, authenticator = hosted_flow.browser_fixtures(ARTIFACTS)`. With
    `server_first`, the browser starts after the module's `server` fixture, and stops before it."""

    def browser():
        with chromium.webauthn_browser(STEP_TIMEOUT, artifacts) as driver:
            yield driver

    def browser_after_server(server):
        yield from browser()

    driver = pytest.fixture(scope="module", name="driver")(browser_after_server if server_first else browser)

    @pytest.fixture(name="authenticator")
    def authenticator(driver):
        with chromium.virtual_authenticator(driver) as authenticator_id:
            yield authenticator_id

    return driver, authenticator


class RelyingParty:
    """The web application: authlib's OAuth2Session with PKCE (S256), state and nonce, the code
    exchange, and id token validation by JWKS (signature, iss, aud, nonce, exp)."""

    scope = "openid profile email"

    def __init__(self, url, client_id, metadata):
        from authlib.jose import JsonWebKey

        self.url, self.client_id, self.metadata = url, client_id, metadata
        self.redirect_uri = f"{url}/"
        self.keys = JsonWebKey.import_key_set(http.get(metadata["jwks_uri"], timeout=STEP_TIMEOUT).json())

    def begin(self, driver, **parameters):
        self.session = OAuth2Session(
            self.client_id, redirect_uri=self.redirect_uri, scope=self.scope,
            code_challenge_method="S256", token_endpoint_auth_method="none")
        self.session.trust_env = False
        self.verifier = secrets.token_urlsafe(48)
        self.nonce = secrets.token_urlsafe(16)
        uri, self.state = self.session.create_authorization_url(
            self.metadata["authorization_endpoint"], code_verifier=self.verifier, nonce=self.nonce, **parameters)
        driver.get(uri)

    def returned(self, driver):
        """Waits for the redirect back to the application; its URL."""
        WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: d.current_url.startswith(self.redirect_uri + "?"))
        return driver.current_url

    def finish(self, driver):
        """Waits for the redirect back with a code, the state and the issuer, exchanges the code with
        the verifier; the validated id token's claims. The token response is kept as `self.token`."""
        response = self.returned(driver)
        assert "code=" in response and f"state={self.state}" in response, response
        assert f"iss={requests.utils.quote(self.metadata['issuer'], safe='')}" in response, response
        self.token = self.session.fetch_token(
            self.metadata["token_endpoint"], authorization_response=response, code_verifier=self.verifier)
        return self.validate(self.token["id_token"])

    def validate(self, id_token):
        from authlib.jose import jwt

        claims = jwt.decode(
            id_token, self.keys,
            claims_options={
                "iss": {"essential": True, "value": self.metadata["issuer"]},
                "aud": {"essential": True, "value": self.client_id},
                "nonce": {"essential": True, "value": self.nonce},
                "exp": {"essential": True},
            })
        claims.validate()
        return claims


def page(driver):
    """The page shown (its body's data-page), or None before there is a body."""
    return driver.execute_script("return document.body && document.body.dataset.page")


def wait_page(driver, name):
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: d.execute_script(
        "return document.readyState === 'complete' && document.body && document.body.dataset.page") == name)


def gone(element):
    """A wait condition: `element` left the document. Chromium reports a node of a page that was
    replaced either as stale or as "does not belong to the document"; both mean gone."""
    def check(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    return check


def replaced(driver, element, name):
    """Waits for `element`'s page to go, then for the page `name`."""
    WebDriverWait(driver, STEP_TIMEOUT).until(gone(element))
    wait_page(driver, name)


def describe(driver):
    """Where the browser is, for an assertion message."""
    main = driver.execute_script("return (document.querySelector('main') || document.body).outerHTML")
    return f"{driver.current_url}\n{main[:3000]}"


def without_conditional_mediation(driver):
    """Pages opened from now on wait for the passkey button (no autofill); the script's id."""
    return driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);"})


def management_headers(url, ids):
    """The Authorization header of a Management API token (client credentials)."""
    management = http.post(f"{url}/oauth/token", json={
        "grant_type": "client_credentials", "client_id": ids["management_client_id"],
        "client_secret": ids["management_client_secret"], "audience": f"{url}/api/v2/"}, timeout=STEP_TIMEOUT)
    assert management.status_code == 200, management.text
    return {"Authorization": f"Bearer {management.json()['access_token']}"}


def password_user(url, ids, email, password=PASSWORD):
    """Signs `email` up in CONNECTION with `password`."""
    signup = http.post(f"{url}/dbconnections/signup", json={
        "client_id": ids["client_id"], "connection": CONNECTION, "email": email, "password": password},
        timeout=STEP_TIMEOUT)
    assert signup.status_code == 200, signup.text


def shot(artifacts, driver, name):
    """The viewport as it is: ARTIFACTS/NAME.png."""
    driver.save_screenshot(str(artifacts / f"{name}.png"))


def emulate(driver, viewport):
    """Emulates VIEWPORTS[viewport] until Emulation.clearDeviceMetricsOverride; its width."""
    width, height, mobile = VIEWPORTS[viewport]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    return width


def full_page(driver, path, width):
    """The whole page (beyond the viewport too), `width` wide, as the PNG `path`. Fails if the page
    scrolls sideways."""
    full = driver.execute_script("return Math.max(document.documentElement.scrollHeight, window.innerHeight)")
    image = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": full, "scale": 1}})
    path.write_bytes(base64.b64decode(image["data"]))
    assert driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth + 1"), f"{path.stem} scrolls sideways"


def screenshot(artifacts, driver, name, viewport):
    """The whole page at `viewport`: ARTIFACTS/NAME.png. Fails if the page scrolls sideways."""
    width = emulate(driver, viewport)
    try:
        full_page(driver, artifacts / f"{name}.png", width)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


CONTRAST = """
    const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const background = (element) => {
      for (let e = element; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent') return rgb(c);
      }
      return [255, 255, 255];
    };
    return [...document.querySelectorAll(arguments[0])]
      .filter(e => e.offsetParent !== null && e.textContent.trim())
      .map(e => [e.tagName + ':' + e.textContent.trim().slice(0, 30), ratio(rgb(getComputedStyle(e).color), background(e))])
      .filter(([, r]) => r < 4.5);
"""


BORDER_CONTRAST = CONTRAST.replace(
    ".filter(e => e.offsetParent !== null && e.textContent.trim())",
    ".filter(e => e.offsetParent !== null)").replace(
    "ratio(rgb(getComputedStyle(e).color), background(e))",
    "ratio(rgb(getComputedStyle(e).borderTopColor), background(e.parentElement))").replace(
    ".filter(([, r]) => r < 4.5)", ".filter(([, r]) => r < 3)").replace(
    "e.textContent.trim().slice(0, 30)", "(e.name || e.type)")


def low_border_contrast(driver):
    """The visible fields whose border is below 3:1 against what is behind them (WCAG 1.4.11):
    [tag and name, ratio]."""
    return driver.execute_script(BORDER_CONTRAST, "input:not([type=hidden]):not([type=checkbox]), textarea, select")


def color_scheme(driver, scheme):
    """Emulates `prefers-color-scheme: scheme` ('light' or 'dark') for the pages that follow."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": scheme}]})


def page_is_dark(driver):
    """Whether the page's background and its card are dark (relative luminance under 0.1)."""
    return driver.execute_script("""
        const lum = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number).map(v => v / 255)
          .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        return lum(getComputedStyle(document.body).backgroundColor) < 0.1
          && lum(getComputedStyle(document.querySelector('main')).backgroundColor) < 0.1;""")


def low_contrast(driver, selector):
    """The visible texts matching `selector` below WCAG AA contrast (4.5:1) against what is behind
    them: [tag and text, ratio]."""
    return driver.execute_script(CONTRAST, selector)

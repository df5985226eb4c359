"""The hosted pages and the OIDC provider, driven by real Chromium and an off-the-shelf relying party.

`sesame serve` runs on a free 127.0.0.1 port (public URL http://localhost:PORT, a secure context).
authlib (PyPI) plays the web application: it reads discovery, builds the /authorize URL with PKCE
(S256), state and nonce, exchanges the code, and validates the id token against the JWKS (signature,
iss, aud, nonce, exp). Chromium, with a CDP virtual authenticator, is the user: it signs up with a
passkey on /u/signup, signs in with the passkey button, signs in with a password and a TOTP code
(pyotp), reads userinfo, and signs out through /oidc/logout. A screenshot of every page is saved
under .build/browser-artifacts/hosted/, on a desktop and on a phone-sized viewport, in English and
Japanese.
"""

import functools
import pathlib
import sys
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import hosted_flow  # noqa: E402  (first: SIGTERM stops the run cleanly, and Selenium is set offline)
from hosted_flow import (  # noqa: E402
    PASSWORD, STEP_TIMEOUT, http, management_headers, password_user, wait_page, without_conditional_mediation)
from sesame_process import ROOT, running_server  # noqa: E402

import pyotp  # noqa: E402
import requests  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# authlib 1.x warns that its jose module will become joserfc; it is still the documented client.
pytestmark = pytest.mark.filterwarnings("ignore:authlib.jose module is deprecated")

ARTIFACTS = ROOT / ".build" / "browser-artifacts" / "hosted"
# The pages' languages, and the sign-in page's title in each (docs/i18n.md).
TITLES = {"en": "Sign in", "ja": "ログイン", "zh-Hans": "登录", "ko": "로그인", "es": "Iniciar sesión",
          "fr": "Connexion", "de": "Anmelden", "pt-BR": "Fazer login"}
LANGUAGES = tuple(TITLES)
shot = functools.partial(hosted_flow.shot, ARTIFACTS)
driver, authenticator = hosted_flow.browser_fixtures(ARTIFACTS, server_first=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("sesame-hosted"), STEP_TIMEOUT) as (url, ids, _log):
        yield url, ids


@pytest.fixture(scope="module")
def metadata(server):
    url, _ = server
    document = http.get(f"{url}/.well-known/openid-configuration", timeout=STEP_TIMEOUT).json()
    assert document["issuer"] == f"{url}/"
    assert document["authorization_endpoint"] == f"{url}/authorize"
    assert document["response_types_supported"] == ["code"]
    assert document["code_challenge_methods_supported"] == ["S256"]
    assert document["end_session_endpoint"] == f"{url}/oidc/logout"
    return document


class RelyingParty(hosted_flow.RelyingParty):
    scope = "openid profile email offline_access"  # a refresh token too


def accessible(driver):
    """Every visible field has a label, every text has WCAG AA contrast (4.5:1) against what is
    behind it, the page does not scroll sideways, and the language is set."""
    unlabelled = driver.execute_script("""
        return [...document.querySelectorAll('input:not([type=hidden]):not([hidden]), textarea, select')]
          .filter(i => i.labels.length === 0 && !i.getAttribute('aria-label')).map(i => i.name);""")
    assert unlabelled == [], unlabelled
    low = hosted_flow.low_contrast(driver, "main h1, main p, main label, main button, main a")
    assert low == [], low
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert driver.execute_script("return document.documentElement.lang") in LANGUAGES
    # Every id a field names in aria-describedby (its rules, the page's error) is on the page.
    dangling = driver.execute_script("""
        return [...document.querySelectorAll('[aria-describedby]')]
          .flatMap(e => e.getAttribute('aria-describedby').split(' ').filter(id => !document.getElementById(id)));""")
    assert dangling == [], dangling


def test_passkey_signup_then_button_login_userinfo_and_logout(server, metadata, driver, authenticator):
    url, ids = server
    rp = RelyingParty(url, ids["client_id"], metadata)

    rp.begin(driver, screen_hint="signup")
    wait_page(driver, "signup")
    accessible(driver)
    assert driver.find_element(By.ID, "password").get_attribute("passwordrules").startswith("minlength: 12")
    shot(driver, "signup-en")
    driver.find_element(By.ID, "email").send_keys("browser.oidc@example.com")
    driver.find_element(By.CSS_SELECTOR, "button[name=method][value=passkey]").click()
    wait_page(driver, "signup-passkey")
    shot(driver, "signup-passkey-en")
    driver.find_element(By.ID, "passkey-button").click()
    claims = rp.finish(driver)
    token = rp.token
    assert claims["email"] == "browser.oidc@example.com"
    assert "pop" in claims["amr"] and claims["acr"] in ("phr", "phrh")
    assert token.get("refresh_token")
    subject = claims["sub"]

    # The access token works at userinfo.
    info = rp.session.get(metadata["userinfo_endpoint"], timeout=STEP_TIMEOUT)
    assert info.status_code == 200 and info.json()["sub"] == subject

    # A tampered id token fails the signature check.
    head, body, signature = token["id_token"].split(".")
    from authlib.jose.errors import BadSignatureError

    with pytest.raises(BadSignatureError):
        rp.validate(".".join([head, body, signature[:-4] + ("AAAA" if signature[-4:] != "AAAA" else "BBBB")]))

    # Signing in again: the login page asks for passkey autofill (conditional mediation), which
    # Chromium's virtual authenticator answers by itself, so the sign-in completes untouched.
    rp.begin(driver, prompt="login")
    conditional = rp.finish(driver)
    assert conditional["sub"] == subject

    # A browser without conditional mediation: the page waits for the passkey button.
    script = without_conditional_mediation(driver)
    try:
        rp.begin(driver, prompt="login")
        wait_page(driver, "login")
        accessible(driver)
        assert driver.execute_script("return document.documentElement.dataset.conditionalMediation") is None
        button = driver.find_element(By.ID, "passkey-button")
        WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: button.is_displayed())
        shot(driver, "login-en")
        button.click()
        again = rp.finish(driver)
        assert again["sub"] == subject
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})

    # RP-initiated logout with the id token as hint: back to the application with state.
    hint = token["id_token"]
    driver.get(
        f"{metadata['end_session_endpoint']}?id_token_hint={hint}"
        f"&post_logout_redirect_uri={requests.utils.quote(rp.redirect_uri, safe='')}&state=bye")
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: d.current_url == rp.redirect_uri + "?state=bye")
    rp.begin(driver, prompt="none")
    assert "error=login_required" in rp.returned(driver)


def test_password_sign_in_with_a_totp_step_and_the_passkey_prompt(server, metadata, driver):
    url, ids = server
    email = "totp.user@example.com"
    password_user(url, ids, email)
    headers = management_headers(url, ids)
    assert http.put(f"{url}/api/v2/guardian/factors/otp", json={"enabled": True}, headers=headers,
                    timeout=STEP_TIMEOUT).status_code == 200
    assert http.put(f"{url}/api/v2/guardian/policies", json=["all-applications"], headers=headers,
                    timeout=STEP_TIMEOUT).status_code == 200
    first = http.post(f"{url}/oauth/token", json={
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": ids["client_id"],
        "username": email, "password": PASSWORD, "realm": "Username-Password-Authentication",
        "scope": "openid"}, timeout=STEP_TIMEOUT)
    assert first.status_code == 403 and first.json()["error"] == "mfa_required", first.text
    mfa_token = first.json()["mfa_token"]
    associated = http.post(f"{url}/mfa/associate", json={"authenticator_types": ["otp"]},
                           headers={"Authorization": f"Bearer {mfa_token}"}, timeout=STEP_TIMEOUT)
    totp = pyotp.TOTP(associated.json()["secret"])
    confirmed = http.post(f"{url}/oauth/token", json={
        "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "client_id": ids["client_id"],
        "mfa_token": mfa_token, "otp": totp.at(time.time() - 30)}, timeout=STEP_TIMEOUT)
    assert confirmed.status_code == 200, confirmed.text

    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    rp.begin(driver, login_hint=email)
    wait_page(driver, "login")
    field = driver.find_element(By.ID, "username")
    assert field.get_attribute("value") == email
    assert driver.switch_to.active_element == field, "the identifier has focus"
    # Keyboard only: Tab goes from the identifier to its button, Enter submits.
    field.send_keys(Keys.TAB)
    assert driver.switch_to.active_element.text == "Continue"
    field.send_keys(Keys.ENTER)
    wait_page(driver, "password")
    accessible(driver)
    shot(driver, "password-en")
    driver.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER)
    wait_page(driver, "mfa")
    accessible(driver)
    shot(driver, "mfa-en")
    driver.find_element(By.ID, "otp").send_keys(totp.at(time.time() + 30) + Keys.ENTER)
    # Progressive enrollment is on by default: the passkey prompt, then "Not now" snoozes it.
    wait_page(driver, "enroll")
    accessible(driver)
    shot(driver, "passkey-enroll-en")
    driver.find_element(By.CSS_SELECTOR, "button[name=choice][value=later]").click()
    claims = rp.finish(driver)
    assert driver.get_cookie("sesame-passkey-prompt")["value"] == "later"
    assert claims["email"] == email
    assert claims["amr"] == ["pwd", "mfa", "otp"]
    assert claims["acr"] == "http://schemas.openid.net/pape/policies/2007/06/multi-factor"


def test_phone_viewport_and_japanese(server, metadata, driver):
    url, ids = server
    driver.delete_all_cookies()
    driver.set_window_size(390, 844)
    try:
        rp = RelyingParty(url, ids["client_id"], metadata)
        for locale in ("en", "ja"):
            rp.begin(driver, ui_locales=locale)
            wait_page(driver, "login")
            accessible(driver)
            assert driver.execute_script("return document.documentElement.lang") == locale
            title = driver.find_element(By.TAG_NAME, "h1").text
            assert title == ("Sign in" if locale == "en" else "ログイン"), title
            shot(driver, f"login-phone-{locale}")
            driver.find_element(By.LINK_TEXT, "Sign up" if locale == "en" else "新規登録").click()
            wait_page(driver, "signup")
            accessible(driver)
            shot(driver, f"signup-phone-{locale}")
        # A wrong redirect URI is an error page, in the browser too, and never leaves the server.
        driver.get(f"{url}/authorize?client_id={ids['client_id']}&redirect_uri=https%3A%2F%2Fevil.example%2F"
                   "&response_type=code")
        wait_page(driver, "error")
        assert driver.current_url.startswith(url)
        shot(driver, "error-phone-en")
    finally:
        driver.set_window_size(1280, 900)


def full_shots(driver, name):
    """The whole page at 1280x800 and 390x844 (as a phone), light and dark: NAME-desktop-light.png
    and so on, each checked for contrast and sideways scrolling."""
    try:
        for viewport in hosted_flow.VIEWPORTS:
            width = hosted_flow.emulate(driver, viewport)
            for scheme in ("light", "dark"):
                hosted_flow.color_scheme(driver, scheme)
                hosted_flow.full_page(driver, ARTIFACTS / f"{name}-{viewport}-{scheme}.png", width)
                accessible(driver)
                assert hosted_flow.low_border_contrast(driver) == []
    finally:
        hosted_flow.color_scheme(driver, "light")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_other_six_languages_and_the_language_menu(server, metadata, driver):
    """Sign-in and signup in Simplified Chinese, Korean, Spanish, French, German and Brazilian
    Portuguese, on a desktop and a phone; the footer's menu moves the page to another language."""
    url, ids = server
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    try:
        for locale in ("zh-Hans", "ko", "es", "fr", "de", "pt-BR"):
            for width, height, device in ((1280, 800, "desktop"), (390, 844, "phone")):
                driver.set_window_size(width, height)
                rp.begin(driver, ui_locales=locale)
                wait_page(driver, "login")
                assert driver.execute_script("return document.documentElement.lang") == locale
                assert driver.find_element(By.TAG_NAME, "h1").text == TITLES[locale]
                accessible(driver)
                shot(driver, f"login-{device}-{locale}")
            driver.find_element(By.CSS_SELECTOR, "a[href*='/u/signup']").click()
            wait_page(driver, "signup")
            accessible(driver)
            shot(driver, f"signup-phone-{locale}")
        # The menu lists the seven others; picking one shows the same step in it.
        driver.set_window_size(390, 844)
        rp.begin(driver, ui_locales="de")
        wait_page(driver, "login")
        menu = driver.find_element(By.CSS_SELECTOR, "footer details.languages")
        menu.find_element(By.TAG_NAME, "summary").click()
        links = menu.find_elements(By.CSS_SELECTOR, "a[hreflang]")
        assert sorted(link.get_attribute("hreflang") for link in links) == sorted(set(LANGUAGES) - {"de"})
        accessible(driver)
        driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", menu)
        shot(driver, "language-menu-phone-de")
        menu.find_element(By.CSS_SELECTOR, "a[hreflang='ko']").click()
        WebDriverWait(driver, STEP_TIMEOUT).until(
            lambda d: d.execute_script("return document.documentElement.lang") == "ko")
        wait_page(driver, "login")
        assert driver.find_element(By.TAG_NAME, "h1").text == TITLES["ko"]
    finally:
        driver.set_window_size(1280, 900)


def test_dark_scheme_on_desktop_and_phone(server, metadata, driver):
    """The pages follow the system's dark scheme: a dark page and card, every text 4.5:1 and every
    field's border 3:1 on them, no sideways scroll; the light scheme's borders meet 3:1 too."""
    url, ids = server
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    try:
        for scheme in ("light", "dark"):
            hosted_flow.color_scheme(driver, scheme)
            for width, height, device in ((1280, 900, "desktop"), (390, 844, "phone")):
                driver.set_window_size(width, height)
                for locale in ("en", "ja"):
                    rp.begin(driver, ui_locales=locale)
                    wait_page(driver, "login")
                    assert hosted_flow.page_is_dark(driver) == (scheme == "dark")
                    accessible(driver)
                    assert hosted_flow.low_border_contrast(driver) == []
                    if scheme == "dark":
                        shot(driver, f"login-{device}-{locale}-dark")
                    driver.find_element(By.LINK_TEXT, "Sign up" if locale == "en" else "新規登録").click()
                    wait_page(driver, "signup")
                    accessible(driver)
                    assert hosted_flow.low_border_contrast(driver) == []
                    if scheme == "dark":
                        shot(driver, f"signup-{device}-{locale}-dark")
                driver.get(f"{url}/authorize?client_id={ids['client_id']}&redirect_uri=https%3A%2F%2Fevil.example%2F"
                           "&response_type=code")
                wait_page(driver, "error")
                accessible(driver)
                if scheme == "dark":
                    shot(driver, f"error-{device}-en-dark")
        # The favicon every page links is served, as SVG.
        icon = driver.find_element(By.CSS_SELECTOR, "link[rel=icon]").get_attribute("href")
        reply = http.get(icon, timeout=STEP_TIMEOUT)
        assert reply.status_code == 200 and reply.headers["Content-Type"] == "image/svg+xml"
    finally:
        hosted_flow.color_scheme(driver, "light")
        driver.set_window_size(1280, 900)


def test_signup_password_checklist_ticks_and_the_password_can_be_shown(server, metadata, driver):
    """The signup page's rules tick as the user types (the same rules the server enforces), and the
    show-password button reveals the field without submitting the form."""
    url, ids = server
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    try:
        for scheme, width, locale in (("light", 1280, "en"), ("dark", 390, "ja")):
            hosted_flow.color_scheme(driver, scheme)
            driver.set_window_size(width, 900 if width > 400 else 844)
            rp.begin(driver, ui_locales=locale, prompt="create")
            wait_page(driver, "signup")
            driver.find_element(By.CSS_SELECTOR, "#password-signup summary").click()
            field = driver.find_element(By.ID, "password")
            items = driver.find_elements(By.CSS_SELECTOR, "#password-rules li")
            assert len(items) == 3, [item.text for item in items]
            met = lambda: [item.get_attribute("data-met") for item in items]  # noqa: E731
            assert met() == ["false", "false", "false"]
            field.send_keys("short")
            assert met() == ["false", "true", "true"]
            field.send_keys(" but now long enough")
            assert met() == ["true", "true", "true"]
            field.send_keys("ひらけ")
            assert met() == ["true", "true", "false"], "kana are outside ascii-printable"
            reveal = driver.find_element(By.CSS_SELECTOR, "button.reveal")
            assert reveal.get_attribute("aria-pressed") == "false"
            reveal.click()
            assert field.get_attribute("type") == "text"
            assert reveal.get_attribute("aria-pressed") == "true"
            assert driver.execute_script("return document.body.dataset.page") == "signup", "the button sent nothing"
            accessible(driver)
            assert hosted_flow.low_border_contrast(driver) == []
            shot(driver, f"signup-password-rules-{'desktop' if width > 400 else 'phone'}-{locale}-{scheme}")
            reveal.click()
            assert field.get_attribute("type") == "password"
    finally:
        hosted_flow.color_scheme(driver, "light")
        driver.set_window_size(1280, 900)


def test_a_closed_passkey_sheet_says_so_and_the_button_works_again(server, metadata, driver):
    """While the sheet is open the passkey button is busy and a second press starts nothing; a
    sheet closed before it finished (NotAllowedError) says so, and the button works again."""
    url, ids = server
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    rp.begin(driver, ui_locales="en")
    wait_page(driver, "login")
    # Stands in for the browser's sheet: a modal get() that waits until the test closes it.
    driver.execute_script("""
        window.sheets = 0;
        navigator.credentials.get = (options) => options.mediation ? new Promise(() => {})
          : new Promise((resolve, reject) => { window.sheets++; window.closeSheet = reject; });""")
    button = driver.find_element(By.ID, "passkey-button")
    button.click()
    assert button.get_attribute("aria-busy") == "true" and not button.is_enabled()
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click'))", button)
    assert driver.execute_script("return window.sheets") == 1, "a second press opened a second sheet"
    shot(driver, "login-passkey-busy-en")
    driver.execute_script("window.closeSheet(new DOMException('closed', 'NotAllowedError'))")
    message = driver.find_element(By.ID, "client-error")
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda _: message.is_displayed())
    assert message.text.startswith("The passkey window closed before it finished."), message.text
    assert button.is_enabled() and button.get_attribute("aria-busy") is None
    accessible(driver)
    shot(driver, "login-passkey-closed-en")


def test_the_landing_page_signs_in_through_the_hosted_pages(server, driver, authenticator):
    url, _ = server
    driver.delete_all_cookies()
    driver.get(f"{url}/")
    wait_page(driver, "landing")
    assert driver.execute_script("return typeof window.sesameDemo === 'object'")
    shot(driver, "landing-en")
    driver.find_element(By.ID, "oidc").click()
    wait_page(driver, "login")
    driver.find_element(By.LINK_TEXT, "Sign up").click()
    wait_page(driver, "signup")
    driver.find_element(By.ID, "email").send_keys("landing.user@example.com")
    driver.find_element(By.CSS_SELECTOR, "button[name=method][value=passkey]").click()
    wait_page(driver, "signup-passkey")
    driver.find_element(By.ID, "passkey-button").click()
    wait_page(driver, "landing")
    WebDriverWait(driver, STEP_TIMEOUT).until(
        lambda d: "landing.user@example.com" in d.find_element(By.ID, "out").text)
    assert driver.current_url == f"{url}/", "the code left the address bar"
    shot(driver, "landing-signed-in-en")

    # The account page lists the new passkey; the Signal API is given every accepted credential.
    driver.get(f"{url}/account")
    wait_page(driver, "account")
    accessible(driver)
    shot(driver, "account-en")
    accepted = driver.execute_script(
        "return JSON.parse(document.getElementById('signal-accepted-credentials').textContent)")
    credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(accepted["allAcceptedCredentialIds"]) == 1 == len(credentials)


def test_admin_setup_link_then_application_settings_and_account_actions(server, driver, authenticator):
    url, ids = server
    driver.delete_all_cookies()
    driver.get(ids["admin_setup_url"])
    wait_page(driver, "login")  # signs in (here: signs up) first
    driver.find_element(By.LINK_TEXT, "Sign up").click()
    wait_page(driver, "signup")
    driver.find_element(By.ID, "email").send_keys("admin@example.com")
    driver.find_element(By.CSS_SELECTOR, "button[name=method][value=passkey]").click()
    wait_page(driver, "signup-passkey")
    driver.find_element(By.ID, "passkey-button").click()
    wait_page(driver, "admin-setup")
    shot(driver, "admin-setup-en")
    # Not an admin yet: /admin says who is signed in and offers the ways on.
    driver.get(f"{url}/admin")
    wait_page(driver, "not-admin")
    assert "Signed in as admin@example.com" in driver.page_source
    accessible(driver)
    shot(driver, "admin-not-admin-en")
    driver.get(f"{url}/admin/setup")
    wait_page(driver, "admin-setup")
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_page(driver, "admin")
    accessible(driver)
    shot(driver, "admin-en")
    assert ids["client_id"] in driver.page_source

    # A web application with a callback, as the README's walkthrough makes one.
    driver.find_element(By.ID, "new-name").send_keys("Sample Web App")
    driver.find_element(By.CSS_SELECTOR, "form[action='/admin/clients'] button").click()
    wait_page(driver, "admin-client")
    assert "shown only now" in driver.page_source
    callbacks = driver.find_element(By.ID, "callbacks")
    callbacks.clear()
    callbacks.send_keys("http://localhost:3000/callback")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    # The answer is another admin-client page: wait for this one to go first.
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(callbacks))
    wait_page(driver, "admin-client")
    assert driver.find_element(By.ID, "callbacks").get_attribute("value") == "http://localhost:3000/callback"
    shot(driver, "admin-client-en")

    # The spent link opens nothing.
    driver.get(ids["admin_setup_url"])
    wait_page(driver, "error")

    # Account actions: the passkey's menu, removal asks first (and the only passkey is kept, in
    # words), rename the passkey, then sign out. The page in both schemes, on a desktop and a phone.
    driver.get(f"{url}/account")
    wait_page(driver, "account")
    for scheme in ("light", "dark"):
        hosted_flow.color_scheme(driver, scheme)
        for width, height, device in ((1280, 900, "desktop"), (390, 844, "phone")):
            driver.set_window_size(width, height)
            driver.get(f"{url}/account?ui_locales={'en' if device == 'desktop' else 'ja'}")
            wait_page(driver, "account")
            driver.find_element(By.CSS_SELECTOR, "details.menu summary").click()
            accessible(driver)
            assert hosted_flow.low_border_contrast(driver) == []
            shot(driver, f"account-passkey-menu-{device}-{scheme}")
    hosted_flow.color_scheme(driver, "light")
    driver.set_window_size(1280, 900)
    # The whole page: the check-up (a second passkey), passkeys, apps, devices, deletion.
    for locale in ("en", "ja", "fr"):
        driver.get(f"{url}/account?ui_locales={locale}")
        wait_page(driver, "account")
        assert driver.find_elements(By.CSS_SELECTOR, "ul.checkup li a[href='/account/passkeys/enroll']")
        assert driver.find_elements(By.CSS_SELECTOR, "#sessions .badge")
        full_shots(driver, f"account-{locale}")
    # Deleting asks for the identifier; a wrong one is refused beside the field.
    driver.get(f"{url}/account?ui_locales=en")
    driver.find_element(By.CSS_SELECTOR, "#delete a.danger").click()
    wait_page(driver, "delete-account")
    field = driver.find_element(By.ID, "confirmation")
    field.send_keys("not-the-address" + Keys.ENTER)
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(field))
    wait_page(driver, "delete-account")
    assert driver.find_element(By.ID, "confirmation").get_attribute("aria-invalid") == "true"
    full_shots(driver, "account-delete-refused-en")
    driver.get(f"{url}/account?ui_locales=en")
    wait_page(driver, "account")
    driver.find_element(By.CSS_SELECTOR, "details.menu summary").click()
    driver.find_element(By.CSS_SELECTOR, "details.menu a.danger").click()
    wait_page(driver, "remove-passkey")
    accessible(driver)
    shot(driver, "account-remove-passkey-en")
    driver.find_element(By.CSS_SELECTOR, "button.danger").click()
    wait_page(driver, "account")
    assert "only way to sign in" in driver.find_element(By.CSS_SELECTOR, "p.error").text
    shot(driver, "account-last-passkey-en")
    driver.find_element(By.CSS_SELECTOR, "details.menu summary").click()
    name = driver.find_element(By.CSS_SELECTOR, "details.menu input[name=name]")
    name.clear()
    name.send_keys("Work laptop")
    name.submit()
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(name))
    wait_page(driver, "account")
    assert "The passkey was renamed." in driver.page_source and "Work laptop" in driver.page_source
    driver.find_element(By.CSS_SELECTOR, "form[action='/account/logout'] button").click()
    wait_page(driver, "signed-out")


def test_a_password_reset_through_the_outbox_link(server, metadata, driver):
    url, ids = server
    email = "reset.user@example.com"
    password_user(url, ids, email)
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    rp.begin(driver, login_hint=email)
    wait_page(driver, "login")
    driver.find_element(By.ID, "username").send_keys(Keys.ENTER)
    wait_page(driver, "password")
    driver.find_element(By.LINK_TEXT, "Forgot password?").click()
    wait_page(driver, "reset-request")
    accessible(driver)
    driver.find_element(By.ID, "email").send_keys(email + Keys.ENTER)
    wait_page(driver, "reset-sent")
    shot(driver, "reset-sent-en")

    # The link, as the outbox (the development message sender) kept it.
    outbox = http.get(f"{url}/api/v2/outbox?to={email}", timeout=STEP_TIMEOUT,
                      headers=management_headers(url, ids)).json()
    text = next(m["text"] for m in outbox if m["template"] == "password_reset")
    link = next(word for word in text.split() if "/u/reset-password?ticket=" in word)
    driver.get(link)
    wait_page(driver, "reset")
    accessible(driver)
    shot(driver, "reset-en")
    new_password = "a completely new passphrase"
    driver.find_element(By.ID, "password").send_keys(new_password + Keys.ENTER)
    wait_page(driver, "reset-done")

    # The new password signs in (a tenant asking everyone for MFA by now: only the first step).
    grant = http.post(f"{url}/oauth/token", json={
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": ids["client_id"],
        "username": email, "password": new_password, "realm": "Username-Password-Authentication"},
        timeout=STEP_TIMEOUT)
    assert grant.status_code in (200, 403) and grant.json().get("error") in (None, "mfa_required"), grant.text
    driver.get(link)
    wait_page(driver, "reset-expired")

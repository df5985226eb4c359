"""The passkey prompt's create button beside a pending conditional create, and the TOTP step's ways
out (a recovery code, the new code to save, the recovery that asks for the second factor), driven by
real Chromium and an authlib relying party.

Every test gets its own `sesame serve` (the TOTP tests switch on a tenant-wide MFA policy). Chromium
reports `conditionalCreate` from `PublicKeyCredential.getClientCapabilities()` and keeps a
conditional create pending while it has nothing to offer, and answers a modal create beside it with
"A request is already pending": the enrollment prompt's button must abort the conditional create
and wait for it to settle first. A Chromium without conditional create gets a stand-in for both
(CONDITIONAL_CREATE_STANDIN), so the test means the same there. Screenshots of the second-factor
pages, on a desktop and a phone, in English and Japanese, light and dark, are saved under
.build/browser-artifacts/mfa/.
"""

import functools
import pathlib
import re
import sys
import tempfile
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "support"))
import hosted_flow  # noqa: E402  (first: SIGTERM stops the run cleanly, and Selenium is set offline)
from hosted_flow import (  # noqa: E402
    CONNECTION, PASSWORD, PASSWORD_REALM, STEP_TIMEOUT, VIEWPORTS, RelyingParty, emulate, full_page, http,
    management_headers, page, password_user, replaced, wait_page)
from sesame_process import ROOT, running_server  # noqa: E402

import pyotp  # noqa: E402
import requests  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# authlib 1.x warns that its jose module will become joserfc; it is still the documented client.
pytestmark = pytest.mark.filterwarnings("ignore:authlib.jose module is deprecated")

ARTIFACTS = ROOT / ".build" / "browser-artifacts" / "mfa"
MFA_OTP = "http://auth0.com/oauth/grant-type/mfa-otp"
MFA_RECOVERY_CODE = "http://auth0.com/oauth/grant-type/mfa-recovery-code"
# The texts checked for WCAG AA contrast.
CONTRAST_SELECTOR = "main h1, main h2, main p, main label, main button, main a, main code"
shot = functools.partial(hosted_flow.shot, ARTIFACTS)
driver, authenticator = hosted_flow.browser_fixtures(ARTIFACTS)

# For a Chromium whose getClientCapabilities() lacks conditionalCreate: what Chromium 156 does. A
# conditional create stays pending until its signal aborts (then an AbortError); a modal create
# while one is pending (not yet aborted and settled) is refused: OperationError, "A request is
# already pending." (Chromium 156's words).
CONDITIONAL_CREATE_STANDIN = """
(() => {
  if (!window.PublicKeyCredential || !navigator.credentials) return;
  const capabilities = PublicKeyCredential.getClientCapabilities
    ? PublicKeyCredential.getClientCapabilities.bind(PublicKeyCredential) : async () => ({});
  PublicKeyCredential.getClientCapabilities = async () => ({ ...(await capabilities()), conditionalCreate: true });
  const create = navigator.credentials.create.bind(navigator.credentials);
  let pending = 0;
  navigator.credentials.create = (options) => {
    if (options && options.mediation === "conditional") {
      pending += 1;
      return new Promise((resolve, reject) => {
        const signal = options.signal;
        const settle = () => { pending -= 1; reject(new DOMException("signal is aborted without reason", "AbortError")); };
        if (signal && signal.aborted) settle();
        else if (signal) signal.addEventListener("abort", settle, { once: true });
      });
    }
    if (pending > 0) return Promise.reject(new DOMException("A request is already pending.", "OperationError"));
    return create(options);
  };
  window.sesameTestStandIn = true;
})();
"""

# Records each create() the page makes ("conditional" or "modal") and how it ended, whatever
# pages.js does with it, so the test can wait for the conditional create and say why a create failed.
CREATE_OBSERVER = """
(() => {
  if (!navigator.credentials) return;
  const create = navigator.credentials.create.bind(navigator.credentials);
  window.sesameTestCreates = [];
  navigator.credentials.create = (options) => {
    const call = { mediation: (options && options.mediation) || "modal", outcome: "pending" };
    window.sesameTestCreates.push(call);
    const answer = create(options);
    answer.then(() => { call.outcome = "created"; }, (e) => { call.outcome = e.name + ": " + e.message; });
    return answer;
  };
})();
"""


@pytest.fixture
def server(tmp_path):
    with running_server(tmp_path, STEP_TIMEOUT) as (url, ids, _log):
        metadata = http.get(f"{url}/.well-known/openid-configuration", timeout=STEP_TIMEOUT).json()
        yield url, ids, metadata


def shots(driver, name):
    """The page as it is, at each viewport and colour scheme: NAME-desktop-light.png and so on, the
    whole page (beyond the viewport too). Returns texts below WCAG AA contrast, by file."""
    low = {}
    try:
        for viewport in VIEWPORTS:
            width = emulate(driver, viewport)
            for scheme in ("light", "dark"):
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                    "features": [{"name": "prefers-color-scheme", "value": scheme}]})
                assert driver.execute_script(
                    f"return matchMedia('(prefers-color-scheme: {scheme})').matches"), scheme
                file = f"{name}-{viewport}-{scheme}"
                full_page(driver, ARTIFACTS / f"{file}.png", width)
                found = hosted_flow.low_contrast(driver, CONTRAST_SELECTOR)
                if found:
                    low[file] = found
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return low


def code_lines_on_a_phone(driver):
    """The lines code#recovery-code's text takes at 390x844."""
    emulate(driver, "phone")
    try:
        return driver.execute_script("""
            const range = document.createRange();
            range.selectNodeContents(document.getElementById('recovery-code'));
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;""")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def mfa_token(url, ids, email):
    first = http.post(f"{url}/oauth/token", json={
        "grant_type": PASSWORD_REALM, "client_id": ids["client_id"], "username": email, "password": PASSWORD,
        "realm": CONNECTION, "scope": "openid"}, timeout=STEP_TIMEOUT)
    assert first.status_code == 403 and first.json()["error"] == "mfa_required", first.text
    return first.json()["mfa_token"]


def totp_user(url, ids, email):
    """A password user with TOTP and a recovery code, set up through the MFA API in a tenant that
    asks every sign-in for a second factor: (the TOTP generator, the recovery code)."""
    password_user(url, ids, email)
    headers = management_headers(url, ids)
    for factor in ("otp", "recovery-code"):
        put = http.put(f"{url}/api/v2/guardian/factors/{factor}", json={"enabled": True}, headers=headers,
                       timeout=STEP_TIMEOUT)
        assert put.status_code == 200, put.text
    policy = http.put(f"{url}/api/v2/guardian/policies", json=["all-applications"], headers=headers,
                      timeout=STEP_TIMEOUT)
    assert policy.status_code == 200, policy.text
    token = mfa_token(url, ids, email)
    associated = http.post(f"{url}/mfa/associate", json={"authenticator_types": ["otp"]},
                           headers={"Authorization": f"Bearer {token}"}, timeout=STEP_TIMEOUT)
    assert associated.status_code == 200, associated.text
    totp = pyotp.TOTP(associated.json()["secret"])
    [recovery] = associated.json()["recovery_codes"]
    confirmed = http.post(f"{url}/oauth/token", json={
        "grant_type": MFA_OTP, "client_id": ids["client_id"], "mfa_token": token,
        "otp": totp.at(time.time() - 30)}, timeout=STEP_TIMEOUT)
    assert confirmed.status_code == 200, confirmed.text
    # The owner's address is proven (at an unverified address's first proof, the factors added
    # before are removed: they could be a squatter's).
    found = http.get(f"{url}/api/v2/users", params={"q": email}, headers=headers, timeout=STEP_TIMEOUT)
    assert found.status_code == 200, found.text
    [user_id] = [user["user_id"] for user in found.json() if user.get("email") == email]
    verified = http.patch(f"{url}/api/v2/users/{requests.utils.quote(user_id, safe='')}",
                          json={"email_verified": True}, headers=headers, timeout=STEP_TIMEOUT)
    assert verified.status_code == 200, verified.text
    return totp, recovery


def sign_in_with_password(driver, rp, email, **parameters):
    """/authorize, the identifier, the password: the page after the password."""
    rp.begin(driver, login_hint=email, **parameters)
    wait_page(driver, "login")
    field = driver.find_element(By.ID, "username")
    field.send_keys(Keys.ENTER)
    replaced(driver, field, "password")
    password = driver.find_element(By.ID, "password")
    password.send_keys(PASSWORD + Keys.ENTER)
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(password))


def mode(driver):
    return driver.find_element(By.CSS_SELECTOR, "form[action='/u/mfa'] input[name=mode]").get_attribute("value")


def client_error(driver):
    return driver.execute_script(
        "const e = document.getElementById('client-error'); return e && !e.hidden ? e.textContent : null")


def test_the_create_button_aborts_the_pending_conditional_create(server, driver, authenticator):
    url, ids, metadata = server
    email = "conditional.create@example.com"
    password_user(url, ids, email)
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    rp.begin(driver, login_hint=email)
    wait_page(driver, "login")

    # This Chromium's own conditional create, or the stand-in where it has none.
    capabilities = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        PublicKeyCredential.getClientCapabilities().then(done, () => done({}));""")
    scripts = []
    if not capabilities.get("conditionalCreate"):
        scripts.append(driver.execute_cdp_cmd(
            "Page.addScriptToEvaluateOnNewDocument", {"source": CONDITIONAL_CREATE_STANDIN}))
    scripts.append(driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CREATE_OBSERVER}))
    creates = "return window.sesameTestCreates"
    try:
        field = driver.find_element(By.ID, "username")
        field.send_keys(Keys.ENTER)
        replaced(driver, field, "password")
        password = driver.find_element(By.ID, "password")
        password.send_keys(PASSWORD + Keys.ENTER)
        replaced(driver, password, "enroll")
        assert driver.find_elements(By.ID, "passkey-conditional"), "the prompt offers no conditional create"
        assert driver.execute_script("return window.sesameTestStandIn === true") == (len(scripts) == 2)
        # The page asks for a conditional create at once, and Chromium keeps it pending (it has no
        # password manager to make the passkey): nothing was made yet.
        WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: d.execute_script(creates))
        time.sleep(0.5)
        assert driver.execute_script(creates) == [{"mediation": "conditional", "outcome": "pending"}]
        assert page(driver) == "enroll"
        assert driver.execute_cdp_cmd(
            "WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"] == []
        marker = driver.execute_script("return document.documentElement.dataset.conditionalCreate")
        shot(driver, "enroll-conditional-pending-en")

        button = driver.find_element(By.ID, "passkey-button")
        button.click()
        # Either back at the application, or the prompt says the create failed: say why.
        WebDriverWait(driver, STEP_TIMEOUT).until(
            lambda d: d.current_url.startswith(rp.redirect_uri + "?") or client_error(d)
            or d.execute_script("return document.documentElement.dataset.ceremony") == "failed")
        if not driver.current_url.startswith(rp.redirect_uri + "?"):
            shot(driver, "enroll-create-failed-en")
            pytest.fail(f"the create button failed beside the conditional create: {client_error(driver)!r}, "
                        f"creates: {driver.execute_script(creates)}")
        claims = rp.finish(driver)
    finally:
        for script in scripts:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
    assert marker == "requested", marker
    assert claims["email"] == email
    credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1, credentials


def test_a_recovery_code_at_the_totp_step_and_the_new_code_to_save(server, driver, tmp_path):
    url, ids, metadata = server
    email = "recovery.code@example.com"
    _, recovery = totp_user(url, ids, email)
    assert len(recovery) == 24, recovery

    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    sign_in_with_password(driver, rp, email)
    wait_page(driver, "mfa")
    assert mode(driver) == "otp"
    shot(driver, "mfa-en")
    ways = [b.get_attribute("value") for b in driver.find_elements(By.CSS_SELECTOR, "button[name=method]")]
    assert ways == ["recovery-code"], ways
    assert driver.find_element(By.LINK_TEXT, "Cancel and start over").get_attribute("href").startswith(
        f"{url}/u/login?tx=")

    other = driver.find_element(By.CSS_SELECTOR, "button[name=method][value=recovery-code]")
    assert other.text == "Use a recovery code"
    other.click()
    replaced(driver, other, "mfa")
    assert mode(driver) == "recovery-code"
    ways = [b.get_attribute("value") for b in driver.find_elements(By.CSS_SELECTOR, "button[name=method]")]
    assert ways == ["otp"], ways
    shot(driver, "mfa-recovery-code-en")

    # A wrong code: the same step again, with an error.
    field = driver.find_element(By.ID, "otp")
    field.send_keys("A" * 24 + Keys.ENTER)
    replaced(driver, field, "mfa")
    assert mode(driver) == "recovery-code"
    assert driver.find_elements(By.CSS_SELECTOR, "main .error:not([hidden])"), "no error for a wrong code"

    field = driver.find_element(By.ID, "otp")
    field.send_keys(recovery + Keys.ENTER)
    replaced(driver, field, "save-recovery-code")
    shot(driver, "save-recovery-code-en")
    shown = driver.find_element(By.ID, "recovery-code")
    code = shown.get_attribute("data-code")
    # Shown in groups of four, which is the code without its spaces.
    assert shown.text.replace(" ", "").replace("\n", "") == code, shown.text
    assert len(code) == 24 and code != recovery, code

    # Copy: the page's button writes the code to the clipboard (granted here, as a user would).
    copy = driver.find_element(By.ID, "copy-recovery-code")
    assert copy.is_displayed(), "a secure context with navigator.clipboard shows Copy"
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    copy.click()
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: d.find_element(By.ID, "copy-status").text == "Copied")
    assert driver.execute_async_script(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done(String(e)));") == code

    # Download, into a directory of this test's.
    downloads = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    try:
        download = driver.find_element(By.ID, "download-recovery-code")
        assert download.is_displayed()
        download.click()
        WebDriverWait(driver, STEP_TIMEOUT).until(
            lambda d: [f for f in downloads.iterdir() if f.suffix == ".txt"])
        [file] = [f for f in downloads.iterdir() if f.suffix == ".txt"]
        assert file.name.endswith("-recovery-code.txt"), file.name
        assert file.read_text() == code + "\n"
    finally:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "default"})

    # Continue needs the box ticked (the browser says so before anything is sent).
    continue_button = driver.find_element(By.CSS_SELECTOR, "form[action='/u/mfa/recovery-code/saved'] button")
    continue_button.click()
    assert page(driver) == "save-recovery-code"
    assert driver.execute_script("return document.getElementById('saved').validity.valueMissing")
    driver.find_element(By.ID, "saved").click()
    continue_button.click()
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(continue_button))
    # Progressive enrollment may prompt for a passkey first: "Not now".
    WebDriverWait(driver, STEP_TIMEOUT).until(
        lambda d: d.current_url.startswith(rp.redirect_uri + "?") or page(d) == "enroll")
    if not driver.current_url.startswith(rp.redirect_uri + "?"):
        driver.find_element(By.CSS_SELECTOR, "button[name=choice][value=later]").click()
    claims = rp.finish(driver)
    assert claims["email"] == email

    # The saved code counts now, and the spent one does not.
    spent = http.post(f"{url}/oauth/token", json={
        "grant_type": MFA_RECOVERY_CODE, "client_id": ids["client_id"], "mfa_token": mfa_token(url, ids, email),
        "recovery_code": recovery}, timeout=STEP_TIMEOUT)
    assert spent.status_code == 403, spent.text
    fresh = http.post(f"{url}/oauth/token", json={
        "grant_type": MFA_RECOVERY_CODE, "client_id": ids["client_id"], "mfa_token": mfa_token(url, ids, email),
        "recovery_code": code}, timeout=STEP_TIMEOUT)
    assert fresh.status_code == 200, fresh.text


def recovery_email_code(url, ids, email):
    """The latest account-recovery code sent to `email`, from the outbox."""
    outbox = http.get(f"{url}/api/v2/outbox?to={email}", headers=management_headers(url, ids),
                      timeout=STEP_TIMEOUT).json()
    texts = [m["text"] for m in outbox if m["template"] == "recovery_code"]
    assert texts, outbox
    return re.search(r"\b(\d{6})\b", texts[-1]).group(1)


def recover_to_second_factor(driver, url, ids, rp, email, **parameters):
    """/u/recover from the login page, the email, the emailed code: the page after the code."""
    rp.begin(driver, **parameters)
    wait_page(driver, "login")
    link = driver.find_element(By.CSS_SELECTOR, "a[href^='/u/recover?']")
    link.click()
    replaced(driver, link, "recover")
    field = driver.find_element(By.ID, "email")
    field.send_keys(email + Keys.ENTER)
    replaced(driver, field, "recover-code")
    field = driver.find_element(By.ID, "code")
    field.send_keys(recovery_email_code(url, ids, email) + Keys.ENTER)
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(field))


def test_account_recovery_asks_for_the_totp_code_before_a_new_way_in(server, driver):
    url, ids, metadata = server
    email = "recover.totp@example.com"
    totp, _ = totp_user(url, ids, email)
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    recover_to_second_factor(driver, url, ids, rp, email)
    wait_page(driver, "mfa")
    assert mode(driver) == "otp"
    assert "Your email address is confirmed." in driver.find_element(By.CSS_SELECTOR, "main .notice").text
    assert driver.find_elements(By.CSS_SELECTOR, "button[name=method][value=recovery-code]")
    assert "Ask this site's support" in driver.find_element(By.CSS_SELECTOR, ".links .hint").text
    shot(driver, "recover-mfa-en")
    field = driver.find_element(By.ID, "otp")
    field.send_keys(totp.at(time.time() + 30) + Keys.ENTER)
    replaced(driver, field, "enroll")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Choose a new way to sign in"
    assert not driver.find_elements(By.CSS_SELECTOR, "button[name=choice]"), "a recovery cannot be put off"


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_screenshots_of_the_second_factor_pages(server, driver, locale):
    url, ids, metadata = server
    email = f"screens.{locale}@example.com"
    _, recovery = totp_user(url, ids, email)
    driver.delete_all_cookies()
    rp = RelyingParty(url, ids["client_id"], metadata)
    low = {}

    sign_in_with_password(driver, rp, email, ui_locales=locale)
    wait_page(driver, "mfa")
    assert driver.execute_script("return document.documentElement.lang") == locale
    low |= shots(driver, f"mfa-other-ways-{locale}")
    other = driver.find_element(By.CSS_SELECTOR, "button[name=method][value=recovery-code]")
    other.click()
    replaced(driver, other, "mfa")
    assert mode(driver) == "recovery-code"
    low |= shots(driver, f"mfa-recovery-code-{locale}")
    field = driver.find_element(By.ID, "otp")
    field.send_keys(recovery + Keys.ENTER)
    replaced(driver, field, "save-recovery-code")
    low |= shots(driver, f"save-recovery-code-{locale}")
    lines = code_lines_on_a_phone(driver)
    # Groups of four wrap between groups, never inside one: at most two lines on a phone.
    assert lines <= 2, f"the recovery code takes {lines} lines on a 390px phone ({locale})"

    driver.delete_all_cookies()
    recover_to_second_factor(driver, url, ids, rp, email, ui_locales=locale)
    wait_page(driver, "mfa")
    assert driver.execute_script("return document.documentElement.lang") == locale
    low |= shots(driver, f"recover-mfa-{locale}")
    assert low == {}, low


def test_support_resets_a_lost_second_factor_on_the_admin_page(server, driver):
    """The support path the recovery page names: an administrator opens the user's page, resets
    their two-step verification, and the user, signed out everywhere and emailed, is asked to set up
    a factor again at their next sign-in."""
    url, ids, metadata = server
    password_user(url, ids, "support.admin@example.com")
    driver.delete_all_cookies()
    driver.get(ids["admin_setup_url"])
    wait_page(driver, "login")
    field = driver.find_element(By.ID, "username")
    field.send_keys("support.admin@example.com" + Keys.ENTER)
    replaced(driver, field, "password")
    password = driver.find_element(By.ID, "password")
    password.send_keys(PASSWORD + Keys.ENTER)
    WebDriverWait(driver, STEP_TIMEOUT).until(hosted_flow.gone(password))
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: page(d) in ("enroll", "admin-setup"))
    if page(driver) == "enroll":  # the passkey prompt after a password: not now
        driver.find_element(By.CSS_SELECTOR, "button[name=choice][value=later]").click()
    wait_page(driver, "admin-setup")
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_page(driver, "admin")

    email = "lost.phone@example.com"
    totp_user(url, ids, email)
    headers = management_headers(url, ids)
    [user_id] = [user["user_id"] for user in http.get(
        f"{url}/api/v2/users", params={"q": email}, headers=headers, timeout=STEP_TIMEOUT).json()]
    driver.get(f"{url}/admin/users/{requests.utils.quote(user_id, safe='')}")
    wait_page(driver, "admin-user")
    assert len(driver.find_elements(By.CSS_SELECTOR, "tr.factor")) == 2
    details = driver.find_element(By.ID, "reset-factors")
    details.find_element(By.TAG_NAME, "summary").click()
    button = details.find_element(By.CSS_SELECTOR, "button[type=submit]")
    WebDriverWait(driver, STEP_TIMEOUT).until(lambda d: button.is_displayed())
    assert "check that the person asking" in details.text
    low = shots(driver, "admin-reset-factors")
    button.click()
    replaced(driver, button, "admin-user")
    assert "Two-step verification was reset" in driver.find_element(By.CSS_SELECTOR, "main .notice").text
    assert not driver.find_elements(By.CSS_SELECTOR, "tr.factor")
    low |= shots(driver, "admin-factors-reset")
    assert low == {}, low
    outbox = http.get(f"{url}/api/v2/outbox?to={email}", timeout=STEP_TIMEOUT, headers=headers).json()
    assert any(m["template"] == "credential_removed" for m in outbox)

    # The user signs in with the password alone and is asked to set up a factor again.
    driver.delete_all_cookies()
    sign_in_with_password(driver, RelyingParty(url, ids["client_id"], metadata), email)
    wait_page(driver, "mfa")
    assert driver.find_elements(By.CSS_SELECTOR, ".qr svg"), "not the factor setup"
    assert shots(driver, "mfa-setup-qr") == {}


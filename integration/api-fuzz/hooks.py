"""schemathesis hooks for scripts/api-fuzz-test.sh (loaded through SCHEMATHESIS_HOOKS).

The authenticated run holds a Management API token of the management client that `sesame init`
made. The fuzzer learns ids from the responses it sees, so left alone it soon PATCHes that client
(say to `token_endpoint_auth_method: none`), rotates its secret or narrows its client grant, and the
server then rightly refuses the token for the rest of the run. Cases whose path names that client
or its grants are dropped, so the rest of the API keeps being fuzzed with valid credentials.
API_FUZZ_PROTECTED_IDS holds the ids, comma-separated.
"""

import os
import urllib.parse

import schemathesis

PROTECTED = {value for value in os.environ.get("API_FUZZ_PROTECTED_IDS", "").split(",") if value}


def _names_protected(value) -> bool:
    text = str(value)
    return text in PROTECTED or urllib.parse.unquote(text) in PROTECTED


# The tenant's demo app and its connection (scripts/api-fuzz-test.sh). A public endpoint answers a
# made-up client_id with invalid_client or "no such connection", which would keep the fuzzer at the
# door; with the real ones put in, the rest of each generated body is what is tested. Only string
# values are replaced, so a case meant to be refused for a wrong type stays refused.
REAL_VALUES = {
    "client_id": os.environ.get("API_FUZZ_APP_CLIENT_ID"),
    "connection": os.environ.get("API_FUZZ_CONNECTION"),
    "realm": os.environ.get("API_FUZZ_CONNECTION"),
}
# Public endpoints whose bodies name the app (not the Management API, whose client_id is data).
NAMES_THE_APP = ("/passkey/", "/dbconnections/", "/mfa/", "/me/v1/upgrades/authorize", "/oauth/", "/device-key/")


@schemathesis.hook
def before_call(context, case, kwargs):
    # Every phase's cases pass here (map_body sees only the fuzzing phase's).
    path = getattr(case.operation, "path", "") or ""
    if path.startswith(HOSTED_PAGES):
        _browser_state(case)
    elif _is_positive(case):
        with _LOCK:
            try:
                _api_path_ids(case, case.operation.method.upper(), path)
            except Exception as error:
                print(f"api-fuzz hooks: {path} sent with its generated ids: {error!r}", file=sys.stderr)
    if not isinstance(case.body, dict):
        return
    # A user made through the Management API names its connection: the tenant's own, so the rest
    # of the body is what decides.
    if path.startswith("/api/v2/users") and isinstance(case.body.get("connection"), str):
        case.body["connection"] = REAL_VALUES["connection"]
    # The tenant's default connection stays the demo app's: the fixtures sign their users up there.
    if path == "/api/v2/tenant/settings":
        case.body.pop("default_connection", None)
    if path.startswith(NAMES_THE_APP):
        for name, value in REAL_VALUES.items():
            if value and isinstance(case.body.get(name), str):
                case.body[name] = value
    if _is_positive(case):
        _api_state(case, case.operation.method.upper(), path)
        # A token request names its client: this public app has no secret to send instead.
        if path == "/oauth/token" and isinstance(case.body, dict) and _APP:
            case.body["client_id"] = _APP
        if path.startswith(NAMES_THE_APP) and isinstance(case.body, dict):
            case.body.pop("client_secret", None)


@schemathesis.hook
def after_call(context, case, response):
    path = getattr(case.operation, "path", "") or ""
    _trace(case, response)
    if path.startswith(("/account", "/admin")):
        _after_signed_in_page(case, path, response)
    if 200 <= response.status_code < 400:
        _after_accepted(case, path)
    else:
        _STATE.pop("setting_password", None)
    # A tenant that asks everyone for a second factor would stop the run's own sign-ins at it: the
    # policy goes back to none after each case that set it.
    if path == "/api/v2/guardian/policies" and response.status_code == 200:
        with _LOCK:
            try:
                _management("PUT", "/api/v2/guardian/policies", [])
            except Exception as error:
                print(f"api-fuzz hooks: the MFA policy stays as the case set it: {error!r}", file=sys.stderr)


@schemathesis.hook
def filter_path_parameters(context, path_parameters):
    return not any(_names_protected(value) for value in (path_parameters or {}).values())


@schemathesis.hook
def filter_case(context, case):
    return not any(_names_protected(value) for value in (case.path_parameters or {}).values())


# The authenticated run (API_FUZZ_AUTH=1): a Management API token from the management client's
# secret, fetched again every second. `POST /api/v2/keys/signing/rotate` is fuzzed too, and after
# two rotations the key of an older token is gone from the JWKS; the server then refuses that
# token, as it must, so the token is renewed rather than kept for the whole run.
if os.environ.get("API_FUZZ_AUTH") == "1":
    import json
    import urllib.request

    _opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _token(body):
        request = urllib.request.Request(os.environ["API_FUZZ_URL"] + "/oauth/token", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with _opener.open(request, timeout=10) as answer:
            return json.load(answer)["access_token"]

    _USER = json.load(open(os.environ["API_FUZZ_USER_FILE"]))
    _METRICS = open(os.environ["API_FUZZ_METRICS_TOKEN_FILE"]).read().strip()
    _MY_ACCOUNT_SCOPES = " ".join(f"{verb}:me:authentication_methods" for verb in ("read", "create", "update", "delete"))

    # The credentials each operation's security scheme asks for: the Management API token, the
    # fuzz user's tokens for My Account, /userinfo and the MFA API (a password sign-in as the demo
    # app), and the metrics token. The user's tokens are fresh each second, so auth_time stays recent.
    @schemathesis.auth(refresh_interval=1)
    class Credentials:
        def get(self, case, context):
            url = os.environ["API_FUZZ_URL"]
            user = {"grant_type": "http://auth0.com/oauth/grant-type/password-realm",
                    "client_id": os.environ["API_FUZZ_APP_CLIENT_ID"], "realm": os.environ["API_FUZZ_CONNECTION"],
                    "username": _USER["username"], "password": _USER["password"]}
            return {
                "management": _token({
                    "grant_type": "client_credentials", "client_id": os.environ["API_FUZZ_CLIENT_ID"],
                    "client_secret": os.environ["API_FUZZ_CLIENT_SECRET"], "audience": url + "/api/v2/"}),
                "my_account": _token(dict(user, audience=url + "/me/", scope="openid " + _MY_ACCOUNT_SCOPES)),
                "userinfo": _token(dict(user, scope="openid profile email")),
                # The MFA API (/mfa/associate, /mfa/authenticators) with the fuzz user's access
                # token for it (docs/mfa.md, "Managing factors"): a factor the fuzzer enrolls stays
                # unconfirmed, as it cannot answer the code, so the user's sign-ins are unchanged.
                "mfa": _token(dict(user, audience=url + "/mfa/", scope="enroll read:authenticators remove:authenticators")),
            }

        def set(self, case, data, context):
            path = getattr(case.operation, "path", "") or ""
            if path.startswith("/me/v1/") and not path.startswith("/me/v1/upgrades/") or path in (
                    "/device-key/challenge", "/me/v1/upgrades/authorize"):
                token = data["my_account"]
            elif path == "/userinfo":
                token = data["userinfo"]
            elif path.startswith(("/mfa/associate", "/mfa/authenticators")):
                token = data["mfa"]
            elif path == "/metrics":
                token = _METRICS
            else:
                token = data["management"]
            case.headers = case.headers or {}
            case.headers["Authorization"] = f"Bearer {token}"


# The hosted pages (docs/hosted-pages.md), in both runs: a browser's cookies are their credentials,
# not the bearer token. Each page acts only on state a browser holds and the generator cannot
# invent: a pending sign-in (`tx`) that /authorize began in that browser, the CSRF token of its
# device cookie in every form, an SSO session for /account, an administrator's session for /admin,
# a setup link's token, a mailed ticket. Without them every case stopped at "This sign-in is no
# longer pending" or "This form has expired". before_call puts them into each case the way a browser
# has them: the cookies into `case.cookies`, the values into the fields of those names the server's
# OpenAPI document declares (path and query parameters; the form's
# `application/x-www-form-urlencoded` schema), and only where the generated value is a string the
# field's schema allows and a negative case did not mutate, so a case meant to send a wrong type or
# length still does. The fixtures use `requests`, and only the server's own paths (a Location is
# read, never followed). A fixture that fails leaves its case as generated and says so on stderr.
import base64
import hashlib
import html.parser
import json
import re
import secrets
import subprocess
import sys
import threading

import requests
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import REQUEST_SHAPE_PROBES, coverage_scenario, negated_parameters

HOSTED_PAGES = ("/u/", "/account", "/admin", "/authorize", "/oidc/logout")
_BASE = os.environ.get("API_FUZZ_URL", "").rstrip("/")
# `sesame init --json`: the demo app, its connection, the management client, the admin setup link.
_INIT = json.load(open(os.environ["API_FUZZ_INIT_FILE"])) if os.environ.get("API_FUZZ_INIT_FILE") else {}
_APP = os.environ.get("API_FUZZ_APP_CLIENT_ID")
# Where the run that makes the administrator leaves its credentials for the other run.
_ADMIN_FILE = os.environ.get("API_FUZZ_ADMIN_FILE")
_STATE = {}
_LOCK = threading.RLock()
_HTTP = requests.Session()
_HTTP.trust_env = False  # the server is on loopback: no proxy


class _FixtureError(Exception):
    """A fixture's request was not answered as a browser's would be."""


def _expect(answer, status, what):
    if answer.status_code != status:
        raise _FixtureError(f"{what}: {answer.status_code} {answer.text[:160]!r}")
    return answer


class _HiddenInputs(html.parser.HTMLParser):
    """The non-empty hidden inputs of a page (csrf, tx, ceremony, enrollment, …), first of each name."""

    def __init__(self, text):
        super().__init__()
        self.fields = {}
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and attrs.get("type") == "hidden" and attrs.get("name") and attrs.get("value"):
            self.fields.setdefault(attrs["name"], attrs["value"])


class _Browser:
    """A browser: its cookie jar (the device id; a session once signed in) and its forms' CSRF token,
    an HMAC of the device id, so the same in every form the browser is shown."""

    # The server keeps 20 pending sign-ins per browser (AuthorizationService.maxPerBrowser).
    MAX_PENDING = 15

    def __init__(self):
        self.http = requests.Session()
        self.http.trust_env = False
        self.csrf = None
        self.pending = 0

    def send(self, method, path, **kwargs):
        if not path.startswith("/"):
            raise _FixtureError(f"not a path of the server under test: {path[:80]!r}")
        return self.http.request(method, _BASE + path, allow_redirects=False, timeout=10, **kwargs)

    def page(self, method, path, **kwargs):
        """A page and its hidden inputs; its CSRF token is kept."""
        answer = self.send(method, path, **kwargs)
        fields = _HiddenInputs(answer.text).fields
        self.csrf = fields.get("csrf", self.csrf)
        return answer, fields

    def cookies(self):
        jar = self.http.cookies.get_dict()
        return {name: jar[name] for name in ("sesame-device", "sesame-session", "sesame-admin-setup") if name in jar}

    def signed_in(self):
        return "sesame-session" in self.http.cookies.get_dict()

    def token(self):
        """The browser's CSRF token: the first time, from the sign-in page of a sign-in it begins."""
        if self.csrf is None:
            self.authorize()
        return self.csrf

    def authorize(self):
        """A sign-in to the demo app, begun as its browser would (code flow, PKCE S256): the handle of
        the pending sign-in /authorize redirects to. The first one fetches the sign-in page for the
        browser's CSRF token."""
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        answer = self.send("GET", "/authorize", params={
            "client_id": _APP, "redirect_uri": _callback(), "response_type": "code", "scope": "openid",
            "state": secrets.token_urlsafe(12), "code_challenge": challenge, "code_challenge_method": "S256"})
        match = re.fullmatch(r"/u/(?:login|signup)\?tx=([\w-]+)", answer.headers.get("Location", ""))
        if answer.status_code != 302 or not match:
            where = answer.headers.get("Location", answer.text[:160])
            raise _FixtureError(f"/authorize: {answer.status_code} {where!r}")
        self.pending += 1
        if self.csrf is None:
            _expect(self.page("GET", "/u/login", params={"tx": match.group(1)})[0], 200, "sign-in page")
        return match.group(1)


def _management_get(path, **params):
    """A Management API read for a fixture (the outbox, the demo app), with the management client of
    `sesame init`, in both runs: the cases of the unauthenticated run still carry no credentials."""
    for _ in range(2):
        if "management" not in _STATE:
            answer = _expect(_HTTP.post(_BASE + "/oauth/token", timeout=10, json={
                "grant_type": "client_credentials", "client_id": _INIT["management_client_id"],
                "client_secret": _INIT["management_client_secret"], "audience": _BASE + "/api/v2/"}), 200, "token")
            _STATE["management"] = answer.json()["access_token"]
        answer = _HTTP.get(_BASE + path, params=params, timeout=10,
                           headers={"Authorization": "Bearer " + _STATE["management"]})
        if answer.status_code != 401:  # a fuzzed signing-key rotation retires old tokens
            return _expect(answer, 200, path).json()
        del _STATE["management"]
    raise _FixtureError(f"{path}: the management token was refused")


def _callback():
    """The demo app's callback URL (`sesame init` registers the public URL's root)."""
    if "callback" not in _STATE:
        _STATE["callback"] = _management_get("/api/v2/clients/" + _APP)["callbacks"][0]
    return _STATE["callback"]


# The pending sign-ins of the /u/ pages are begun in one browser that never signs in (so /authorize
# always stops at the sign-in page), replaced before the server's cap of pending sign-ins per browser.
def _transactions():
    browser = _STATE.get("transactions")
    if browser is None or browser.pending >= _Browser.MAX_PENDING:
        browser = _STATE["transactions"] = _Browser()
    return browser


def _new_user(browser):
    """A new user with a password, signed up at /u/signup in `browser`, which is then signed in."""
    tx = browser.authorize()
    user = {"username": f"hosted-{secrets.token_hex(6)}@example.com", "password": "Fz-" + secrets.token_urlsafe(18)}
    answer = browser.send("POST", "/u/signup", data={
        "csrf": browser.csrf, "tx": tx, "email": user["username"], "password": user["password"], "method": "password"})
    if answer.status_code != 303 or not browser.signed_in():
        raise _FixtureError(f"signup: {answer.status_code} {answer.text[:160]!r}")
    # Kept from the fuzzer's changes, like the run's own fixtures: a case that learned the id from a
    # user list would otherwise change its password or delete it.
    for listed in _management_get("/api/v2/users", q=user["username"]):
        PROTECTED.add(listed["user_id"])
    return user


def _password_step(browser, tx, user):
    """The identifier, then the password, on the sign-in page of `tx`: the password step's answer."""
    _expect(browser.send("POST", "/u/login", data={"csrf": browser.csrf, "tx": tx, "username": user["username"]}),
            200, "identifier step")
    return browser.send("POST", "/u/login/password",
                        data={"csrf": browser.csrf, "tx": tx, "password": user["password"]})


def _sign_in(user):
    """A new browser signed in as `user` at the hosted pages ("Not now" to the passkey prompt), or
    None when the password no longer signs in."""
    browser = _Browser()
    tx = browser.authorize()
    answer = _password_step(browser, tx, user)
    if answer.status_code == 200 and 'action="/u/passkey-enroll/skip"' in answer.text:
        answer = browser.send("POST", "/u/passkey-enroll/skip",
                              data={"csrf": browser.csrf, "tx": tx, "choice": "later"})
    return browser if answer.status_code == 303 and browser.signed_in() else None


# /account: a user of the hooks' own (not the run's fuzz user, whose password the authenticated run
# signs in with: a fuzzed POST /account/upgrade/password or /account/password could change it), kept
# signed in. A fuzzed /account/logout or /account/sessions/end-all ends the session (after_call): the
# next case signs in again; a password the fuzzer changed makes a new user. The same user, who has
# no passkey, gets the passkey-enrollment prompts and links below.
def _account():
    # Credential changes ask for a sign-in of the last five minutes (max_auth_age): sooner, a new one.
    if "account" in _STATE and time.monotonic() - _STATE.get("account_at", 0) > 240:
        _STATE.pop("account")
    if "account" not in _STATE:
        user = _STATE.get("account_user")
        browser = _sign_in(user) if user else None
        if browser is None:
            browser = _Browser()
            _STATE["account_user"] = _new_user(browser)
        _STATE["account"] = browser
        _STATE["account_at"] = time.monotonic()
    return _STATE["account"]


def _account_ids(browser, prefix, suffix):
    """The ids in the account page's forms whose action is prefix + id + suffix."""
    answer = _expect(browser.send("GET", "/account"), 200, "/account")
    found = re.findall('action="' + re.escape(prefix) + '([^"/]+)' + re.escape(suffix) + '"', answer.text)
    return [urllib.parse.unquote(html.unescape(item)) for item in found]


def _account_passkey_form(browser, path):
    """The ceremony of the passkey page at `path` and a passkey made for it."""
    answer, fields = browser.page("GET", path)
    _expect(answer, 200, path)
    return {"ceremony": fields.get("ceremony"),
            "credential": json.dumps(_PROVIDER.create(_script_json(answer.text, "passkey-creation")))}


def _account_passkey(browser):
    """The id of one of the account user's passkeys, enrolled now when they have none."""
    ids = _account_ids(browser, "/account/passkeys/", "/rename")
    if not ids:
        form = _account_passkey_form(browser, "/account/passkeys/enroll")
        _expect(browser.send("POST", "/account/passkeys/enroll", data=dict(form, csrf=browser.csrf)), 303,
                "passkey enrollment")
        ids = _account_ids(browser, "/account/passkeys/", "/rename")
    if not ids:
        raise _FixtureError("the account page lists no passkey")
    return ids[0]


def _account_session():
    """The id of another session of the account user: signed in now in another browser."""
    if _sign_in(_STATE["account_user"]) is None:
        raise _FixtureError("the account user no longer signs in with the password")
    ids = _account_ids(_STATE["account"], "/account/sessions/", "/end")
    if not ids:
        raise _FixtureError("the account page lists no other session")
    return ids[-1]


def _account_with_factor():
    """A new user with an authenticator app, signed in at the hosted pages with both factors (their
    own browser: a factor makes the account user's other steps ask for it), and the factor's id."""
    browser, fields, user = _second_factor_step()
    _STATE.pop("mfa_user", None)  # the case may remove the factor: the other MFA cases get a user of their own
    answer = browser.send("POST", "/u/mfa", data=dict(fields, mode="otp", otp=_totp(user["secret"], at=time.time() + 30)))
    if answer.status_code == 200 and 'action="/u/passkey-enroll/skip"' in answer.text:
        answer = browser.send("POST", "/u/passkey-enroll/skip",
                              data={"csrf": browser.csrf, "tx": fields["tx"], "choice": "later"})
    if answer.status_code != 303 or not browser.signed_in():
        raise _FixtureError(f"two-factor sign-in: {answer.status_code} {answer.text[:160]!r}")
    ids = _account_ids(browser, "/account/mfa/", "/delete")
    if not ids:
        raise _FixtureError("the account page lists no factor")
    return browser, ids[0]


def _forget_account_user():
    _STATE.pop("account", None)
    _STATE.pop("account_user", None)


# /admin: an administrator made once per server, in whichever run first needs one: a new user who
# opens the one-time setup link `sesame init` printed and submits its form (a new link from
# `sesame admin setup-link` if that one is spent). Its credentials go to API_FUZZ_ADMIN_FILE so the
# other run signs in as the same administrator.
def _admin():
    if "admin" in _STATE:
        return _STATE["admin"]
    saved = json.load(open(_ADMIN_FILE)) if _ADMIN_FILE and os.path.exists(_ADMIN_FILE) else None
    browser = _sign_in(saved) if saved else None
    if browser is None:
        browser = _Browser()
        user = _new_user(browser)
        link = urllib.parse.urlsplit(_INIT.get("admin_setup_url", "")).query
        token = urllib.parse.parse_qs(link).get("token", [None])[0] if saved is None else None
        answer, _ = browser.page("GET", "/admin/setup", params={"token": token or _mint_setup_token()})
        if answer.status_code != 200:
            answer, _ = browser.page("GET", "/admin/setup", params={"token": _mint_setup_token()})
        _expect(answer, 200, "admin setup page")
        answer = browser.send("POST", "/admin/setup", data={"csrf": browser.csrf})
        if answer.status_code != 303 or answer.headers.get("Location") != "/admin":
            raise _FixtureError(f"admin setup: {answer.status_code} {answer.text[:160]!r}")
        if _ADMIN_FILE:
            with open(_ADMIN_FILE, "w") as file:
                json.dump(user, file)
    _STATE["admin"] = browser
    return browser


# GET and POST /admin/setup: a live setup link's token (`sesame admin setup-link` on the server's
# store; each new link retires the one before). GETs share one; each POST gets its own, as the
# claim spends it.
def _mint_setup_token():
    result = subprocess.run(
        [os.environ["API_FUZZ_SESAME_BIN"], "admin", "setup-link", "--data", os.environ["API_FUZZ_DATA_DIR"]],
        capture_output=True, text=True, timeout=30, check=True)
    match = re.search(r"/admin/setup\?token=([\w-]+)", result.stdout)
    if not match:
        raise _FixtureError(f"sesame admin setup-link: {result.stdout[:160]!r}")
    _STATE.pop("setup_token", None)
    return match.group(1)


def _setup_token():
    if "setup_token" not in _STATE:
        _STATE["setup_token"] = _mint_setup_token()
    return _STATE["setup_token"]


# Mailed tickets (reset and verification links) from the outbox, for a user the hooks signed up:
# a new one after 4 reset links (the server keeps 5 per user).
def _mailed_ticket(email, template):
    messages = [message for message in _management_get("/api/v2/outbox", to=email)
                if message.get("template") == template]
    newest = max(messages, key=lambda message: message["created_at"])["text"] if messages else ""
    match = re.search(r"\?ticket=([\w-]+)", newest)
    if not match:
        raise _FixtureError(f"no {template} message for {email}")
    return match.group(1)


def _mailbox():
    user = _STATE.get("mailbox")
    if user is None or user["resets"] >= 4:
        user = _STATE["mailbox"] = dict(_new_user(_Browser()), resets=0)
        _STATE.pop("reset_ticket", None)
    return user


def _reset_ticket(fresh):
    """A password-reset link's ticket ("Forgot password?" for the mailbox user). Opening the link
    spends nothing, so GETs share one; a POST may spend it, so each gets its own."""
    if fresh or "reset_ticket" not in _STATE:
        user = _mailbox()
        browser = _transactions()
        tx = browser.authorize()
        _expect(browser.send("POST", "/u/reset-password/request",
                             data={"csrf": browser.csrf, "tx": tx, "email": user["username"]}), 200, "reset request")
        user["resets"] += 1
        _STATE["reset_ticket"] = _mailed_ticket(user["username"], "password_reset")
    ticket = _STATE["reset_ticket"]
    if fresh:
        del _STATE["reset_ticket"]
    return ticket


def _verify_ticket(fresh):
    """An email-verification link's ticket: the mailbox user's for GETs (opening it confirms
    nothing), a new user's for each POST (confirming spends it)."""
    if fresh:
        return _mailed_ticket(_new_user(_Browser())["username"], "verify_email")
    if "verify_ticket" not in _STATE:
        _STATE["verify_ticket"] = _mailed_ticket(_mailbox()["username"], "verify_email")
    return _STATE["verify_ticket"]


def _enrollment_ticket():
    """The one-time link of a token response's passkey_enrollment prompt (docs/migration.md §3): a
    password login of the account user, who has no passkey, as the demo app."""
    for _ in range(2):
        _account()
        user = _STATE["account_user"]
        answer = _HTTP.post(_BASE + "/oauth/token", timeout=10, json={
            "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": _APP,
            "realm": os.environ.get("API_FUZZ_CONNECTION"), "username": user["username"],
            "password": user["password"], "scope": "openid"})
        link = answer.json().get("passkey_enrollment", {}).get("enroll_url", "") if answer.status_code == 200 else ""
        match = re.search(r"/u/passkey-enroll\?ticket=([\w-]+)$", link)
        if match:
            return match.group(1)
        _forget_account_user()  # its password changed, or it holds the most tickets a user may
    raise _FixtureError(f"no passkey_enrollment link: {answer.status_code} {answer.text[:160]!r}")


def _held_sign_in():
    """A sign-in held at the passkey-enrollment prompt, the page that carries the /u/passkey-enroll
    forms: the account user's password sign-in (the user has no passkey). Its hidden inputs."""
    for _ in range(2):
        _account()
        browser = _Browser()  # its own: a case that creates the passkey signs it in
        tx = browser.authorize()
        answer = _password_step(browser, tx, _STATE["account_user"])
        if answer.status_code == 200 and 'action="/u/passkey-enroll/skip"' in answer.text:
            return browser, _with_new_passkey(answer.text, _HiddenInputs(answer.text).fields)
        _forget_account_user()
    raise _FixtureError(f"no passkey-enrollment prompt: {answer.status_code} {answer.text[:160]!r}")


def _identified_sign_in(browser=None):
    """A sign-in past its identifier step, the page that carries the password form: the mailbox user
    (wrong passwords lock that account, which no other fixture signs in as)."""
    browser = browser or _transactions()
    tx = browser.authorize()
    _expect(browser.send("POST", "/u/login", data={"csrf": browser.csrf, "tx": tx, "username": _mailbox()["username"]}),
            200, "identifier step")
    return browser, {"csrf": browser.csrf, "tx": tx}


# /admin/clients/{id} and /admin/users/{id}: objects of the hooks' own, so the pages act on a real
# client and user instead of answering 404: a client the administrator made on the admin page (not
# the demo app or the management client), and the mailbox user. Made again when a case's 404 says a
# fuzzed Management API call deleted them (after_call).
def _admin_client():
    if "admin_client" not in _STATE:
        browser = _admin()
        answer = _expect(browser.send("POST", "/admin/clients", data={
            "csrf": browser.csrf, "name": "api-fuzz hooks", "app_type": "spa"}), 200, "new client")
        match = re.search(r'action="/admin/clients/([^"/?]+)"', answer.text)
        if not match:
            raise _FixtureError("the new client's page names no client")
        _STATE["admin_client"] = urllib.parse.unquote(match.group(1))
    return _STATE["admin_client"]


def _admin_user():
    user = _mailbox()
    if "id" not in user:
        answer, _ = _admin().page("GET", "/admin/users", params={"q": user["username"]})
        match = re.search(r'href="/admin/users/([^"/?]+)"', answer.text)
        if not match:
            raise _FixtureError(f"/admin/users does not list {user['username']}")
        user["id"] = urllib.parse.unquote(match.group(1))
    return user["id"]


def _fixture(method, path, wanted):
    """The browser that sends this request, extra cookies, and the values of its fields, taken from
    the page that carries the form or from a link. `wanted`: the case's fields that can take one; a
    page that reads only cookies (/account, /admin) gets its browser whatever the case holds."""
    if path == "/account/mfa/{id}/delete":
        browser, factor = _account_with_factor()
        return browser, {}, {"csrf": browser.csrf, "id": factor}
    if path.startswith("/account"):
        browser = _account()
        values = {"csrf": browser.csrf}
        if path.startswith("/account/passkeys/{id}/"):
            values["id"] = _account_passkey(browser)
        elif path == "/account/sessions/{id}/end":
            values["id"] = _account_session()
        if path in ("/account/password", "/account/upgrade/password") and method == "POST":
            values.update(current=_STATE["account_user"]["password"],
                          password=_setting_password(path, _STATE["account_user"], _strong_password()))
        elif path in ("/account/passkeys/enroll", "/account/upgrade/passkey") and method == "POST":
            # The page's ceremony and a passkey made for it (an upgrade replaces the account user's
            # password: the next case signs a new user in).
            try:
                values.update(_account_passkey_form(browser, path))
            except _FixtureError:  # signed out by an upgrade, or upgraded already: a new account user
                _forget_account_user()
                browser = _account()
                values.update(_account_passkey_form(browser, path), csrf=browser.csrf)
        return browser, {}, values
    if path == "/admin/setup":
        browser = _admin()
        token = _mint_setup_token() if method == "POST" else _setup_token()
        # The page keeps the link's token in a cookie while its opener signs in.
        return browser, {"sesame-admin-setup": token}, {"csrf": browser.csrf, "token": token}
    if path.startswith("/admin"):
        browser = _admin()
        values = {"csrf": browser.csrf}
        if "id" in wanted and path.startswith("/admin/clients/"):
            values["id"] = _admin_client()
        if path == "/admin/clients/{id}" and method == "POST":
            # The lists are one URL, origin or fingerprint a line (the document says so in words).
            # The app settings go together: a team id names a bundle id, a package its fingerprints.
            values.update(callbacks="https://app.example/callback", allowed_logout_urls="https://app.example/",
                          allowed_origins="https://app.example", ios_team_id="ABCDE12345",
                          ios_bundle_id="com.example.fuzz", android_package="com.example.fuzz",
                          android_fingerprints=":".join(["AB"] * 32))
        elif "id" in wanted and path.startswith("/admin/users/"):
            values["id"] = _admin_user()
        return browser, {}, values
    if path == "/authorize":
        # The demo app and its callback, which /authorize checks before anything else: the rest of the
        # request is then what the case tests. (No CSRF token: a client's page posts this form.)
        return None, {}, {"client_id": _APP, "redirect_uri": _callback()}
    if path.startswith("/u/assets/") or path == "/u/apple/callback" or path == "/oidc/logout" and method == "GET":
        # Static files; logout by link (no form); Apple's form post, which is cross-site (no cookie, no
        # CSRF token) and whose state comes from Apple's web sign-in, which the fuzz server lacks.
        return None, {}, {}
    if not wanted:  # no field of the case can take a page's value: the page reads nothing else
        return None, {}, {}
    if path == "/oidc/logout":
        browser = _transactions()
        return browser, {}, {"csrf": browser.token()}
    if path == "/u/login/password":
        # The mailbox user's own password, in a browser of the case's own (it ends signed in).
        browser, fields = _identified_sign_in(_Browser())
        return browser, {}, dict(fields, password=_mailbox()["password"])
    if path == "/u/signup" and method == "POST":
        browser = _Browser()
        return browser, {}, {"tx": browser.authorize(), "csrf": browser.csrf, "email": _new_address(),
                             "password": _strong_password()}
    if path == "/u/signup/passkey":
        browser = _Browser()
        tx = browser.authorize()
        answer, fields = browser.page("POST", "/u/signup", data={
            "csrf": browser.csrf, "tx": tx, "email": _new_address(), "method": "passkey"})
        options = _script_json(answer.text, "passkey-creation")
        return browser, {}, dict(fields, tx=tx, csrf=browser.csrf,
                                 credential=json.dumps(_PROVIDER.create(options)))
    if path == "/u/login/passkey":
        browser = _Browser()
        tx = browser.authorize()
        answer, fields = browser.page("GET", "/u/login", params={"tx": tx})
        options = _script_json(answer.text, "passkey-options")
        return browser, {}, dict(fields, tx=tx, csrf=browser.csrf,
                                 credential=json.dumps(_PROVIDER.get(options, _passkey_user())))
    if path in ("/u/recover/verify", "/u/recover/password"):
        browser, fields, code = _recovery(past_code=path == "/u/recover/password")
        return browser, {}, dict(fields, code=code, password=_strong_password())
    if path == "/u/recover" and method == "POST":
        browser = _transactions()
        return browser, {}, {"tx": browser.authorize(), "csrf": browser.csrf, "email": _mailbox()["username"]}
    if path in ("/u/mfa/recovery-code", "/u/mfa/recovery-code/saved"):
        browser, fields = _new_recovery_code_step()
        return browser, {}, dict(fields, saved="yes")
    if path == "/u/upgrade/password":
        browser, fields = _upgrade_offer()
        return browser, {}, dict(fields, password=_strong_password())
    if path in ("/u/mfa", "/u/mfa/method"):
        browser, fields, user = _second_factor_step()
        return browser, {}, dict(fields, otp=_totp(user["secret"], at=time.time() + 30), mode="otp", method="otp")
    if path in ("/u/passkey-enroll", "/u/passkey-enroll/skip") and method == "POST":
        browser, fields = _held_sign_in()
        return browser, {}, fields
    if path == "/u/passkey-enroll":
        return _transactions(), {}, {"ticket": _enrollment_ticket()}
    if path.startswith("/u/passkey-enroll/ticket"):
        browser = _transactions()
        answer, fields = browser.page("GET", "/u/passkey-enroll", params={"ticket": _enrollment_ticket()})
        _expect(answer, 200, "passkey-enrollment page")
        return browser, {}, _with_new_passkey(answer.text, fields)
    if path == "/u/reset-password":
        browser = _transactions()
        ticket = _reset_ticket(fresh=method == "POST")
        return browser, {}, {"csrf": browser.token(), "ticket": ticket,
                             "password": _setting_password(path, _mailbox(), _strong_password())}
    if path == "/u/verify-email":
        browser = _transactions()
        return browser, {}, {"csrf": browser.token(), "ticket": _verify_ticket(fresh=method == "POST")}
    # Every other /u/ page: a sign-in begun for this case alone (a case may finish or change it).
    browser = _transactions()
    return browser, {}, {"tx": browser.authorize(), "csrf": browser.csrf}


def _declared(method, path):
    """The path and query parameters and form fields the server's OpenAPI document declares for an
    operation, with their maxLength."""
    if "declared" not in _STATE:
        document = _expect(_HTTP.get(_BASE + "/openapi.json", timeout=10), 200, "/openapi.json").json()
        table = {}
        for template, item in document["paths"].items():
            for verb, operation in item.items():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue
                content = operation.get("requestBody", {}).get("content", {})
                form = content.get("application/x-www-form-urlencoded", {}).get("schema", {}).get("properties", {})
                parameters = operation.get("parameters", [])
                table[(verb.upper(), template)] = {
                    location: {parameter["name"]: parameter.get("schema", {}).get("maxLength")
                               for parameter in parameters if parameter.get("in") == location}
                    for location in ("path", "query")
                }
                table[(verb.upper(), template)]["form"] = {
                    name: schema.get("maxLength") for name, schema in form.items()}
        _STATE["declared"] = table
    return _STATE["declared"].get((method, path), {"path": {}, "query": {}, "form": {}})


def _fits(value, max_length):
    return isinstance(value, str) and (max_length is None or len(value) <= max_length)


def _slots(case, method, path):
    """The case's fields that may take a real value, as {name: container}: a path or query parameter or
    form field the document declares whose generated value is a string within its maxLength (for a
    parameter, the value before coverage stringified it) and that a negative case did not mutate; and
    a field the page's form carries that the document leaves out."""
    declared = _declared(method, path)
    meta = case._meta  # `case.meta` would revalidate the case before the hook has changed it
    mutated = {name for name, _ in negated_parameters(meta)}
    slots = {}
    for location, container in ((ParameterLocation.PATH, case.path_parameters), (ParameterLocation.QUERY, case.query)):
        typed = (meta.raw_containers.get(location) if meta is not None else None) or {}
        if isinstance(container, dict):
            for name, max_length in declared[location.value].items():
                if name in container and name not in mutated and _fits(typed.get(name, container[name]), max_length):
                    slots[name] = container
    if isinstance(case.body, dict):
        positive = meta is not None and meta.generation.mode.is_positive
        for name, max_length in declared["form"].items():
            if name in case.body and name not in mutated and _fits(case.body[name], max_length):
                slots[name] = case.body
            elif positive and name not in case.body:
                slots[name] = case.body  # a valid form may carry any member it declares
    return slots


def _browser_state(case):
    method, path = case.operation.method.upper(), case.operation.path
    # A probe with a method the operation does not have, or a Content-Type it does not take, is
    # malformed on purpose: sent as generated.
    if case.method.upper() != method or coverage_scenario(case) in REQUEST_SHAPE_PROBES:
        return
    with _LOCK:
        try:
            slots = _slots(case, method, path)
            browser, cookies, values = _fixture(method, path, set(slots))
        except Exception as error:  # the case is still sent, as generated; the log says why
            print(f"api-fuzz hooks: {method} {path} sent without browser state: {error!r}", file=sys.stderr)
            return
    for name, container in slots.items():
        if values.get(name):
            container[name] = values[name]
    # POST /authorize declares no fields (any string pairs): the demo app goes into valid bodies.
    if path == "/authorize" and method == "POST" and isinstance(case.body, dict) and case._meta is not None \
            and case._meta.generation.mode.is_positive:
        for name in ("client_id", "redirect_uri"):
            case.body[name] = values[name]
    if browser is not None:
        case.cookies = {**(case.cookies or {}), **browser.cookies(), **cookies}


def _after_signed_in_page(case, path, response):
    """A session a case ended (logout, sign out everywhere, a 401, a redirect to sign in) is signed in
    again for the next case; a client or user of the hooks' that is gone is made again."""
    location = (response.headers.get("location") or [""])[0]
    set_cookies = " ".join(response.headers.get("set-cookie") or [])
    signed_out = response.status_code == 401 or location.startswith("/u/login") or "sesame-session=;" in set_cookies
    role = "account" if path.startswith("/account") else "admin"
    with _LOCK:
        browser = _STATE.get(role)
        sent = (case.cookies or {}).get("sesame-session")
        if signed_out and browser is not None and sent == browser.cookies().get("sesame-session"):
            _STATE.pop(role)
        elif response.status_code == 404 and isinstance(case.path_parameters, dict):
            sent = case.path_parameters.get("id")
            if path.startswith("/admin/clients/") and sent == _STATE.get("admin_client"):
                _STATE.pop("admin_client")
            elif path.startswith("/admin/users/") and sent == _STATE.get("mailbox", {}).get("id"):
                _STATE.pop("mailbox")


# The JSON API's positive cases (both runs): what a real caller holds and the generator cannot invent,
# put into the fields the case already has (only where the generated value is a string, so the shape
# of the case is the generator's). Each such operation then has cases the server accepts, and the
# rest of each body is what decides: a single-use secret minted for the case (an upgrade token, a
# reset ticket), a password that meets the connection's rules where the body sets one, a user's own
# password for the password grant, the hooks' own connection and user for the PATCH cases, a new API
# for a client grant. A fixture that fails leaves the case as generated and says so on stderr.
_TARGETS = json.load(open(os.environ["API_FUZZ_TARGETS_FILE"])) if os.environ.get("API_FUZZ_TARGETS_FILE") else {}
_AUTHENTICATED = os.environ.get("API_FUZZ_AUTH") == "1"


def _is_positive(case):
    meta = case._meta
    return meta is not None and meta.generation.mode.is_positive and coverage_scenario(case) not in REQUEST_SHAPE_PROBES


def _strong_password():
    return "Fz-" + secrets.token_urlsafe(18)


def _management(method, path, body):
    """A Management API write for a fixture, with the token `_management_get` keeps."""
    _management_get("/api/v2/clients/" + _APP)  # a live token in _STATE
    answer = _HTTP.request(method, _BASE + path, json=body, timeout=10,
                           headers={"Authorization": "Bearer " + _STATE["management"]})
    if answer.status_code not in (200, 201):
        raise _FixtureError(f"{method} {path}: {answer.status_code} {answer.text[:160]!r}")
    return answer.json()


def _upgrader():
    """A user of the hooks' own whose upgrades the upgrade cases authorize: a strong-password upgrade
    changes its password (after_call keeps the new one)."""
    # A user may hold only a few upgrade tokens at once: a new user every few.
    if "upgrader" not in _STATE or _STATE["upgrader"].get("tokens", 0) >= 4:
        _STATE["upgrader"] = _new_user(_Browser())
    return _STATE["upgrader"]


def _signer():
    """A user of the hooks' own that the password-grant cases sign in as (no case changes its password)."""
    if "signer" not in _STATE:
        _STATE["signer"] = _new_user(_Browser())
    return _STATE["signer"]


_APPLE_OPTIONS = ("team_id", "kid", "client_id", "app_id", "app_secret", "issuer", "jwks_uri", "token_endpoint",
                  "authorization_endpoint")


def _valid_apple_options(options):
    """What the server checks of an Apple connection's options beyond their form: a P-256 key, and
    https URLs (the generator's URIs may be of any scheme)."""
    if "app_secret" in options:
        from cryptography.hazmat.primitives import serialization
        options["app_secret"] = _ec_key().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    for name, url in (("jwks_uri", "https://appleid.apple.com/auth/keys"),
                      ("token_endpoint", "https://appleid.apple.com/auth/token"),
                      ("authorization_endpoint", "https://appleid.apple.com/auth/authorize")):
        if name in options:
            options[name] = url
    if "app_id" in options:
        options["app_id"] = ["com.example.fuzz"]


# OWASP's Argon2id rows (docs/management-api.md): memory_cost and time_cost together reach one.
_OWASP_ROWS = ((47104, 1), (19456, 2), (12288, 3), (9216, 4), (7168, 5))


def _valid_connection_options(options):
    """What the document says in words and a generator cannot know: Argon2id parameters that reach
    an OWASP row together (the one not given is the connection's own, 19456 and 2 by default, or
    what an earlier case set: both are given here), and an identifier left active."""
    if not isinstance(options, dict):
        return
    hashing = options.get("password_hashing")
    if isinstance(hashing, dict) and ("memory_cost" in hashing or "time_cost" in hashing):
        memory, time = hashing.get("memory_cost"), hashing.get("time_cost")
        memory = memory if isinstance(memory, int) and not isinstance(memory, bool) else 19456
        time = time if isinstance(time, int) and not isinstance(time, bool) else 2
        if not any(memory >= row_memory and time >= row_time for row_memory, row_time in _OWASP_ROWS):
            time = max(time, 5)
            memory = max(memory, 7168)
        hashing.update(memory_cost=min(memory, 262144), time_cost=min(time, 16))
    attributes = options.get("attributes")
    if isinstance(attributes, dict):
        attributes["email"] = {"identifier": {"active": True}, "signup": {"status": "optional"}}


def _upgrade_token(kind, user=None):
    """A fresh upgrade token of `kind` for `user`, the upgrader by default (the system-initiated
    form: the app's client, the username and the password)."""
    user = user or _upgrader()
    # The realm is named: a fuzzed tenant setting may make another connection the default.
    answer = _HTTP.post(_BASE + "/me/v1/upgrades/authorize", timeout=10, json={
        "type": kind, "client_id": _APP, "username": user["username"], "password": user["password"],
        "realm": REAL_VALUES["realm"]})
    if answer.status_code != 200:
        raise _FixtureError(f"upgrade authorization: {answer.status_code} {answer.text[:160]!r}")
    user["tokens"] = user.get("tokens", 0) + 1
    return answer.json()["upgrade_token"]


def _set(case, name, value):
    if isinstance(case.body.get(name), str):
        case.body[name] = value


def _api_state(case, method, path):
    if path.startswith(HOSTED_PAGES):
        return
    with _LOCK:
        try:
            if method == "PATCH" and path == "/api/v2/connections/{id}" and isinstance(case.path_parameters, dict):
                options = case.body.get("options") if isinstance(case.body, dict) else None
                apple = isinstance(options, dict) and any(name in options for name in _APPLE_OPTIONS)
                case.path_parameters["id"] = _TARGETS["apple_connection" if apple else "connection"]
                if apple:
                    _valid_apple_options(options)
            elif method == "PATCH" and path == "/api/v2/users/{id}" and isinstance(case.path_parameters, dict):
                case.path_parameters["id"] = _TARGETS["user"]
            if method == "PATCH" and path == "/me/v1/authentication-methods/{id}" and _AUTHENTICATED \
                    and isinstance(case.path_parameters, dict):
                case.path_parameters["id"] = _fuzz_passkey_id()
            if not isinstance(case.body, dict):
                return
            if method == "POST" and path == "/api/v2/client-grants":
                api = _management("POST", "/api/v2/resource-servers", {
                    "identifier": f"https://fuzz-{secrets.token_hex(6)}.example/", "name": "api-fuzz hooks"})
                _set(case, "audience", api["identifier"])
                _set(case, "client_id", _APP)
            elif (method, path) in (("POST", "/api/v2/users"), ("PATCH", "/api/v2/users/{id}"),
                                    ("POST", "/dbconnections/signup")):
                if method == "POST" and path == "/api/v2/users" and "custom_password_hash" in case.body:
                    # An imported hash must be one its algorithm could have made: the case becomes the
                    # password form (the import is tested with real hashes in the Swift tests).
                    del case.body["custom_password_hash"]
                    case.body["password"] = ""
                _set(case, "password", _strong_password())
                _fresh_identifiers(case.body)
                if method == "POST" and not any(isinstance(case.body.get(name), str)
                                                for name in ("email", "phone_number", "username")):
                    case.body["email"] = f"fuzz-{secrets.token_hex(6)}@example.com"
            elif path == "/mfa/associate":
                # The factors the case may name, on (a fuzzed PUT may have turned them off); the
                # MFA API's caller is its token, and this public app has no secret.
                _otp_on()
                _management("PUT", "/api/v2/guardian/factors/sms", {"enabled": True})
                case.body.pop("client_secret", None)
            elif path == "/passkey/register" and isinstance(case.body.get("user_profile"), dict):
                profile = case.body["user_profile"]
                _fresh_identifiers(profile)
                if not any(isinstance(profile.get(name), str) for name in ("email", "phone_number", "username")):
                    profile["email"] = f"fuzz-{secrets.token_hex(6)}@example.com"
            elif path == "/me/v1/upgrades/authorize":
                if _AUTHENTICATED:  # the bearer token is the caller: no password beside it
                    for name in ("username", "password", "client_secret"):
                        case.body.pop(name, None)
                else:
                    user = _upgrader()
                    user["tokens"] = user.get("tokens", 0) + 1  # the case may mint one
                    case.body.pop("client_secret", None)
                    case.body.update(client_id=_APP, username=user["username"], password=user["password"],
                                     realm=REAL_VALUES["realm"])
            elif path == "/me/v1/upgrades/strong-password":
                user = _upgrader()
                _set(case, "upgrade_token", _upgrade_token("strong_password", user))
                _set(case, "new_password", _setting_password(path, user, _strong_password()))
            elif path == "/me/v1/upgrades/passkey":
                _set(case, "upgrade_token", _upgrade_token("passkey"))
            elif path == "/me/v1/upgrades/sign-in-with-apple":
                # A new user each time: the upgrade ends the password, and links the Apple ID.
                user = _new_user(_Browser())
                token, nonce, code = _apple_sign_in(user)
                _set(case, "upgrade_token", _upgrade_token("sign_in_with_apple", user))
                _set(case, "identity_token", token)
                _set(case, "nonce", nonce)
                _set(case, "authorization_code", code)
            elif path == "/dbconnections/reset_password":
                _set(case, "ticket", _reset_ticket(fresh=True))
                _set(case, "password", _setting_password(path, _mailbox(), _strong_password()))
            elif path == "/oauth/token" and case.body.get("grant_type") in (
                    "password", "http://auth0.com/oauth/grant-type/password-realm"):
                # Both or neither: a generated password beside a real username counts as a failed
                # login, and enough of them lock the user out.
                user = _signer()
                case.body.update(username=user["username"], password=user["password"], realm=REAL_VALUES["realm"])
                for name in ("audience", "scope", "redirect_uri", "client_secret"):  # the app's defaults
                    case.body.pop(name, None)
            elif path in ("/api/v2/connections", "/api/v2/connections/{id}"):
                _valid_connection_options(case.body.get("options"))
                # A new Apple connection serves the management client only, and sorts after the
                # fixture's "apple": the demo app and the account page (each takes the first Apple
                # connection by name that serves it) keep the fake's.
                if case.body.get("strategy") == "apple":
                    case.body["enabled_clients"] = [_INIT["management_client_id"]]
                    if isinstance(case.body.get("name"), str):
                        case.body["name"] = "fuzz-apple-" + secrets.token_hex(4)
            elif path == "/oauth/token" and case.body.get("grant_type") == "urn:okta:params:oauth:grant-type:webauthn":
                session, credential = _passkey_assertion()
                case.body.update(auth_session=session, authn_response=_as_member(case, credential),
                                 realm=REAL_VALUES["realm"])
                for name in ("audience", "scope", "client_secret"):
                    case.body.pop(name, None)
            elif path == "/mfa/challenge":
                case.body.update(client_id=_APP, mfa_token=_mfa_token()[0])
                case.body.pop("authenticator_id", None)
                case.body.pop("client_secret", None)
            elif path == "/oauth/token" and case.body.get("grant_type") in (
                    "http://auth0.com/oauth/grant-type/mfa-otp", "http://auth0.com/oauth/grant-type/mfa-oob",
                    "http://auth0.com/oauth/grant-type/mfa-recovery-code"):
                token, code = _mfa_token(fresh=True)
                case.body.update(grant_type="http://auth0.com/oauth/grant-type/mfa-otp", mfa_token=token, otp=code)
                for name in ("oob_code", "binding_code", "recovery_code", "client_secret"):
                    case.body.pop(name, None)
            elif path == "/me/v1/authentication-methods/{id}/verify" and _AUTHENTICATED:
                # My Account's passkey enrollment, begun for the case, and its new passkey.
                begun = _my_account("POST", "/me/v1/authentication-methods", {"type": "passkey"}).json()
                if isinstance(case.path_parameters, dict):
                    case.path_parameters["id"] = "passkey|new"
                case.body.update(auth_session=begun["auth_session"],
                                 authn_response=_PROVIDER.create(begun["authn_params_public_key"]))
            elif path == "/me/v1/upgrades/passkey/verify":
                session, credential = _passkey_upgrade()
                case.body.update(auth_session=session, authn_response=credential)
            elif path == "/api/v2/users/{id}/device-keys" and method == "POST":
                if isinstance(case.path_parameters, dict):
                    case.path_parameters["id"] = _TARGETS["user"]
                case.body.update(public_key=_jwk(_ec_key()), client_id=_APP)
            elif path == "/me/v1/device-keys" and method == "POST" and _AUTHENTICATED:
                key = _ec_key()
                challenge = _my_account("POST", "/me/v1/device-keys/challenge", {}).json()
                message = _device_key_message("register", challenge["challenge"], challenge["key_id"])
                case.body.update(auth_session=challenge["auth_session"], public_key=_jwk(key),
                                 signature=_b64url(key.sign(message, _ecdsa())))
            elif path == "/device-key/challenge" and _AUTHENTICATED:
                case.body.update(client_id=_APP, key_id=_fuzz_device_key())
        except Exception as error:
            print(f"api-fuzz hooks: {method} {path} sent as generated: {error!r}", file=sys.stderr)


def _api_path_ids(case, method, path):
    """Ids that exist, for the operations on one thing (a made-up id only ever reaches their 404):
    the hooks' own user, a new user with a device key or password method for the case, a device key
    or passkey the fuzz user enrolls for the case, the newest log entry, a confidential client of the
    hooks' own. /.well-known/webauthn is there only while the tenant lists related origins (a fuzzed
    tenant setting may have cleared them)."""
    if path == "/.well-known/webauthn":
        _management("PATCH", "/api/v2/tenant/settings", {"related_origins": ["https://shop.example"]})
        return
    parameters = case.path_parameters
    if method == "DELETE" and _AUTHENTICATED and isinstance(parameters, dict) and path in (
            "/me/v1/device-keys/{id}", "/me/v1/authentication-methods/{id}"):
        parameters["id"] = _new_device_key() if path == "/me/v1/device-keys/{id}" else _new_my_passkey()
        return
    if not isinstance(parameters, dict) or not path.startswith(("/api/v2/users/{id}/", "/api/v2/logs/{id}",
                                                                "/api/v2/clients/{id}/rotate-secret")):
        return
    if path.startswith(("/api/v2/users/{id}/authentication-methods/", "/api/v2/users/{id}/device-keys/")):
        # A new user each time: a user holds at most ten device keys.
        user = _management("POST", "/api/v2/users", {
            "connection": REAL_VALUES["connection"], "email": _new_address(), "password": _strong_password()})
        PROTECTED.add(user["user_id"])
        parameters["id"] = user["user_id"]
        if "method_id" in parameters:
            methods = _management_get(f"/api/v2/users/{user['user_id']}/authentication-methods")
            parameters["method_id"] = methods[0]["id"]
        else:
            key = _management("POST", f"/api/v2/users/{user['user_id']}/device-keys",
                              {"public_key": _jwk(_ec_key()), "client_id": _APP, "device": {
                                  "id": secrets.token_hex(8), "name": "api-fuzz", "platform": "ios",
                                  "os_version": "17.4"}})
            parameters["key_id"] = key["id"]
    elif path.startswith("/api/v2/users/{id}/"):
        parameters["id"] = _TARGETS["user"]
    elif path == "/api/v2/logs/{id}":
        parameters["id"] = _management_get("/api/v2/logs", per_page=1)[0]["log_id"]
    else:
        if "rotating_client" not in _STATE:
            client = _management("POST", "/api/v2/clients", {
                "name": "api-fuzz hooks", "app_type": "regular_web",
                "token_endpoint_auth_method": "client_secret_post"})
            PROTECTED.add(client["client_id"])
            _STATE["rotating_client"] = client["client_id"]
        parameters["id"] = _STATE["rotating_client"]


def _fake_apple(*arguments):
    """A value minted by `sesame-fake-apple` over the state of the fake the run started."""
    done = subprocess.run([os.environ["API_FUZZ_FAKE_APPLE_BIN"], *arguments, "--state", _TARGETS["apple"]["state"]],
                          capture_output=True, text=True, timeout=30, check=False)
    if done.returncode != 0:
        raise _FixtureError(f"sesame-fake-apple {arguments[0]}: {done.stderr.strip()[:160]}")
    return done.stdout.strip()


def _apple_sign_in(user):
    """What the Sign in with Apple sheet gives the app for a new Apple ID with `user`'s address: an
    identity token for the app's bundle, its raw nonce, and an authorization code."""
    subject = "001000." + secrets.token_hex(8)
    nonce = secrets.token_urlsafe(16)
    claims = ["--aud", _TARGETS["apple"]["bundle"], "--sub", subject, "--email", user["username"]]
    return (_fake_apple("identity-token", *claims, "--nonce", nonce), nonce, _fake_apple("code", *claims))


def _setting_password(path, user, password):
    """The password a case is about to set for one of the hooks' users: after_call keeps it when the
    case succeeds (the case itself is not read back: what schemathesis sent may be a copy)."""
    _STATE["setting_password"] = (path, user, password)
    return password


def _after_accepted(case, path):
    """A password a case set is the user's from now on."""
    with _LOCK:
        pending = _STATE.pop("setting_password", None)
        if pending and pending[0] == path:
            pending[1]["password"] = pending[2]


# Keys and passkeys, made with PyPI `cryptography` and `cbor2` by the independent client of the
# interop tests (integration/interop/android_client.py), with the server's own origin.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
from android_client import AndroidPasskeyProvider  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

_PROVIDER = AndroidPasskeyProvider(origin=_BASE)


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _ec_key():
    return ec.generate_private_key(ec.SECP256R1())


def _ecdsa():
    return ec.ECDSA(hashes.SHA256())


def _jwk(key):
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": "P-256", "x": _b64url(numbers.x.to_bytes(32, "big")),
            "y": _b64url(numbers.y.to_bytes(32, "big"))}


def _device_key_message(purpose, challenge, key_id):
    """docs/migration.md: "sesame-device-key-v1" 0x00 purpose 0x00 challenge SHA-256(client_id) key_id."""
    return (b"sesame-device-key-v1\x00" + purpose.encode() + b"\x00" + _b64url_decode(challenge)
            + hashlib.sha256(_APP.encode()).digest() + _b64url_decode(key_id))


def _my_account(method, path, body):
    """My Account as the run's fuzz user (the authenticated run), with a fresh token each call."""
    user = json.load(open(os.environ["API_FUZZ_USER_FILE"]))
    token = _expect(_HTTP.post(_BASE + "/oauth/token", timeout=10, json={
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": _APP,
        "realm": REAL_VALUES["realm"], "username": user["username"], "password": user["password"],
        "audience": _BASE + "/me/", "scope": "openid " + " ".join(
            f"{verb}:me:authentication_methods" for verb in ("read", "create", "update", "delete"))}),
        200, "My Account token").json()["access_token"]
    answer = _HTTP.request(method, _BASE + path, json=body, timeout=10, headers={"Authorization": "Bearer " + token})
    if answer.status_code not in (200, 201, 202):
        raise _FixtureError(f"{method} {path}: {answer.status_code} {answer.text[:160]!r}")
    return answer


def _fuzz_passkey_id():
    """A passkey of the fuzz user's, enrolled through My Account once (again when a case deleted it)."""
    known = _STATE.get("fuzz_passkey")
    if known:
        listed = _my_account("GET", "/me/v1/authentication-methods", None).json()
        methods = listed if isinstance(listed, list) else next(
            (value for value in listed.values() if isinstance(value, list)), [])
        if any(isinstance(method, dict) and method.get("id") == known for method in methods):
            return known
    answer = _my_account("POST", "/me/v1/authentication-methods", {"type": "passkey"})
    method_id = urllib.parse.unquote(answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1])
    challenge = answer.json()
    credential = _PROVIDER.create(challenge["authn_params_public_key"])
    verified = _my_account(
        "POST", "/me/v1/authentication-methods/" + urllib.parse.quote(method_id, safe="") + "/verify",
        {"auth_session": challenge["auth_session"], "authn_response": credential}).json()
    _STATE["fuzz_passkey"] = verified["id"]
    return verified["id"]


def _passkey_user():
    """A user who signs in with a passkey (the webauthn grant's cases): made by a passkey signup."""
    if "passkey_user" not in _STATE:
        answer = _expect(_HTTP.post(_BASE + "/passkey/register", timeout=10, json={
            "client_id": _APP, "realm": REAL_VALUES["realm"],
            "user_profile": {"email": f"passkey-{secrets.token_hex(6)}@example.com"}}), 200, "passkey signup")
        challenge = answer.json()
        credential = _PROVIDER.create(challenge["authn_params_public_key"])
        _expect(_HTTP.post(_BASE + "/oauth/token", timeout=10, json={
            "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": _APP,
            "realm": REAL_VALUES["realm"], "auth_session": challenge["auth_session"], "authn_response": credential,
            "scope": "openid"}), 200, "passkey signup's token")
        _STATE["passkey_user"] = _PROVIDER.passkeys[-1]
    return _STATE["passkey_user"]


def _passkey_assertion():
    """A login challenge's handle and the passkey user's answer to it."""
    passkey = _passkey_user()
    challenge = _expect(_HTTP.post(_BASE + "/passkey/challenge", timeout=10, json={
        "client_id": _APP, "realm": REAL_VALUES["realm"]}), 200, "login challenge").json()
    return challenge["auth_session"], _PROVIDER.get(challenge["authn_params_public_key"], passkey)


def _passkey_upgrade():
    """A new user's passkey upgrade, begun: the challenge's handle and the new passkey (the upgrade
    replaces the password, so each case has its own user)."""
    user = _new_user(_Browser())
    token = _expect(_HTTP.post(_BASE + "/me/v1/upgrades/authorize", timeout=10, json={
        "type": "passkey", "client_id": _APP, "username": user["username"], "password": user["password"],
        "realm": REAL_VALUES["realm"]}), 200, "upgrade authorization").json()["upgrade_token"]
    challenge = _expect(_HTTP.post(_BASE + "/me/v1/upgrades/passkey", timeout=10, json={"upgrade_token": token}),
                        202, "passkey upgrade challenge").json()
    return challenge["auth_session"], _PROVIDER.create(challenge["authn_params_public_key"])


def _new_device_key():
    """A device key of the fuzz user's, registered now through My Account: its key id."""
    key = _ec_key()
    challenge = _my_account("POST", "/me/v1/device-keys/challenge", {}).json()
    message = _device_key_message("register", challenge["challenge"], challenge["key_id"])
    _my_account("POST", "/me/v1/device-keys", {
        "auth_session": challenge["auth_session"], "public_key": _jwk(key),
        "signature": _b64url(key.sign(message, _ecdsa())),
        "device": {"id": "api-fuzz-" + secrets.token_hex(4), "name": "api-fuzz hooks", "platform": "ios",
                   "os_version": "16.3"}})  # a device of its own: a device's new key replaces its old one
    return challenge["key_id"]


def _new_my_passkey():
    """A passkey of the fuzz user's, enrolled now through My Account: its method id."""
    begun = _my_account("POST", "/me/v1/authentication-methods", {"type": "passkey"}).json()
    return _my_account("POST", "/me/v1/authentication-methods/passkey%7Cnew/verify", {
        "auth_session": begun["auth_session"],
        "authn_response": _PROVIDER.create(begun["authn_params_public_key"])}).json()["id"]


def _fuzz_device_key():
    """The fuzz user's device key that the challenge cases name, registered once."""
    if "fuzz_device_key" not in _STATE:
        _STATE["fuzz_device_key"] = _new_device_key()
    return _STATE["fuzz_device_key"]


# A user with an authenticator app (docs/mfa.md, "Managing factors"): enrolled with an MFA API token
# and confirmed by the mfa-otp grant with that token. Its password logins answer mfa_required.
import hmac  # noqa: E402
import struct  # noqa: E402
import time  # noqa: E402


def _totp(secret, at=None):
    """RFC 6238: HMAC-SHA1 over the 30-second counter, six digits."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    counter = struct.pack(">Q", int((time.time() if at is None else at) // 30))
    digest = hmac.new(key, counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return f"{(struct.unpack('>I', digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def _password_login(user, **extra):
    return _HTTP.post(_BASE + "/oauth/token", timeout=10, json=dict({
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": _APP,
        "realm": REAL_VALUES["realm"], "username": user["username"], "password": user["password"]}, **extra))


def _mfa_user(fresh=False):
    # A user may have only so many sign-ins waiting at the second factor: a new user every few.
    if fresh or _STATE.get("mfa_user", {}).get("pending", 0) >= 4:
        _STATE.pop("mfa_user", None)
    if "mfa_user" not in _STATE:
        _otp_on()
        user = _new_user(_Browser())
        token = _expect(_password_login(user, audience=_BASE + "/mfa/", scope="enroll"), 200, "MFA API token")
        token = token.json()["access_token"]
        enrolled = _expect(_HTTP.post(_BASE + "/mfa/associate", timeout=10, json={"authenticator_types": ["otp"]},
                                      headers={"Authorization": "Bearer " + token}), 200, "otp enrollment").json()
        _expect(_HTTP.post(_BASE + "/oauth/token", timeout=10, json={
            "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "client_id": _APP, "mfa_token": token,
            "otp": _totp(enrolled["secret"])}), 200, "otp confirmation")
        _STATE["mfa_user"] = dict(user, secret=enrolled["secret"], pending=0,
                                  recovery_code=(enrolled.get("recovery_codes") or [None])[0])
    _STATE["mfa_user"]["pending"] += 1
    return _STATE["mfa_user"]


def _otp_on():
    """The authenticator-app factor on (a fuzzed PUT may have turned it off)."""
    _management("PUT", "/api/v2/guardian/factors/otp", {"enabled": True})


def _mfa_token(fresh=False):
    """A fresh mfa_token and a code its user has not used: the MFA user's password login, which
    stops at the second factor. A code is used once (the server refuses one it has seen), and the
    enrollment used the current one, so a case that sends a code gets a new user (`fresh`) and the
    next window's code, which the server's one-step window takes."""
    _otp_on()
    user = _mfa_user(fresh)
    answer = _expect(_password_login(user, scope="openid"), 403, "password step")
    return answer.json()["mfa_token"], _totp(user["secret"], at=time.time() + 30)


def _new_address():
    return f"hosted-{secrets.token_hex(6)}@example.com"


def _script_json(text, element_id):
    """The JSON block a page carries for its script (`<script type="application/json" id=…>`)."""
    match = re.search(r'<script type="application/json" id="' + re.escape(element_id) + r'">(.*?)</script>', text, re.S)
    if not match:
        raise _FixtureError(f"the page carries no {element_id}")
    return json.loads(match.group(1))


def _second_factor_step():
    """A sign-in at its second-factor step: the MFA user's identifier and password in a new browser.
    The page's hidden inputs."""
    user = _mfa_user(fresh=True)
    _otp_on()
    browser = _Browser()
    tx = browser.authorize()
    answer = _password_step(browser, tx, user)
    if answer.status_code != 200 or 'name="otp"' not in answer.text:
        raise _FixtureError(f"no second-factor step: {answer.status_code} {answer.text[:160]!r}")
    return browser, dict(_HiddenInputs(answer.text).fields, tx=tx, csrf=browser.csrf), user


def _new_recovery_code_step():
    """A sign-in held at its new recovery code: a new MFA user's second-factor step answered with the
    recovery code their enrollment gave, which replaces it with one the page shows until it is saved.
    The page's hidden inputs."""
    _management("PUT", "/api/v2/guardian/factors/recovery-code", {"enabled": True})
    browser, fields, user = _second_factor_step()
    answer, after = browser.page("POST", "/u/mfa", data=dict(fields, mode="recovery-code", otp=user["recovery_code"]))
    if answer.status_code != 200 or 'action="/u/mfa/recovery-code/saved"' not in answer.text:
        raise _FixtureError(f"no new recovery code: {answer.status_code} {answer.text[:160]!r}")
    return browser, dict(after, tx=fields["tx"], csrf=browser.csrf)


def _upgrade_offer():
    """A sign-in held at the upgrade offer: a new user imported with a password the connection's rules
    call weak (a SHA-256 digest, as an import from an older system brings), signed in with it in a new
    browser. The page's hidden inputs."""
    user = {"username": f"weak-{secrets.token_hex(6)}@example.com", "password": "weak" + secrets.token_hex(1)}
    imported = _management("POST", "/api/v2/users", {
        "connection": REAL_VALUES["connection"], "email": user["username"],
        "custom_password_hash": {"algorithm": "sha256", "hash": {
            "value": hashlib.sha256(user["password"].encode()).hexdigest(), "encoding": "hex"}}})
    PROTECTED.add(imported["user_id"])
    browser = _Browser()
    tx = browser.authorize()
    answer = _password_step(browser, tx, user)
    if answer.status_code != 200 or 'id="upgrade-password-form"' not in answer.text:
        raise _FixtureError(f"no upgrade offer: {answer.status_code} {answer.text[:160]!r}")
    return browser, dict(_HiddenInputs(answer.text).fields, tx=tx, csrf=browser.csrf)


def _fresh_identifiers(profile):
    """Identifiers no user holds yet where the case gives them (a taken one is refused, and the
    refusal hides which), so the rest of the profile is what decides."""
    token = secrets.token_hex(6)
    if isinstance(profile.get("email"), str):
        profile["email"] = f"fuzz-{token}@example.com"
    if isinstance(profile.get("username"), str):
        profile["username"] = f"fuzz_{token}"
    if isinstance(profile.get("phone_number"), str):
        profile["phone_number"] = "+1555" + str(secrets.randbelow(10**7)).zfill(7)


def _with_new_passkey(page, fields):
    """The page's hidden inputs and a passkey made for its creation options (`credential`)."""
    return dict(fields, credential=json.dumps(_PROVIDER.create(_script_json(page, "passkey-creation"))))


def _as_member(case, value):
    """A JSON object as a body member: itself in JSON, its text in a form."""
    return json.dumps(value) if "form" in (case.media_type or "") else value


# A trace of every case's phase and answer, for reading which phase of an operation had no
# accepted case (API_FUZZ_TRACE: a file to append JSON lines to).
_TRACE = os.environ.get("API_FUZZ_TRACE")


def _trace(case, response):
    if not _TRACE:
        return
    meta = case._meta
    phase = getattr(getattr(meta, "phase", None), "name", None)
    mode = "positive" if meta is not None and meta.generation.mode.is_positive else "negative"
    with open(_TRACE, "a") as file:
        file.write(json.dumps({"run": "authenticated" if _AUTHENTICATED else "unauthenticated",
                               "op": f"{case.operation.method.upper()} {case.operation.path}",
                               "phase": str(phase), "mode": mode, "status": response.status_code,
                               "answer": response.text[:6000]}) + "\n")


def _recovery(past_code):
    """An account recovery begun in a new browser for a new user of the hooks' own (a recovery may
    replace its password): the code step's hidden inputs and the mailed code, or, `past_code`, the
    page after the code, which offers a new password."""
    user = _new_user(_Browser())
    browser = _Browser()
    tx = browser.authorize()
    answer, fields = browser.page("POST", "/u/recover", data={"csrf": browser.csrf, "tx": tx, "email": user["username"]})
    if "handle" not in fields:
        raise _FixtureError(f"no recovery code step: {answer.status_code} {answer.text[:160]!r}")
    messages = [message for message in _management_get("/api/v2/outbox", to=user["username"])
                if message.get("template") == "recovery_code"]
    match = re.search(r"\b(\d{6})\b", messages[-1]["text"] if messages else "")
    if not match:
        raise _FixtureError(f"no recovery code mailed to {user['username']}")
    fields = dict(fields, tx=tx, csrf=browser.csrf)
    if not past_code:
        return browser, fields, match.group(1)
    answer, after = browser.page("POST", "/u/recover/verify", data=dict(fields, code=match.group(1)))
    if answer.status_code != 200 or 'action="/u/recover/password"' not in answer.text:
        raise _FixtureError(f"no new-password step: {answer.status_code} {answer.text[:160]!r}")
    return browser, dict(after, tx=tx, csrf=browser.csrf), None

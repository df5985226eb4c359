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
    if not isinstance(case.body, dict) or not path.startswith(NAMES_THE_APP):
        return
    for name, value in REAL_VALUES.items():
        if value and isinstance(case.body.get(name), str):
            case.body[name] = value


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
    # fuzz user's tokens for My Account and /userinfo (a password sign-in as the demo app), and
    # the metrics token. The user's tokens are fresh each second, so auth_time stays recent.
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
            }

        def set(self, case, data, context):
            path = getattr(case.operation, "path", "") or ""
            if path.startswith("/me/v1/") and not path.startswith("/me/v1/upgrades/") or path == "/device-key/challenge":
                token = data["my_account"]
            elif path == "/userinfo":
                token = data["userinfo"]
            elif path == "/metrics":
                token = _METRICS
            else:
                token = data["management"]
            case.headers = case.headers or {}
            case.headers["Authorization"] = f"Bearer {token}"

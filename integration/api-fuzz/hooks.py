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

    @schemathesis.auth(refresh_interval=1)
    class ManagementToken:
        def get(self, case, context):
            url = os.environ["API_FUZZ_URL"]
            body = json.dumps({
                "grant_type": "client_credentials", "client_id": os.environ["API_FUZZ_CLIENT_ID"],
                "client_secret": os.environ["API_FUZZ_CLIENT_SECRET"], "audience": url + "/api/v2/",
            }).encode()
            request = urllib.request.Request(url + "/oauth/token", data=body,
                                             headers={"Content-Type": "application/json"})
            with _opener.open(request, timeout=10) as answer:
                return json.load(answer)["access_token"]

        def set(self, case, data, context):
            case.headers = case.headers or {}
            case.headers["Authorization"] = f"Bearer {data}"

#!/usr/bin/env bash
# Fuzzes every route of a live `sesame serve` from its own OpenAPI document (GET /openapi.json) with
# schemathesis (PyPI, pinned below, in a virtualenv under .build/api-fuzz-venv). The server runs on
# 127.0.0.1 over a fresh SQLite data directory with the per-address rate limits off. Two runs:
#   1. with a Management API token (client_credentials) as `Authorization: Bearer …`, renewed every
#      second (integration/api-fuzz/hooks.py);
#   2. with no credentials.
# Each run has the examples, coverage, fuzzing and stateful phases (the document's links chain
# created clients, connections, users, APIs, grants and device keys to their reads, updates and
# deletes) and fails on a 5xx, a status code or body the document does not allow, a wrong
# Content-Type, or a request that takes longer than the timeout. The server must then still answer
# /healthz and stop cleanly on SIGTERM. docs/openapi.md.
#
# Usage: scripts/api-fuzz-test.sh [MAX_EXAMPLES]   (default 5: the short run of `make test`;
#        `make fuzz-api N` passes a bigger number)
# Environment:
#   SESAME_BIN         use this sesame binary instead of building .build/debug/sesame
#   SWIFT, SWIFT_BUILD_FLAGS  as for the other scripts
#   PYTHON             the Python that makes the virtualenv (default python3)
#   API_FUZZ_SEED      schemathesis's seed (default: a fixed one, so `make test` is repeatable;
#                      `make fuzz-api` picks a new one each time)
#   API_FUZZ_TIMEOUT   seconds one request may take (default 10)
#   API_FUZZ_WORKERS   concurrent schemathesis workers (default 1: hypothesis can fail to
#                      describe a strategy when several threads parse source at once on Python 3.11)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

schemathesis_version="4.32.5"
max_examples="${1:-5}"
if ! [[ "$max_examples" =~ ^[1-9][0-9]*$ ]]; then
    echo "api-fuzz-test: MAX_EXAMPLES must be a positive integer, not '$max_examples'" >&2
    exit 2
fi
seed="${API_FUZZ_SEED:-20270115}"
request_timeout="${API_FUZZ_TIMEOUT:-10}"
workers="${API_FUZZ_WORKERS:-1}"
venv="$root/.build/api-fuzz-venv"
python="${PYTHON:-python3}"
swift="${SWIFT:-swift}"

# 1. The virtualenv with the pinned schemathesis.
# cryptography and cbor2: the hooks' device keys and passkeys (integration/interop/android_client.py).
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$schemathesis_version" \
    || ! "$venv/bin/python" -c 'import cryptography, cbor2' >/dev/null 2>&1; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        if ! command -v apt-get >/dev/null 2>&1; then
            echo "api-fuzz-test: '$python -m venv' failed; install Python's venv module" >&2
            exit 1
        fi
        sudo_cmd=()
        if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
        "${sudo_cmd[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends python3-venv
        "$python" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version" \
        cryptography cbor2
fi

# 2. The sesame binary.
if [ -z "${SESAME_BIN:-}" ]; then
    read -r -a build_flags <<<"${SWIFT_BUILD_FLAGS:-}"
    "$swift" build "${build_flags[@]}" --product sesame
    SESAME_BIN="$("$swift" build "${build_flags[@]}" --show-bin-path)/sesame"
fi
if [ ! -x "$SESAME_BIN" ]; then
    echo "api-fuzz-test: $SESAME_BIN is not an executable" >&2
    exit 1
fi

# The stand-in for Apple's endpoints (docs/fake-apple.md), beside the sesame binary.
fake_apple="$(dirname "$SESAME_BIN")/sesame-fake-apple"
if [ ! -x "$fake_apple" ]; then
    read -r -a build_flags <<<"${SWIFT_BUILD_FLAGS:-}"
    "$swift" build "${build_flags[@]}" --product sesame-fake-apple
fi

# 3. A fresh server on loopback.
work="$(mktemp -d "$root/.build/api-fuzz.XXXXXX")"
server_pid=""
apple_pid=""
cleanup() {
    for pid in "$server_pid" "$apple_pid"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT
export NO_PROXY="localhost,127.0.0.1${NO_PROXY:+,$NO_PROXY}" no_proxy="localhost,127.0.0.1${no_proxy:+,$no_proxy}"

port="$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
url="http://localhost:$port"
"$SESAME_BIN" init --data "$work/data" --public-url "$url" --json >"$work/init.json"
# /metrics on the API listener too, so its operation is fuzzed like the others.
"$venv/bin/python" -c 'import secrets; print(secrets.token_hex(24))' >"$work/metrics-token"
# Every case comes from one address (127.0.0.1): no per-address rate limit or cap of pending ceremonies.
"$SESAME_BIN" serve --data "$work/data" --listen "127.0.0.1:$port" --rate-limit-per-ip 0 \
    --pending-ceremonies-per-ip 1000000 \
    --metrics-token-file "$work/metrics-token" --log-level warn >"$work/server.log" 2>&1 </dev/null &
server_pid=$!
# Sign in with Apple's upgrade is fuzzed against the fake on 127.0.0.1 (a free port): the tenant's
# Apple connection for the demo app names it, and the hooks mint its identity tokens and codes.
mkdir -p "$work/apple"
"$fake_apple" p8 --out "$work/apple/AuthKey.p8" >/dev/null
"$fake_apple" serve --state "$work/apple/state" --port 0 --team-id FUZZTEAM01 --key-id FUZZKEY001 \
    --p8 "$work/apple/AuthKey.p8" >"$work/apple/log" 2>&1 </dev/null &
apple_pid=$!

"$venv/bin/python" - "$url" "$work/init.json" "$work/token" "$work/protected" "$work/apple" <<'PY'
"""Waits for /healthz, then gets a Management API token with the management client's secret, and
writes the ids the fuzzer must leave alone (integration/api-fuzz/hooks.py): that client and its grants."""
import json, sys, time, urllib.request

url, init_path, token_path, protected_path, apple_dir = sys.argv[1:]
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
deadline = time.monotonic() + 30
while True:
    try:
        with opener.open(url + "/healthz", timeout=5) as answer:
            if answer.status == 200:
                break
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit("api-fuzz-test: sesame serve did not answer /healthz")
    time.sleep(0.1)
ids = json.load(open(init_path))
body = json.dumps({"grant_type": "client_credentials", "client_id": ids["management_client_id"],
                   "client_secret": ids["management_client_secret"], "audience": url + "/api/v2/"}).encode()
request = urllib.request.Request(url + "/oauth/token", data=body, headers={"Content-Type": "application/json"})
with opener.open(request, timeout=10) as answer:
    token = json.load(answer)["access_token"]
open(token_path, "w").write(token)
client_id = ids["management_client_id"]
# The demo app, which the native bodies name, is left alone too: a fuzzed PATCH would change it.
app_id = ids["client_id"]
grants = urllib.request.Request(url + "/api/v2/client-grants?client_id=" + client_id,
                                headers={"Authorization": "Bearer " + token})
with opener.open(grants, timeout=10) as answer:
    protected = [client_id, app_id] + [grant["id"] for grant in json.load(answer)]
# A user with a password, whose tokens the authenticated run presents to My Account and /userinfo
# (integration/api-fuzz/hooks.py); kept from the fuzzer's changes like the clients above.
import secrets
email = "fuzz-" + secrets.token_hex(4) + "@example.com"
password = "Fz-" + secrets.token_urlsafe(18)
user = urllib.request.Request(
    url + "/api/v2/users",
    data=json.dumps({"connection": ids["connection"], "email": email, "password": password,
                     "email_verified": True}).encode(),
    headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
with opener.open(user, timeout=10) as answer:
    protected.append(json.load(answer)["user_id"])
# The authenticator-app factor on, so the MFA API's enrollment is fuzzed past "factor disabled"
# (hooks.py presents the fuzz user's MFA API token; the tenant asks no one for a second factor).
factor = urllib.request.Request(url + "/api/v2/guardian/factors/otp", data=b'{"enabled":true}', method="PUT",
                                headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
opener.open(factor, timeout=10).close()


def management(method, path, body=None):
    request = urllib.request.Request(url + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with opener.open(request, timeout=10) as answer:
        return json.load(answer) if answer.status != 204 else None


# Every identifier of the tenant's connection may sign up, none required, so a generated profile is
# refused for what it holds rather than for the connection's choice of identifiers (POST
# /api/v2/users, /dbconnections/signup, /passkey/register).
connection = next(item for item in management("GET", "/api/v2/connections") if item["name"] == ids["connection"])
attributes = {name: {"identifier": {"active": True}, "signup": {"status": "optional"}}
              for name in ("email", "phone_number", "username")}
management("PATCH", "/api/v2/connections/" + connection["id"], {"options": {"attributes": attributes}})
# A database connection and a user of the hooks' own, which the PATCH cases act on (hooks.py), kept
# from the fuzzer's DELETEs like the clients above.
target = management("POST", "/api/v2/connections", {"name": "fuzz-patch-target", "strategy": "auth0",
                                                   "enabled_clients": [client_id]})
# An Apple connection of the hooks' own too, for the PATCH cases that carry an Apple connection's
# options (its key is made here; nothing calls Apple).
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
apple_key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
apple = management("POST", "/api/v2/connections", {
    "name": "fuzz-apple-target", "strategy": "apple", "enabled_clients": [client_id],
    "options": {"team_id": "ABCDE12345", "kid": "FUZZKEY123", "client_id": "com.example.fuzz.web",
                "app_id": ["com.example.fuzz"], "app_secret": apple_key, "issuer": "https://appleid.apple.com",
                "jwks_uri": "https://appleid.apple.com/auth/keys",
                "token_endpoint": "https://appleid.apple.com/auth/token"}})
protected.append(apple["id"])
# The demo app's Sign in with Apple connection, at the fake (its URLs are in its log once it
# listens), kept from the fuzzer like the rest; the account page's web sign-in uses it too (the
# first Apple connection by name).
import re
deadline = time.monotonic() + 30
apple_urls = {}
while "authorization_endpoint" not in apple_urls:
    apple_urls = dict(re.findall(r"^\s+(jwks_uri|token_endpoint|authorization_endpoint)\s+(\S+)$",
                                 open(apple_dir + "/log").read(), re.MULTILINE))
    if time.monotonic() > deadline:
        sys.exit("api-fuzz-test: sesame-fake-apple did not start: " + open(apple_dir + "/log").read())
    time.sleep(0.05)
app_apple = management("POST", "/api/v2/connections", {
    "name": "apple", "strategy": "apple", "enabled_clients": [ids["client_id"]],
    "options": dict(apple_urls, team_id="FUZZTEAM01", kid="FUZZKEY001", client_id="com.example.fuzz.services",
                    app_id=["com.example.fuzz.app"], app_secret=open(apple_dir + "/AuthKey.p8").read(),
                    issuer="https://appleid.apple.com")})
protected.append(app_apple["id"])
# The fixtures' users sign up and in at the demo connection: it stays the tenant's default (the hooks
# keep default_connection out of the fuzzed tenant settings), whatever connections the fuzzer adds.
management("PATCH", "/api/v2/tenant/settings", {"default_connection": ids["connection"]})
target_user = management("POST", "/api/v2/users", {
    "connection": ids["connection"], "email": "target-" + secrets.token_hex(4) + "@example.com",
    "password": "Fz-" + secrets.token_urlsafe(18)})
protected += [target["id"], target_user["user_id"]]
open(protected_path + "-targets", "w").write(json.dumps({
    "connection": target["id"], "user": target_user["user_id"], "apple_connection": apple["id"],
    "apple": {"state": apple_dir + "/state", "bundle": "com.example.fuzz.app"}}))
open(protected_path, "w").write(",".join(protected))
open(protected_path + "-user", "w").write(json.dumps({"username": email, "password": password}))
PY

# 4. The two runs. Every phase; the checks the document can answer for.
checks="not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance"
run() {
    local name="$1"
    shift
    echo "api-fuzz-test: $name run, at most $max_examples examples per operation"
    # schemathesis keeps a cache (.schemathesis/) in its working directory: keep it in the run's.
    (cd "$work" && "$venv/bin/schemathesis" run "$url/openapi.json" \
        --checks "$checks" --phases examples,coverage,fuzzing,stateful \
        --max-examples "$max_examples" --seed "$seed" --workers "$workers" \
        --request-timeout "$request_timeout" --max-redirects 0 \
        --generation-database none --no-color --suppress-health-check all \
        --report junit --report-junit-path "$root/.build/api-fuzz-$name.xml" "$@")
}
export SCHEMATHESIS_HOOKS="$root/integration/api-fuzz/hooks.py"
# The tenant's own app and connection, which hooks.py puts into the bodies that name a client or a
# connection, so those operations are fuzzed past "no such client" (docs/openapi.md).
API_FUZZ_APP_CLIENT_ID="$("$venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["client_id"])' "$work/init.json")"
API_FUZZ_CONNECTION="$("$venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["connection"])' "$work/init.json")"
export API_FUZZ_APP_CLIENT_ID API_FUZZ_CONNECTION
API_FUZZ_PROTECTED_IDS="$(cat "$work/protected")"
API_FUZZ_TARGETS_FILE="$work/protected-targets"
export API_FUZZ_PROTECTED_IDS API_FUZZ_TARGETS_FILE
# The hosted pages get a browser's state in both runs (hooks.py): sign-ins begun at /authorize, CSRF
# tokens, a user's and an administrator's sessions (the administrator made with init.json's setup
# link, and kept in admin-user for the other run), setup links from `sesame admin setup-link`, and
# mailed tickets from the outbox (a Management API read of the fixtures; the cases carry nothing).
export API_FUZZ_URL="$url" API_FUZZ_INIT_FILE="$work/init.json" API_FUZZ_ADMIN_FILE="$work/admin-user" \
    API_FUZZ_FAKE_APPLE_BIN="$(cd "$(dirname "$fake_apple")" && pwd)/$(basename "$fake_apple")" \
    API_FUZZ_SESAME_BIN="$(cd "$(dirname "$SESAME_BIN")" && pwd)/$(basename "$SESAME_BIN")" API_FUZZ_DATA_DIR="$work/data"
status=0
API_FUZZ_AUTH=1 API_FUZZ_USER_FILE="$work/protected-user" \
    API_FUZZ_METRICS_TOKEN_FILE="$work/metrics-token" \
    API_FUZZ_CLIENT_ID="$("$venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["management_client_id"])' "$work/init.json")" \
    API_FUZZ_CLIENT_SECRET="$("$venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["management_client_secret"])' "$work/init.json")" \
    run authenticated || status=$?
run unauthenticated || status=$?

# 5. The server survived: it still answers, and stops cleanly.
if ! "$venv/bin/python" -c 'import sys, urllib.request; urllib.request.build_opener(urllib.request.ProxyHandler({})).open(sys.argv[1] + "/healthz", timeout=5)' "$url"; then
    echo "api-fuzz-test: the server stopped answering /healthz" >&2
    status=1
fi
kill -TERM "$server_pid"
if ! wait "$server_pid"; then
    echo "api-fuzz-test: sesame serve did not exit cleanly after SIGTERM" >&2
    status=1
fi
server_pid=""
if [ "$status" -ne 0 ]; then
    echo "api-fuzz-test: FAILED; the server's log:" >&2
    tail -n 50 "$work/server.log" >&2
fi
exit "$status"

"""Issue 13 with an independent client: account security upgrades (strong password, Sign in with
Apple, passkey) and the Apple login, against a real `sesame` and a fake of Apple written here.

The fake of Apple runs in this process on 127.0.0.1 (http.server in a thread): `GET /auth/keys`
serves the JWK Set of an RSA-2048 key made here, and `POST /auth/token` checks Sesame's
`client_secret` the way Apple does (an ES256 JWT, raw r||s, signed with the `.p8` P-256 key made
here; header alg and kid; claims iss = Team ID, sub = client_id, aud = https://appleid.apple.com,
exp after now and at most 15,777,000 s after iat) before it redeems a single-use code for a fresh
RS256 identity token. Every JWT and key is built with PyPI `cryptography` from the text of the
contract (../shared/design/API.md §9, milestone2-specs §3); nothing here comes from Sesame's code.
"""

from __future__ import annotations

import hashlib
import hmac
import http.server
import json
import secrets
import threading
import time
import urllib.parse

import pytest
import requests
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from android_client import AndroidPasskeyProvider, b64url, b64url_decode, verify_jwt
from test_android_native import enable_android_app, management_token

CONNECTION = "Username-Password-Authentication"
PASSWORD = "correct horse battery staple"
BREACHED = "AUTH0-TEST-old-password-1"  # Auth0's test prefix: breached once detection is on
REALM = "http://auth0.com/oauth/grant-type/password-realm"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
APPLE_CODE_TYPE = "http://auth0.com/oauth/token-type/apple-authz-code"
APPLE_ISSUER = "https://appleid.apple.com"
TEAM_ID = "A1B2C3D4E5"
KEY_ID = "K9Y8X7W6V5"
BUNDLE_ID = "com.example.sesame.app"
SERVICES_ID = "com.example.sesame.web"
APPLE_KID = "FAKEAPPLE1"
CLIENT_SECRET_MAX_LIFETIME = 15_777_000
HTTP_TIMEOUT = 10
INVALID_UPGRADE_TOKEN = "the upgrade_token is unknown, expired or already used"


# --- JOSE by hand ----------------------------------------------------------------------------------


def b64json(value: dict) -> str:
    return b64url(json.dumps(value, separators=(",", ":")).encode())


def rs256(claims: dict, key: rsa.RSAPrivateKey, kid: str | None = APPLE_KID, header: dict | None = None) -> str:
    head = {"kid": kid, "alg": "RS256"} if header is None else header
    if kid is None:
        head.pop("kid", None)
    signing_input = f"{b64json(head)}.{b64json(claims)}"
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{b64url(signature)}"


def hs256(claims: dict, secret: bytes, kid: str = APPLE_KID) -> str:
    signing_input = f"{b64json({'kid': kid, 'alg': 'HS256'})}.{b64json(claims)}"
    return f"{signing_input}.{b64url(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())}"


def unsigned(claims: dict, kid: str = APPLE_KID) -> str:
    return f"{b64json({'kid': kid, 'alg': 'none'})}.{b64json(claims)}."


def nonce_pair() -> tuple[str, str]:
    """(raw nonce the app keeps, lowercase hex SHA-256 of it that goes into Apple's request)."""
    raw = secrets.token_urlsafe(24)
    return raw, hashlib.sha256(raw.encode()).hexdigest()


# --- the fake of Apple -----------------------------------------------------------------------------


class FakeApple:
    """appleid.apple.com's /auth/keys and /auth/token, on 127.0.0.1 with an ephemeral port."""

    def __init__(self):
        self.rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.p8_key = ec.generate_private_key(ec.SECP256R1())  # the developer's "AuthKey_<KID>.p8"
        self.p8_pem = self.p8_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode()
        self.codes: dict[str, dict] = {}  # code -> {"sub", "email", "used"}
        self.token_requests: list[dict] = []  # what /auth/token received, with the verdict
        self.key_fetches = 0
        self.lock = threading.Lock()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send_json(self, status: int, body: dict):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json;charset=UTF-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path.split("?")[0] != "/auth/keys":
                    return self.send_json(404, {"error": "not_found"})
                with fake.lock:
                    fake.key_fetches += 1
                self.send_json(200, fake.jwks())

            def do_POST(self):
                if self.path.split("?")[0] != "/auth/token":
                    return self.send_json(404, {"error": "not_found"})
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode()
                form = {k: v[0] for k, v in urllib.parse.parse_qs(raw, keep_blank_values=True).items()}
                status, body, record = fake.token(form, self.headers.get("Content-Type", ""))
                with fake.lock:
                    fake.token_requests.append(record)
                self.send_json(status, body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)

    def jwks(self) -> dict:
        numbers = self.rsa_key.public_key().public_numbers()
        return {"keys": [{
            "kty": "RSA", "kid": APPLE_KID, "use": "sig", "alg": "RS256",
            "n": b64url(numbers.n.to_bytes(256, "big")), "e": b64url(numbers.e.to_bytes(3, "big")),
        }]}

    def identity_token(self, sub: str, aud: str, email: str, nonce: str | None = None, **overrides) -> str:
        now = int(time.time())
        claims = {
            "iss": APPLE_ISSUER, "aud": aud, "exp": now + 300, "iat": now, "sub": sub,
            "c_hash": b64url(secrets.token_bytes(16)), "email": email,
            "email_verified": "true", "is_private_email": "true", "auth_time": now, "nonce_supported": True,
            "real_user_status": 2,
        }
        if nonce is not None:
            claims["nonce"] = nonce
        claims.update(overrides)
        return rs256({k: v for k, v in claims.items() if v is not None}, self.rsa_key)

    def hand_out_code(self, sub: str, email: str) -> str:
        code = "c" + secrets.token_hex(16) + ".0.rsvw." + secrets.token_urlsafe(16)
        with self.lock:
            self.codes[code] = {"sub": sub, "email": email, "used": False}
        return code

    def check_client_secret(self, secret: str, client_id: str) -> tuple[str | None, dict, dict]:
        """Apple's checks of a client_secret; returns (failure or None, header, claims)."""
        parts = secret.split(".")
        if len(parts) != 3:
            return "not a compact JWS", {}, {}
        try:
            header = json.loads(b64url_decode(parts[0]))
            claims = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except ValueError as error:
            return f"undecodable: {error}", {}, {}
        if header.get("alg") != "ES256":
            return f"header alg {header.get('alg')!r}", header, claims
        if header.get("kid") != KEY_ID:
            return f"header kid {header.get('kid')!r}", header, claims
        if len(signature) != 64:
            return f"signature is {len(signature)} bytes, not raw r||s", header, claims
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            self.p8_key.public_key().verify(der, f"{parts[0]}.{parts[1]}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "bad signature", header, claims
        now = time.time()
        if claims.get("iss") != TEAM_ID:
            return f"iss {claims.get('iss')!r}", header, claims
        if claims.get("sub") != client_id:
            return f"sub {claims.get('sub')!r} != client_id {client_id!r}", header, claims
        if claims.get("aud") != APPLE_ISSUER:
            return f"aud {claims.get('aud')!r}", header, claims
        iat, exp = claims.get("iat"), claims.get("exp")
        if not isinstance(iat, int) or not isinstance(exp, int):
            return "iat/exp not integers", header, claims
        if iat > now + 60:
            return "iat in the future", header, claims
        if exp <= now:
            return "expired", header, claims
        if exp - iat > CLIENT_SECRET_MAX_LIFETIME:
            return f"lifetime {exp - iat} s", header, claims
        return None, header, claims

    def token(self, form: dict, content_type: str) -> tuple[int, dict, dict]:
        record = {"form": form, "content_type": content_type, "secret_failure": None}
        client_id = form.get("client_id", "")
        failure, header, claims = self.check_client_secret(form.get("client_secret", ""), client_id)
        record.update(secret_failure=failure, secret_header=header, secret_claims=claims)
        if not content_type.startswith("application/x-www-form-urlencoded"):
            record["secret_failure"] = failure = failure or f"content type {content_type!r}"
        if failure is not None or client_id not in (BUNDLE_ID, SERVICES_ID):
            return 400, {"error": "invalid_client"}, record
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}, record
        with self.lock:
            entry = self.codes.get(form.get("code", ""))
            if entry is None or entry["used"]:
                return 400, {"error": "invalid_grant"}, record
            entry["used"] = True
        id_token = self.identity_token(entry["sub"], client_id, entry["email"])
        return 200, {
            "access_token": "a" + secrets.token_hex(16), "token_type": "Bearer", "expires_in": 3600,
            "refresh_token": "r" + secrets.token_hex(16), "id_token": id_token,
        }, record


@pytest.fixture
def apple():
    with FakeApple() as fake:
        yield fake


# --- Sesame calls ----------------------------------------------------------------------------------


def post_form(server, path: str, data: dict) -> requests.Response:
    return server.http.session.post(server.url + path, data=data, timeout=HTTP_TIMEOUT)


def password_login(server, username: str, password: str) -> requests.Response:
    """Auth0.swift's login(usernameOrEmail:password:realmOrConnection:audience:scope:)."""
    return post_form(server, "/oauth/token", {
        "grant_type": REALM, "client_id": server.client_id, "username": username, "password": password,
        "realm": CONNECTION, "audience": f"{server.url}/me/", "scope": "openid offline_access",
    })


def signup(server, email: str, password: str) -> dict:
    return server.http.expect(
        200, "POST", "/dbconnections/signup",
        {"client_id": server.client_id, "connection": CONNECTION, "email": email, "password": password},
    )


def create_apple_connection(server, apple: FakeApple, admin: str) -> dict:
    body = {
        "name": "apple", "strategy": "apple",
        "options": {
            "team_id": TEAM_ID, "kid": KEY_ID, "app_id": [BUNDLE_ID], "app_secret": apple.p8_pem,
            "client_id": SERVICES_ID, "issuer": APPLE_ISSUER, "jwks_uri": apple.url + "/auth/keys",
            "token_endpoint": apple.url + "/auth/token",
        },
    }
    created = server.http.expect(201, "POST", "/api/v2/connections", body, token=admin)
    assert created["strategy"] == "apple", created
    fetched = server.http.expect(200, "GET", f"/api/v2/connections/{created['id']}", token=admin)
    for shown in (created, fetched):
        options = shown["options"]
        assert "app_secret" not in options and options["app_secret_set"] is True, shown
        assert "PRIVATE KEY" not in json.dumps(shown), shown
        assert options["team_id"] == TEAM_ID and options["kid"] == KEY_ID and options["app_id"] == [BUNDLE_ID], shown
        assert options["client_id"] == SERVICES_ID and options["jwks_uri"] == apple.url + "/auth/keys", shown
    listed = server.http.expect(200, "GET", "/api/v2/connections", token=admin)
    assert "PRIVATE KEY" not in json.dumps(listed)
    return fetched


def authorize(server, body: dict, token: str | None = None) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return server.http.session.post(
        server.url + "/me/v1/upgrades/authorize", json=body, headers=headers, timeout=HTTP_TIMEOUT
    )


def granted(response: requests.Response, kind: str) -> dict:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["token_type"] == "upgrade" and body["expires_in"] == 300 and body["type"] == kind, body
    assert isinstance(body["upgrade_token"], str) and len(body["upgrade_token"]) >= 16, body
    assert isinstance(body["password_rules"], str) and "minlength" in body["password_rules"], body
    return body


def upgrade(server, path: str, body: dict) -> requests.Response:
    return server.http.session.post(server.url + "/me/v1/upgrades/" + path, json=body, timeout=HTTP_TIMEOUT)


def assert_oauth_error(response: requests.Response, status: int, error: str, description: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert body["error"] == error, body
    if description is not None:
        assert body["error_description"] == description, body
    return body


def find_user(server, admin: str, email: str) -> dict:
    status, listed = server.http.request("GET", "/api/v2/users?q=" + urllib.parse.quote(email), token=admin)
    assert status == 200, listed
    users = listed if isinstance(listed, list) else listed.get("users", [])
    matches = [user for user in users if user.get("email") == email]
    assert len(matches) == 1, listed
    return server.http.expect(200, "GET", f"/api/v2/users/{urllib.parse.quote(matches[0]['user_id'])}", token=admin)


def strong_password(rules: str) -> str:
    """A password that passes Apple-syntax rules of the usual kind (lower, upper, digit, special)."""
    minimum = max([int(part.split(":")[1]) for part in rules.split(";") if part.strip().startswith("minlength")] or [8])
    alphabet = ["abcdefghijkmnpqrstuvwxyz", "ABCDEFGHJKLMNPQRSTUVWXYZ", "23456789", "-!#$%&*+=?@^_~"]
    chars = []
    while len(chars) < max(minimum, 20):
        group = alphabet[len(chars) % 4]
        choice = secrets.choice(group)
        if chars and chars[-1] == choice:
            continue
        chars.append(choice)
    return "".join(chars)


# --- tests -----------------------------------------------------------------------------------------


def test_breached_password_recommendations_authorization_and_the_strong_password_upgrade(server, apple):
    admin = management_token(server)
    create_apple_connection(server, apple, admin)
    # A new tenant refuses breached passwords at signup: turn that off to make a user who has one,
    # as a tenant made before it was on by default could hold.
    server.http.expect(
        200, "PATCH", "/api/v2/attack-protection/breached-password-detection", {"enabled": False}, token=admin,
    )
    signup(server, "weak@example.com", BREACHED)
    signup(server, "fine@example.com", PASSWORD)
    server.http.expect(
        200, "PATCH", "/api/v2/attack-protection/breached-password-detection", {"enabled": True}, token=admin,
    )

    # The password login succeeds and says the password is breached, with the upgrades on offer.
    login = password_login(server, "weak@example.com", BREACHED)
    assert login.status_code == 200, login.text
    tokens = login.json()
    assert tokens["password_status"] == "breached", tokens
    assert {"passkey", "sign_in_with_apple", "strong_password"} <= set(tokens["recommended_upgrades"]), tokens
    bearer = tokens["access_token"]

    # Authorization: with the bearer (app-initiated) ...
    for kind in ("strong_password", "sign_in_with_apple", "passkey"):
        granted(authorize(server, {"type": kind}, token=bearer), kind)
    rules = server.http.expect(200, "GET", f"/password-rules?client_id={server.client_id}")["rules"]
    # ... and the system-initiated form, with the password the extension holds.
    system = {"type": "strong_password", "client_id": server.client_id, "username": "weak@example.com",
              "password": BREACHED, "realm": CONNECTION}
    grant = granted(authorize(server, system), "strong_password")
    assert grant["password_rules"] == rules
    assert_oauth_error(authorize(server, {**system, "password": BREACHED + "x"}), 403, "invalid_grant",
                       "Wrong email or password.")
    assert_oauth_error(authorize(server, {"type": "strong_password"}, token="not-a-token"), 401, "invalid_token")
    assert_oauth_error(authorize(server, {"type": "teleport"}, token=bearer), 400, "invalid_request")

    token = grant["upgrade_token"]
    # A weak password, then a breached one: refused, and the token is not spent.
    weak = assert_oauth_error(upgrade(server, "strong-password", {"upgrade_token": token, "new_password": "short"}),
                              400, "invalid_password")
    assert weak["name"] == "PasswordStrengthError" and weak["description"]["rules"], weak
    assert isinstance(weak["policy"], str) and weak["policy"], weak
    assert_oauth_error(upgrade(server, "strong-password",
                               {"upgrade_token": token, "new_password": "AUTH0-TEST-" + strong_password(rules)}),
                       400, "password_leaked")
    # Another type's token is not this one.
    apple_token = granted(authorize(server, {"type": "sign_in_with_apple"}, token=bearer), "sign_in_with_apple")
    assert_oauth_error(upgrade(server, "strong-password",
                               {"upgrade_token": apple_token["upgrade_token"], "new_password": strong_password(rules)}),
                       400, "invalid_grant", INVALID_UPGRADE_TOKEN)

    new_password = strong_password(rules)
    done = upgrade(server, "strong-password", {"upgrade_token": token, "new_password": new_password})
    assert done.status_code == 200, done.text
    assert done.json() == {"type": "strong_password", "upgraded": True}
    # Single use.
    assert_oauth_error(upgrade(server, "strong-password",
                               {"upgrade_token": token, "new_password": strong_password(rules)}),
                       400, "invalid_grant", INVALID_UPGRADE_TOKEN)
    assert_oauth_error(password_login(server, "weak@example.com", BREACHED), 403, "invalid_grant",
                       "Wrong email or password.")
    after = password_login(server, "weak@example.com", new_password)
    assert after.status_code == 200, after.text
    assert after.json()["password_status"] == "ok", after.json()
    assert "strong_password" not in after.json().get("recommended_upgrades", []), after.json()
    # The upgrade ended the other sessions: the first login's refresh token is revoked.
    refreshed = post_form(server, "/oauth/token", {
        "grant_type": "refresh_token", "client_id": server.client_id, "refresh_token": tokens["refresh_token"]})
    assert refreshed.status_code in (400, 403) and refreshed.json()["error"] == "invalid_grant", refreshed.text

    # The same password as the current one is refused with the history error (it is compared only
    # after the rules and the breach corpus); the answer spends the token, so a guess costs one.
    fine = password_login(server, "fine@example.com", PASSWORD)
    assert fine.status_code == 200 and fine.json()["password_status"] == "ok", fine.text
    grant = granted(authorize(server, {"type": "strong_password"}, token=fine.json()["access_token"]),
                    "strong_password")
    reused = assert_oauth_error(upgrade(server, "strong-password",
                                        {"upgrade_token": grant["upgrade_token"], "new_password": PASSWORD}),
                                400, "invalid_password")
    assert reused["name"] == "PasswordHistoryError", reused
    # The contract's "description" text; in the OAuth shape of /me/v1/upgrades it is error_description.
    assert "The new password must differ from the current one." in (
        reused.get("error_description"), reused.get("description")), reused
    assert_oauth_error(upgrade(server, "strong-password", {"upgrade_token": grant["upgrade_token"],
                                                           "new_password": strong_password(rules)}),
                       400, "invalid_grant")
    grant = granted(authorize(server, {"type": "strong_password"}, token=fine.json()["access_token"]),
                    "strong_password")
    done = upgrade(server, "strong-password", {"upgrade_token": grant["upgrade_token"],
                                               "new_password": strong_password(rules)})
    assert done.status_code == 200 and done.json() == {"type": "strong_password", "upgraded": True}, done.text


def test_sign_in_with_apple_upgrade_its_refusals_and_the_apple_logins(server, apple):
    admin = management_token(server)
    create_apple_connection(server, apple, admin)
    email = "hanako@example.com"
    signup(server, email, PASSWORD)
    login = password_login(server, email, PASSWORD)
    assert login.status_code == 200, login.text
    bearer = login.json()["access_token"]
    grant = granted(authorize(server, {"type": "sign_in_with_apple"}, token=bearer), "sign_in_with_apple")
    token = grant["upgrade_token"]

    sub = "001234." + secrets.token_hex(16) + ".0123"
    relay = "x7k2p9@privaterelay.appleid.com"
    raw, hashed = nonce_pair()
    other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public_pem = apple.rsa_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    now = int(time.time())
    good_claims = {
        "iss": APPLE_ISSUER, "aud": BUNDLE_ID, "exp": now + 300, "iat": now, "sub": sub, "nonce": hashed,
        "email": relay, "email_verified": "true", "is_private_email": "true", "auth_time": now,
        "nonce_supported": True,
    }
    genuine = apple.identity_token(sub, BUNDLE_ID, relay, hashed).split(".")
    # name: (identity token, raw nonce sent, words one of which the error_description must name)
    refusals = {
        "wrong iss": (apple.identity_token(sub, BUNDLE_ID, relay, hashed, iss="https://appleid.example.com"), raw,
                      ["iss"]),
        "wrong aud": (apple.identity_token(sub, "com.example.other", relay, hashed), raw, ["aud"]),
        "expired": (apple.identity_token(sub, BUNDLE_ID, relay, hashed, iat=now - 900, exp=now - 600), raw,
                    ["exp"]),
        "wrong nonce": (apple.identity_token(sub, BUNDLE_ID, relay, hashed), raw + "x", ["nonce"]),
        "nonce claim not hashed": (apple.identity_token(sub, BUNDLE_ID, relay, raw), raw, ["nonce"]),
        "missing nonce claim": (apple.identity_token(sub, BUNDLE_ID, relay, None), raw, ["nonce"]),
        "nonce missing from the request": (apple.identity_token(sub, BUNDLE_ID, relay, hashed), None, ["nonce"]),
        "unknown kid": (rs256(good_claims, apple.rsa_key, kid="NOSUCHKID"), raw, ["kid"]),
        "no kid": (rs256(good_claims, apple.rsa_key, kid=None), raw, ["kid", "malformed"]),
        "alg none": (unsigned(good_claims), raw, ["alg", "rs256", "malformed"]),
        "alg none, signature kept": (b64json({"kid": APPLE_KID, "alg": "none"}) + "." + genuine[1] + "." + genuine[2],
                                     raw, ["alg", "rs256"]),
        "HS256 keyed with the public key PEM": (hs256(good_claims, public_pem), raw, ["alg", "rs256"]),
        "another RSA key, published kid": (rs256(good_claims, other_key), raw, ["signature"]),
        "tampered payload": (genuine[0] + "." + b64json({**good_claims, "sub": "someone-else"}) + "." + genuine[2],
                             raw, ["signature"]),
        "not a JWT": ("garbage", raw, ["malformed"]),
    }
    failures = []
    for name, (identity_token, nonce, words) in refusals.items():
        body = {"upgrade_token": token, "identity_token": identity_token}
        if nonce is not None:
            body["nonce"] = nonce
        response = upgrade(server, "sign-in-with-apple", body)
        try:
            answer = response.json()
        except ValueError:
            answer = {}
        description = str(answer.get("error_description", "")).lower()
        if response.status_code != 400 or answer.get("error") != "invalid_grant":
            failures.append(f"{name}: {response.status_code} {response.text}")
        elif answer.get("error_description") == INVALID_UPGRADE_TOKEN:
            failures.append(f"{name}: the upgrade token was spent by an earlier refusal: {response.text}")
        elif not any(word in description for word in words):
            failures.append(f"{name}: the description names none of {words}: {response.text}")
    assert not failures, "\n".join(failures)
    assert apple.key_fetches >= 1

    # The genuine token with the raw nonce links the Apple ID and retires the password.
    identity_token = apple.identity_token(sub, BUNDLE_ID, relay, hashed)
    done = upgrade(server, "sign-in-with-apple",
                   {"upgrade_token": token, "identity_token": identity_token, "nonce": raw})
    assert done.status_code == 200, done.text
    assert done.json() == {"type": "sign_in_with_apple", "upgraded": True}
    assert_oauth_error(upgrade(server, "sign-in-with-apple",
                               {"upgrade_token": token, "identity_token": identity_token, "nonce": raw}),
                       400, "invalid_grant", INVALID_UPGRADE_TOKEN)
    assert_oauth_error(password_login(server, email, PASSWORD), 403, "invalid_grant",
                       "This account signs in with Apple.")
    assert_oauth_error(password_login(server, email, PASSWORD + "!"), 403, "invalid_grant", "Wrong email or password.")
    user = find_user(server, admin, email)
    apple_identities = [i for i in user["identities"] if i["provider"] == "apple"]
    assert len(apple_identities) == 1 and apple_identities[0]["user_id"] == sub, user
    assert apple_identities[0]["isSocial"] is True, user
    # Nothing more to upgrade for a user without a password.
    status, body = server.http.request("POST", "/me/v1/upgrades/authorize", {"type": "strong_password"}, token=bearer)
    assert status == 403 and body["error"] == "upgrade_not_allowed", body
    assert body["reason"] in ("already_upgraded", "no_password"), body

    # The same Apple ID cannot be linked to a second account.
    signup(server, "second@example.com", PASSWORD)
    second = password_login(server, "second@example.com", PASSWORD).json()["access_token"]
    other_grant = granted(authorize(server, {"type": "sign_in_with_apple"}, token=second), "sign_in_with_apple")
    raw2, hashed2 = nonce_pair()
    assert_oauth_error(upgrade(server, "sign-in-with-apple", {
        "upgrade_token": other_grant["upgrade_token"],
        "identity_token": apple.identity_token(sub, BUNDLE_ID, relay, hashed2), "nonce": raw2,
    }), 409, "identity_already_linked")

    configuration = server.http.expect(200, "GET", "/.well-known/openid-configuration")
    sesame_jwks = server.http.expect(200, "GET", "/.well-known/jwks.json")

    # Apple login 1: Sesame's form, the identity token with the raw nonce.
    raw3, hashed3 = nonce_pair()
    response = post_form(server, "/oauth/token", {
        "grant_type": TOKEN_EXCHANGE, "client_id": server.client_id, "subject_token_type": ID_TOKEN_TYPE,
        "subject_token": apple.identity_token(sub, BUNDLE_ID, relay, hashed3), "nonce": raw3,
        "scope": "openid profile email offline_access",
    })
    assert response.status_code == 200, response.text
    tokens = response.json()
    assert tokens["auth_method"] == "apple" and tokens["token_type"] == "Bearer", tokens
    _, claims = verify_jwt(tokens["id_token"], sesame_jwks)
    assert claims["iss"] == configuration["issuer"] and claims["sub"] == user["user_id"], claims
    # ... without the nonce the token carries, or with a wrong one, refused.
    response = post_form(server, "/oauth/token", {
        "grant_type": TOKEN_EXCHANGE, "client_id": server.client_id, "subject_token_type": ID_TOKEN_TYPE,
        "subject_token": apple.identity_token(sub, BUNDLE_ID, relay, hashed3),
    })
    assert response.status_code in (400, 403) and response.json()["error"] == "invalid_grant", response.text
    response = post_form(server, "/oauth/token", {
        "grant_type": TOKEN_EXCHANGE, "client_id": server.client_id, "subject_token_type": ID_TOKEN_TYPE,
        "subject_token": apple.identity_token(sub, BUNDLE_ID, relay, hashed3), "nonce": raw3 + "x",
    })
    assert response.status_code in (400, 403) and response.json()["error"] == "invalid_grant", response.text

    # Apple login 2: Auth0's form, an authorization code redeemed at the fake with a client secret.
    code = apple.hand_out_code(sub, relay)
    response = post_form(server, "/oauth/token", {
        "grant_type": TOKEN_EXCHANGE, "client_id": server.client_id, "subject_token_type": APPLE_CODE_TYPE,
        "subject_token": code, "scope": "openid profile email offline_access",
        "user_profile": json.dumps({"name": {"firstName": "Hanako", "lastName": "Yamada"}}),
    })
    assert apple.token_requests, "Sesame never called the token endpoint"
    seen = apple.token_requests[-1]
    assert seen["secret_failure"] is None, seen
    assert response.status_code == 200, (response.text, seen)
    tokens = response.json()
    assert tokens["auth_method"] == "apple", tokens
    _, claims = verify_jwt(tokens["id_token"], sesame_jwks)
    assert claims["sub"] == user["user_id"], claims
    form = seen["form"]
    assert form["grant_type"] == "authorization_code" and form["code"] == code, form
    assert form["client_id"] == BUNDLE_ID, form  # a native code is redeemed with the bundle ID
    assert "redirect_uri" not in form, form
    assert seen["secret_header"]["alg"] == "ES256" and seen["secret_header"]["kid"] == KEY_ID, seen
    secret_claims = seen["secret_claims"]
    assert secret_claims["iss"] == TEAM_ID and secret_claims["sub"] == BUNDLE_ID, secret_claims
    assert secret_claims["aud"] == APPLE_ISSUER, secret_claims
    assert secret_claims["iat"] <= time.time() + 5 < secret_claims["exp"], secret_claims
    assert secret_claims["exp"] - secret_claims["iat"] <= CLIENT_SECRET_MAX_LIFETIME, secret_claims

    # The same code again: Apple says invalid_grant, and so does Sesame.
    response = post_form(server, "/oauth/token", {
        "grant_type": TOKEN_EXCHANGE, "client_id": server.client_id, "subject_token_type": APPLE_CODE_TYPE,
        "subject_token": code,
    })
    assert response.status_code in (400, 403) and response.json()["error"] == "invalid_grant", response.text
    assert apple.token_requests[-1]["secret_failure"] is None


def test_the_upgrade_policy_and_the_brute_force_limit(server, apple):
    admin = management_token(server)
    create_apple_connection(server, apple, admin)
    signup(server, "policy@example.com", PASSWORD)
    connections = server.http.expect(200, "GET", "/api/v2/connections", token=admin)
    connections = connections if isinstance(connections, list) else connections["connections"]
    database = next(c for c in connections if c["name"] == CONNECTION)
    patched = server.http.expect(200, "PATCH", f"/api/v2/connections/{database['id']}",
                                 {"options": {"upgrades": {"allowed": ["strong_password", "passkey"]}}}, token=admin)
    assert patched["options"]["upgrades"]["allowed"] == ["strong_password", "passkey"], patched

    login = password_login(server, "policy@example.com", PASSWORD)
    assert login.status_code == 200, login.text
    assert "sign_in_with_apple" not in login.json().get("recommended_upgrades", []), login.json()
    refused = assert_oauth_error(authorize(server, {"type": "sign_in_with_apple"}, token=login.json()["access_token"]),
                                 403, "upgrade_not_allowed")
    assert refused["reason"] == "type_disabled", refused
    granted(authorize(server, {"type": "strong_password"}, token=login.json()["access_token"]), "strong_password")

    # The system-initiated form counts wrong passwords like the password login: 10, then 429.
    system = {"type": "strong_password", "client_id": server.client_id, "username": "policy@example.com",
              "password": "not the password", "realm": CONNECTION}
    statuses = [authorize(server, system).status_code for _ in range(10)]
    assert statuses == [403] * 10, statuses
    limited = authorize(server, system)
    assert_oauth_error(limited, 429, "too_many_attempts")
    assert int(limited.headers["Retry-After"]) > 0, limited.headers
    # Even the right password waits now.
    assert authorize(server, {**system, "password": PASSWORD}).status_code == 429


def test_passkey_upgrade_retires_the_password(server):
    """The passkey upgrade with the Android stand-in of android_client.py (UV, synced, none)."""
    enable_android_app(server)
    email = "kenji@example.com"
    signup(server, email, PASSWORD)
    bearer = password_login(server, email, PASSWORD).json()["access_token"]
    grant = granted(authorize(server, {"type": "passkey"}, token=bearer), "passkey")
    started = upgrade(server, "passkey", {"upgrade_token": grant["upgrade_token"]})
    assert started.status_code == 202, started.text
    begun = started.json()
    options = begun["authn_params_public_key"]
    assert options["rp"]["id"] == server.rp_id and options["user"]["name"], options
    provider = AndroidPasskeyProvider()
    credential = provider.create(options)
    # The token was spent by starting the ceremony.
    again = upgrade(server, "passkey", {"upgrade_token": grant["upgrade_token"]})
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant", again.text
    verified = upgrade(server, "passkey/verify", {"auth_session": begun["auth_session"], "authn_response": credential})
    assert verified.status_code == 201, verified.text
    method = verified.json()
    assert method["type"] == "passkey" and method["credential_device_type"] == "multi_device", method
    assert_oauth_error(password_login(server, email, PASSWORD), 403, "invalid_grant",
                       "This account signs in with a passkey.")
    # The passkey signs in.
    challenge = server.http.expect(200, "POST", "/passkey/challenge", {"client_id": server.client_id})
    assertion = provider.get(challenge["authn_params_public_key"])
    server.http.expect(200, "POST", "/oauth/token", {
        "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": server.client_id,
        "auth_session": challenge["auth_session"], "authn_response": assertion, "scope": "openid",
    })


def test_the_fake_of_apple_checks_client_secrets_strictly(apple):
    """The fake's client-secret rules themselves, so that "the fake accepted it" above means something."""

    def secret(header: dict | None = None, der: bool = False, key=None, **claims) -> str:
        now = int(time.time())
        body = {"iss": TEAM_ID, "iat": now, "exp": now + 3600, "aud": APPLE_ISSUER, "sub": BUNDLE_ID, **claims}
        signing_input = f"{b64json(header or {'alg': 'ES256', 'kid': KEY_ID})}.{b64json(body)}"
        signature = (key or apple.p8_key).sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
        if not der:
            r, s = decode_dss_signature(signature)
            signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
        return f"{signing_input}.{b64url(signature)}"

    now = int(time.time())
    assert apple.check_client_secret(secret(), BUNDLE_ID)[0] is None
    assert apple.check_client_secret(secret(iat=now, exp=now + CLIENT_SECRET_MAX_LIFETIME), BUNDLE_ID)[0] is None
    bad = {
        "DER signature": secret(der=True),
        "other key": secret(key=ec.generate_private_key(ec.SECP256R1())),
        "alg": secret(header={"alg": "ES384", "kid": KEY_ID}),
        "kid": secret(header={"alg": "ES256", "kid": "OTHERKEY00"}),
        "iss": secret(iss="Z9Z9Z9Z9Z9"),
        "aud": secret(aud="https://appleid.apple.com/"),
        "sub": secret(sub=SERVICES_ID),
        "expired": secret(iat=now - 7200, exp=now - 1),
        "too long": secret(iat=now, exp=now + CLIENT_SECRET_MAX_LIFETIME + 1),
    }
    for name, value in bad.items():
        assert apple.check_client_secret(value, BUNDLE_ID)[0] is not None, name
    response = requests.post(apple.url + "/auth/token", data={
        "grant_type": "authorization_code", "client_id": BUNDLE_ID, "client_secret": bad["sub"],
        "code": apple.hand_out_code("001.x.1", "a@b.c")}, timeout=HTTP_TIMEOUT)
    assert response.status_code == 400 and response.json() == {"error": "invalid_client"}
    code = apple.hand_out_code("001.x.1", "a@b.c")
    ok = requests.post(apple.url + "/auth/token", data={
        "grant_type": "authorization_code", "client_id": BUNDLE_ID, "client_secret": secret(), "code": code},
        timeout=HTTP_TIMEOUT)
    assert ok.status_code == 200, ok.text
    answer = ok.json()
    assert set(answer) == {"access_token", "token_type", "expires_in", "refresh_token", "id_token"}, answer
    _, claims = verify_jwt(answer["id_token"], requests.get(apple.url + "/auth/keys", timeout=HTTP_TIMEOUT).json())
    assert claims["aud"] == BUNDLE_ID and claims["sub"] == "001.x.1" and claims["iss"] == APPLE_ISSUER
    again = requests.post(apple.url + "/auth/token", data={
        "grant_type": "authorization_code", "client_id": BUNDLE_ID, "client_secret": secret(), "code": code},
        timeout=HTTP_TIMEOUT)
    assert again.status_code == 400 and again.json() == {"error": "invalid_grant"}

"""Issue 8 end to end with independent clients: the bytes Auth0.Android sends (Gson escaping,
`application/json; charset=utf-8`, `Auth0-Client`, Credential Manager's registration JSON) for My
Account enrollment and for `getApiCredentials` (refresh with an audience), parsed with the SDK's
rules; a backend that validates Sesame's API tokens with PyJWT through the JWKS; and DPoP proofs
made with PyJWT and `cryptography`, including replayed and wrong-`htu` ones.

Nothing here comes from Sesame's code.
"""

from __future__ import annotations

import base64
import json
import time
import urllib.parse
import uuid

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from android_client import AndroidApp, AndroidPasskeyProvider, b64url, sha256
from test_android_native import enable_android_app, management_token

MY_ACCOUNT_SCOPES = "read:me:authentication_methods create:me:authentication_methods update:me:authentication_methods"


def gson(value) -> bytes:
    """JSON the way Auth0.Android's Gson writes it: compact, nulls dropped, HTML-safe escapes."""

    def drop_nulls(item):
        if isinstance(item, dict):
            return {key: drop_nulls(val) for key, val in item.items() if val is not None}
        if isinstance(item, list):
            return [drop_nulls(val) for val in item]
        return item

    text = json.dumps(drop_nulls(value), separators=(",", ":"), ensure_ascii=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("=", "\\u003d"), ("'", "\\u0027")):
        text = text.replace(char, escape)
    return text.encode("utf-8")


TELEMETRY = base64.urlsafe_b64encode(
    json.dumps({"name": "Auth0.Android", "version": "3.18.0", "env": {"android": "34"}}).encode()
).decode()  # URL_SAFE|NO_WRAP keeps the '=' padding


class Android:
    """Auth0.Android's transport: Gson bodies, its headers, and its response rules."""

    def __init__(self, server):
        self.server = server
        self.session = server.http.session

    def send(self, method: str, path: str, body=None, authorization: str | None = None, extra=None):
        headers = {"Auth0-Client": TELEMETRY, "Accept-Language": "en_US"}
        data = None
        if method in ("POST", "PATCH", "DELETE"):
            data = gson(body if body is not None else {})
            headers["Content-Type"] = "application/json; charset=utf-8"
        if authorization:
            headers["Authorization"] = authorization
        headers.update(extra or {})
        url = self.server.url + path
        return self.session.request(method, url, data=data, headers=headers, timeout=10, allow_redirects=False)

    @staticmethod
    def parsed_error(response) -> dict:
        """ServerResponse.isJson: the error body is JSON only when Content-Type says application/json."""
        content_type = response.headers.get("Content-Type", "")
        assert "application/json" in content_type.lower(), content_type
        return response.json()

    @staticmethod
    def credentials(response) -> dict:
        """CredentialsDeserializer: id_token, access_token and token_type must be there."""
        assert response.status_code == 200, (response.status_code, response.text)
        body = response.json()
        for member in ("id_token", "access_token", "token_type"):
            assert isinstance(body.get(member), str) and body[member], (member, body)
        assert isinstance(body.get("expires_in"), int), body
        return body

    @staticmethod
    def passkey_method(method: dict) -> dict:
        """PasskeyAuthenticationMethod's non-null Kotlin members."""
        for member in ("id", "type", "created_at", "usage", "aaguid", "relying_party_id"):
            assert method.get(member) is not None, (member, method)
        assert method["type"] == "passkey" and method["usage"] == ["primary"], method
        return method


def android_signup(server, email: str) -> tuple[AndroidApp, dict]:
    enable_android_app(server)
    app = AndroidApp(server.http, server.client_id, AndroidPasskeyProvider())
    _, tokens = app.signup(email)
    return app, tokens


def get_api_credentials(android: Android, server, refresh_token: str, audience: str, scope: str):
    """CredentialsManager.getApiCredentials → renewAuth(refreshToken, audience, scope)."""
    return android.send(
        "POST",
        "/oauth/token",
        {
            "client_id": server.client_id,
            "refresh_token": refresh_token,
            "grant_type": "refresh_token",
            "audience": audience,
            "scope": scope,
        },
    )


def test_android_enrolls_and_manages_passkeys_through_my_account(server):
    app, tokens = android_signup(server, "gson@example.com")
    android = Android(server)
    api_credentials = Android.credentials(
        get_api_credentials(android, server, tokens["refresh_token"], f"{server.url}/me/", f"openid {MY_ACCOUNT_SCOPES}")
    )
    bearer = f"Bearer {api_credentials['access_token']}"

    # passkeyEnrollmentChallenge(connection=…): the id is the last Location segment, URL-decoded.
    challenge = android.send(
        "POST",
        "/me/v1/authentication-methods",
        {"type": "passkey", "connection": "Username-Password-Authentication"},
        authorization=bearer,
    )
    assert challenge.status_code == 202, challenge.text
    location = challenge.headers["Location"]
    method_id = urllib.parse.unquote_plus(location.split("/")[-1])
    assert method_id == "passkey|new", location
    body = challenge.json()
    options = body["authn_params_public_key"]

    # A second Google Password Manager passkey (another Google account's manager has the same
    # AAGUID) is accepted, as Auth0 accepts it: the platform refuses a true duplicate itself, since
    # excludeCredentials lists the passkey the signup made. One per provider is a connection option.
    assert [c["id"] for c in options["excludeCredentials"]], options
    second = AndroidPasskeyProvider().create(options)
    accepted = android.send(
        "POST", "/me/v1/authentication-methods/" + urllib.parse.quote(method_id, safe="") + "/verify",
        {"auth_session": body["auth_session"], "authn_response": second}, bearer,
    )
    assert accepted.status_code == 201, accepted.text
    challenge = android.send(
        "POST", "/me/v1/authentication-methods", {"type": "passkey", "connection": "Username-Password-Authentication"},
        authorization=bearer,
    )
    body = challenge.json()
    options = body["authn_params_public_key"]

    # Credential Manager's registrationResponseJson from another provider (Samsung Pass), then
    # enroll(): the SDK's own authn_response.
    phone = AndroidPasskeyProvider(aaguid=uuid.UUID("53414d53-554e-4700-0000-000000000000").bytes)
    credential = phone.create(options)
    credential["response"]["authenticatorData"] = "ignored-by-the-sdk"
    authn_response = {
        "authenticatorAttachment": "platform",
        "clientExtensionResults": credential["clientExtensionResults"],
        "id": credential["id"],
        "rawId": credential["rawId"],
        "type": "public-key",
        "response": {
            "clientDataJSON": credential["response"]["clientDataJSON"],
            "attestationObject": credential["response"]["attestationObject"],
        },
    }
    verify_path = "/me/v1/authentication-methods/" + urllib.parse.quote(method_id, safe="") + "/verify"
    verified = android.send(
        "POST", verify_path, {"auth_session": body["auth_session"], "authn_response": authn_response}, bearer
    )
    assert verified.status_code == 201, verified.text
    method = Android.passkey_method(verified.json())
    assert method["key_id"] == credential["id"] and method["relying_party_id"] == server.rp_id, method
    assert base64.b64decode(method["public_key"], validate=True), method

    listed = android.send("GET", "/me/v1/authentication-methods?type=passkey", authorization=bearer)
    assert listed.status_code == 200, listed.text
    methods = [Android.passkey_method(m) for m in listed.json()["authentication_methods"]]
    # The signup's passkey, the second Google one, and Samsung Pass's.
    assert len(methods) == 3, methods

    path = "/me/v1/authentication-methods/" + urllib.parse.quote(method["id"], safe="")
    one = android.send("GET", path, authorization=bearer)
    assert one.status_code == 200 and one.json()["id"] == method["id"], one.text
    renamed = android.send("PATCH", path, {"name": "Tom's <phone> & tablet = 1"}, bearer)
    assert renamed.status_code == 200, renamed.text
    assert Android.passkey_method(renamed.json())["name"] == "Tom's <phone> & tablet = 1"

    # The new passkey signs in on its own.
    app.provider = phone
    _, login = app.login()
    assert login["access_token"]

    # Errors: MyAccountException reads title (code) and detail; the status tells them apart.
    missing_scope = android.send("DELETE", path, authorization=f"Bearer {tokens['access_token']}")
    assert missing_scope.status_code == 401, missing_scope.text
    assert Android.parsed_error(missing_scope)["title"] == "invalid_token"
    assert android.send("DELETE", path, authorization=bearer).status_code == 403
    delete_scope = Android.credentials(
        get_api_credentials(
            android, server, api_credentials["refresh_token"], f"{server.url}/me/",
            "openid delete:me:authentication_methods",
        )
    )
    remover = f"Bearer {delete_scope['access_token']}"
    assert android.send("DELETE", path, authorization=remover).status_code == 204
    others = android.send("GET", "/me/v1/authentication-methods", authorization=bearer).json()
    paths = ["/me/v1/authentication-methods/" + urllib.parse.quote(m["id"], safe="")
             for m in others["authentication_methods"]]
    for other in paths[:-1]:
        assert android.send("DELETE", other, authorization=remover).status_code == 204
    conflict = android.send("DELETE", paths[-1], authorization=remover)
    assert conflict.status_code == 409, conflict.text
    problem = Android.parsed_error(conflict)
    assert problem["title"] == "conflict" and problem["status"] == 409 and problem["detail"], problem


def test_get_api_credentials_never_logs_the_user_out(server):
    """Refresh with an audience (My Account, an app's API, an unknown one) and then plain renewals."""
    _, tokens = android_signup(server, "renewals@example.com")
    android = Android(server)
    manager = management_token(server)
    created = server.http.expect(
        201,
        "POST",
        "/api/v2/resource-servers",
        {"identifier": "https://orders.example.com/", "name": "Orders", "scopes": [{"value": "read:orders"}]},
        token=manager,
    )
    assert created["identifier"] == "https://orders.example.com/"

    refresh_token = tokens["refresh_token"]
    # An unknown audience is refused, and the refresh token is not spent by it.
    refused = get_api_credentials(android, server, refresh_token, "https://nope.example.com/", "openid")
    assert refused.status_code == 400, refused.text
    for audience, scope in ((f"{server.url}/me/", f"openid {MY_ACCOUNT_SCOPES}"), ("https://orders.example.com/", "openid read:orders")):
        answer = Android.credentials(get_api_credentials(android, server, refresh_token, audience, scope))
        claims = jwt.decode(answer["access_token"], options={"verify_signature": False})
        assert audience in claims["aud"] and claims["scope"] == scope, claims
        refresh_token = answer.get("refresh_token", refresh_token)
    # The ordinary renewal (CredentialsManager.getCredentials) still works, for the login's grant.
    plain = Android.credentials(
        android.send(
            "POST",
            "/oauth/token",
            {"client_id": server.client_id, "refresh_token": refresh_token, "grant_type": "refresh_token"},
        )
    )
    assert plain["scope"] == tokens["scope"], plain

    # A revoked token is Auth0's RENEW_FAILED: invalid_grant "Unknown or invalid refresh token."
    android.send("POST", "/oauth/revoke", {"client_id": server.client_id, "token": plain["refresh_token"]})
    dead = android.send(
        "POST",
        "/oauth/token",
        {"client_id": server.client_id, "refresh_token": plain["refresh_token"], "grant_type": "refresh_token"},
    )
    assert dead.status_code == 400
    error = Android.parsed_error(dead)
    assert error == {"error": "invalid_grant", "error_description": "Unknown or invalid refresh token."}, error


def test_a_backend_validates_api_tokens_with_pyjwt_through_the_jwks(server):
    """docs/api.md's backend example: PyJWKClient + jwt.decode, nothing from Sesame."""
    _, tokens = android_signup(server, "backend@example.com")
    manager = management_token(server)
    server.http.expect(
        201,
        "POST",
        "/api/v2/resource-servers",
        {
            "identifier": "https://orders.example.com/",
            "name": "Orders",
            "scopes": [{"value": "read:orders"}],
            "signing_alg": "ES256",
        },
        token=manager,
    )
    answer = server.http.expect(
        200,
        "POST",
        "/oauth/token",
        {
            "grant_type": "refresh_token",
            "client_id": server.client_id,
            "refresh_token": tokens["refresh_token"],
            "audience": "https://orders.example.com/",
            "scope": "read:orders",
        },
    )
    issuer = f"{server.url}/"
    jwks = jwt.PyJWKClient(f"{server.url}/.well-known/jwks.json")
    token = answer["access_token"]
    key = jwks.get_signing_key_from_jwt(token)
    claims = jwt.decode(
        token, key.key, algorithms=["RS256", "ES256", "EdDSA"], audience="https://orders.example.com/", issuer=issuer
    )
    assert claims["scope"] == "read:orders" and claims["client_id"] == server.client_id, claims
    assert jwt.get_unverified_header(token)["typ"] == "at+jwt"
    with pytest.raises(jwt.InvalidAudienceError):
        jwt.decode(token, key.key, algorithms=["ES256"], audience="https://billing.example.com/", issuer=issuer)
    # A token for /userinfo only is not one for the API.
    userinfo_key = jwks.get_signing_key_from_jwt(tokens["access_token"])
    with pytest.raises(jwt.InvalidAudienceError):
        jwt.decode(
            tokens["access_token"], userinfo_key.key, algorithms=["RS256", "ES256", "EdDSA"],
            audience="https://orders.example.com/", issuer=issuer,
        )


class DPoPClient:
    """DPoP proofs (RFC 9449 §4.2) made with PyJWT and a P-256 key from `cryptography`."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(self.key.public_key()))

    def thumbprint(self) -> str:
        canonical = json.dumps({k: self.jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"), sort_keys=True)
        return b64url(sha256(canonical.encode()))

    def proof(self, method: str, url: str, access_token: str | None = None, jti: str | None = None) -> str:
        claims = {"jti": jti or str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(time.time())}
        if access_token is not None:
            claims["ath"] = b64url(sha256(access_token.encode("ascii")))
        return jwt.encode(claims, self.key, algorithm="ES256", headers={"typ": "dpop+jwt", "jwk": self.jwk})


def test_dpop_with_an_independent_implementation(server):
    enable_android_app(server)
    app = AndroidApp(server.http, server.client_id, AndroidPasskeyProvider())
    challenge = app.signup_challenge("dpop@example.com")
    credential = app.provider.create(challenge["authn_params_public_key"])
    client = DPoPClient()
    session = server.http.session
    token_url = f"{server.url}/oauth/token"

    answer = session.post(
        token_url, json=app.token_request(challenge, credential), headers={"DPoP": client.proof("POST", token_url)},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    tokens = answer.json()
    assert tokens["token_type"] == "DPoP", tokens
    claims = jwt.decode(tokens["access_token"], options={"verify_signature": False})
    assert claims["cnf"] == {"jkt": client.thumbprint()}, claims

    userinfo_url = f"{server.url}/userinfo"
    access = tokens["access_token"]
    proof = client.proof("GET", userinfo_url, access_token=access, jti="used-once")
    ok = session.get(userinfo_url, headers={"Authorization": f"DPoP {access}", "DPoP": proof}, timeout=10)
    assert ok.status_code == 200 and ok.json()["email"] == "dpop@example.com", ok.text
    replay = session.get(userinfo_url, headers={"Authorization": f"DPoP {access}", "DPoP": proof}, timeout=10)
    assert replay.status_code == 401, replay.text
    assert replay.headers["WWW-Authenticate"].startswith('DPoP error="invalid_dpop_proof"'), replay.headers
    wrong_htu = client.proof("GET", f"{server.url}/elsewhere", access_token=access)
    moved = session.get(userinfo_url, headers={"Authorization": f"DPoP {access}", "DPoP": wrong_htu}, timeout=10)
    assert moved.status_code == 401 and moved.json()["error"] == "invalid_dpop_proof", moved.text
    bearer = session.get(userinfo_url, headers={"Authorization": f"Bearer {access}"}, timeout=10)
    assert bearer.status_code == 401, bearer.text

    # The public client's refresh token is bound: a proof by another key is refused, its own works.
    body = {"grant_type": "refresh_token", "client_id": server.client_id, "refresh_token": tokens["refresh_token"]}
    stranger = session.post(token_url, json=body, headers={"DPoP": DPoPClient().proof("POST", token_url)}, timeout=10)
    assert stranger.status_code == 400 and stranger.json()["error"] == "invalid_dpop_proof", stranger.text
    renewed = session.post(token_url, json=body, headers={"DPoP": client.proof("POST", token_url)}, timeout=10)
    assert renewed.status_code == 200 and renewed.json()["token_type"] == "DPoP", renewed.text
    configuration = server.http.expect(200, "GET", "/.well-known/openid-configuration")
    assert "ES256" in configuration["dpop_signing_alg_values_supported"], configuration

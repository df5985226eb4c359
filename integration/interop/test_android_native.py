"""Sesame's native passkey API driven by an independent client acting as an Android app.

The operator first enables the app through the Management API (client_credentials token, then
PATCH /api/v2/clients/{id} with mobile.android), exactly as with Auth0; from then on the app's
`android:apk-key-hash:` origin is accepted and /.well-known/assetlinks.json lists the app.
"""

from android_client import (
    FAKE_SIGNING_CERTIFICATE_DER,
    PACKAGE_NAME,
    WEBAUTHN_GRANT,
    AndroidApp,
    AndroidPasskeyProvider,
    apk_key_hash_origin,
    b64url,
    b64url_decode,
    check_id_token,
    colon_fingerprint,
    verify_jwt,
)

ASSETLINKS_RELATIONS = ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"]


def management_token(server) -> str:
    tokens = server.http.expect(
        200,
        "POST",
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": server.management_client_id,
            "client_secret": server.management_client_secret,
            "audience": f"{server.url}/api/v2/",
        },
    )
    assert tokens["token_type"] == "Bearer" and "update:clients" in tokens["scope"].split(), tokens
    return tokens["access_token"]


def enable_android_app(server, certificate_der: bytes = FAKE_SIGNING_CERTIFICATE_DER) -> dict:
    body = {
        "mobile": {
            "android": {
                "app_package_name": PACKAGE_NAME,
                "sha256_cert_fingerprints": [colon_fingerprint(certificate_der)],
            }
        }
    }
    return server.http.expect(
        200, "PATCH", f"/api/v2/clients/{server.client_id}", body, token=management_token(server)
    )


def discovery(server) -> tuple[str, dict]:
    configuration = server.http.expect(200, "GET", "/.well-known/openid-configuration")
    assert configuration["jwks_uri"] == f"{server.url}/.well-known/jwks.json", configuration
    return configuration["issuer"], server.http.expect(200, "GET", "/.well-known/jwks.json")


def expect_invalid_grant(server, body: dict, mentions: str) -> dict:
    error = server.http.expect(400, "POST", "/oauth/token", body)
    assert error["error"] == "invalid_grant", error
    assert mentions in error["error_description"].lower(), error
    return error


def test_android_origin_is_refused_until_the_operator_enables_the_app(server):
    assert server.http.expect(200, "GET", "/.well-known/assetlinks.json") == []
    app = AndroidApp(server.http, server.client_id, AndroidPasskeyProvider())
    challenge = app.signup_challenge("early@example.com")
    options = challenge["authn_params_public_key"]
    assert options["rp"]["id"] == server.rp_id == "localhost", options
    credential = app.provider.create(options)
    request = app.token_request(challenge, credential)

    expect_invalid_grant(server, request, "origin")
    # The auth session was consumed by the failed attempt.
    expect_invalid_grant(server, request, "session")

    # Nothing was written: once the app is enabled the same email signs up.
    enable_android_app(server)
    retry = AndroidApp(server.http, server.client_id, AndroidPasskeyProvider())
    _, tokens = retry.signup("early@example.com")
    issuer, jwks = discovery(server)
    check_id_token(tokens["id_token"], jwks, issuer, server.client_id, "early@example.com")


def test_management_api_enables_the_android_app_and_assetlinks_lists_it(server):
    fingerprint = colon_fingerprint()
    assert len(fingerprint) == 95 and fingerprint == fingerprint.upper()

    # Without a bearer token the Management API refuses.
    status, error = server.http.request(
        "PATCH", f"/api/v2/clients/{server.client_id}", {"mobile": {"android": {"app_package_name": "x.y"}}}
    )
    assert status == 401, (status, error)

    client = enable_android_app(server)
    assert client["client_id"] == server.client_id, client
    assert client["mobile"]["android"] == {
        "app_package_name": PACKAGE_NAME,
        "sha256_cert_fingerprints": [fingerprint],
    }, client
    fetched = server.http.expect(200, "GET", f"/api/v2/clients/{server.client_id}", token=management_token(server))
    assert fetched["mobile"]["android"] == client["mobile"]["android"], fetched

    statements = server.http.expect(200, "GET", "/.well-known/assetlinks.json")
    assert statements == [
        {
            "relation": ASSETLINKS_RELATIONS,
            "target": {
                "namespace": "android_app",
                "package_name": PACKAGE_NAME,
                "sha256_cert_fingerprints": [fingerprint],
            },
        }
    ], statements


def test_android_signup_login_refresh_and_refresh_reuse(server):
    enable_android_app(server)
    issuer, jwks = discovery(server)
    assert issuer == f"{server.url}/", issuer
    provider = AndroidPasskeyProvider()
    assert provider.origin == apk_key_hash_origin()
    app = AndroidApp(server.http, server.client_id, provider)
    email = "android.user@example.com"

    credential, signup = app.signup(email)
    assert signup["token_type"] == "Bearer" and signup["expires_in"] > 0, signup
    assert set(signup["scope"].split()) >= {"openid", "profile", "email", "offline_access"}, signup
    assert signup["refresh_token"], signup
    claims = check_id_token(signup["id_token"], jwks, issuer, server.client_id, email)
    subject = claims["sub"]
    assert "pop" in claims.get("amr", []), claims
    _, access = verify_jwt(signup["access_token"], jwks)
    assert access["sub"] == subject and access["iss"] == issuer, access

    userinfo = server.http.expect(200, "GET", "/userinfo", token=signup["access_token"])
    assert userinfo["sub"] == subject and userinfo["email"] == email, userinfo

    # What the server recorded from this authenticator, as the operator sees it.
    methods = server.http.expect(
        200, "GET", f"/api/v2/users/{subject}/authentication-methods", token=management_token(server)
    )
    assert isinstance(methods, list) and len(methods) == 1, methods
    method = methods[0]
    assert method["type"] == "passkey" and method["credential_id"] == credential["id"], method
    assert method["aaguid"] == "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", method
    assert method["credential_device_type"] == "multi_device" and method["credential_backed_up"] is True, method
    assert sorted(method["transports"]) == ["hybrid", "internal"], method

    # Google Password Manager keeps the counter at 0: two logins in a row must both pass.
    for _ in range(2):
        assertion, login = app.login()
        assert assertion["id"] == credential["id"]
        login_claims = check_id_token(login["id_token"], jwks, issuer, server.client_id, email)
        assert login_claims["sub"] == subject, (login_claims, claims)
        assert login["refresh_token"], login

    rotated = app.refresh(login["refresh_token"])
    assert rotated["access_token"] and rotated["refresh_token"] != login["refresh_token"], rotated
    if "id_token" in rotated:
        assert check_id_token(rotated["id_token"], jwks, issuer, server.client_id, email)["sub"] == subject
    _, refreshed_access = verify_jwt(rotated["access_token"], jwks)
    assert refreshed_access["sub"] == subject, refreshed_access

    # Reusing the rotated-out refresh token fails, and revokes the whole family (reuse detection).
    reuse = app.refresh(login["refresh_token"], status=400)
    assert reuse["error"] == "invalid_grant", reuse
    family = app.refresh(rotated["refresh_token"], status=400)
    assert family["error"] == "invalid_grant", family
    # Another login session's refresh token is a different family and still works.
    assert app.refresh(signup["refresh_token"])["access_token"]


def test_android_ceremonies_with_one_thing_wrong_are_refused(server):
    enable_android_app(server)
    app = AndroidApp(server.http, server.client_id, AndroidPasskeyProvider())
    email = "careful@example.com"
    app.signup(email)

    # The same app signed with another certificate: its apk-key-hash origin is not enabled.
    other_origin = apk_key_hash_origin(FAKE_SIGNING_CERTIFICATE_DER + b"other")
    impostor = AndroidApp(server.http, server.client_id, AndroidPasskeyProvider(origin=other_origin))
    challenge = impostor.signup_challenge("impostor@example.com")
    credential = impostor.provider.create(challenge["authn_params_public_key"])
    expect_invalid_grant(server, impostor.token_request(challenge, credential), "origin")

    # A login assertion whose signature is broken by one bit.
    challenge = app.login_challenge()
    assertion = app.provider.get(challenge["authn_params_public_key"])
    signature = bytearray(b64url_decode(assertion["response"]["signature"]))
    signature[-1] ^= 0x01
    assertion["response"]["signature"] = b64url(bytes(signature))
    expect_invalid_grant(server, app.token_request(challenge, assertion), "signature")

    # An assertion answering another session's challenge.
    first, second = app.login_challenge(), app.login_challenge()
    assertion = app.provider.get(first["authn_params_public_key"])
    expect_invalid_grant(server, app.token_request(second, assertion), "challenge")

    # The unbroken ceremony still passes, so each refusal above came from its one change.
    _, tokens = app.login()
    assert tokens["id_token"]


def test_unknown_auth_session_is_refused(server):
    app = AndroidApp(server.http, server.client_id, AndroidPasskeyProvider())
    body = {
        "grant_type": WEBAUTHN_GRANT,
        "client_id": server.client_id,
        "auth_session": b64url(b"\x00" * 32),
        "authn_response": app.provider.create(
            {
                "rp": {"id": "localhost"},
                "user": {"id": b64url(b"u" * 32)},
                "challenge": b64url(b"c" * 32),
                "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
            }
        ),
    }
    expect_invalid_grant(server, body, "session")

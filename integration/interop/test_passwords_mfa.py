"""Issue 10 with independent clients: a password signup and login the way Auth0's SDKs send them
(a form-encoded password-realm grant), TOTP enrolled and answered with PyPI `pyotp` (an
implementation that owes nothing to Sesame's), the mfa_required -> mfa-otp step, a used code
refused, a breached password refused, and the exact texts Auth0.swift compares.

Nothing here comes from Sesame's code.
"""

from __future__ import annotations

import time

import jwt
import pyotp
import requests

from test_android_native import management_token

CONNECTION = "Username-Password-Authentication"
PASSWORD = "correct horse battery staple"
REALM = "http://auth0.com/oauth/grant-type/password-realm"
MFA_OTP = "http://auth0.com/oauth/grant-type/mfa-otp"


def form_login(server, username: str, password: str) -> requests.Response:
    """What Auth0.swift's login(usernameOrEmail:password:realmOrConnection:) sends."""
    return server.http.session.post(
        server.url + "/oauth/token",
        data={
            "grant_type": REALM, "client_id": server.client_id, "username": username, "password": password,
            "realm": CONNECTION, "scope": "openid profile email offline_access",
        },
        timeout=10,
    )


def test_password_signup_totp_enrollment_and_the_mfa_step(server):
    signup = server.http.expect(
        200, "POST", "/dbconnections/signup",
        {"client_id": server.client_id, "connection": CONNECTION, "email": "ada@example.com", "password": PASSWORD},
    )
    assert signup["email"] == "ada@example.com" and signup["email_verified"] is False and "|" not in signup["_id"]

    login = form_login(server, "ada@example.com", PASSWORD)
    assert login.status_code == 200, login.text
    assert login.json()["password_status"] == "ok"
    wrong = form_login(server, "ada@example.com", PASSWORD + "!")
    unknown = form_login(server, "nobody@example.com", PASSWORD)
    assert wrong.status_code == unknown.status_code == 403
    assert wrong.json() == unknown.json() == {"error": "invalid_grant", "error_description": "Wrong email or password."}

    # The tenant asks every password login for TOTP (Guardian's shape).
    admin = management_token(server)
    for factor in ("otp", "recovery-code"):
        server.http.expect(200, "PUT", f"/api/v2/guardian/factors/{factor}", {"enabled": True}, token=admin)
    response = server.http.session.put(
        server.url + "/api/v2/guardian/policies", json=["all-applications"],
        headers={"Authorization": f"Bearer {admin}"}, timeout=10,
    )
    assert response.status_code == 200 and response.json() == ["all-applications"], response.text

    required = form_login(server, "ada@example.com", PASSWORD)
    assert required.status_code == 403, required.text
    body = required.json()
    assert body["error"] == "mfa_required" and body["error_description"] == "Multifactor authentication required"
    assert body["mfa_requirements"] == {"enroll": [{"type": "otp"}]}
    mfa_token = body["mfa_token"]

    associated = server.http.expect(
        200, "POST", "/mfa/associate", {"authenticator_types": ["otp"]}, token=mfa_token,
    )
    assert associated["authenticator_type"] == "otp" and len(associated["recovery_codes"]) == 1
    totp = pyotp.parse_uri(associated["barcode_uri"])
    assert totp.secret == associated["secret"] and totp.digits == 6 and totp.interval == 30
    code = totp.now()
    done = server.http.expect(200, "POST", "/oauth/token", {
        "grant_type": MFA_OTP, "client_id": server.client_id, "mfa_token": mfa_token, "otp": code,
    })
    assert "access_token" in done and "refresh_token" in done

    # The next login names the enrolled factor; the used code is refused, a fresh one works.
    again = form_login(server, "ada@example.com", PASSWORD).json()
    assert again["mfa_requirements"] == {"challenge": [{"type": "otp"}, {"type": "recovery-code"}]}
    replay = server.http.session.post(server.url + "/oauth/token", json={
        "grant_type": MFA_OTP, "client_id": server.client_id, "mfa_token": again["mfa_token"], "otp": code,
    }, timeout=10)
    assert replay.status_code == 403 and replay.json()["error_description"] == "Invalid otp_code."
    next_code = totp.at(time.time() + 30)
    finished = server.http.expect(200, "POST", "/oauth/token", {
        "grant_type": MFA_OTP, "client_id": server.client_id, "mfa_token": again["mfa_token"], "otp": next_code,
    })
    assert finished["token_type"] == "Bearer"
    spent = server.http.session.post(server.url + "/oauth/token", json={
        "grant_type": MFA_OTP, "client_id": server.client_id, "mfa_token": again["mfa_token"], "otp": next_code,
    }, timeout=10)
    assert spent.json()["error_description"] == "Malformed mfa_token"


def test_a_breached_password_is_refused_at_signup(server):
    admin = management_token(server)
    server.http.expect(
        200, "PATCH", "/api/v2/attack-protection/breached-password-detection", {"enabled": True}, token=admin,
    )
    for password in ("AUTH0-TEST-anything", "qwerty123456"):
        status, body = server.http.request("POST", "/dbconnections/signup", {
            "client_id": server.client_id, "connection": CONNECTION, "email": "bob@example.com", "password": password,
        })
        assert status == 400 and body["code"] == "password_leaked", body
    status, body = server.http.request("POST", "/dbconnections/signup", {
        "client_id": server.client_id, "connection": CONNECTION, "email": "bob@example.com", "password": "short",
    })
    assert status == 400 and body["name"] == "PasswordStrengthError" and body["code"] == "invalid_password"
    assert body["description"]["rules"][0]["code"] == "lengthAtLeast"


def test_a_stolen_refresh_token_cannot_enroll_a_factor(server):
    """The audit's takeover, from outside: a refresh token switched to the MFA API's audience must
    not get `enroll` (a factor the thief controls would make tokens that pass every step-up)."""
    email = "victim@example.com"
    server.http.expect(
        200, "POST", "/dbconnections/signup",
        {"client_id": server.client_id, "connection": CONNECTION, "email": email, "password": PASSWORD},
    )
    admin = management_token(server)
    for factor in ("otp", "recovery-code"):
        server.http.expect(200, "PUT", f"/api/v2/guardian/factors/{factor}", {"enabled": True}, token=admin)
    server.http.session.put(
        server.url + "/api/v2/guardian/policies", json=["all-applications"],
        headers={"Authorization": f"Bearer {admin}"}, timeout=10,
    )
    required = form_login(server, email, PASSWORD).json()
    mfa_token = required["mfa_token"]
    associated = server.http.expect(200, "POST", "/mfa/associate", {"authenticator_types": ["otp"]}, token=mfa_token)
    totp = pyotp.parse_uri(associated["barcode_uri"])
    tokens = server.http.expect(200, "POST", "/oauth/token", {
        "grant_type": MFA_OTP, "client_id": server.client_id, "mfa_token": mfa_token, "otp": totp.now(),
    })
    stolen = tokens["refresh_token"]
    mfa_audience = server.url + "/mfa/"

    def refresh(**extra):
        return server.http.session.post(server.url + "/oauth/token", json={
            "grant_type": "refresh_token", "client_id": server.client_id, "refresh_token": stolen,
            "audience": mfa_audience, **extra,
        }, timeout=10)

    for scope in ("enroll", "remove:authenticators", "openid enroll"):
        asked = refresh(scope=scope)
        assert asked.status_code == 400 and asked.json()["error"] == "invalid_scope", asked.text
    plain = refresh()
    assert plain.status_code == 200, plain.text
    granted = plain.json()["scope"].split()
    assert "enroll" not in granted and "remove:authenticators" not in granted, granted
    attempt = server.http.session.post(
        server.url + "/mfa/associate", json={"authenticator_types": ["otp"]},
        headers={"Authorization": f"Bearer {plain.json()['access_token']}"}, timeout=10,
    )
    assert attempt.status_code == 403 and attempt.json()["error"] == "insufficient_scope", attempt.text


def test_profile_attributes_reach_the_api_the_id_token_and_userinfo(server):
    """The profile's free-text attributes, `middle_name` among them (the worked example of adding
    a field, docs/ARCHITECTURE.md), as a client that knows only the wire sees them."""
    names = {"given_name": "Ada", "middle_name": "Augusta", "family_name": "Lovelace", "nickname": "ada"}
    signup = server.http.expect(
        200, "POST", "/dbconnections/signup",
        {"client_id": server.client_id, "connection": CONNECTION, "email": "augusta@example.com",
         "password": PASSWORD, **names},
    )
    assert {key: signup.get(key) for key in names} == names

    login = form_login(server, "augusta@example.com", PASSWORD)
    assert login.status_code == 200, login.text
    tokens = login.json()
    claims = jwt.decode(tokens["id_token"], options={"verify_signature": False})
    assert {key: claims.get(key) for key in names} == names
    userinfo = server.http.expect(200, "GET", "/userinfo", token=tokens["access_token"])
    assert {key: userinfo.get(key) for key in names} == names

    admin = management_token(server)
    users = server.http.expect(200, "GET", "/api/v2/users?q=augusta", token=admin)
    assert len(users) == 1 and users[0]["middle_name"] == "Augusta"
    user_path = "/api/v2/users/" + users[0]["user_id"].replace("|", "%7C")
    cleared = server.http.expect(200, "PATCH", user_path, {"middle_name": None}, token=admin)
    assert "middle_name" not in cleared and cleared["family_name"] == "Lovelace"
    # A control character is not text.
    status, body = server.http.request("PATCH", user_path, {"middle_name": "a\u0007b"}, token=admin)
    assert status == 400 and body["error"] == "invalid_request"

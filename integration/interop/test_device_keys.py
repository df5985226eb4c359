"""Issue 12 with an independent client: a legacy device key made and used by PyPI `cryptography`
(P-256, ES256 as DER the way SecKeyCreateSignature gives it, and raw r||s), the exact signed
bytes of API.md §8 built here from the text of the contract, registration with a fresh sign-in,
the device-key grant, the method hints, the passkey_enrollment prompt's page, and the adoption
statistics in JSON and CSV.

Nothing here comes from Sesame's code.
"""

from __future__ import annotations

import datetime
import hashlib
import time

import requests
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from android_client import b64url, b64url_decode
from test_android_native import management_token

CONNECTION = "Username-Password-Authentication"
PASSWORD = "correct horse battery staple"
REALM = "http://auth0.com/oauth/grant-type/password-realm"
DEVICE_KEY = "urn:sesame:params:oauth:grant-type:device-key"


def signed_bytes(purpose: str, challenge: str, client_id: str, key_id: str) -> bytes:
    """API.md §8: "sesame-device-key-v1" 0x00 purpose 0x00 challenge SHA-256(client_id) key_id."""
    return (
        b"sesame-device-key-v1" + b"\x00" + purpose.encode() + b"\x00" + b64url_decode(challenge)
        + hashlib.sha256(client_id.encode()).digest() + b64url_decode(key_id)
    )


def sign(key: ec.EllipticCurvePrivateKey, message: bytes, raw: bool = False) -> str:
    der = key.sign(message, ec.ECDSA(hashes.SHA256()))
    if not raw:
        return b64url(der)
    r, s = decode_dss_signature(der)
    return b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def jwk(key: ec.EllipticCurvePrivateKey) -> dict:
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
            "y": b64url(numbers.y.to_bytes(32, "big"))}


def my_account_login(server, email: str) -> dict:
    response = server.http.session.post(
        server.url + "/oauth/token",
        data={
            "grant_type": REALM, "client_id": server.client_id, "username": email, "password": PASSWORD,
            "realm": CONNECTION, "audience": f"{server.url}/me/",
            "scope": "openid create:me:authentication_methods read:me:authentication_methods",
        },
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_a_device_key_from_registration_to_the_passkey_prompt(server):
    email = "taro@example.com"
    server.http.expect(
        200, "POST", "/dbconnections/signup",
        {"client_id": server.client_id, "connection": CONNECTION, "email": email, "password": PASSWORD},
    )
    login = my_account_login(server, email)
    assert login["passkey_enrollment"]["reason"] == "progressive"
    token = login["access_token"]

    # Registration: the server's challenge and key id, signed with a key made here (DER).
    key = ec.generate_private_key(ec.SECP256R1())
    challenge = server.http.expect(200, "POST", "/me/v1/device-keys/challenge", {}, token=token)
    assert len(b64url_decode(challenge["challenge"])) == 32 and len(b64url_decode(challenge["key_id"])) == 16
    message = signed_bytes("register", challenge["challenge"], server.client_id, challenge["key_id"])
    created = server.http.expect(
        201, "POST", "/me/v1/device-keys",
        {
            "auth_session": challenge["auth_session"], "public_key": jwk(key), "signature": sign(key, message),
            "device": {"id": "install-1", "name": "Taro's iPhone", "platform": "ios", "os_version": "16.3"},
        },
        token=token,
    )
    key_id = created["id"]
    assert key_id == challenge["key_id"] and created["status"] == "active"
    listed = server.http.expect(200, "GET", "/me/v1/device-keys", token=token)
    assert [k["id"] for k in listed["device_keys"]] == [key_id]

    # The hints: an old iPhone registers a device key, a new one a passkey.
    old = server.http.expect(200, "GET", f"/passkey/method-hints?client_id={server.client_id}&platform=ios&os_version=16.3")
    new = server.http.expect(200, "GET", f"/passkey/method-hints?client_id={server.client_id}&platform=ios&os_version=16.4")
    assert old["register"] == "device_key" and new["register"] == "passkey"
    assert new["min_os_versions"]["ios"] == "16.4"
    hints = server.http.expect(200, "GET", "/me/v1/method-hints?platform=ios&os_version=16.3", token=token)
    assert hints["reauth"] == ["device_key"] and hints["has_device_key"] is True and hints["has_passkey"] is False

    # Re-authentication, raw r||s this time, from a device now on iOS 17.
    reauth = server.http.expect(
        200, "POST", "/device-key/challenge", {"client_id": server.client_id, "key_id": key_id}, token=token
    )
    message = signed_bytes("reauth", reauth["challenge"], server.client_id, key_id)
    response = server.http.session.post(
        server.url + "/oauth/token",
        data={
            "grant_type": DEVICE_KEY, "client_id": server.client_id, "auth_session": reauth["auth_session"],
            "key_id": key_id, "signature": sign(key, message, raw=True), "scope": "openid", "os_version": "17.2",
        },
        timeout=10,
    )
    assert response.status_code == 200, response.text
    tokens = response.json()
    assert tokens["auth_method"] == "device_key"
    prompt = tokens["passkey_enrollment"]
    assert prompt["recommended"] is True and prompt["reason"] == "device_key_reauth"
    assert prompt["enroll_url"].startswith(server.url + "/u/passkey-enroll?ticket=")
    page = requests.get(prompt["enroll_url"], timeout=10)
    assert page.status_code == 200 and 'data-page="enroll"' in page.text
    # Single use.
    assert requests.get(prompt["enroll_url"], timeout=10).status_code == 400

    # The same signature again is refused: the challenge was spent.
    again = server.http.session.post(
        server.url + "/oauth/token",
        data={
            "grant_type": DEVICE_KEY, "client_id": server.client_id, "auth_session": reauth["auth_session"],
            "key_id": key_id, "signature": sign(key, message),
        },
        timeout=10,
    )
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"

    # The statistics count the password login and the device-key re-auth. The server writes its
    # events in batches, flushed every second: poll until they are there (at most 10 s).
    admin = management_token(server)
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    deadline = time.monotonic() + 10
    while True:
        stats = server.http.expect(200, "GET", f"/api/v2/stats/authentications?from={today}&to={today}", token=admin)
        day = stats["days"][0]
        if day["by_method"]["device_key"] == 1 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert day["by_method"] == {"passkey": 0, "device_key": 1, "password": 1, "apple": 0, "refresh": 0}, day
    assert day["device_auth_passkey_share"] == 0.0 and day["platforms"]["ios"] == 1
    assert stats["users"] == {"total": 1, "with_passkey": 0, "with_device_key_only": 1, "password_only": 0}
    csv = server.http.session.get(
        server.url + f"/api/v2/stats/authentications?from={today}&to={today}&format=csv",
        headers={"Authorization": f"Bearer {admin}"}, timeout=10,
    )
    assert csv.headers["Content-Type"].startswith("text/csv")
    assert csv.text.splitlines()[1].startswith(f"{today},2,0,1,1,0,0,")

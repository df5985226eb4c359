"""An independent Python client that talks to Sesame as a native Android app would.

Nothing here comes from Sesame's code: the WebAuthn structures are built by hand from the
specification (WebAuthn Level 3 §6.1 authenticator data, §6.5 attestation object, §5.8.1 client
data; RFC 8152 COSE keys) with `cbor2` and `cryptography`, the way Credential Manager and Google
Password Manager produce them on a phone:

- the origin is `android:apk-key-hash:<base64url(SHA-256(APK signing certificate DER))>` and the
  client data also carries `androidPackageName`, as Google Play services writes it;
- flags UP|UV|BE|BS (a synced passkey), the signature counter is always 0, the AAGUID is Google
  Password Manager's, the attestation statement is `none`;
- the request bodies follow Auth0.Android's `signupWithPasskey` / `passkeyChallenge` /
  `signinWithPasskey` (Sesame's native API is wire-compatible with Auth0's).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import os
import time
import uuid

import cbor2
import requests
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

HTTP_TIMEOUT = 10  # seconds for every HTTP call
WEBAUTHN_GRANT = "urn:okta:params:oauth:grant-type:webauthn"

# A fixed fake APK signing certificate: only its SHA-256 matters to the server.
FAKE_SIGNING_CERTIFICATE_DER = b"0\x82\x01\x0a sesame interop test: fake APK signing certificate (DER) \x00\x01\x02"
PACKAGE_NAME = "com.example.app"
GOOGLE_PASSWORD_MANAGER_AAGUID = uuid.UUID("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4").bytes

FLAG_UP, FLAG_UV, FLAG_BE, FLAG_BS, FLAG_AT = 0x01, 0x04, 0x08, 0x10, 0x40


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def apk_key_hash_origin(certificate_der: bytes = FAKE_SIGNING_CERTIFICATE_DER) -> str:
    return "android:apk-key-hash:" + b64url(sha256(certificate_der))


def colon_fingerprint(certificate_der: bytes = FAKE_SIGNING_CERTIFICATE_DER) -> str:
    """The fingerprint the way `keytool -list -v` and the Play Console print it: "AB:CD:…"."""
    return ":".join(f"{byte:02X}" for byte in sha256(certificate_der))


class HTTPError(AssertionError):
    """An unexpected HTTP status, with the request and the response for the report."""


class SesameHTTP:
    """JSON over HTTP to one server, with a timeout on every call and no proxies."""

    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()
        self.session.trust_env = False  # loopback only: never an environment proxy

    def request(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = self.session.request(
            method, self.base_url + path, json=body, headers=headers, timeout=HTTP_TIMEOUT, allow_redirects=False
        )
        try:
            payload = response.json()
        except ValueError:
            raise HTTPError(f"{method} {path} -> {response.status_code}, not JSON: {response.text[:500]!r}")
        return response.status_code, payload

    def expect(self, status: int, method: str, path: str, body=None, token: str | None = None) -> dict:
        got, payload = self.request(method, path, body, token)
        if got != status:
            raise HTTPError(
                f"{method} {path} -> {got} (expected {status})\nrequest: {json.dumps(body)[:2000]}\n"
                f"response: {json.dumps(payload)[:2000]}"
            )
        return payload


@dataclasses.dataclass
class StoredPasskey:
    """What the authenticator keeps for one credential."""

    credential_id: bytes
    private_key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0


class AndroidPasskeyProvider:
    """A software stand-in for Google Password Manager behind Credential Manager."""

    def __init__(self, origin: str | None = None, package_name: str = PACKAGE_NAME,
                 aaguid: bytes = GOOGLE_PASSWORD_MANAGER_AAGUID):
        self.origin = origin or apk_key_hash_origin()
        self.package_name = package_name
        self.aaguid = aaguid
        self.passkeys: list[StoredPasskey] = []

    def client_data(self, ceremony: str, challenge: str) -> bytes:
        return json.dumps(
            {
                "type": ceremony,
                "challenge": challenge,
                "origin": self.origin,
                "androidPackageName": self.package_name,
            },
            separators=(",", ":"),
        ).encode("utf-8")

    @staticmethod
    def cose_es256(public_key: ec.EllipticCurvePublicKey) -> bytes:
        numbers = public_key.public_numbers()
        return cbor2.dumps(
            {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")},
            canonical=True,
        )

    def create(self, options: dict) -> dict:
        """navigator.credentials.create() / CreatePublicKeyCredentialRequest: returns the
        RegistrationResponseJSON Credential Manager hands to the app."""
        assert {"type": "public-key", "alg": -7} in options["pubKeyCredParams"], options
        rp_id = options["rp"]["id"]
        private_key = ec.generate_private_key(ec.SECP256R1())
        credential_id = os.urandom(32)
        flags = FLAG_UP | FLAG_UV | FLAG_BE | FLAG_BS | FLAG_AT
        attested = (
            self.aaguid
            + len(credential_id).to_bytes(2, "big")
            + credential_id
            + self.cose_es256(private_key.public_key())
        )
        authenticator_data = sha256(rp_id.encode()) + bytes([flags]) + (0).to_bytes(4, "big") + attested
        attestation_object = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": authenticator_data}, canonical=True)
        client_data = self.client_data("webauthn.create", options["challenge"])
        self.passkeys.append(
            StoredPasskey(credential_id, private_key, rp_id, b64url_decode(options["user"]["id"]))
        )
        return {
            "id": b64url(credential_id),
            "rawId": b64url(credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation_object),
                "transports": ["internal", "hybrid"],
            },
            "clientExtensionResults": {"credProps": {"rk": True}},
        }

    def get(self, options: dict, passkey: StoredPasskey | None = None) -> dict:
        """navigator.credentials.get() / GetPublicKeyCredentialOption with no allowCredentials:
        the user picks the discoverable passkey for the RP ID."""
        rp_id = options["rpId"]
        if passkey is None:
            candidates = [p for p in self.passkeys if p.rp_id == rp_id]
            assert len(candidates) == 1, f"{len(candidates)} passkeys for {rp_id}"
            passkey = candidates[0]
        authenticator_data = (
            sha256(rp_id.encode())
            + bytes([FLAG_UP | FLAG_UV | FLAG_BE | FLAG_BS])
            + passkey.sign_count.to_bytes(4, "big")
        )
        client_data = self.client_data("webauthn.get", options["challenge"])
        signature = passkey.private_key.sign(authenticator_data + sha256(client_data), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(passkey.credential_id),
            "rawId": b64url(passkey.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(authenticator_data),
                "signature": b64url(signature),
                "userHandle": b64url(passkey.user_handle),
            },
            "clientExtensionResults": {},
        }


class AndroidApp:
    """The app's side, as Auth0.Android would send it (public native client, no secret)."""

    SCOPE = "openid profile email offline_access"

    def __init__(self, http: SesameHTTP, client_id: str, provider: AndroidPasskeyProvider):
        self.http, self.client_id, self.provider = http, client_id, provider

    def signup_challenge(self, email: str) -> dict:
        return self.http.expect(
            200, "POST", "/passkey/register", {"client_id": self.client_id, "user_profile": {"email": email}}
        )

    def login_challenge(self) -> dict:
        return self.http.expect(200, "POST", "/passkey/challenge", {"client_id": self.client_id})

    def token_request(self, challenge: dict, credential: dict) -> dict:
        return {
            "grant_type": WEBAUTHN_GRANT,
            "client_id": self.client_id,
            "auth_session": challenge["auth_session"],
            "authn_response": credential,
            "scope": self.SCOPE,
        }

    def signup(self, email: str) -> tuple[dict, dict]:
        challenge = self.signup_challenge(email)
        credential = self.provider.create(challenge["authn_params_public_key"])
        return credential, self.http.expect(200, "POST", "/oauth/token", self.token_request(challenge, credential))

    def login(self) -> tuple[dict, dict]:
        challenge = self.login_challenge()
        credential = self.provider.get(challenge["authn_params_public_key"])
        return credential, self.http.expect(200, "POST", "/oauth/token", self.token_request(challenge, credential))

    def refresh(self, refresh_token: str, status: int = 200) -> dict:
        return self.http.expect(
            status,
            "POST",
            "/oauth/token",
            {"grant_type": "refresh_token", "client_id": self.client_id, "refresh_token": refresh_token},
        )


class JWTError(AssertionError):
    pass


def _int(b64: str) -> int:
    return int.from_bytes(b64url_decode(b64), "big")


def verify_jwt(token: str, jwks: dict) -> tuple[dict, dict]:
    """Checks a compact JWS against a JWKS with `cryptography`; returns (header, claims)."""
    parts = token.split(".")
    if len(parts) != 3:
        raise JWTError(f"not a compact JWS: {len(parts)} parts")
    header = json.loads(b64url_decode(parts[0]))
    claims = json.loads(b64url_decode(parts[1]))
    signing_input = f"{parts[0]}.{parts[1]}".encode("ascii")
    signature = b64url_decode(parts[2])
    keys = [key for key in jwks["keys"] if key.get("kid") == header.get("kid")]
    if len(keys) != 1:
        raise JWTError(f"kid {header.get('kid')!r} matches {len(keys)} JWKS keys")
    key = keys[0]
    algorithm = header.get("alg")
    if key.get("alg") not in (None, algorithm):
        raise JWTError(f"header alg {algorithm} but JWKS key alg {key.get('alg')}")
    if algorithm == "RS256" and key["kty"] == "RSA":
        public_key = rsa.RSAPublicNumbers(_int(key["e"]), _int(key["n"])).public_key()
        public_key.verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
    elif algorithm == "ES256" and key["kty"] == "EC" and key["crv"] == "P-256":
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

        if len(signature) != 64:
            raise JWTError("ES256 signature is not 64 bytes")
        public_key = ec.EllipticCurvePublicNumbers(_int(key["x"]), _int(key["y"]), ec.SECP256R1()).public_key()
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        public_key.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
    else:
        raise JWTError(f"unexpected alg {algorithm} for key type {key.get('kty')}")
    return header, claims


def check_id_token(token: str, jwks: dict, issuer: str, client_id: str, email: str, skew: int = 120) -> dict:
    header, claims = verify_jwt(token, jwks)
    assert header["alg"] == "RS256", header
    assert claims["iss"] == issuer, claims
    audience = claims["aud"]
    assert audience == client_id or (isinstance(audience, list) and client_id in audience), claims
    assert isinstance(claims["sub"], str) and claims["sub"], claims
    now = time.time()
    assert claims["exp"] > now, claims
    assert claims["iat"] <= now + skew, claims
    assert claims["email"] == email, claims
    return claims

import SesameStore
import WebAuthn

/// A `POST /oauth/token` request after the transport decoded it (JSON or form).
public struct TokenRequest: Sendable {
    public var grantType: String
    public var credentials: ClientCredentials
    /// webauthn grant.
    public var authSession: String?
    /// webauthn grant: the `authn_response` object (JSON bytes, or the value the body's parse made).
    public var authnResponse: CredentialJSONInput?
    public var realm: String?
    public var scope: String?
    public var audience: String?
    /// refresh_token grant.
    public var refreshToken: String?
    /// The request's DPoP proof, if any (RFC 9449).
    public var dpop: DPoPRequest
    /// password and password-realm grants.
    public var username: String?
    public var password: String?
    /// The client address key (`IPAddressRange.clientKey`), for the password grants' limits.
    public var clientAddress: String?
    /// The authorization_code grant (RFC 6749 §4.1.3, RFC 7636 §4.5).
    public var code: String?
    public var redirectURI: String?
    public var codeVerifier: String?
    /// The MFA grants.
    public var mfaToken: String?
    public var otp: String?
    public var oobCode: String?
    public var bindingCode: String?
    public var recoveryCode: String?
    /// The device-key grant: the key id and the signature of the challenge (base64url).
    public var keyID: String?
    public var signature: String?
    /// The device-key grant: the device's OS version now (it may have been updated since the key
    /// was registered), for the passkey prompt.
    public var osVersion: String?
    /// The platform the client says it runs on (its `Auth0-Client` header), for the statistics
    /// and the prefer-passkey flag.
    public var clientPlatform: ClientPlatform?
    /// The token-exchange grant (RFC 8693): an Apple authorization code or identity token, its
    /// type, the raw nonce an identity token's `nonce` hashes, and Auth0's `user_profile` JSON.
    public var subjectToken: String?
    public var subjectTokenType: String?
    public var nonce: String?
    public var userProfile: String?

    public init(
        grantType: String, credentials: ClientCredentials, authSession: String? = nil, authnResponse: [UInt8]? = nil,
        realm: String? = nil, scope: String? = nil, audience: String? = nil, refreshToken: String? = nil,
        dpop: DPoPRequest = .none, username: String? = nil, password: String? = nil
    ) {
        self.username = username
        self.password = password
        self.dpop = dpop
        self.grantType = grantType
        self.credentials = credentials
        self.authSession = authSession
        self.authnResponse = authnResponse.map(CredentialJSONInput.bytes)
        self.realm = realm
        self.scope = scope
        self.audience = audience
        self.refreshToken = refreshToken
    }
}

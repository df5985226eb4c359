/// `authn_params_public_key` of a signup challenge: WebAuthn PublicKeyCredentialCreationOptions in
/// JSON form (binary members base64url), as Auth0's `/passkey/register` returns them.
public struct PasskeyCreationOptions: Codable, Sendable, Hashable {
    public struct RelyingParty: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public struct CredentialParameter: Codable, Sendable, Hashable {
        public var type: String
        public var alg: Int
        public init(type: String = "public-key", alg: Int) {
            self.type = type
            self.alg = alg
        }
    }

    public struct AuthenticatorSelection: Codable, Sendable, Hashable {
        public var residentKey: String
        public var userVerification: String
        public init(residentKey: String, userVerification: String) {
            self.residentKey = residentKey
            self.userVerification = userVerification
        }
    }

    public struct User: Codable, Sendable, Hashable {
        /// base64url of the user handle.
        public var id: String
        public var name: String
        public var displayName: String
        public init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    public struct CredentialDescriptor: Codable, Sendable, Hashable {
        public var type: String
        /// base64url credential id.
        public var id: String
        public var transports: [String]?
        public init(type: String = "public-key", id: String, transports: [String]? = nil) {
            self.type = type
            self.id = id
            self.transports = transports
        }
    }

    /// base64url of 32 random bytes.
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int
    public var rp: RelyingParty
    public var pubKeyCredParams: [CredentialParameter]
    public var authenticatorSelection: AuthenticatorSelection
    public var user: User
    public var excludeCredentials: [CredentialDescriptor]?
    public var attestation: String?

    public init(
        challenge: String, timeout: Int, rp: RelyingParty, pubKeyCredParams: [CredentialParameter],
        authenticatorSelection: AuthenticatorSelection, user: User, excludeCredentials: [CredentialDescriptor]? = nil,
        attestation: String? = nil
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rp = rp
        self.pubKeyCredParams = pubKeyCredParams
        self.authenticatorSelection = authenticatorSelection
        self.user = user
        self.excludeCredentials = excludeCredentials
        self.attestation = attestation
    }
}

/// `authn_params_public_key` of a login challenge: PublicKeyCredentialRequestOptions in JSON form.
public struct PasskeyRequestOptions: Codable, Sendable, Hashable {
    public var challenge: String
    public var timeout: Int
    public var rpId: String
    public var userVerification: String
    public var allowCredentials: [PasskeyCreationOptions.CredentialDescriptor]?

    public init(
        challenge: String, timeout: Int, rpId: String, userVerification: String,
        allowCredentials: [PasskeyCreationOptions.CredentialDescriptor]? = nil
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.userVerification = userVerification
        self.allowCredentials = allowCredentials
    }
}

/// The response of `POST /passkey/register` (creation options) and of `POST /passkey/challenge`
/// (request options): the WebAuthn options and the `auth_session` that answers them.
public struct PasskeyChallengeResponse<Options: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var authnParamsPublicKey: Options
    public var authSession: String
    enum CodingKeys: String, CodingKey {
        case authnParamsPublicKey = "authn_params_public_key"
        case authSession = "auth_session"
    }
    public init(authnParamsPublicKey: Options, authSession: String) {
        self.authnParamsPublicKey = authnParamsPublicKey
        self.authSession = authSession
    }
}

/// The response of `POST /passkey/register`.
public typealias PasskeySignupChallengeResponse = PasskeyChallengeResponse<PasskeyCreationOptions>

/// The response of `POST /passkey/challenge`.
public typealias PasskeyLoginChallengeResponse = PasskeyChallengeResponse<PasskeyRequestOptions>

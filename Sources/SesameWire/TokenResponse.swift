/// The response of `POST /oauth/token` (RFC 6749 §5.1, OIDC Core §3.1.3.3).
public struct TokenResponse: Codable, Sendable, Hashable {
    public var accessToken: String
    public var idToken: String?
    public var refreshToken: String?
    public var tokenType: String
    /// Seconds.
    public var expiresIn: Int
    public var scope: String?
    /// The `mfa-recovery-code` grant: the code that replaces the one used (Auth0's `recovery_code`).
    public var recoveryCode: String?
    /// A password login: `ok`, `weak` or `breached` (Sesame's, docs/passwords.md).
    public var passwordStatus: String?
    /// A password login whose password is weak or breached: what the app may offer instead (docs/account-upgrades.md).
    public var recommendedUpgrades: [String]?
    /// How the user signed in: `passkey`, `device_key`, `password`, `apple`, or `refresh` for a
    /// refresh grant (whose id token keeps the original method) (docs/migration.md).
    public var authMethod: String?
    /// A recommendation to create a passkey now (after a device-key re-authentication or a
    /// password login, docs/migration.md).
    public var passkeyEnrollment: PasskeyEnrollmentPrompt?

    enum CodingKeys: String, CodingKey {
        case passkeyEnrollment = "passkey_enrollment"
        case recoveryCode = "recovery_code"
        case passwordStatus = "password_status"
        case recommendedUpgrades = "recommended_upgrades"
        case authMethod = "auth_method"
        case accessToken = "access_token"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case scope
    }

    public init(
        accessToken: String, idToken: String? = nil, refreshToken: String? = nil, tokenType: String = "Bearer",
        expiresIn: Int, scope: String? = nil, recoveryCode: String? = nil, passwordStatus: String? = nil,
        recommendedUpgrades: [String]? = nil, authMethod: String? = nil,
        passkeyEnrollment: PasskeyEnrollmentPrompt? = nil
    ) {
        self.passkeyEnrollment = passkeyEnrollment
        self.authMethod = authMethod
        self.passwordStatus = passwordStatus
        self.recommendedUpgrades = recommendedUpgrades
        self.recoveryCode = recoveryCode
        self.accessToken = accessToken
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.scope = scope
    }
}

/// Every error body: `{"error": code, "error_description": text}`.
public struct ErrorResponse: Codable, Sendable, Hashable, Error {
    public var error: String
    public var errorDescription: String

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }

    public init(error: String, errorDescription: String) {
        self.error = error
        self.errorDescription = errorDescription
    }
}

/// The grant type of the native passkey flow (Auth0/Okta).
public enum GrantType {
    public static let webAuthn = "urn:okta:params:oauth:grant-type:webauthn"
    public static let refreshToken = "refresh_token"
    public static let authorizationCode = "authorization_code"
    public static let clientCredentials = "client_credentials"
}

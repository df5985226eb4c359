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
    public var passwordStatus: PasswordStatus?
    /// A password login whose password is weak or breached: what the app may offer instead (docs/account-upgrades.md).
    public var recommendedUpgrades: [RecommendedUpgrade]?
    /// How the user signed in: `passkey`, `device_key`, `password`, `apple`, or `refresh` for a
    /// refresh grant (whose id token keeps the original method) (docs/migration.md).
    public var authMethod: SignInMethod?
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
        expiresIn: Int, scope: String? = nil, recoveryCode: String? = nil, passwordStatus: PasswordStatus? = nil,
        recommendedUpgrades: [RecommendedUpgrade]? = nil, authMethod: SignInMethod? = nil,
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

    /// Reads a response. The three vocabularies Sesame adds (`password_status`,
    /// `recommended_upgrades`, `auth_method`) are advice, so a value this build does not know (a
    /// newer server's) reads as absent, and a list keeps the values it knows, rather than failing
    /// the whole sign-in. Everything else is read strictly.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        expiresIn = try container.decode(Int.self, forKey: .expiresIn)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        recoveryCode = try container.decodeIfPresent(String.self, forKey: .recoveryCode)
        passwordStatus = try container.decodeIfPresent(String.self, forKey: .passwordStatus)
            .flatMap(PasswordStatus.init(rawValue:))
        recommendedUpgrades = try container.decodeIfPresent([String].self, forKey: .recommendedUpgrades)?
            .compactMap(RecommendedUpgrade.init(rawValue:))
        authMethod = try container.decodeIfPresent(String.self, forKey: .authMethod).flatMap(
            SignInMethod.init(rawValue:))
        passkeyEnrollment = try container.decodeIfPresent(PasskeyEnrollmentPrompt.self, forKey: .passkeyEnrollment)
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

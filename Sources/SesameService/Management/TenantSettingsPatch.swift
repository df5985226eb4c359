/// What `PATCH /api/v2/tenant/settings` changes; nil leaves a field as it is.
public struct TenantSettingsPatch: Sendable {
    public var friendlyName: String?
    public var customDomains: [String]?
    /// The WebAuthn RP ID: the domain or a registrable suffix of it.
    public var rpID: String?
    public var allowedOrigins: [String]?
    public var relatedOrigins: [String]?
    /// The connection (by name) used when a request names no realm.
    public var defaultConnection: String?
    /// Seconds.
    public var accessTokenLifetime: Int?
    public var idTokenLifetime: Int?
    public var refreshTokenLifetime: Int?
    public var refreshTokenIdleLifetime: Int?
    /// Hours (Auth0's unit): the SSO session's absolute and idle lifetimes.
    public var sessionLifetime: Int?
    public var idleSessionLifetime: Int?
    /// Days the audit log keeps its entries (`TenantRecord.auditRetentionDaysRange`).
    public var auditLogRetentionDays: Int?
    /// Days a deleted passkey is remembered (`TenantRecord.deletedPasskeyRetentionDaysRange`).
    public var deletedPasskeyRetentionDays: Int?
    /// `flags.enable_public_signup_user_exists_error`.
    public var enablePublicSignupUserExistsError: Bool?

    public init(
        friendlyName: String? = nil, customDomains: [String]? = nil, rpID: String? = nil,
        allowedOrigins: [String]? = nil, relatedOrigins: [String]? = nil, defaultConnection: String? = nil,
        accessTokenLifetime: Int? = nil, idTokenLifetime: Int? = nil, refreshTokenLifetime: Int? = nil,
        refreshTokenIdleLifetime: Int? = nil, enablePublicSignupUserExistsError: Bool? = nil
    ) {
        self.friendlyName = friendlyName
        self.customDomains = customDomains
        self.rpID = rpID
        self.allowedOrigins = allowedOrigins
        self.relatedOrigins = relatedOrigins
        self.defaultConnection = defaultConnection
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshTokenIdleLifetime = refreshTokenIdleLifetime
        self.enablePublicSignupUserExistsError = enablePublicSignupUserExistsError
    }
}

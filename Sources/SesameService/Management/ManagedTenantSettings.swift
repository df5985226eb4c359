import SesameStore

/// The tenant's settings as `GET /api/v2/tenant/settings` returns them. `domain` is read-only.
public struct ManagedTenantSettings: Encodable, Sendable {
    public var friendlyName: String
    public var domain: String
    public var customDomains: [String]
    public var rpID: String
    public var issuer: String
    public var allowedOrigins: [String]
    public var relatedOrigins: [String]
    public var defaultConnection: String?
    public var accessTokenLifetime: Int
    public var idTokenLifetime: Int
    public var refreshTokenLifetime: Int
    public var refreshTokenIdleLifetime: Int
    /// Auth0's SSO session lifetimes, in hours.
    public var sessionLifetime: Int
    public var idleSessionLifetime: Int
    /// Days the audit log keeps its entries (Sesame's; docs/audit-log.md).
    public var auditLogRetentionDays: Int
    /// Days a deleted passkey is remembered for the Signal API (Sesame's; 0: never).
    public var deletedPasskeyRetentionDays: Int
    public var flags: Flags

    /// Auth0's tenant flags that Sesame has.
    public struct Flags: Encodable, Sendable {
        public var enablePublicSignupUserExistsError: Bool

        enum CodingKeys: String, CodingKey {
            case enablePublicSignupUserExistsError = "enable_public_signup_user_exists_error"
        }
    }

    enum CodingKeys: String, CodingKey {
        case friendlyName = "friendly_name"
        case domain
        case customDomains = "custom_domains"
        case rpID = "rp_id"
        case issuer
        case allowedOrigins = "allowed_origins"
        case relatedOrigins = "related_origins"
        case defaultConnection = "default_connection"
        case accessTokenLifetime = "access_token_lifetime"
        case idTokenLifetime = "id_token_lifetime"
        case refreshTokenLifetime = "refresh_token_lifetime"
        case refreshTokenIdleLifetime = "refresh_token_idle_lifetime"
        case sessionLifetime = "session_lifetime"
        case idleSessionLifetime = "idle_session_lifetime"
        case auditLogRetentionDays = "audit_log_retention_days"
        case deletedPasskeyRetentionDays = "deleted_passkey_retention_days"
        case flags
    }

    init(_ tenant: TenantRecord, defaultConnection: String?) {
        friendlyName = tenant.name
        domain = tenant.domain
        customDomains = tenant.customDomains
        rpID = tenant.rpID
        issuer = TokenService.issuer(tenant)
        allowedOrigins = tenant.allowedOrigins
        relatedOrigins = tenant.relatedOrigins
        self.defaultConnection = defaultConnection
        accessTokenLifetime = tenant.accessTokenLifetime
        idTokenLifetime = tenant.idTokenLifetime
        refreshTokenLifetime = tenant.refreshTokenLifetime
        refreshTokenIdleLifetime = tenant.refreshTokenIdleLifetime
        sessionLifetime = tenant.sessionLifetime / 3_600
        idleSessionLifetime = tenant.idleSessionLifetime / 3_600
        auditLogRetentionDays = tenant.auditRetentionDays
        deletedPasskeyRetentionDays = tenant.deletedPasskeyRetentionDays
        flags = Flags(enablePublicSignupUserExistsError: tenant.revealsTakenIdentifiers)
    }
}

/// The answer of `POST /api/v2/keys/signing/rotate`: the new current key of each algorithm.
public struct RotatedSigningKeys: Encodable, Sendable {
    /// One new key.
    public struct Key: Encodable, Sendable {
        public var kid: String
        public var alg: String
    }
    /// The new RS256 key's kid (Auth0 answers with one `kid`).
    public var kid: String
    public var keys: [Key]
}

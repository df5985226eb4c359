import Foundation

/// Which second factors a tenant offers and when it asks for one (Auth0's Guardian settings).
public struct MFASettings: Sendable, Hashable, Codable {
    /// The factors users may enroll; none means a password login never asks.
    public var factors: [MFAFactor]
    public var policy: MFAPolicy
    public init(factors: [MFAFactor] = [], policy: MFAPolicy = .enrolledUsers) {
        self.factors = factors
        self.policy = policy
    }
}

/// Auth0's breached-password detection settings, and Sesame's range endpoint.
public struct BreachedPasswordSettings: Sendable, Hashable, Codable {
    public var enabled: Bool
    /// At login.
    public var shields: [BreachShield]
    public var adminNotificationFrequency: [BreachNotificationFrequency]
    public var method: BreachMethod
    /// `stage.pre-user-registration.shields`: at signup.
    public var signupShields: [BreachShield]
    /// `stage.pre-change-password.shields`: at a password change or reset.
    public var changePasswordShields: [BreachShield]
    /// An HIBP-style k-anonymity range endpoint (`<url><first five hex digits of SHA-1>`), asked
    /// with the `enhanced` method.
    public var rangeURL: String?
    public init(
        enabled: Bool = false, shields: [BreachShield] = [],
        adminNotificationFrequency: [BreachNotificationFrequency] = [],
        method: BreachMethod = .standard, signupShields: [BreachShield] = [.block],
        changePasswordShields: [BreachShield] = [.block], rangeURL: String? = nil
    ) {
        self.enabled = enabled
        self.shields = shields
        self.adminNotificationFrequency = adminNotificationFrequency
        self.method = method
        self.signupShields = signupShields
        self.changePasswordShields = changePasswordShields
        self.rangeURL = rangeURL
    }
}

/// The hosted pages' theme: two colours, a logo, and a few texts per language.
public struct BrandingSettings: Sendable, Hashable, Codable {
    /// `#rrggbb`: buttons, links and focus rings.
    public var primaryColor: String?
    /// `#rrggbb`: the page behind the card.
    public var pageBackground: String?
    /// An https (or, for a local tenant, http) URL of the logo above each page's title.
    public var logoURL: String?
    /// Text overrides by key (`BrandingText`) and language (`en`, `ja`).
    public var texts: [String: [String: String]]

    public init(
        primaryColor: String? = nil, pageBackground: String? = nil, logoURL: String? = nil,
        texts: [String: [String: String]] = [:]
    ) {
        self.primaryColor = primaryColor
        self.pageBackground = pageBackground
        self.logoURL = logoURL
        self.texts = texts
    }
}

/// One deployment of an identity domain, chosen per request by the Host header.
public struct TenantRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// 2: MFA and breached-password settings. 3: SSO session lifetimes and the admin page's users.
    /// 4: the audit log's retention. 5: how long deleted passkeys are remembered.
    public static let currentVersion = 5
    public var version = TenantRecord.currentVersion
    public var id: String
    public var name: String
    /// The primary host (no port), e.g. "login.example.com" or "localhost".
    public var domain: String
    /// More hosts that resolve to this tenant.
    public var customDomains: [String]
    /// The WebAuthn RP ID: the domain or a registrable parent of it.
    public var rpID: String
    /// The base URL the server is reached at, e.g. "https://login.example.com" (issuer = this + "/").
    public var publicURL: String
    /// Web origins allowed in clientDataJSON besides the public URL's own origin.
    public var allowedOrigins: [String]
    /// Origins published in /.well-known/webauthn (WebAuthn related origins).
    public var relatedOrigins: [String]
    /// Lifetimes, in seconds.
    public var accessTokenLifetime: Int
    public var idTokenLifetime: Int
    public var refreshTokenLifetime: Int
    public var refreshTokenIdleLifetime: Int
    /// The connection used when a request names no realm.
    public var defaultConnectionID: String?
    /// Auth0's `flags.enable_public_signup_user_exists_error`: whether a signup for a taken
    /// identifier says so (the default, nil) or gets the same answer as any other refused signup.
    public var signupUserExistsError: Bool?
    /// Second factors (nil in rows from before version 2: none).
    public var mfaSettings: MFASettings?
    /// Breached-password detection (nil in rows from before version 2: off).
    public var breachedPasswordSettings: BreachedPasswordSettings?
    /// How long a hosted-page sign-in (SSO session) lasts at most, in seconds (nil: 7 days).
    public var sessionLifetimeSetting: Int?
    /// How long an SSO session lasts unused, in seconds (nil: 3 days).
    public var idleSessionLifetimeSetting: Int?
    /// The users who may open the admin page (`/admin`); the first comes through the setup link
    /// `sesame init` prints. Nil in rows from before version 3: none.
    public var adminUserIDs: [String]?
    /// The hosted pages' theme (nil in rows from before version 3, or never set: Sesame's own).
    public var branding: BrandingSettings?
    /// How many days audit-log entries are kept (nil in rows from before version 4, or never set: 30).
    public var auditRetentionDaysSetting: Int?
    /// How many days a deleted passkey's credential id is remembered, so that a sign-in with it
    /// tells the authenticator to forget it (nil in rows from before version 5, or never set: 90;
    /// 0: never remembered, never signalled).
    public var deletedPasskeyRetentionDaysSetting: Int?
    public var createdAt: Date
    public var updatedAt: Date

    /// The audit log's default retention, and the bounds a setting must be within.
    public static let defaultAuditRetentionDays = 30
    public static let auditRetentionDaysRange = 1...3_650

    public static let defaultDeletedPasskeyRetentionDays = 90
    public static let deletedPasskeyRetentionDaysRange = 0...3_650

    /// Days a deleted passkey's credential id is remembered (the default kept as nil).
    public var deletedPasskeyRetentionDays: Int {
        get { deletedPasskeyRetentionDaysSetting ?? Self.defaultDeletedPasskeyRetentionDays }
        set {
            deletedPasskeyRetentionDaysSetting = newValue == Self.defaultDeletedPasskeyRetentionDays ? nil : newValue
        }
    }

    /// Days audit-log entries are kept (the default kept as nil).
    public var auditRetentionDays: Int {
        get { auditRetentionDaysSetting ?? Self.defaultAuditRetentionDays }
        set { auditRetentionDaysSetting = newValue == Self.defaultAuditRetentionDays ? nil : newValue }
    }

    /// Auth0's defaults: 168 hours absolute, 72 hours idle.
    public static let defaultSessionLifetime = 604_800
    public static let defaultIdleSessionLifetime = 259_200

    /// The SSO session's absolute lifetime in seconds (the default kept as nil).
    public var sessionLifetime: Int {
        get { sessionLifetimeSetting ?? Self.defaultSessionLifetime }
        set { sessionLifetimeSetting = newValue == Self.defaultSessionLifetime ? nil : newValue }
    }

    /// The SSO session's idle lifetime in seconds (the default kept as nil).
    public var idleSessionLifetime: Int {
        get { idleSessionLifetimeSetting ?? Self.defaultIdleSessionLifetime }
        set { idleSessionLifetimeSetting = newValue == Self.defaultIdleSessionLifetime ? nil : newValue }
    }

    /// The tenant's second factors and policy. The defaults are kept as nil, so a record has one
    /// form whichever way it was made or read.
    public var mfa: MFASettings {
        get { mfaSettings ?? MFASettings() }
        set { mfaSettings = newValue == MFASettings() ? nil : newValue }
    }

    /// The tenant's breached-password detection (defaults kept as nil, as `mfa`).
    public var breachedPasswords: BreachedPasswordSettings {
        get { breachedPasswordSettings ?? BreachedPasswordSettings() }
        set { breachedPasswordSettings = newValue == BreachedPasswordSettings() ? nil : newValue }
    }

    /// Whether a signup for a taken identifier is told so (`signupUserExistsError`, default true).
    public var revealsTakenIdentifiers: Bool { signupUserExistsError ?? true }

    public init(
        id: String, name: String, domain: String, customDomains: [String] = [], rpID: String, publicURL: String,
        allowedOrigins: [String] = [], relatedOrigins: [String] = [], accessTokenLifetime: Int = 86_400,
        idTokenLifetime: Int = 36_000, refreshTokenLifetime: Int = 2_592_000,
        refreshTokenIdleLifetime: Int = 1_296_000, defaultConnectionID: String? = nil,
        signupUserExistsError: Bool? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.domain = domain
        self.customDomains = customDomains
        self.rpID = rpID
        self.publicURL = publicURL
        self.allowedOrigins = allowedOrigins
        self.relatedOrigins = relatedOrigins
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshTokenIdleLifetime = refreshTokenIdleLifetime
        self.defaultConnectionID = defaultConnectionID
        self.signupUserExistsError = signupUserExistsError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

// MARK: The binary form

extension TenantRecord: BinaryCodedRecord {
    /// 2: second factors and breached-password detection. 3: session lifetimes, admins and
    /// branding. 4: the audit log's retention. 5: the deleted passkeys' retention.
    public static let recordFields = RecordFields<TenantRecord>(
        blank: TenantRecord(
            id: "", name: "", domain: "", rpID: "", publicURL: "", createdAt: .distantPast, updatedAt: .distantPast),
        [
            .field("id", \.id),
            .field("name", \.name),
            .field("domain", \.domain),
            .field("customDomains", \.customDomains),
            .field("rpID", \.rpID),
            .field("publicURL", \.publicURL),
            .field("allowedOrigins", \.allowedOrigins),
            .field("relatedOrigins", \.relatedOrigins),
            .field("accessTokenLifetime", \.accessTokenLifetime),
            .field("idTokenLifetime", \.idTokenLifetime),
            .field("refreshTokenLifetime", \.refreshTokenLifetime),
            .field("refreshTokenIdleLifetime", \.refreshTokenIdleLifetime),
            .field("defaultConnectionID", \.defaultConnectionID),
            .field("signupUserExistsError", \.signupUserExistsError),
            .field("createdAt", \.createdAt),
            .field("updatedAt", \.updatedAt),
            .field("mfa.factors", \.mfa.factors, since: 2),
            .field("mfa.policy", \.mfa.policy, since: 2),
            .field("breached.enabled", \.breachedPasswords.enabled, since: 2),
            .field("breached.shields", \.breachedPasswords.shields, since: 2),
            .field("breached.adminNotificationFrequency", \.breachedPasswords.adminNotificationFrequency, since: 2),
            .field("breached.method", \.breachedPasswords.method, since: 2),
            .field("breached.signupShields", \.breachedPasswords.signupShields, since: 2),
            .field("breached.changePasswordShields", \.breachedPasswords.changePasswordShields, since: 2),
            .field("breached.rangeURL", \.breachedPasswords.rangeURL, since: 2),
            .field("sessionLifetime", \.sessionLifetime, since: 3),
            .field("idleSessionLifetime", \.idleSessionLifetime, since: 3),
            .field("adminUserIDs", \.adminUserIDList, since: 3),
            .field("branding", \.branding, since: 3),
            .field("auditRetentionDays", \.auditRetentionDays, since: 4),
            .field("deletedPasskeyRetentionDays", \.deletedPasskeyRetentionDays, since: 5),
        ])

    /// The admins as stored: none is an empty list.
    fileprivate var adminUserIDList: [String] {
        get { adminUserIDs ?? [] }
        set { adminUserIDs = newValue.isEmpty ? nil : newValue }
    }
}

extension BrandingSettings: RecordTabled {
    public static let recordFields = RecordFields<BrandingSettings>(
        blank: BrandingSettings(),
        [
            .field("primaryColor", \.primaryColor),
            .field("pageBackground", \.pageBackground),
            .field("logoURL", \.logoURL),
            // The languages, then each one's texts in that order.
            .custom(
                "texts", minimumBytes: 4,
                write: { branding, writer in
                    let languages = branding.texts.keys.sorted()
                    writer.strings(languages)
                    for language in languages { writer.stringMap(branding.texts[language] ?? [:]) }
                },
                read: { branding, reader, field throws(RecordReader.Failure) in
                    for language in try reader.strings(field) {
                        branding.texts[language] = try reader.stringMap("\(field).\(language)")
                    }
                }),
        ])
}

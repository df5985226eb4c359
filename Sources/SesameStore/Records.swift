import Foundation

// The stored aggregates. Every record carries the tenant id; every store call takes it.
// `version` is the record's schema version: conversions between versions are plain functions.

/// One deployment of an identity domain, chosen per request by the Host header.
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

/// iOS app settings of a client: produce apple-app-site-association and the `https://<rpId>` origin.
public struct IOSAppSettings: Sendable, Hashable, Codable {
    public var teamID: String
    public var bundleIdentifier: String
    public init(teamID: String, bundleIdentifier: String) {
        self.teamID = teamID
        self.bundleIdentifier = bundleIdentifier
    }
}

/// Android app settings of a client: produce assetlinks.json and `android:apk-key-hash:` origins.
public struct AndroidAppSettings: Sendable, Hashable, Codable {
    public var packageName: String
    /// SHA-256 signing-certificate fingerprints, "AB:CD:…" (32 bytes, colon-separated hex).
    public var sha256CertFingerprints: [String]
    public init(packageName: String, sha256CertFingerprints: [String]) {
        self.packageName = packageName
        self.sha256CertFingerprints = sha256CertFingerprints
    }
}

/// A client's access to an API (Auth0's client grant): which audience, which scopes.
public struct ClientGrantSettings: Sendable, Hashable, Codable {
    public var audience: String
    public var scopes: [String]
    public init(audience: String, scopes: [String]) {
        self.audience = audience
        self.scopes = scopes
    }
}

/// An application.
///
/// Version 2 stores the closed vocabularies as enums (`ClientRecordUpgrade` turns a version-1 row
/// into one); a row from a newer Sesame, or with a value that is not a case, does not decode.
public struct ClientRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// Version 3 added `allowedLogoutURLs`.
    public static let currentVersion = 3
    public var version = ClientRecord.currentVersion
    public var tenantID: String
    /// The public client_id.
    public var id: String
    public var name: String
    public var appType: ClientAppType
    public var grantTypes: [OAuthGrantType]
    public var callbacks: [String]
    /// Where `/oidc/logout` may send the browser afterwards (Auth0's `allowed_logout_urls`).
    public var allowedLogoutURLs: [String]
    public var allowedOrigins: [String]
    public var isFirstParty: Bool
    public var tokenEndpointAuthMethod: TokenEndpointAuthMethod
    /// SHA-256 of the client secret; nil for public clients.
    @OptionalBase64Bytes public var secretHash: [UInt8]?
    /// JWT signing algorithm for this client's tokens.
    public var jwtAlgorithm: JWTAlgorithm
    public var ios: IOSAppSettings?
    public var android: AndroidAppSettings?
    /// APIs this client may call with client_credentials.
    public var grants: [ClientGrantSettings]
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        tenantID: String, id: String, name: String, appType: ClientAppType, grantTypes: [OAuthGrantType],
        callbacks: [String] = [], allowedOrigins: [String] = [], isFirstParty: Bool = true,
        tokenEndpointAuthMethod: TokenEndpointAuthMethod = .none, secretHash: [UInt8]? = nil,
        jwtAlgorithm: JWTAlgorithm = .rs256, ios: IOSAppSettings? = nil, android: AndroidAppSettings? = nil,
        grants: [ClientGrantSettings] = [], allowedLogoutURLs: [String] = [], createdAt: Date, updatedAt: Date
    ) {
        self.tenantID = tenantID
        self.id = id
        self.name = name
        self.appType = appType
        self.grantTypes = grantTypes
        self.callbacks = callbacks
        self.allowedLogoutURLs = allowedLogoutURLs
        self.allowedOrigins = allowedOrigins
        self.isFirstParty = isFirstParty
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.secretHash = secretHash
        self.jwtAlgorithm = jwtAlgorithm
        self.ios = ios
        self.android = android
        self.grants = grants
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case version, tenantID, id, name, appType, grantTypes, callbacks, allowedOrigins, isFirstParty
        case tokenEndpointAuthMethod, secretHash, jwtAlgorithm, ios, android, grants, createdAt, updatedAt
        case allowedLogoutURLs
    }

    /// Reads the row's `version` first: version 1 keeps its vocabulary as strings and is upgraded by
    /// `ClientRecordUpgrade.fromVersion1`; version 2 is read as it is; anything newer is refused.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let stored = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        guard (1...Self.currentVersion).contains(stored) else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: c,
                debugDescription: "version \(stored) is newer than this Sesame reads (\(Self.currentVersion))")
        }
        tenantID = try c.decode(String.self, forKey: .tenantID)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        callbacks = try c.decode([String].self, forKey: .callbacks)
        allowedLogoutURLs = try c.decodeIfPresent([String].self, forKey: .allowedLogoutURLs) ?? []
        allowedOrigins = try c.decode([String].self, forKey: .allowedOrigins)
        isFirstParty = try c.decode(Bool.self, forKey: .isFirstParty)
        _secretHash = try c.decode(OptionalBase64Bytes.self, forKey: .secretHash)
        ios = try c.decodeIfPresent(IOSAppSettings.self, forKey: .ios)
        android = try c.decodeIfPresent(AndroidAppSettings.self, forKey: .android)
        grants = try c.decode([ClientGrantSettings].self, forKey: .grants)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
        version = Self.currentVersion
        if stored == 1 {
            let upgraded = try ClientRecordUpgrade.fromVersion1(
                ClientRecordUpgrade.Version1Vocabulary(
                    appType: try c.decode(String.self, forKey: .appType),
                    grantTypes: try c.decode([String].self, forKey: .grantTypes),
                    tokenEndpointAuthMethod: try c.decode(String.self, forKey: .tokenEndpointAuthMethod),
                    jwtAlgorithm: try c.decode(String.self, forKey: .jwtAlgorithm)))
            (appType, grantTypes, tokenEndpointAuthMethod, jwtAlgorithm) = (
                upgraded.appType, upgraded.grantTypes, upgraded.tokenEndpointAuthMethod, upgraded.jwtAlgorithm
            )
        } else {
            appType = try c.decode(ClientAppType.self, forKey: .appType)
            grantTypes = try c.decode([OAuthGrantType].self, forKey: .grantTypes)
            tokenEndpointAuthMethod = try c.decode(TokenEndpointAuthMethod.self, forKey: .tokenEndpointAuthMethod)
            jwtAlgorithm = try c.decode(JWTAlgorithm.self, forKey: .jwtAlgorithm)
        }
    }
}

/// Conversions of stored clients between versions: plain functions, tested on stored rows.
public enum ClientRecordUpgrade {
    /// What a version-1 client held as strings.
    public struct Version1Vocabulary: Sendable, Hashable {
        public var appType: String
        public var grantTypes: [String]
        public var tokenEndpointAuthMethod: String
        public var jwtAlgorithm: String
        public init(appType: String, grantTypes: [String], tokenEndpointAuthMethod: String, jwtAlgorithm: String) {
            self.appType = appType
            self.grantTypes = grantTypes
            self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
            self.jwtAlgorithm = jwtAlgorithm
        }
    }

    /// The typed vocabulary of version 2.
    public struct Version2Vocabulary: Sendable, Hashable {
        public var appType: ClientAppType
        public var grantTypes: [OAuthGrantType]
        public var tokenEndpointAuthMethod: TokenEndpointAuthMethod
        public var jwtAlgorithm: JWTAlgorithm
    }

    /// Version 1 → 2: each string must be a case (an unknown one is an error, never a default).
    /// `authorization_code`, which version 1 gave every interactive client although no endpoint
    /// served it, is dropped.
    public static func fromVersion1(_ v1: Version1Vocabulary) throws -> Version2Vocabulary {
        func parse<T: RawRepresentable>(_ value: String, _ field: String) throws -> T where T.RawValue == String {
            guard let parsed = T(rawValue: value) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [], debugDescription: "\(field) has the unknown value \"\(value.prefix(64))\""))
            }
            return parsed
        }
        return Version2Vocabulary(
            appType: try parse(v1.appType, "appType"),
            grantTypes: try v1.grantTypes.filter { $0 != "authorization_code" }.map { try parse($0, "grantTypes") },
            tokenEndpointAuthMethod: try parse(v1.tokenEndpointAuthMethod, "tokenEndpointAuthMethod"),
            jwtAlgorithm: try parse(v1.jwtAlgorithm, "jwtAlgorithm"))
    }
}

/// Whether an identifier is collected, and whether it is required.
public struct IdentifierPolicy: Sendable, Hashable, Codable {
    public var email: IdentifierRule
    public var phoneNumber: IdentifierRule
    public var username: IdentifierRule
    public init(
        email: IdentifierRule = .required, phoneNumber: IdentifierRule = .disabled, username: IdentifierRule = .optional
    ) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.username = username
    }
}

/// One identifier's rule in a connection.
public enum IdentifierRule: String, Sendable, Hashable, Codable {
    case required
    case optional
    case disabled
}

/// A connection's passkey policy.
public struct PasskeyPolicy: Sendable, Hashable, Codable {
    public var enabled: Bool
    /// Auth0's challenge_ui.
    public var challengeUI: ChallengeUI
    public var progressiveEnrollmentEnabled: Bool
    public var localEnrollmentEnabled: Bool
    public var userVerification: UserVerificationPolicy
    /// At most this many passkeys per user.
    public var maxPasskeysPerUser: Int
    /// The move from legacy device keys; nil for the defaults (rows from before connection
    /// version 3 have no such member).
    public var migrationRules: PasskeyMigrationPolicy?
    /// What registrations must attest; nil for none (rows from before connection version 5).
    public var attestationRule: AttestationRequirement?
    /// Whether a user holds at most one synced passkey per provider (nil: no, as in rows from
    /// before connection version 6).
    public var onePerProviderRule: Bool?

    /// Whether a second synced passkey from a provider the user has one from is refused with
    /// `already_registered`. Off by default: two accounts of one provider (two Apple IDs) share
    /// its AAGUID, and the platform's own duplicate check (`excludeCredentials`) is the exact one.
    public var onePerProvider: Bool {
        get { onePerProviderRule ?? false }
        set { onePerProviderRule = newValue ? true : nil }
    }

    /// What a registration's attestation must prove (docs/mds.md).
    public var attestationRequirement: AttestationRequirement {
        get { attestationRule ?? .none }
        set { attestationRule = newValue == .none ? nil : newValue }
    }

    /// The move from legacy device keys (docs/migration.md).
    public var migration: PasskeyMigrationPolicy {
        get { migrationRules ?? PasskeyMigrationPolicy() }
        set { migrationRules = newValue == PasskeyMigrationPolicy() ? nil : newValue }
    }
    public init(
        enabled: Bool = true, challengeUI: ChallengeUI = .both, progressiveEnrollmentEnabled: Bool = true,
        localEnrollmentEnabled: Bool = true, userVerification: UserVerificationPolicy = .preferred,
        maxPasskeysPerUser: Int = 20, migration: PasskeyMigrationPolicy = PasskeyMigrationPolicy()
    ) {
        self.migrationRules = migration == PasskeyMigrationPolicy() ? nil : migration
        self.enabled = enabled
        self.challengeUI = challengeUI
        self.progressiveEnrollmentEnabled = progressiveEnrollmentEnabled
        self.localEnrollmentEnabled = localEnrollmentEnabled
        self.userVerification = userVerification
        self.maxPasskeysPerUser = maxPasskeysPerUser
    }
}

/// A connection's rules for the move from legacy device keys to passkeys (docs/migration.md).
public struct PasskeyMigrationPolicy: Sendable, Hashable, Codable {
    /// The oldest OS version that registers a passkey, per platform ("16.4", "9"); older ones
    /// register a device key. Web views have their own minimum (a WKWebView uses passkeys of the
    /// app's associated domain from iOS 16.4; an Android WebView needs WebAuthn turned on by the app).
    public var minIOSVersion: String
    public var minAndroidVersion: String
    public var minIOSWebViewVersion: String
    public var minAndroidWebViewVersion: String
    /// How long a migrated device key keeps working, in days.
    public var deviceKeyGraceDays: Int
    /// How long My Account's snooze hides the enrollment prompt, in days.
    public var promptSnoozeDays: Int

    public init(
        minIOSVersion: String = "16.4", minAndroidVersion: String = "9", minIOSWebViewVersion: String = "16.4",
        minAndroidWebViewVersion: String = "9", deviceKeyGraceDays: Int = 30, promptSnoozeDays: Int = 30
    ) {
        self.minIOSVersion = minIOSVersion
        self.minAndroidVersion = minAndroidVersion
        self.minIOSWebViewVersion = minIOSWebViewVersion
        self.minAndroidWebViewVersion = minAndroidWebViewVersion
        self.deviceKeyGraceDays = deviceKeyGraceDays
        self.promptSnoozeDays = promptSnoozeDays
    }
}

/// Argon2id cost parameters (RFC 9106), as a connection keeps them for new password hashes.
public struct Argon2Parameters: Sendable, Hashable, Codable {
    /// Memory in KiB.
    public var memoryKiB: Int
    /// Passes over memory.
    public var iterations: Int
    /// Lanes.
    public var parallelism: Int
    /// OWASP's first Argon2id row: 19 MiB, 2 iterations, 1 lane.
    public init(memoryKiB: Int = 19_456, iterations: Int = 2, parallelism: Int = 1) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }
}

/// A connection's password policy.
public struct PasswordPolicy: Sendable, Hashable, Codable {
    /// The rules a connection gets unless it says otherwise.
    public static let defaultRules = "minlength: 12; maxlength: 64; allowed: ascii-printable;"

    public var enabled: Bool
    /// The rules in Apple's password-rules syntax, exactly as the operator set them: the string
    /// enforced and published (SesameService's `PasswordRulesParser` reads it).
    public var rules: String
    /// The parameters of new hashes; a login with a hash made otherwise rehashes.
    public var hashing: Argon2Parameters

    public init(enabled: Bool = false, rules: String = PasswordPolicy.defaultRules, hashing: Argon2Parameters = .init())
    {
        self.enabled = enabled
        self.rules = rules
        self.hashing = hashing
    }

    /// The rules of a connection stored before they existed, from its minimum length alone.
    public static func rules(minLength: Int) -> String {
        "minlength: \(minLength); maxlength: \(max(64, minLength)); allowed: ascii-printable;"
    }

    enum CodingKeys: String, CodingKey {
        case enabled, rules, hashing, minLength
    }

    /// Reads JSON rows of every Sesame: before version 2 a connection held only `minLength`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        if let rules = try container.decodeIfPresent(String.self, forKey: .rules) {
            self.rules = rules
        } else {
            rules = Self.rules(minLength: try container.decode(Int.self, forKey: .minLength))
        }
        hashing = try container.decodeIfPresent(Argon2Parameters.self, forKey: .hashing) ?? Argon2Parameters()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(rules, forKey: .rules)
        try container.encode(hashing, forKey: .hashing)
    }
}

/// A database connection's account security upgrades (docs/account-upgrades.md, `options.upgrades`).
public struct UpgradePolicy: Sendable, Hashable, Codable {
    /// The targets a weak or breached password may move to.
    public var allowed: [UpgradeType]
    /// The oldest sign-in, in seconds, that authorizes an upgrade without a step-up.
    public var maxAuthAge: Int
    /// When a second factor is asked for first.
    public var stepUp: StepUpRule

    public init(
        allowed: [UpgradeType] = UpgradeType.allCases, maxAuthAge: Int = 300, stepUp: StepUpRule = .whenEnrolled
    ) {
        self.allowed = allowed
        self.maxAuthAge = maxAuthAge
        self.stepUp = stepUp
    }
}

/// The settings of a Sign in with Apple connection, in Auth0's shape (`options.team_id`, `kid`,
/// `client_id`, `app_id`, `app_secret`), and where Apple's endpoints are (tests point them at a
/// local fake).
public struct AppleSettings: Sendable, Hashable, Codable {
    public static let appleIssuer = "https://appleid.apple.com"
    public static let appleKeysURL = "https://appleid.apple.com/auth/keys"
    public static let appleTokenURL = "https://appleid.apple.com/auth/token"
    public static let appleAuthorizeURL = "https://appleid.apple.com/auth/authorize"

    /// The Apple Developer Team ID (10 characters): the client secret's `iss`.
    public var teamID: String
    /// The Key ID of the Sign in with Apple key: the client secret's `kid`.
    public var keyID: String
    /// The Services ID (web sign-ins' `aud`), if any.
    public var servicesID: String?
    /// The apps' bundle IDs (native sign-ins' `aud`, and the `client_id` a native code is redeemed with).
    public var appIDs: [String]
    /// The `.p8` key (PKCS#8 PEM), sealed with AES-256-GCM under a key derived from the master
    /// key; empty when none was set (no authorization code can then be redeemed).
    @Base64Bytes public var sealedKey: [UInt8]
    public var issuer: String
    public var keysURL: String
    public var tokenURL: String
    /// Where a browser signs in with Apple (the account page's web flow).
    public var authorizeURL: String

    public init(
        teamID: String = "", keyID: String = "", servicesID: String? = nil, appIDs: [String] = [],
        sealedKey: [UInt8] = [], issuer: String = AppleSettings.appleIssuer,
        keysURL: String = AppleSettings.appleKeysURL,
        tokenURL: String = AppleSettings.appleTokenURL, authorizeURL: String = AppleSettings.appleAuthorizeURL
    ) {
        self.authorizeURL = authorizeURL
        self.teamID = teamID
        self.keyID = keyID
        self.servicesID = servicesID
        self.appIDs = appIDs
        self.sealedKey = sealedKey
        self.issuer = issuer
        self.keysURL = keysURL
        self.tokenURL = tokenURL
    }

    /// Every `aud` an identity token may carry: the bundle IDs, then the Services ID.
    public var audiences: [String] { appIDs + (servicesID.map { [$0] } ?? []) }
}

/// A user directory ("realm" on the wire), or (strategy `apple`) a social identity provider.
public struct ConnectionRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// 2: the password policy holds rules and hashing parameters instead of a minimum length.
    /// 3: the passkey policy's migration rules.
    /// 4: the strategy, the upgrades and the Apple settings.
    /// 5: the passkey policy's attestation requirement. 6: one passkey per provider, as an option.
    public static let currentVersion = 6
    public var version = ConnectionRecord.currentVersion
    public var tenantID: String
    public var id: String
    /// Unique per tenant; what clients send as `realm`.
    public var name: String
    public var identifiers: IdentifierPolicy
    public var passkey: PasskeyPolicy
    public var password: PasswordPolicy
    /// Client ids this connection is enabled for; empty means all clients.
    public var enabledClients: [String]
    public var createdAt: Date
    public var updatedAt: Date
    /// nil for `database` (rows from before version 4 have no such member).
    public var strategyValue: ConnectionStrategy?
    /// nil for the defaults.
    public var upgradeRules: UpgradePolicy?
    /// The Apple settings of an `apple` connection.
    public var apple: AppleSettings?

    public var strategy: ConnectionStrategy {
        get { strategyValue ?? .database }
        set { strategyValue = newValue == .database ? nil : newValue }
    }

    /// The account security upgrades of a database connection (docs/account-upgrades.md).
    public var upgrades: UpgradePolicy {
        get { upgradeRules ?? UpgradePolicy() }
        set { upgradeRules = newValue == UpgradePolicy() ? nil : newValue }
    }

    public init(
        tenantID: String, id: String, name: String, identifiers: IdentifierPolicy = IdentifierPolicy(),
        passkey: PasskeyPolicy = PasskeyPolicy(), password: PasswordPolicy = PasswordPolicy(),
        enabledClients: [String] = [], createdAt: Date, updatedAt: Date
    ) {
        self.tenantID = tenantID
        self.id = id
        self.name = name
        self.identifiers = identifiers
        self.passkey = passkey
        self.password = password
        self.enabledClients = enabledClients
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// One permission an API defines (Auth0's resource-server scope).
public struct ResourceServerScope: Sendable, Hashable, Codable {
    /// The scope string, e.g. `read:orders`.
    public var value: String
    /// What it allows, for people.
    public var description: String
    public init(value: String, description: String) {
        self.value = value
        self.description = description
    }
}

/// An app's own backend API (Auth0's resource server): access tokens for it carry its identifier
/// as `aud` and only scopes it defines.
public struct ResourceServerRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = ResourceServerRecord.currentVersion
    public var tenantID: String
    /// `rs_` + 32 hex digits.
    public var id: String
    /// The audience, unique in the tenant (usually the API's URL).
    public var identifier: String
    public var name: String
    public var scopes: [ResourceServerScope]
    /// The JWS algorithm of its access tokens.
    public var signingAlgorithm: JWTAlgorithm
    /// Access token lifetime in seconds.
    public var tokenLifetime: Int
    /// Whether a login for this API may also get a refresh token (`offline_access`).
    public var allowOfflineAccess: Bool
    /// Whether first-party clients skip the consent step (consent pages arrive with hosted pages).
    public var skipConsentForVerifiableFirstPartyClients: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public init(
        tenantID: String, id: String, identifier: String, name: String, scopes: [ResourceServerScope] = [],
        signingAlgorithm: JWTAlgorithm = .rs256, tokenLifetime: Int = 86_400, allowOfflineAccess: Bool = false,
        skipConsentForVerifiableFirstPartyClients: Bool = true, createdAt: Date, updatedAt: Date
    ) {
        self.tenantID = tenantID
        self.id = id
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
        self.signingAlgorithm = signingAlgorithm
        self.tokenLifetime = tokenLifetime
        self.allowOfflineAccess = allowOfflineAccess
        self.skipConsentForVerifiableFirstPartyClients = skipConsentForVerifiableFirstPartyClients
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A user's profile.
public struct UserProfile: Sendable, Hashable, Codable {
    public var email: String?
    public var emailVerified: Bool
    public var phoneNumber: String?
    public var username: String?
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var picture: String?
    public init(
        email: String? = nil, emailVerified: Bool = false, phoneNumber: String? = nil, username: String? = nil,
        name: String? = nil, givenName: String? = nil, familyName: String? = nil, nickname: String? = nil,
        picture: String? = nil
    ) {
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.username = username
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.nickname = nickname
        self.picture = picture
    }
}

/// A user's password: the hash and when it was set and used. An imported hash stays in the form it
/// came in (`scheme`) until the first login that verifies it replaces it with Argon2id.
public struct PasswordCredential: Sendable, Hashable, Codable {
    /// The authentication-method id, `password|<hex>`.
    public var id: String
    public var scheme: PasswordHashScheme
    /// The hash as `scheme` writes it: a PHC string (`$argon2id$v=19$…`, `$pbkdf2-sha256$…`), a
    /// bcrypt string (`$2b$…`), or `$sha256-salted$…` (docs/passwords.md has each form).
    public var hash: String
    public var createdAt: Date
    /// When the password was last set (signup, change, reset, import).
    public var changedAt: Date
    /// This password in place of `existing`: the method keeps its id and creation time.
    public func replacing(_ existing: PasswordCredential?) -> PasswordCredential {
        guard let existing else { return self }
        var kept = self
        kept.id = existing.id
        kept.createdAt = existing.createdAt
        return kept
    }

    public init(id: String, scheme: PasswordHashScheme, hash: String, createdAt: Date, changedAt: Date) {
        self.id = id
        self.scheme = scheme
        self.hash = hash
        self.createdAt = createdAt
        self.changedAt = changedAt
    }
}

/// A second factor a user enrolled. It is `active` from the first login that used it; until then
/// it can be replaced by enrolling again.
public struct MFAEnrollment: Sendable, Hashable, Codable {
    /// Auth0's authenticator id: `totp|dev_…`, `sms|dev_…`, `recovery-code|dev_…`.
    public var id: String
    public var factor: MFAFactor
    public var active: Bool
    public var createdAt: Date
    /// TOTP: the secret, sealed with AES-256-GCM under a key derived from the master key. A
    /// recovery code the user has not yet said they saved: the code, sealed the same way, so the
    /// hosted page can show it again until then (empty afterwards).
    @Base64Bytes public var sealedSecret: [UInt8]
    /// TOTP: the last time step accepted, so a code is used once.
    public var lastUsedStep: Int64?
    /// SMS: the E.164 number.
    public var phoneNumber: String?
    /// Recovery code: SHA-256 of the code (a random 24-character code).
    @Base64Bytes public var codeHash: [UInt8]

    public init(
        id: String, factor: MFAFactor, active: Bool, createdAt: Date, sealedSecret: [UInt8] = [],
        lastUsedStep: Int64? = nil, phoneNumber: String? = nil, codeHash: [UInt8] = []
    ) {
        self.id = id
        self.factor = factor
        self.active = active
        self.createdAt = createdAt
        self.sealedSecret = sealedSecret
        self.lastUsedStep = lastUsedStep
        self.phoneNumber = phoneNumber
        self.codeHash = codeHash
    }
}

/// A user of one connection.
public struct UserRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// 2: the password and second factors. 3: the migration state (the passkey prompt's snooze,
    /// the platforms the user signed in with a passkey on). 4: the password's replacement.
    public static let currentVersion = 4
    public var version = UserRecord.currentVersion
    public var tenantID: String
    /// e.g. "auth0|6f1c…" style: "sesame|<hex>".
    public var id: String
    public var connectionID: String
    /// The WebAuthn user handle (32 random bytes).
    @Base64Bytes public var userHandle: [UInt8]
    public var profile: UserProfile
    /// At most 10 string values.
    public var userMetadata: [String: String]
    public var blocked: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var lastLoginAt: Date?
    /// The password, for a user of a connection with passwords who has one.
    public var password: PasswordCredential?
    /// Second factors, in the order enrolled; nil when there are none (rows from before version
    /// 2 have no such member).
    public var mfaEnrollments: [MFAEnrollment]?
    /// Until when the token endpoint's passkey-enrollment prompt stays hidden (My Account's snooze).
    public var passkeyPromptSnoozedUntil: Date?
    /// The platforms the user has signed in with a passkey on; nil for none (rows from before
    /// version 3 have no such member).
    public var passkeyPlatformList: [ClientPlatform]?
    /// What replaced the password in an account security upgrade (docs/account-upgrades.md): the password is
    /// kept, hashed, only to answer a sign-in with it by naming the new method; it signs no one in.
    public var passwordReplacement: PasswordReplacement?
    /// When `passwordReplacement` happened.
    public var passwordReplacedAt: Date?

    /// The platforms the user has signed in with a passkey on (the method hints' `prefer_passkey`).
    public var passkeyPlatforms: [ClientPlatform] {
        get { passkeyPlatformList ?? [] }
        set { passkeyPlatformList = newValue.isEmpty ? nil : newValue }
    }

    /// The password when it still signs in (none was replaced by an upgrade).
    public var usablePassword: PasswordCredential? { passwordReplacement == nil ? password : nil }

    /// Second factors, in the order enrolled. None is kept as nil, so a record has one form
    /// whichever way it was made or read.
    public var mfa: [MFAEnrollment] {
        get { mfaEnrollments ?? [] }
        set { mfaEnrollments = newValue.isEmpty ? nil : newValue }
    }

    public init(
        tenantID: String, id: String, connectionID: String, userHandle: [UInt8], profile: UserProfile,
        userMetadata: [String: String] = [:], blocked: Bool = false, createdAt: Date, updatedAt: Date,
        lastLoginAt: Date? = nil, password: PasswordCredential? = nil, mfa: [MFAEnrollment] = []
    ) {
        self.password = password
        self.mfaEnrollments = mfa.isEmpty ? nil : mfa
        self.tenantID = tenantID
        self.id = id
        self.connectionID = connectionID
        self.userHandle = userHandle
        self.profile = profile
        self.userMetadata = userMetadata
        self.blocked = blocked
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastLoginAt = lastLoginAt
    }
}

/// A WebAuthn credential (passkey) of a user.
public struct PasskeyRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = PasskeyRecord.currentVersion
    public var tenantID: String
    /// The authentication-method id, e.g. "passkey|<hex>".
    public var id: String
    public var userID: String
    /// Unique per tenant.
    @Base64Bytes public var credentialID: [UInt8]
    /// The COSE_Key bytes.
    @Base64Bytes public var publicKey: [UInt8]
    public var signCount: UInt32
    @Base64Bytes public var aaguid: [UInt8]
    public var backupEligible: Bool
    public var backupState: Bool
    public var transports: [String]
    public var name: String
    public var attestationFormat: AttestationFormat
    public var createdAt: Date
    public var lastUsedAt: Date?
    public init(
        tenantID: String, id: String, userID: String, credentialID: [UInt8], publicKey: [UInt8], signCount: UInt32,
        aaguid: [UInt8], backupEligible: Bool, backupState: Bool, transports: [String], name: String,
        attestationFormat: AttestationFormat, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.id = id
        self.userID = userID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.aaguid = aaguid
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.transports = transports
        self.name = name
        self.attestationFormat = attestationFormat
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Where a signing key is in its rotation.
public enum SigningKeyState: String, Sendable, Hashable, Codable {
    /// Signs new tokens; published.
    case current
    /// No longer signs; still published so tokens it signed verify until they expire.
    case previous
    /// Retired: neither signs nor is published.
    case revoked
}

/// A tenant's token-signing key; the private key is sealed with the master key (AES-256-GCM).
public struct SigningKeyRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = SigningKeyRecord.currentVersion
    public var tenantID: String
    /// The JWK `kid`.
    public var id: String
    public var algorithm: JWTAlgorithm
    /// PKCS#8 DER sealed with the master key (nonce ‖ ciphertext ‖ tag), AAD = tenant id ‖ 0x00 ‖ kid.
    @Base64Bytes public var sealedPrivateKey: [UInt8]
    /// The public key as a DER SubjectPublicKeyInfo.
    @Base64Bytes public var publicKeySPKI: [UInt8]
    public var state: SigningKeyState
    public var createdAt: Date
    public var rotatedAt: Date?
    public init(
        tenantID: String, id: String, algorithm: JWTAlgorithm, sealedPrivateKey: [UInt8], publicKeySPKI: [UInt8],
        state: SigningKeyState, createdAt: Date, rotatedAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.id = id
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.publicKeySPKI = publicKeySPKI
        self.state = state
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
    }
}

/// An opaque refresh token, stored as its SHA-256 hash. Rotation creates a new record in the same
/// family and marks this one used; presenting a used token revokes the whole family.
public struct RefreshTokenRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = RefreshTokenRecord.currentVersion
    public var tenantID: String
    public var id: String
    @Base64Bytes public var tokenHash: [UInt8]
    public var familyID: String
    public var clientID: String
    public var userID: String
    public var scope: String
    public var audience: String?
    /// Authentication methods and time of the original login (carried into new id tokens).
    public var amr: [String]
    public var authTime: Date
    /// The passkey the family's login used (deleting it revokes the family); nil for families
    /// issued before this was recorded.
    public var passkeyID: String?
    public var createdAt: Date
    /// Absolute expiry of the family.
    public var expiresAt: Date
    /// Idle expiry of this token.
    public var idleExpiresAt: Date
    public var usedAt: Date?
    public var revokedAt: Date?
    /// The DPoP key (RFC 7638 thumbprint, base64url) a public client's family is bound to: every
    /// renewal must prove possession of it (RFC 9449 §5). Nil for unbound families.
    public var dpopJKT: String?
    public init(
        tenantID: String, id: String, tokenHash: [UInt8], familyID: String, clientID: String, userID: String,
        scope: String, audience: String?, amr: [String], authTime: Date, passkeyID: String? = nil, createdAt: Date,
        expiresAt: Date, idleExpiresAt: Date, usedAt: Date? = nil, revokedAt: Date? = nil, dpopJKT: String? = nil
    ) {
        self.dpopJKT = dpopJKT
        self.tenantID = tenantID
        self.id = id
        self.tokenHash = tokenHash
        self.familyID = familyID
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.audience = audience
        self.amr = amr
        self.authTime = authTime
        self.passkeyID = passkeyID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.idleExpiresAt = idleExpiresAt
        self.usedAt = usedAt
        self.revokedAt = revokedAt
    }
}

/// One authentication attempt (append-only): adoption metrics and the audit log read these.
public struct AuthEventRecord: Sendable, Hashable, Codable, VersionedRecord {
    /// 2: the connection, the passkey's kind and model, and the client's platform (the adoption
    /// statistics, docs/migration.md).
    public static let currentVersion = 2
    public var version = AuthEventRecord.currentVersion
    public var tenantID: String
    public var id: String
    public var at: Date
    public var type: AuthEventKind
    public var method: AuthEventMethod
    public var outcome: AuthEventOutcome
    public var clientID: String?
    public var userID: String?
    /// From the origin the ceremony used; nil when the ceremony failed before it.
    public var platform: AuthPlatform?
    /// The connection the user belongs to.
    public var connectionID: String?
    /// A passkey event: whether the passkey syncs.
    public var passkeyKind: PasskeyKind?
    /// A passkey event: the authenticator model (16 bytes).
    public var aaguid: [UInt8]?
    /// The platform the client runs on, when the request said (its `Auth0-Client` header, a
    /// device key's registration) or the origin shows it.
    public var clientPlatform: ClientPlatform?
    /// An enrollment: true when the passkey came from a conditional create (the browser's
    /// automatic upgrade after a password sign-in, with no user gesture).
    public var conditional: Bool?
    public init(
        tenantID: String, id: String, at: Date, type: AuthEventKind, method: AuthEventMethod,
        outcome: AuthEventOutcome, clientID: String? = nil, userID: String? = nil, platform: AuthPlatform? = nil,
        connectionID: String? = nil, passkeyKind: PasskeyKind? = nil, aaguid: [UInt8]? = nil,
        clientPlatform: ClientPlatform? = nil, conditional: Bool? = nil
    ) {
        self.conditional = conditional
        self.tenantID = tenantID
        self.id = id
        self.at = at
        self.type = type
        self.method = method
        self.outcome = outcome
        self.clientID = clientID
        self.userID = userID
        self.platform = platform
        self.connectionID = connectionID
        self.passkeyKind = passkeyKind
        self.aaguid = aaguid
        self.clientPlatform = clientPlatform
    }
}

/// A pending passkey ceremony between its challenge and its token call, as the service encoded it.
/// Kept in the store when several processes serve one database, so a challenge taken at one is
/// redeemed at another.
public struct AuthSessionRecord: Sendable, Hashable {
    /// SHA-256 of the opaque handle the client holds (the handle itself is never stored).
    public var handleHash: [UInt8]
    public var tenantID: String
    /// The client-address key the per-address cap counts against.
    public var requester: String
    public var expiresAt: Date
    /// The ceremony, in the service's own encoding.
    public var payload: [UInt8]

    public init(handleHash: [UInt8], tenantID: String, requester: String, expiresAt: Date, payload: [UInt8]) {
        self.handleHash = handleHash
        self.tenantID = tenantID
        self.requester = requester
        self.expiresAt = expiresAt
        self.payload = payload
    }
}

/// What storing a pending ceremony led to.
public enum AuthSessionInsertion: Sendable, Hashable {
    case inserted
    /// The requester already holds its maximum of unexpired sessions.
    case requesterFull
}

/// A counter of attempts within a time window (failed passwords per account and address, SMS
/// sends per user, wrong codes per MFA token), kept in the store so every process sees it.
public struct AttemptCount: Sendable, Hashable {
    public var count: Int
    /// When the window ends; the counter is gone (zero) from then on.
    public var windowEndsAt: Date
    public init(count: Int, windowEndsAt: Date) {
        self.count = count
        self.windowEndsAt = windowEndsAt
    }
}

/// A message's channel.
public enum MessageChannel: String, Sendable, Hashable, Codable, CaseIterable {
    case email
    case sms
}

/// What a message is for.
public enum MessageTemplate: String, Sendable, Hashable, Codable, CaseIterable {
    /// A password-reset link (`/dbconnections/change_password`).
    case passwordReset = "password_reset"
    /// A one-time code for an SMS second factor.
    case mfaCode = "mfa_code"
    /// A notice that the password a user signed in with is in a breach.
    case breachedPassword = "breached_password"
    /// A link that confirms the user's email address (after a signup at the hosted pages).
    case verifyEmail = "verify_email"
    /// A one-time code that starts an account recovery.
    case recoveryCode = "recovery_code"
    /// A notice that the account was recovered (and how).
    case accountRecovered = "account_recovered"
    /// A notice that a passkey or a second factor was added to the account.
    case credentialAdded = "credential_added"
    /// A notice that the address was confirmed and the ways to sign in added before it were removed.
    case credentialsRemoved = "credentials_removed"
    /// A notice that an administrator removed a passkey, the password or a second factor.
    case credentialRemoved = "credential_removed"
}

/// A message the `outbox` sender kept instead of sending (development and tests): listed at
/// `GET /api/v2/outbox`. The text holds secrets (a reset link, a code), so it is sealed at rest.
public struct OutboxMessageRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = OutboxMessageRecord.currentVersion
    public var tenantID: String
    /// `msg_` + 32 hex digits, time-ordered.
    public var id: String
    public var createdAt: Date
    public var channel: MessageChannel
    public var template: MessageTemplate
    /// The email address or phone number.
    public var recipient: String
    /// The text, sealed with AES-256-GCM under a key derived from the master key.
    @Base64Bytes public var sealedText: [UInt8]
    public init(
        tenantID: String, id: String, createdAt: Date, channel: MessageChannel, template: MessageTemplate,
        recipient: String, sealedText: [UInt8]
    ) {
        self.tenantID = tenantID
        self.id = id
        self.createdAt = createdAt
        self.channel = channel
        self.template = template
        self.recipient = recipient
        self.sealedText = sealedText
    }
}

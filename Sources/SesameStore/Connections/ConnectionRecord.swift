import Foundation

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
public enum IdentifierRule: String, RecordVocabulary, Sendable, Hashable, Codable {
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

// MARK: The binary form

extension ConnectionRecord: BinaryCodedRecord {
    /// 2: password rules and hashing in place of a minimum length. 3: the migration policy. 4: the
    /// strategy, upgrades and Apple settings. 5: the attestation requirement. 6: one passkey per provider.
    public static let recordFields = RecordFields<ConnectionRecord>(
        blank: ConnectionRecord(tenantID: "", id: "", name: "", createdAt: .distantPast, updatedAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("name", \.name),
            .field("identifiers.email", \.identifiers.email),
            .field("identifiers.phoneNumber", \.identifiers.phoneNumber),
            .field("identifiers.username", \.identifiers.username),
            .field("passkey.enabled", \.passkey.enabled),
            .field("passkey.challengeUI", \.passkey.challengeUI),
            .field("passkey.progressiveEnrollmentEnabled", \.passkey.progressiveEnrollmentEnabled),
            .field("passkey.localEnrollmentEnabled", \.passkey.localEnrollmentEnabled),
            .field("passkey.userVerification", \.passkey.userVerification),
            .field("passkey.maxPasskeysPerUser", \.passkey.maxPasskeysPerUser),
            .field("password.enabled", \.password.enabled),
            .retired("password.minLength", Int.self, versions: 1...1) { connection, minLength in
                connection.password.rules = PasswordPolicy.rules(minLength: minLength)
            },
            .field("password.rules", \.password.rules, since: 2),
            .field("password.hashing.memoryKiB", \.password.hashing.memoryKiB, since: 2),
            .field("password.hashing.iterations", \.password.hashing.iterations, since: 2),
            .field("password.hashing.parallelism", \.password.hashing.parallelism, since: 2),
            .field("enabledClients", \.enabledClients),
            .field("createdAt", \.createdAt),
            .field("updatedAt", \.updatedAt),
            .field("passkey.migration.minIOSVersion", \.passkey.migration.minIOSVersion, since: 3),
            .field("passkey.migration.minAndroidVersion", \.passkey.migration.minAndroidVersion, since: 3),
            .field("passkey.migration.minIOSWebViewVersion", \.passkey.migration.minIOSWebViewVersion, since: 3),
            .field(
                "passkey.migration.minAndroidWebViewVersion", \.passkey.migration.minAndroidWebViewVersion, since: 3),
            .field("passkey.migration.deviceKeyGraceDays", \.passkey.migration.deviceKeyGraceDays, since: 3),
            .field("passkey.migration.promptSnoozeDays", \.passkey.migration.promptSnoozeDays, since: 3),
            .field("strategy", \.strategy, since: 4),
            .field("upgrades.allowed", \.upgrades.allowed, since: 4),
            .field("upgrades.maxAuthAge", \.upgrades.maxAuthAge, since: 4),
            .field("upgrades.stepUp", \.upgrades.stepUp, since: 4),
            .field("apple", \.apple, since: 4),
            .field("passkey.attestationRequirement", \.passkey.attestationRequirement, since: 5),
            .field("passkey.onePerProvider", \.passkey.onePerProvider, since: 6),
        ])
}

extension AppleSettings: RecordTabled {
    public static let recordFields = RecordFields<AppleSettings>(
        blank: AppleSettings(),
        [
            .field("teamID", \.teamID),
            .field("keyID", \.keyID),
            .field("servicesID", \.servicesID),
            .field("appIDs", \.appIDs),
            .field("sealedKey", \._sealedKey.wrappedValue),
            .field("issuer", \.issuer),
            .field("keysURL", \.keysURL),
            .field("tokenURL", \.tokenURL),
            .field("authorizeURL", \.authorizeURL),
        ])
}

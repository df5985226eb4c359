import SesameStore

/// A connection as the Management API returns it (Auth0's database-connection shape).
public struct ManagedConnection: Encodable, Sendable {
    public struct Enabled: Encodable, Sendable {
        public var enabled: Bool
    }

    public struct AuthenticationMethods: Encodable, Sendable {
        public var password: Enabled
        public var passkey: Enabled
    }

    public struct PasskeyOptions: Encodable, Sendable {
        public var challengeUI: ChallengeUI
        public var progressiveEnrollmentEnabled: Bool
        public var localEnrollmentEnabled: Bool
        public var userVerification: UserVerificationPolicy
        public var maxPasskeysPerUser: Int
        public var minOSVersions: [String: String]
        public var deviceKeyGraceDays: Int
        public var enrollmentSnoozeDays: Int
        public var attestationRequirement: AttestationRequirement
        public var onePasskeyPerProvider: Bool
        enum CodingKeys: String, CodingKey {
            case onePasskeyPerProvider = "one_passkey_per_provider"
            case attestationRequirement = "attestation_requirement"
            case minOSVersions = "min_os_versions"
            case deviceKeyGraceDays = "device_key_grace_days"
            case enrollmentSnoozeDays = "enrollment_snooze_days"
            case challengeUI = "challenge_ui"
            case progressiveEnrollmentEnabled = "progressive_enrollment_enabled"
            case localEnrollmentEnabled = "local_enrollment_enabled"
            case userVerification = "user_verification"
            case maxPasskeysPerUser = "max_passkeys_per_user"
        }
    }

    public struct Attribute: Encodable, Sendable {
        public struct Identifier: Encodable, Sendable {
            public var active: Bool
        }
        public struct Signup: Encodable, Sendable {
            public var status: String
        }
        public var identifier: Identifier
        public var signup: Signup

        init(_ rule: IdentifierRule) {
            identifier = Identifier(active: rule != .disabled)
            signup = Signup(status: rule == .disabled ? "inactive" : rule.rawValue)
        }
    }

    public struct Attributes: Encodable, Sendable {
        public var email: Attribute
        public var phoneNumber: Attribute
        public var username: Attribute
        enum CodingKeys: String, CodingKey {
            case email
            case phoneNumber = "phone_number"
            case username
        }
    }

    public struct PasswordComplexity: Encodable, Sendable {
        public var minLength: Int
        enum CodingKeys: String, CodingKey { case minLength = "min_length" }
    }

    public struct PasswordRulesOption: Encodable, Sendable {
        public var rules: String
    }

    public struct PasswordHashing: Encodable, Sendable {
        public var algorithm = "argon2id"
        public var memoryCost: Int
        public var timeCost: Int
        public var parallelism: Int
        enum CodingKeys: String, CodingKey {
            case algorithm, parallelism
            case memoryCost = "memory_cost"
            case timeCost = "time_cost"
        }
    }

    /// `options.upgrades` (docs/account-upgrades.md).
    public struct Upgrades: Encodable, Sendable {
        public var allowed: [UpgradeType]
        public var maxAuthAge: Int
        public var stepUp: StepUpRule
        enum CodingKeys: String, CodingKey {
            case allowed
            case maxAuthAge = "max_auth_age"
            case stepUp = "step_up"
        }
    }

    /// An `apple` connection's options, in Auth0's names; the `.p8` key is never returned, only
    /// whether one is set.
    public struct AppleOptions: Encodable, Sendable {
        public var teamID: String
        public var keyID: String
        public var clientID: String?
        public var appID: [String]
        public var appSecretSet: Bool
        public var issuer: String
        public var jwksURI: String
        public var tokenEndpoint: String
        public var authorizationEndpoint: String
        enum CodingKeys: String, CodingKey {
            case teamID = "team_id"
            case keyID = "kid"
            case clientID = "client_id"
            case appID = "app_id"
            case appSecretSet = "app_secret_set"
            case issuer
            case jwksURI = "jwks_uri"
            case tokenEndpoint = "token_endpoint"
            case authorizationEndpoint = "authorization_endpoint"
        }
    }

    /// A database connection's options or an Apple connection's.
    public enum ConnectionOptions: Encodable, Sendable {
        case database(Options)
        case apple(AppleOptions)

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .database(let options): try options.encode(to: encoder)
            case .apple(let options): try options.encode(to: encoder)
            }
        }
    }

    public struct Options: Encodable, Sendable {
        public var upgrades: Upgrades
        public var authenticationMethods: AuthenticationMethods
        public var passkeyOptions: PasskeyOptions
        public var attributes: Attributes
        public var passwordComplexityOptions: PasswordComplexity
        public var passwordPolicy: PasswordRulesOption
        public var passwordHashing: PasswordHashing
        enum CodingKeys: String, CodingKey {
            case upgrades
            case authenticationMethods = "authentication_methods"
            case passkeyOptions = "passkey_options"
            case attributes
            case passwordComplexityOptions = "password_complexity_options"
            case passwordPolicy = "password_policy"
            case passwordHashing = "password_hashing"
        }
    }

    public var id: String
    public var name: String
    public var strategy: String
    public var realms: [String]
    public var isDefault: Bool
    public var enabledClients: [String]
    public var options: ConnectionOptions
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, name, strategy, realms, options
        case isDefault = "is_default"
        case enabledClients = "enabled_clients"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ record: ConnectionRecord, isDefault: Bool) {
        id = record.id
        name = record.name
        strategy = record.strategy.rawValue
        realms = record.strategy == .database ? [record.name] : []
        self.isDefault = isDefault
        enabledClients = record.enabledClients
        createdAt = APITimestamp.string(record.createdAt)
        updatedAt = APITimestamp.string(record.updatedAt)
        if record.strategy == .apple {
            let apple = record.apple ?? AppleSettings()
            options = .apple(
                AppleOptions(
                    teamID: apple.teamID, keyID: apple.keyID, clientID: apple.servicesID, appID: apple.appIDs,
                    appSecretSet: !apple.sealedKey.isEmpty, issuer: apple.issuer, jwksURI: apple.keysURL,
                    tokenEndpoint: apple.tokenURL, authorizationEndpoint: apple.authorizeURL))
            return
        }
        let upgrades = record.upgrades
        options = .database(
            Options(
                upgrades: Upgrades(allowed: upgrades.allowed, maxAuthAge: upgrades.maxAuthAge, stepUp: upgrades.stepUp),
                authenticationMethods: AuthenticationMethods(
                    password: Enabled(enabled: record.password.enabled),
                    passkey: Enabled(enabled: record.passkey.enabled)),
                passkeyOptions: PasskeyOptions(
                    challengeUI: record.passkey.challengeUI,
                    progressiveEnrollmentEnabled: record.passkey.progressiveEnrollmentEnabled,
                    localEnrollmentEnabled: record.passkey.localEnrollmentEnabled,
                    userVerification: record.passkey.userVerification,
                    maxPasskeysPerUser: record.passkey.maxPasskeysPerUser,
                    minOSVersions: MethodChoice.minimums(record.passkey.migration),
                    deviceKeyGraceDays: record.passkey.migration.deviceKeyGraceDays,
                    enrollmentSnoozeDays: record.passkey.migration.promptSnoozeDays,
                    attestationRequirement: record.passkey.attestationRequirement,
                    onePasskeyPerProvider: record.passkey.onePerProvider),
                attributes: Attributes(
                    email: Attribute(record.identifiers.email), phoneNumber: Attribute(record.identifiers.phoneNumber),
                    username: Attribute(record.identifiers.username)),
                passwordComplexityOptions: PasswordComplexity(
                    minLength: PasswordRulesParser.parse(record.password.rules).rules.minLength ?? 1),
                passwordPolicy: PasswordRulesOption(rules: record.password.rules),
                passwordHashing: PasswordHashing(
                    memoryCost: record.password.hashing.memoryKiB, timeCost: record.password.hashing.iterations,
                    parallelism: record.password.hashing.parallelism)))
    }
}

/// A connection's fields as a create or PATCH request carries them (Auth0's names in comments);
/// nil leaves a field as it is (or takes the default on create). Values are checked by the service.
public struct ConnectionInput: Sendable {
    /// `name`: what clients send as `realm`.
    public var name: String?
    /// `strategy`: "auth0" (a database connection) or "apple" (Sign in with Apple).
    public var strategy: String?
    /// `options.authentication_methods.password.enabled`.
    public var passwordEnabled: Bool?
    /// `options.authentication_methods.passkey.enabled`.
    public var passkeyEnabled: Bool?
    /// `options.passkey_options.challenge_ui`: both, autofill or button.
    public var challengeUI: String?
    /// `options.passkey_options.progressive_enrollment_enabled`.
    public var progressiveEnrollmentEnabled: Bool?
    /// `options.passkey_options.local_enrollment_enabled`.
    public var localEnrollmentEnabled: Bool?
    /// `options.passkey_options.one_passkey_per_provider`.
    public var onePasskeyPerProvider: Bool?
    /// `options.passkey_options.user_verification` (Sesame): required, preferred or discouraged.
    public var userVerification: String?
    /// `options.passkey_options.attestation_requirement` (Sesame, docs/mds.md): none, metadata,
    /// or a FIDO certification level such as FIDO_CERTIFIED_L1.
    public var attestationRequirement: String?
    /// `options.attributes.{email,phone_number,username}`, keyed by identifier name.
    public var attributes: [String: IdentifierAttributeInput]
    /// `options.password_complexity_options.min_length`.
    public var passwordMinLength: Int?
    /// `options.passwordPolicy` (Auth0's levels none, low, fair, good, excellent): sets the minimum
    /// length (1, 6, 8, 8, 10 characters) unless `password_complexity_options.min_length` is given.
    public var passwordPolicy: String?
    /// `options.password_policy.rules`: Apple's password-rules syntax, enforced exactly.
    public var passwordRules: String?
    /// `options.password_hashing` (Sesame): Argon2id `memory_cost` (KiB), `time_cost`, `parallelism`.
    public var passwordHashing: Argon2Input?
    /// `enabled_clients`: client ids; empty means every client.
    public var enabledClients: [String]?
    /// `options.passkey_options.min_os_versions` (Sesame, docs/migration.md): `ios`, `android`,
    /// `ios_webview`, `android_webview`, each a version such as "16.4".
    public var minOSVersions: [String: String]?
    /// `options.passkey_options.device_key_grace_days` (Sesame): how long a migrated device key works.
    public var deviceKeyGraceDays: Int?
    /// `options.passkey_options.enrollment_snooze_days` (Sesame): how long a snooze hides the prompt.
    public var enrollmentSnoozeDays: Int?
    /// `options.upgrades` (Sesame, docs/account-upgrades.md): `allowed`, `max_auth_age`, `step_up`.
    public var upgradesAllowed: [String]?
    public var upgradesMaxAuthAge: Int?
    public var upgradesStepUp: String?
    /// An `apple` connection's options, in Auth0's names: `team_id`, `kid`, `client_id` (the
    /// Services ID), `app_id` (bundle IDs), `app_secret` (the .p8 key, write-only), and Sesame's
    /// `issuer`, `jwks_uri`, `token_endpoint`.
    public var apple: AppleInput?

    public init(
        name: String? = nil, strategy: String? = nil, passwordEnabled: Bool? = nil, passkeyEnabled: Bool? = nil,
        challengeUI: String? = nil, progressiveEnrollmentEnabled: Bool? = nil, localEnrollmentEnabled: Bool? = nil,
        userVerification: String? = nil, attributes: [String: IdentifierAttributeInput] = [:],
        passwordMinLength: Int? = nil, passwordPolicy: String? = nil, enabledClients: [String]? = nil
    ) {
        self.name = name
        self.strategy = strategy
        self.passwordEnabled = passwordEnabled
        self.passkeyEnabled = passkeyEnabled
        self.challengeUI = challengeUI
        self.progressiveEnrollmentEnabled = progressiveEnrollmentEnabled
        self.localEnrollmentEnabled = localEnrollmentEnabled
        self.userVerification = userVerification
        self.attributes = attributes
        self.passwordMinLength = passwordMinLength
        self.passwordPolicy = passwordPolicy
        self.enabledClients = enabledClients
    }
}

/// `options.password_hashing`: Argon2id costs; nil leaves one as it is.
public struct Argon2Input: Sendable {
    public var memoryCost: Int?
    public var timeCost: Int?
    public var parallelism: Int?
    public init(memoryCost: Int? = nil, timeCost: Int? = nil, parallelism: Int? = nil) {
        self.memoryCost = memoryCost
        self.timeCost = timeCost
        self.parallelism = parallelism
    }
}

/// `options.attributes.<identifier>`: `identifier.active` and `signup.status`.
public struct IdentifierAttributeInput: Sendable {
    /// `identifier.active`: whether users can be found by this identifier at all.
    public var active: Bool?
    /// `signup.status`: required, optional or inactive.
    public var signupStatus: String?
    public init(active: Bool? = nil, signupStatus: String? = nil) {
        self.active = active
        self.signupStatus = signupStatus
    }
}

/// An `apple` connection's options; nil leaves one as it is.
public struct AppleInput: Sendable {
    public var teamID: String?
    public var keyID: String?
    public var servicesID: String?
    public var appIDs: [String]?
    public var secret: String?
    public var issuer: String?
    public var keysURL: String?
    public var tokenURL: String?
    public var authorizeURL: String?
    public init() {}
}

import Foundation
import SesameService
import SesameStore
import SesameWire

/// `/api/v2/connections` (docs/management-api.md): user directories and the Apple connection.
struct ConnectionsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        ManagementCollection(
            path: "/api/v2/connections",
            scopes: .init(
                read: .readConnections, create: .createConnections, update: .updateConnections,
                delete: .deleteConnections),
            creation: Self.creation, change: Self.change, input: Self.connectionInput,
            list: management.listConnections, create: management.createConnection, read: management.connection,
            update: management.updateConnection, delete: management.deleteConnection
        ).register(to: &group, management: management)
    }

    /// A database connection's options (Auth0's, and Sesame's passkey, migration and upgrade ones).
    static let databaseOptions: WireObject = {
        let identifier = WireObject([
            WireField("identifier", .object(WireObject([WireField("active", .boolean)]))),
            WireField("signup", .object(WireObject([WireField("status", .oneOf(ManagementService.signupStatuses))]))),
        ])
        let version = WireType.string(maxLength: 32, pattern: "^[0-9]+(\\.[0-9]+){0,2}$")
        return WireObject([
            WireField(
                "authentication_methods",
                .object(
                    WireObject([
                        WireField("password", .object(WireObject([WireField("enabled", .boolean)]))),
                        WireField("passkey", .object(WireObject([WireField("enabled", .boolean)]))),
                    ]))),
            WireField(
                "passkey_options",
                .object(
                    WireObject([
                        WireField("challenge_ui", .vocabulary(ChallengeUI.self)),
                        WireField("progressive_enrollment_enabled", .boolean),
                        WireField("local_enrollment_enabled", .boolean),
                        WireField("user_verification", .vocabulary(UserVerificationPolicy.self)),
                        WireField(
                            "min_os_versions",
                            .object(
                                WireObject(
                                    ["ios", "android", "ios_webview", "android_webview"].map { WireField($0, version) })
                            )
                        ),
                        WireField("device_key_grace_days", .integer(0...3_650)),
                        WireField("enrollment_snooze_days", .integer(1...3_650)),
                        WireField(
                            "attestation_requirement", .vocabulary(AttestationRequirement.self),
                            description:
                                "What a new passkey's attestation must show (docs/mds.md): none (the default; attestation is not asked for), metadata (a chain to the roots of the model's imported FIDO metadata, not revoked or compromised), or that and a FIDO certification at this level or above. Anything but none needs imported metadata."
                        ),
                        WireField(
                            "one_passkey_per_provider", .boolean,
                            description:
                                "Refuse a second synced passkey from a provider the user has one from (409 already_registered). Off by default: two accounts of one provider share its AAGUID."
                        ),
                    ]))),
            WireField(
                "attributes",
                .object(WireObject(["email", "phone_number", "username"].map { WireField($0, .object(identifier)) }))),
            WireField(
                "password_complexity_options",
                .object(WireObject([WireField("min_length", .integer(ManagementService.passwordLengths))]))),
            WireField("passwordPolicy", .oneOf(ManagementService.passwordPolicies.map(\.0))),
            WireField(
                "password_policy",
                .object(
                    WireObject([
                        WireField(
                            "rules", .text(ManagementService.maxRulesLength),
                            description: "Apple's password-rules syntax (docs/passwords.md).")
                    ]))),
            WireField(
                "password_hashing",
                .object(
                    WireObject(
                        [
                            WireField("algorithm", .oneOf(["argon2id"])),
                            WireField("memory_cost", .integer(7_168...ManagementService.maxHashMemoryKiB)),
                            WireField("time_cost", .integer(1...16)), WireField("parallelism", .integer(1...8)),
                        ],
                        description: "memory_cost (KiB) and time_cost, each the connection's own where not given, "
                            + "must reach one of OWASP's Argon2id rows: 47104 and 1, 19456 and 2, 12288 and 3, 9216 and 4, "
                            + "or 7168 and 5."))),
            WireField(
                "upgrades",
                .object(
                    WireObject([
                        WireField("allowed", .array(.vocabulary(UpgradeType.self), maxItems: 10)),
                        WireField("max_auth_age", .integer(0...86_400)),
                        WireField("step_up", .vocabulary(StepUpRule.self)),
                    ]))),
        ])
    }()

    /// A Sign in with Apple connection's options.
    static let appleOptions = WireObject([
        WireField("team_id", .string(maxLength: 64, pattern: "^[A-Z0-9]{10}$")),
        WireField("kid", .string(maxLength: 64, pattern: "^[A-Za-z0-9]{1,64}$")),
        WireField(
            "client_id", .string(maxLength: 255, pattern: "^[A-Za-z0-9.-]{1,255}$"), description: "The Services ID."),
        WireField("app_id", .stringOrArray(maxLength: 256, maxItems: 50)),
        WireField("app_secret", .text(8_192), description: "The Sign in with Apple key (PEM); never returned."),
        WireField("issuer", .text(512)), WireField("jwks_uri", .string(maxLength: 2_048, format: "uri")),
        WireField("token_endpoint", .string(maxLength: 2_048, format: "uri")),
        WireField("authorization_endpoint", .string(maxLength: 2_048, format: "uri")),
    ])

    static let fields: [WireField] = [
        WireField(
            "name", .string(maxLength: 128, minLength: 1, pattern: "^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$"),
            description: "Letters, digits and hyphens, not starting or ending with a hyphen."),
        WireField("strategy", .vocabulary(ConnectionStrategy.self)),
        WireField("options", .either(.object(databaseOptions), .object(appleOptions))),
        WireField("enabled_clients", .texts(256, maxItems: 1_000)),
    ]
    /// `POST`: a name (the strategy defaults to `auth0`), and the options of its strategy: a user
    /// directory's, or with `strategy: apple` the Apple connection's. `PATCH` may not name either.
    static let creation: RequestBody = {
        let named = fields.map { $0.name == "name" ? $0.required : $0 }
        let shared = named.filter { $0.name == "name" || $0.name == "enabled_clients" }
        var body = RequestBody.json(named)
        body.variants = [
            WireObject(
                shared + [
                    WireField("strategy", .oneOf([ConnectionStrategy.database.rawValue])),
                    WireField("options", .object(databaseOptions)),
                ], description: "A user directory (the default strategy, auth0)."),
            WireObject(
                shared + [
                    WireField("strategy", .oneOf([ConnectionStrategy.apple.rawValue])).required,
                    WireField("options", .object(appleOptions)),
                ], description: "Sign in with Apple."),
        ]
        return body
    }()
    /// `PATCH`: the options of the connection's own strategy (a user directory's or the Apple
    /// connection's); `name` and `strategy` are fixed.
    static let change: RequestBody = {
        let fixed = fields.map {
            ["name", "strategy"].contains($0.name)
                ? WireField($0.name, .refused("Fixed once the connection exists: 400.")) : $0
        }
        var body = RequestBody.json(fixed)
        let shared = fixed.filter { $0.name != "options" }
        body.variants = [
            WireObject(
                shared + [WireField("options", .object(databaseOptions))], description: "A user directory's."),
            WireObject(shared + [WireField("options", .object(appleOptions))], description: "An Apple connection's."),
        ]
        return body
    }()

    /// Whether a PATCH's options are an Apple connection's (they name one of its own fields).
    static func isAppleOptions(_ options: APIBody) -> Bool {
        appleOptions.names.contains { options.has($0) }
    }

    /// A connection body. As in Auth0, `name` and `strategy` are fixed once the connection exists.
    static func connectionInput(_ body: APIBody, creating: Bool) throws -> ConnectionInput {
        if !creating {
            for fixed in ["name", "strategy"] where body.has(fixed) {
                throw ServiceError.invalidRequest("\(fixed) cannot be changed after the connection is created")
            }
        }
        var input = ConnectionInput(
            name: try body.string("name"), strategy: try body.string("strategy"),
            enabledClients: try body.strings("enabled_clients"))
        guard let given = try body.object("options") else { return input }
        if input.strategy == "apple" || (!creating && Self.isAppleOptions(given)) {
            let options = try given.checked(against: appleOptions)
            var apple = AppleInput()
            apple.teamID = try options.string("team_id")
            apple.keyID = try options.string("kid")
            apple.servicesID = try options.string("client_id")
            // Auth0 holds one bundle ID as a string; Sesame takes a list too.
            apple.appIDs = try options.stringOrStrings("app_id")
            apple.secret = try options.string("app_secret")
            apple.issuer = try options.string("issuer")
            apple.keysURL = try options.string("jwks_uri")
            apple.tokenURL = try options.string("token_endpoint")
            apple.authorizeURL = try options.string("authorization_endpoint")
            input.apple = apple
            return input
        }
        let options = try given.checked(against: databaseOptions)
        if let upgrades = try options.object("upgrades") {
            input.upgradesAllowed = try upgrades.strings("allowed")
            input.upgradesMaxAuthAge = try upgrades.int("max_auth_age")
            input.upgradesStepUp = try upgrades.string("step_up")
        }
        if let methods = try options.object("authentication_methods") {
            input.passwordEnabled = try methods.object("password")?.bool("enabled")
            input.passkeyEnabled = try methods.object("passkey")?.bool("enabled")
        }
        if let passkey = try options.object("passkey_options") {
            if let versions = try passkey.object("min_os_versions") {
                var parsed: [String: String] = [:]
                for name in versions.memberNames {
                    if let value = try versions.string(name) { parsed[name] = value }
                }
                input.minOSVersions = parsed
            }
            input.deviceKeyGraceDays = try passkey.int("device_key_grace_days")
            input.enrollmentSnoozeDays = try passkey.int("enrollment_snooze_days")
            input.challengeUI = try passkey.string("challenge_ui")
            input.progressiveEnrollmentEnabled = try passkey.bool("progressive_enrollment_enabled")
            input.localEnrollmentEnabled = try passkey.bool("local_enrollment_enabled")
            input.onePasskeyPerProvider = try passkey.bool("one_passkey_per_provider")
            input.userVerification = try passkey.string("user_verification")
            input.attestationRequirement = try passkey.string("attestation_requirement")
        }
        if let attributes = try options.object("attributes") {
            for name in attributes.memberNames {
                guard let attribute = try attributes.object(name) else { continue }
                var parsed = IdentifierAttributeInput()
                parsed.active = try attribute.object("identifier")?.bool("active")
                parsed.signupStatus = try attribute.object("signup")?.string("status")
                input.attributes[name] = parsed
            }
        }
        input.passwordMinLength = try options.object("password_complexity_options")?.int("min_length")
        input.passwordPolicy = try options.string("passwordPolicy")
        input.passwordRules = try options.object("password_policy")?.string("rules")
        if let hashing = try options.object("password_hashing") {
            if let algorithm = try hashing.string("algorithm"), algorithm != "argon2id" {
                throw ServiceError.invalidRequest("options.password_hashing.algorithm must be argon2id")
            }
            input.passwordHashing = Argon2Input(
                memoryCost: try hashing.int("memory_cost"), timeCost: try hashing.int("time_cost"),
                parallelism: try hashing.int("parallelism"))
        }
        return input
    }
}

import Foundation
import SesameService
import SesameStore

/// `/api/v2/connections` (docs/management-api.md): user directories and the Apple connection.
struct ConnectionsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/connections", handler: list)
        group.post("/api/v2/connections", handler: create)
        group.get("/api/v2/connections/{id}", handler: read)
        group.patch("/api/v2/connections/{id}", handler: update)
        group.delete("/api/v2/connections/{id}", handler: delete)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readConnections)
        return try .noStoreJSON(management.listConnections(caller, try RequestInput.listRequest(request)))
    }

    func create(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createConnections)
        let input = try Self.connectionInput(try APIBody.json(request), creating: true)
        return try .noStoreJSON(management.createConnection(caller, input), status: 201)
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readConnections)
        return try .noStoreJSON(management.connection(caller, id: try context.pathParameter("id")))
    }

    func update(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateConnections)
        let input = try Self.connectionInput(try APIBody.json(request), creating: false)
        return try .noStoreJSON(management.updateConnection(caller, id: try context.pathParameter("id"), input))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteConnections)
        try management.deleteConnection(caller, id: try context.pathParameter("id"))
        return .empty()
    }

    /// Whether a PATCH's options are an Apple connection's (they name one of its own fields).
    static func isAppleOptions(_ options: APIBody) -> Bool {
        [
            "team_id", "kid", "client_id", "app_id", "app_secret", "issuer", "jwks_uri", "token_endpoint",
            "authorization_endpoint",
        ].contains {
            options.has($0)
        }
    }

    /// A connection body. As in Auth0, `name` and `strategy` are fixed once the connection exists.
    static func connectionInput(_ body: APIBody, creating: Bool) throws -> ConnectionInput {
        if !creating {
            for fixed in ["name", "strategy"] where body.has(fixed) {
                throw ServiceError.invalidRequest("\(fixed) cannot be changed after the connection is created")
            }
        }
        try body.allowOnly(["name", "strategy", "options", "enabled_clients"])
        var input = ConnectionInput(
            name: try body.string("name", maxLength: 1_024), strategy: try body.string("strategy", maxLength: 64),
            enabledClients: try body.strings("enabled_clients", maxCount: 1_000, maxLength: 256))
        guard let options = try body.object("options") else { return input }
        if input.strategy == "apple" || (!creating && Self.isAppleOptions(options)) {
            try options.allowOnly([
                "team_id", "kid", "client_id", "app_id", "app_secret", "issuer", "jwks_uri", "token_endpoint",
                "authorization_endpoint",
            ])
            var apple = AppleInput()
            apple.teamID = try options.string("team_id", maxLength: 64)
            apple.keyID = try options.string("kid", maxLength: 64)
            apple.servicesID = try options.string("client_id", maxLength: 256)
            // Auth0 holds one bundle ID as a string; Sesame takes a list too.
            apple.appIDs = try options.stringOrStrings("app_id", maxCount: 50, maxLength: 256)
            apple.secret = try options.string("app_secret", maxLength: 8_192)
            apple.issuer = try options.string("issuer", maxLength: 512)
            apple.keysURL = try options.string("jwks_uri", maxLength: 2_048)
            apple.tokenURL = try options.string("token_endpoint", maxLength: 2_048)
            apple.authorizeURL = try options.string("authorization_endpoint", maxLength: 2_048)
            input.apple = apple
            return input
        }
        try options.allowOnly([
            "authentication_methods", "passkey_options", "attributes", "password_complexity_options", "passwordPolicy",
            "password_policy", "password_hashing", "upgrades",
        ])
        if let upgrades = try options.object("upgrades") {
            try upgrades.allowOnly(["allowed", "max_auth_age", "step_up"])
            input.upgradesAllowed = try upgrades.strings("allowed", maxCount: 10, maxLength: 64)
            input.upgradesMaxAuthAge = try upgrades.int("max_auth_age")
            input.upgradesStepUp = try upgrades.string("step_up", maxLength: 64)
        }
        if let methods = try options.object("authentication_methods") {
            try methods.allowOnly(["password", "passkey"])
            if let password = try methods.object("password") {
                try password.allowOnly(["enabled"])
                input.passwordEnabled = try password.bool("enabled")
            }
            if let passkey = try methods.object("passkey") {
                try passkey.allowOnly(["enabled"])
                input.passkeyEnabled = try passkey.bool("enabled")
            }
        }
        if let passkey = try options.object("passkey_options") {
            try passkey.allowOnly([
                "challenge_ui", "progressive_enrollment_enabled", "local_enrollment_enabled", "user_verification",
                "min_os_versions", "device_key_grace_days", "enrollment_snooze_days", "attestation_requirement",
                "one_passkey_per_provider",
            ])
            if let versions = try passkey.object("min_os_versions") {
                try versions.allowOnly(["ios", "android", "ios_webview", "android_webview"])
                var parsed: [String: String] = [:]
                for name in ["ios", "android", "ios_webview", "android_webview"] {
                    if let value = try versions.string(name, maxLength: 32) { parsed[name] = value }
                }
                input.minOSVersions = parsed
            }
            input.deviceKeyGraceDays = try passkey.int("device_key_grace_days")
            input.enrollmentSnoozeDays = try passkey.int("enrollment_snooze_days")
            input.challengeUI = try passkey.string("challenge_ui", maxLength: 64)
            input.progressiveEnrollmentEnabled = try passkey.bool("progressive_enrollment_enabled")
            input.localEnrollmentEnabled = try passkey.bool("local_enrollment_enabled")
            input.onePasskeyPerProvider = try passkey.bool("one_passkey_per_provider")
            input.userVerification = try passkey.string("user_verification", maxLength: 64)
            input.attestationRequirement = try passkey.string("attestation_requirement", maxLength: 64)
        }
        if let attributes = try options.object("attributes") {
            try attributes.allowOnly(["email", "phone_number", "username"])
            for name in ["email", "phone_number", "username"] {
                guard let attribute = try attributes.object(name) else { continue }
                try attribute.allowOnly(["identifier", "signup"])
                var parsed = IdentifierAttributeInput()
                if let identifier = try attribute.object("identifier") {
                    try identifier.allowOnly(["active"])
                    parsed.active = try identifier.bool("active")
                }
                if let signup = try attribute.object("signup") {
                    try signup.allowOnly(["status"])
                    parsed.signupStatus = try signup.string("status", maxLength: 64)
                }
                input.attributes[name] = parsed
            }
        }
        if let complexity = try options.object("password_complexity_options") {
            try complexity.allowOnly(["min_length"])
            input.passwordMinLength = try complexity.int("min_length")
        }
        input.passwordPolicy = try options.string("passwordPolicy", maxLength: 64)
        if let policy = try options.object("password_policy") {
            try policy.allowOnly(["rules"])
            input.passwordRules = try policy.string("rules", maxLength: 4_096)
        }
        if let hashing = try options.object("password_hashing") {
            try hashing.allowOnly(["algorithm", "memory_cost", "time_cost", "parallelism"])
            if let algorithm = try hashing.string("algorithm", maxLength: 64), algorithm != "argon2id" {
                throw ServiceError.invalidRequest("options.password_hashing.algorithm must be argon2id")
            }
            input.passwordHashing = Argon2Input(
                memoryCost: try hashing.int("memory_cost"), timeCost: try hashing.int("time_cost"),
                parallelism: try hashing.int("parallelism"))
        }
        return input
    }
}

import Foundation
import SesameService
import SesameStore

/// `/api/v2/users` (docs/management-api.md), with the tenant-wide MFA, breached-password and outbox settings
/// an operator reads beside them.
struct UsersController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/users", handler: list)
        group.get("/api/v2/guardian/factors", handler: guardianFactors)
        group.put("/api/v2/guardian/factors/{name}", handler: setGuardianFactor)
        group.get("/api/v2/guardian/policies", handler: guardianPolicies)
        group.put("/api/v2/guardian/policies", handler: setGuardianPolicies)
        group.get("/api/v2/attack-protection/breached-password-detection", handler: breachedPasswordDetection)
        group.patch("/api/v2/attack-protection/breached-password-detection", handler: updateBreachedPasswordDetection)
        group.get("/api/v2/outbox", handler: outbox)
        group.post("/api/v2/users", handler: create)
        group.get("/api/v2/users/{id}", handler: read)
        group.patch("/api/v2/users/{id}", handler: update)
        group.delete("/api/v2/users/{id}", handler: delete)
        group.get("/api/v2/users/{id}/authentication-methods", handler: authenticationMethods)
        group.delete("/api/v2/users/{id}/authentication-methods/{method_id}", handler: deleteAuthenticationMethod)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readUsers)
        let query = request.query("q") ?? request.query("search")
        return try .noStoreJSON(management.listUsers(caller, query: query, try RequestInput.listRequest(request)))
    }

    func guardianFactors(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.factors(try managementCaller(context, .readGuardianFactors)))
    }

    func setGuardianFactor(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateGuardianFactors)
        let body = try APIBody.json(request)
        try body.allowOnly(["enabled"])
        let enabled = try management.setFactor(
            caller, name: try context.pathParameter("name"), enabled: try body.bool("enabled"))
        return try .noStoreJSON(["enabled": enabled])
    }

    func guardianPolicies(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.mfaPolicies(try managementCaller(context, .readMFAPolicies)))
    }

    func setGuardianPolicies(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateMFAPolicies)
        return try .noStoreJSON(management.setMFAPolicies(caller, try APIBody.jsonStrings(request)))
    }

    func breachedPasswordDetection(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.breachDetection(try managementCaller(context, .readAttackProtection)))
    }

    func updateBreachedPasswordDetection(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateAttackProtection)
        let body = try APIBody.json(request)
        try body.allowOnly(["enabled", "shields", "admin_notification_frequency", "method", "stage", "range_url"])
        var patch = BreachDetectionPatch(
            enabled: try body.bool("enabled"), shields: try body.strings("shields", maxCount: 8, maxLength: 64),
            adminNotificationFrequency: try body.strings(
                "admin_notification_frequency", maxCount: 8, maxLength: 64),
            method: try body.string("method", maxLength: 64),
            rangeURL: try body.nullableString("range_url", maxLength: 1_024))
        if let stage = try body.object("stage") {
            try stage.allowOnly(["pre-user-registration", "pre-change-password"])
            if let registration = try stage.object("pre-user-registration") {
                try registration.allowOnly(["shields"])
                patch.signupShields = try registration.strings("shields", maxCount: 8, maxLength: 64)
            }
            if let change = try stage.object("pre-change-password") {
                try change.allowOnly(["shields"])
                patch.changePasswordShields = try change.strings("shields", maxCount: 8, maxLength: 64)
            }
        }
        return try .noStoreJSON(management.updateBreachDetection(caller, patch))
    }

    func outbox(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readOutbox)
        return try .noStoreJSON(
            management.outbox(caller, to: request.query("to"), try RequestInput.listRequest(request)))
    }

    func create(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createUsers)
        let input = try Self.userCreation(try APIBody.json(request))
        return try .noStoreJSON(management.createUser(caller, input), status: 201)
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readUsers)
        return try .noStoreJSON(management.user(caller, id: try context.pathParameter("id")))
    }

    func update(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateUsers)
        let patch = try Self.userPatch(try APIBody.json(request))
        return try .noStoreJSON(management.updateUser(caller, id: try context.pathParameter("id"), patch))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteUsers)
        try management.deleteUser(caller, id: try context.pathParameter("id"))
        return .empty()
    }

    func authenticationMethods(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readAuthenticationMethods)
        return try .noStoreJSON(management.authenticationMethods(caller, userID: try context.pathParameter("id")))
    }

    func deleteAuthenticationMethod(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteAuthenticationMethods)
        try management.deleteAuthenticationMethod(
            caller, userID: try context.pathParameter("id"), methodID: try context.pathParameter("method_id"))
        return .empty()
    }

    /// A `POST /users` body (Auth0's fields; `custom_password_hash` for an import).
    static func userCreation(_ body: APIBody) throws -> UserCreation {
        try body.allowOnly(
            RequestInput.profileFields.union([
                "connection", "email_verified", "blocked", "user_metadata", "password", "custom_password_hash",
            ]))
        var input = UserCreation(
            connection: try body.string("connection", maxLength: 128),
            profile: SignupProfileInput(
                email: try body.string("email", maxLength: 254),
                phoneNumber: try body.string("phone_number", maxLength: 16),
                username: try body.string("username", maxLength: 128),
                attributes: try RequestInput.profileAttributes(body, nullIsAbsent: false)),
            emailVerified: try body.bool("email_verified"), blocked: try body.bool("blocked"),
            metadata: try body.object("user_metadata")?.stringMap() ?? [:],
            password: try body.string("password", maxLength: 4_096))
        if let custom = try body.object("custom_password_hash") {
            try custom.allowOnly(["algorithm", "hash", "salt", "password"])
            guard let algorithm = try custom.string("algorithm", maxLength: 64) else {
                throw ServiceError.invalidRequest("custom_password_hash.algorithm is required")
            }
            guard let hash = try custom.object("hash") else {
                throw ServiceError.invalidRequest("custom_password_hash.hash is required")
            }
            try hash.allowOnly(["value", "encoding"])
            guard let value = try hash.string("value", maxLength: 2_048) else {
                throw ServiceError.invalidRequest("custom_password_hash.hash.value is required")
            }
            var parsed = CustomPasswordHash(
                algorithm: algorithm, value: value, encoding: try hash.string("encoding", maxLength: 16))
            if let salt = try custom.object("salt") {
                try salt.allowOnly(["value", "encoding", "position"])
                guard let saltValue = try salt.string("value", maxLength: 2_048) else {
                    throw ServiceError.invalidRequest("custom_password_hash.salt.value is required")
                }
                parsed.salt = saltValue
                parsed.saltEncoding = try salt.string("encoding", maxLength: 16)
                parsed.saltPosition = try salt.string("position", maxLength: 16)
            }
            if let password = try custom.object("password") {
                try password.allowOnly(["encoding"])
                parsed.passwordEncoding = try password.string("encoding", maxLength: 16)
            }
            input.customPasswordHash = parsed
        }
        return input
    }

    static func userPatch(_ body: APIBody) throws -> UserPatch {
        try body.allowOnly(
            RequestInput.profileFields.union(["email_verified", "user_metadata", "blocked", "password", "connection"]))
        var patch = UserPatch(
            email: try body.nullableString("email", maxLength: 254), emailVerified: try body.bool("email_verified"),
            phoneNumber: try body.nullableString("phone_number", maxLength: 16),
            username: try body.nullableString("username", maxLength: 128), blocked: try body.bool("blocked"),
            password: try body.string("password", maxLength: 4_096),
            connection: try body.string("connection", maxLength: 128))
        patch.attributes = try RequestInput.profileAttributeChanges(body)
        if let metadata = try body.object("user_metadata") {
            patch.userMetadata = try metadata.nullableStringMap()
        }
        return patch
    }
}

import Foundation
import SesameService
import SesameStore
import SesameWire

/// `/api/v2/users` (docs/management-api.md), with the tenant-wide MFA, breached-password and outbox settings
/// an operator reads beside them.
struct UsersController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/users", query: Self.search + .list, handler: list)
        group.get("/api/v2/guardian/factors", handler: guardianFactors)
        group.put("/api/v2/guardian/factors/{name}", body: Self.factorChange, handler: setGuardianFactor)
        group.get("/api/v2/guardian/policies", handler: guardianPolicies)
        group.put("/api/v2/guardian/policies", body: Self.policies, handler: setGuardianPolicies)
        group.get("/api/v2/attack-protection/breached-password-detection", handler: breachedPasswordDetection)
        group.patch(
            "/api/v2/attack-protection/breached-password-detection", body: Self.breachDetectionChange,
            handler: updateBreachedPasswordDetection)
        group.get("/api/v2/outbox", query: Self.recipient + .list, handler: outbox)
        group.post("/api/v2/users", body: Self.creation, handler: create)
        group.get("/api/v2/users/{id}", handler: read)
        group.patch("/api/v2/users/{id}", body: Self.change, handler: update)
        group.delete("/api/v2/users/{id}", handler: delete)
        group.get("/api/v2/users/{id}/authentication-methods", handler: authenticationMethods)
        group.delete("/api/v2/users/{id}/authentication-methods/{method_id}", handler: deleteAuthenticationMethod)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readUsers)
        let query = request.query(Self.terms) ?? request.query(Self.searchTerms)
        return try .noStoreJSON(management.listUsers(caller, query: query, try RequestInput.listRequest(request)))
    }

    static let terms = WireField("q", .text(1_024))
    /// Auth0's older name for `q`.
    static let searchTerms = WireField("search", .text(1_024))
    static let search = RequestQuery([terms, searchTerms])

    func guardianFactors(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.factors(try managementCaller(context, .readGuardianFactors)))
    }

    static let factorChange = RequestBody.json([WireField("enabled", .boolean)])

    func setGuardianFactor(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws
        -> HTTPResponse
    {
        let caller = try managementCaller(context, .updateGuardianFactors)
        let body = try reader.read()
        let enabled = try management.setFactor(
            caller, name: try context.pathParameter("name"), enabled: try body.bool("enabled"))
        return try .noStoreJSON(["enabled": enabled])
    }

    func guardianPolicies(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.mfaPolicies(try managementCaller(context, .readMFAPolicies)))
    }

    /// Auth0's MFA policies: `[]` (enrolled users are asked) or `["all-applications"]`.
    static let policies = RequestBody.jsonArray(of: .oneOf(["all-applications"]), maxItems: 1)

    func setGuardianPolicies(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws
        -> HTTPResponse
    {
        let caller = try managementCaller(context, .updateMFAPolicies)
        return try .noStoreJSON(management.setMFAPolicies(caller, try reader.strings()))
    }

    func breachedPasswordDetection(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.breachDetection(try managementCaller(context, .readAttackProtection)))
    }

    /// Auth0's breached-password settings; each stage takes `block` and `admin_notification`.
    static let breachDetectionChange: RequestBody = {
        let stageShields = WireField("shields", .array(.oneOf(["block", "admin_notification"]), maxItems: 8))
        return RequestBody.json([
            WireField("enabled", .boolean),
            WireField("shields", .array(.vocabulary(BreachShield.self), maxItems: 8)),
            WireField(
                "admin_notification_frequency", .array(.vocabulary(BreachNotificationFrequency.self), maxItems: 4)),
            WireField("method", .vocabulary(BreachMethod.self)),
            WireField(
                "stage",
                .object(
                    WireObject([
                        WireField("pre-user-registration", .object(WireObject([stageShields]))),
                        WireField("pre-change-password", .object(WireObject([stageShields]))),
                    ]))),
            WireField("range_url", .string(maxLength: 512, format: "uri"), nullable: true),
        ])
    }()

    func updateBreachedPasswordDetection(
        _ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext
    ) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateAttackProtection)
        let body = try reader.read()
        var patch = BreachDetectionPatch(
            enabled: try body.bool("enabled"), shields: try body.strings("shields"),
            adminNotificationFrequency: try body.strings("admin_notification_frequency"),
            method: try body.string("method"), rangeURL: try body.nullableString("range_url"))
        if let stage = try body.object("stage") {
            patch.signupShields = try stage.object("pre-user-registration")?.strings("shields")
            patch.changePasswordShields = try stage.object("pre-change-password")?.strings("shields")
        }
        return try .noStoreJSON(management.updateBreachDetection(caller, patch))
    }

    func outbox(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readOutbox)
        return try .noStoreJSON(
            management.outbox(caller, to: request.query(Self.to), try RequestInput.listRequest(request)))
    }

    static let to = WireField("to", .text(320))
    static let recipient = RequestQuery([to])

    func create(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createUsers)
        let body = try reader.read()
        let input = try Self.userCreation(body)
        return try .noStoreJSON(management.createUser(caller, input), status: 201)
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readUsers)
        return try .noStoreJSON(management.user(caller, id: try context.pathParameter("id")))
    }

    func update(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateUsers)
        let body = try reader.read()
        let patch = try Self.userPatch(body)
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

    /// Auth0's `custom_password_hash`: an imported hash (docs/management-api.md has each algorithm's form).
    static let customPasswordHash: WireField = {
        /// A hash's or a salt's bytes, and how they are written.
        let encoded = [
            WireField("value", .text(2_048)).required, WireField("encoding", .oneOf(["utf8", "hex", "base64"])),
        ]
        return WireField(
            "custom_password_hash",
            .object(
                WireObject([
                    WireField("algorithm", .oneOf(["bcrypt", "argon2", "pbkdf2", "sha256"])).required,
                    WireField("hash", .object(WireObject(encoded))).required,
                    WireField(
                        "salt", .object(WireObject(encoded + [WireField("position", .oneOf(["prefix", "suffix"]))]))),
                    WireField("password", .object(WireObject([WireField("encoding", .oneOf(["utf8"]))]))),
                ])))
    }()
    static let password = WireField("password", .string(maxLength: 4_096, minLength: 1))

    /// A `POST /users` body (Auth0's fields): a password, or `custom_password_hash` for an import.
    static let creation: RequestBody = {
        let shared =
            RequestInput.profileFields(nullable: false) + [
                WireField("connection", .text(128)).required, WireField("email_verified", .boolean),
                WireField("blocked", .boolean), RequestInput.metadata,
            ]
        var body = RequestBody.json(shared + [password, customPasswordHash])
        body.variants = [
            WireObject(shared + [password.requiredByService], description: "A user with a password."),
            WireObject(shared + [customPasswordHash.requiredByService], description: "An imported password hash."),
        ]
        return body
    }()

    /// A `PATCH /users/{id}` body: null removes a profile field or a metadata key.
    static let change = RequestBody.json(
        RequestInput.profileFields(nullable: true) + [
            WireField("email_verified", .boolean), WireField("blocked", .boolean), password,
            WireField("connection", .text(128)),
            WireField(
                "user_metadata",
                .map(.characters(500), maxMembers: 10, nullableValues: true, keys: SignupFields.metadataKey)),
        ])

    static func userCreation(_ body: APIBody) throws -> UserCreation {
        var input = UserCreation(
            connection: try body.string("connection"),
            profile: SignupProfileInput(
                email: try body.string("email"), phoneNumber: try body.string("phone_number"),
                username: try body.string("username"),
                attributes: try RequestInput.profileAttributes(body, nullIsAbsent: false)),
            emailVerified: try body.bool("email_verified"), blocked: try body.bool("blocked"),
            metadata: try body.object("user_metadata")?.stringMap() ?? [:], password: try body.string("password"))
        if let custom = try body.object("custom_password_hash"), let hash = try custom.object("hash") {
            var parsed = CustomPasswordHash(
                algorithm: try custom.requiredString("algorithm"), value: try hash.requiredString("value"),
                encoding: try hash.string("encoding"))
            if let salt = try custom.object("salt") {
                parsed.salt = try salt.requiredString("value")
                parsed.saltEncoding = try salt.string("encoding")
                parsed.saltPosition = try salt.string("position")
            }
            parsed.passwordEncoding = try custom.object("password")?.string("encoding")
            input.customPasswordHash = parsed
        }
        return input
    }

    static func userPatch(_ body: APIBody) throws -> UserPatch {
        var patch = UserPatch(
            email: try body.nullableString("email"), emailVerified: try body.bool("email_verified"),
            phoneNumber: try body.nullableString("phone_number"), username: try body.nullableString("username"),
            blocked: try body.bool("blocked"), password: try body.string("password"),
            connection: try body.string("connection"))
        patch.attributes = try RequestInput.profileAttributeChanges(body)
        if let metadata = try body.object("user_metadata") {
            patch.userMetadata = try metadata.nullableStringMap()
        }
        return patch
    }
}

import Foundation
import SesameService
import SesameStore

extension SesameApplication {
    /// `/api/v2` (docs/management-api.md). Each route checks the bearer token and its scope before it reads the body.
    func addManagementRoutes(to router: inout RouteGroup<PrincipalContext>) {
        addClientRoutes(to: &router)
        addConnectionRoutes(to: &router)
        addUserRoutes(to: &router)
        addTenantRoutes(to: &router)
    }

    /// The authorized caller of a management request.
    func managementCaller(_ context: PrincipalContext, _ scope: ManagementScope) throws -> ManagementCaller {
        try management.authorize(context.principal, tenant: context.tenant, scope: scope)
    }

    /// Auth0's list parameters: `page`, `per_page`, `include_totals`.
    static func listRequest(_ request: HTTPRequest) throws -> ListRequest {
        var list = ListRequest()
        if let page = request.query("page") {
            guard let value = Int(page) else { throw ServiceError.invalidRequest("page must be an integer") }
            list.page = value
        }
        if let perPage = request.query("per_page") {
            guard let value = Int(perPage) else { throw ServiceError.invalidRequest("per_page must be an integer") }
            list.perPage = value
        }
        if let totals = request.query("include_totals") {
            guard totals == "true" || totals == "false" else {
                throw ServiceError.invalidRequest("include_totals must be true or false")
            }
            list.includeTotals = totals == "true"
        }
        return list
    }

    // MARK: Clients

    private func addClientRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/clients") { [self] request, context in
            let caller = try managementCaller(context, .readClients)
            return try .noStoreJSON(management.listClients(caller, try Self.listRequest(request)))
        }
        router.post("/api/v2/clients") { [self] request, context in
            let caller = try managementCaller(context, .createClients)
            let input = try Self.clientInput(try APIBody.json(request))
            return try .noStoreJSON(management.createClient(caller, input), status: 201)
        }
        router.get("/api/v2/clients/{id}") { [self] request, context in
            let caller = try managementCaller(context, .readClients)
            return try .noStoreJSON(management.client(caller, id: try context.pathParameter("id")))
        }
        router.patch("/api/v2/clients/{id}") { [self] request, context in
            let caller = try managementCaller(context, .updateClients)
            let input = try Self.clientInput(try APIBody.json(request))
            return try .noStoreJSON(management.updateClient(caller, id: try context.pathParameter("id"), input))
        }
        router.delete("/api/v2/clients/{id}") { [self] request, context in
            let caller = try managementCaller(context, .deleteClients)
            try management.deleteClient(caller, id: try context.pathParameter("id"))
            return .empty()
        }
        router.post("/api/v2/clients/{id}/rotate-secret") { [self] request, context in
            let caller = try managementCaller(context, .updateClientKeys)
            return try .noStoreJSON(management.rotateClientSecret(caller, id: try context.pathParameter("id")))
        }
    }

    /// `PATCH /branding`: `colors.primary`, `colors.page_background`, `logo_url` (null removes),
    /// and `texts` (`{"login.title": {"en": …, "ja": …}}`, replacing every override).
    static func brandingPatch(_ body: APIBody) throws -> BrandingPatch {
        try body.allowOnly(["colors", "logo_url", "texts"])
        var patch = BrandingPatch()
        if let colors = try body.object("colors") {
            try colors.allowOnly(["primary", "page_background"])
            patch.primaryColor = try colors.nullableString("primary", maxLength: 16)
            patch.pageBackground = try colors.nullableString("page_background", maxLength: 16)
        }
        patch.logoURL = try body.nullableString("logo_url", maxLength: 2_048)
        if let texts = try body.object("texts") {
            var map: [String: [String: String]] = [:]
            for name in texts.memberNames.prefix(32) {
                guard let languages = try texts.object(name) else { continue }
                map[name] = try languages.stringMap(maxLength: 1_024)
            }
            patch.texts = map
        }
        return patch
    }

    static func clientInput(_ body: APIBody) throws -> ClientInput {
        try body.allowOnly([
            "name", "app_type", "grant_types", "callbacks", "allowed_logout_urls", "allowed_origins", "is_first_party",
            "token_endpoint_auth_method", "jwt_configuration", "mobile",
        ])
        var input = ClientInput(
            name: try body.string("name", maxLength: 1_024), appType: try body.string("app_type", maxLength: 64),
            grantTypes: try body.strings("grant_types", maxCount: 20, maxLength: 256),
            callbacks: try body.strings("callbacks"), allowedOrigins: try body.strings("allowed_origins"),
            isFirstParty: try body.bool("is_first_party"),
            tokenEndpointAuthMethod: try body.string("token_endpoint_auth_method", maxLength: 64))
        input.allowedLogoutURLs = try body.strings("allowed_logout_urls")
        if let jwt = try body.object("jwt_configuration") {
            try jwt.allowOnly(["alg"])
            input.jwtAlgorithm = try jwt.string("alg", maxLength: 16)
        }
        switch try body.nullableObject("mobile") {
        case .keep: break
        case .remove:
            input.ios = .remove
            input.android = .remove
        case .set(let mobile):
            try mobile.allowOnly(["ios", "android"])
            switch try mobile.nullableObject("ios") {
            case .keep: break
            case .remove: input.ios = .remove
            case .set(let ios):
                try ios.allowOnly(["team_id", "app_bundle_identifier"])
                input.ios = .set(
                    IOSAppInput(
                        teamID: try ios.string("team_id", maxLength: 64),
                        bundleIdentifier: try ios.string("app_bundle_identifier", maxLength: 256)))
            }
            switch try mobile.nullableObject("android") {
            case .keep: break
            case .remove: input.android = .remove
            case .set(let android):
                try android.allowOnly(["app_package_name", "sha256_cert_fingerprints"])
                input.android = .set(
                    AndroidAppInput(
                        packageName: try android.string("app_package_name", maxLength: 256),
                        sha256CertFingerprints: try android.strings(
                            "sha256_cert_fingerprints", maxCount: 20, maxLength: 128)))
            }
        }
        return input
    }

    // MARK: Connections

    private func addConnectionRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/connections") { [self] request, context in
            let caller = try managementCaller(context, .readConnections)
            return try .noStoreJSON(management.listConnections(caller, try Self.listRequest(request)))
        }
        router.post("/api/v2/connections") { [self] request, context in
            let caller = try managementCaller(context, .createConnections)
            let input = try Self.connectionInput(try APIBody.json(request), creating: true)
            return try .noStoreJSON(management.createConnection(caller, input), status: 201)
        }
        router.get("/api/v2/connections/{id}") { [self] request, context in
            let caller = try managementCaller(context, .readConnections)
            return try .noStoreJSON(management.connection(caller, id: try context.pathParameter("id")))
        }
        router.patch("/api/v2/connections/{id}") { [self] request, context in
            let caller = try managementCaller(context, .updateConnections)
            let input = try Self.connectionInput(try APIBody.json(request), creating: false)
            return try .noStoreJSON(management.updateConnection(caller, id: try context.pathParameter("id"), input))
        }
        router.delete("/api/v2/connections/{id}") { [self] request, context in
            let caller = try managementCaller(context, .deleteConnections)
            try management.deleteConnection(caller, id: try context.pathParameter("id"))
            return .empty()
        }
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

    // MARK: Users

    private func addUserRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/users") { [self] request, context in
            let caller = try managementCaller(context, .readUsers)
            let query = request.query("q") ?? request.query("search")
            return try .noStoreJSON(management.listUsers(caller, query: query, try Self.listRequest(request)))
        }
        router.get("/api/v2/guardian/factors") { [self] request, context in
            try .noStoreJSON(management.factors(try managementCaller(context, .readGuardianFactors)))
        }
        router.put("/api/v2/guardian/factors/{name}") { [self] request, context in
            let caller = try managementCaller(context, .updateGuardianFactors)
            let body = try APIBody.json(request)
            try body.allowOnly(["enabled"])
            let enabled = try management.setFactor(
                caller, name: try context.pathParameter("name"), enabled: try body.bool("enabled"))
            return try .noStoreJSON(["enabled": enabled])
        }
        router.get("/api/v2/guardian/policies") { [self] request, context in
            try .noStoreJSON(management.mfaPolicies(try managementCaller(context, .readMFAPolicies)))
        }
        router.put("/api/v2/guardian/policies") { [self] request, context in
            let caller = try managementCaller(context, .updateMFAPolicies)
            return try .noStoreJSON(management.setMFAPolicies(caller, try APIBody.jsonStrings(request)))
        }
        router.get("/api/v2/attack-protection/breached-password-detection") { [self] request, context in
            try .noStoreJSON(management.breachDetection(try managementCaller(context, .readAttackProtection)))
        }
        router.patch("/api/v2/attack-protection/breached-password-detection") { [self] request, context in
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
        router.get("/api/v2/outbox") { [self] request, context in
            let caller = try managementCaller(context, .readOutbox)
            return try .noStoreJSON(management.outbox(caller, to: request.query("to"), try Self.listRequest(request)))
        }
        router.post("/api/v2/users") { [self] request, context in
            let caller = try managementCaller(context, .createUsers)
            let input = try Self.userCreation(try APIBody.json(request))
            return try .noStoreJSON(management.createUser(caller, input), status: 201)
        }
        router.get("/api/v2/users/{id}") { [self] request, context in
            let caller = try managementCaller(context, .readUsers)
            return try .noStoreJSON(management.user(caller, id: try context.pathParameter("id")))
        }
        router.patch("/api/v2/users/{id}") { [self] request, context in
            let caller = try managementCaller(context, .updateUsers)
            let patch = try Self.userPatch(try APIBody.json(request))
            return try .noStoreJSON(management.updateUser(caller, id: try context.pathParameter("id"), patch))
        }
        router.delete("/api/v2/users/{id}") { [self] request, context in
            let caller = try managementCaller(context, .deleteUsers)
            try management.deleteUser(caller, id: try context.pathParameter("id"))
            return .empty()
        }
        router.get("/api/v2/users/{id}/authentication-methods") { [self] request, context in
            let caller = try managementCaller(context, .readAuthenticationMethods)
            return try .noStoreJSON(management.authenticationMethods(caller, userID: try context.pathParameter("id")))
        }
        router.delete("/api/v2/users/{id}/authentication-methods/{method_id}") { [self] request, context in
            let caller = try managementCaller(context, .deleteAuthenticationMethods)
            try management.deleteAuthenticationMethod(
                caller, userID: try context.pathParameter("id"), methodID: try context.pathParameter("method_id"))
            return .empty()
        }
    }

    /// A `POST /users` body (Auth0's fields; `custom_password_hash` for an import).
    static func userCreation(_ body: APIBody) throws -> UserCreation {
        try body.allowOnly(
            profileFields.union([
                "connection", "email_verified", "blocked", "user_metadata", "password", "custom_password_hash",
            ]))
        var input = UserCreation(
            connection: try body.string("connection", maxLength: 128),
            profile: SignupProfileInput(
                email: try body.string("email", maxLength: 254),
                phoneNumber: try body.string("phone_number", maxLength: 16),
                username: try body.string("username", maxLength: 128), name: try body.string("name"),
                givenName: try body.string("given_name"), familyName: try body.string("family_name"),
                nickname: try body.string("nickname"), picture: try body.string("picture")),
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
        try body.allowOnly([
            "email", "email_verified", "phone_number", "username", "name", "given_name", "family_name", "nickname",
            "picture", "user_metadata", "blocked", "password", "connection",
        ])
        var patch = UserPatch(
            email: try body.nullableString("email", maxLength: 254), emailVerified: try body.bool("email_verified"),
            phoneNumber: try body.nullableString("phone_number", maxLength: 16),
            username: try body.nullableString("username", maxLength: 128), name: try body.nullableString("name"),
            givenName: try body.nullableString("given_name"), familyName: try body.nullableString("family_name"),
            nickname: try body.nullableString("nickname"), picture: try body.nullableString("picture"),
            blocked: try body.bool("blocked"), password: try body.string("password", maxLength: 4_096),
            connection: try body.string("connection", maxLength: 128))
        if let metadata = try body.object("user_metadata") {
            patch.userMetadata = try metadata.nullableStringMap()
        }
        return patch
    }

    // MARK: Tenant

    private func addTenantRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/tenant/settings") { [self] request, context in
            let caller = try managementCaller(context, .readTenantSettings)
            return try .noStoreJSON(management.tenantSettings(caller))
        }
        router.patch("/api/v2/tenant/settings") { [self] request, context in
            let caller = try managementCaller(context, .updateTenantSettings)
            let patch = try Self.tenantSettingsPatch(try APIBody.json(request))
            return try .noStoreJSON(management.updateTenantSettings(caller, patch))
        }
        router.get("/api/v2/branding") { [self] _, context in
            try .noStoreJSON(management.branding(try managementCaller(context, .readTenantSettings)))
        }
        router.patch("/api/v2/branding") { [self] request, context in
            let caller = try managementCaller(context, .updateTenantSettings)
            return try .noStoreJSON(
                management.updateBranding(caller, try Self.brandingPatch(try APIBody.json(request))))
        }
        router.post("/api/v2/keys/signing/rotate") { [self] request, context in
            let caller = try managementCaller(context, .updateTenantSettings)
            return try .noStoreJSON(management.rotateSigningKeys(caller), status: 201)
        }
    }

    static func tenantSettingsPatch(_ body: APIBody) throws -> TenantSettingsPatch {
        for fixed in ["domain", "issuer"] where body.has(fixed) {
            throw ServiceError.invalidRequest("\(fixed) is read-only")
        }
        try body.allowOnly([
            "friendly_name", "custom_domains", "rp_id", "allowed_origins", "related_origins", "default_connection",
            "access_token_lifetime", "id_token_lifetime", "refresh_token_lifetime", "refresh_token_idle_lifetime",
            "session_lifetime", "idle_session_lifetime", "audit_log_retention_days", "deleted_passkey_retention_days",
            "flags",
        ])
        var flag: Bool?
        if let flags = try body.object("flags") {
            try flags.allowOnly(["enable_public_signup_user_exists_error"])
            flag = try flags.bool("enable_public_signup_user_exists_error")
        }
        var patch = TenantSettingsPatch(
            friendlyName: try body.string("friendly_name", maxLength: 1_024),
            customDomains: try body.strings("custom_domains", maxCount: 20, maxLength: 253),
            rpID: try body.string("rp_id", maxLength: 253), allowedOrigins: try body.strings("allowed_origins"),
            relatedOrigins: try body.strings("related_origins"),
            defaultConnection: try body.string("default_connection", maxLength: 128),
            accessTokenLifetime: try body.int("access_token_lifetime"),
            idTokenLifetime: try body.int("id_token_lifetime"),
            refreshTokenLifetime: try body.int("refresh_token_lifetime"),
            refreshTokenIdleLifetime: try body.int("refresh_token_idle_lifetime"),
            enablePublicSignupUserExistsError: flag)
        patch.sessionLifetime = try body.int("session_lifetime")
        patch.idleSessionLifetime = try body.int("idle_session_lifetime")
        patch.auditLogRetentionDays = try body.int("audit_log_retention_days")
        patch.deletedPasskeyRetentionDays = try body.int("deleted_passkey_retention_days")
        return patch
    }
}

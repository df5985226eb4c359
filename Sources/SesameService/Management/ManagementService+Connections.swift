import Foundation
import SesameStore
import SesameWire

/// `/api/v2/connections`.
extension ManagementService {
    public static let signupStatuses = ["required", "optional", "inactive"]
    static let identifierNames = ["email", "phone_number", "username"]
    /// Auth0's password policy levels and the minimum length each implies here.
    public static let passwordPolicies: [(String, Int)] = [
        ("none", 1), ("low", 6), ("fair", 8), ("good", 8), ("excellent", 10),
    ]
    public static let passwordLengths = 1...128
    /// The longest rules string a connection may hold.
    public static let maxRulesLength = 1_024

    /// A rules string as a connection may hold it: clean by `PasswordRulesParser.problems`.
    static func passwordRules(_ text: String) throws(ServiceError) -> String {
        guard text.utf8.count <= maxRulesLength else {
            throw .invalidRequest("options.password_policy.rules is longer than \(maxRulesLength) bytes")
        }
        if let problem = PasswordRulesParser.problems(text).first {
            throw .invalidRequest("options.password_policy.rules: \(problem)")
        }
        return text
    }

    /// OWASP's Argon2id rows (memory in KiB, iterations): each of equal strength. A connection's
    /// parameters must reach at least one row.
    static let owaspArgon2 = [(47_104, 1), (19_456, 2), (12_288, 3), (9_216, 4), (7_168, 5)]
    /// The most memory one hash may take (each of the concurrent hashes takes this much).
    public static let maxHashMemoryKiB = 262_144

    static func hashing(_ input: Argon2Input, over current: Argon2Parameters) throws(ServiceError) -> Argon2Parameters {
        typealias V = ManagementValidation
        var parameters = current
        if let memory = input.memoryCost {
            parameters.memoryKiB = try V.bounded(
                memory, "options.password_hashing.memory_cost", 7_168...maxHashMemoryKiB)
        }
        if let time = input.timeCost {
            parameters.iterations = try V.bounded(time, "options.password_hashing.time_cost", 1...16)
        }
        if let lanes = input.parallelism {
            parameters.parallelism = try V.bounded(lanes, "options.password_hashing.parallelism", 1...8)
        }
        guard owaspArgon2.contains(where: { parameters.memoryKiB >= $0.0 && parameters.iterations >= $0.1 }) else {
            throw .invalidRequest(
                "options.password_hashing is weaker than OWASP's Argon2id minimum (memory_cost 19456 with time_cost 2, "
                    + "or an equal row)")
        }
        return parameters
    }

    /// `GET /connections`.
    public func listConnections(
        _ caller: ManagementCaller, _ list: ListRequest
    ) throws(ServiceError) -> ManagedList<ManagedConnection> {
        try caller.require(.readConnections)
        let list = try list.validated()
        let tenant = caller.tenant
        let (items, total) = try access.read { transaction in
            try Self.page(list) { try transaction.connections.list(tenantID: tenant.id, page: $0) }
        }
        return ManagedList(
            name: "connections",
            items: items.map { ManagedConnection($0, isDefault: $0.id == tenant.defaultConnectionID) },
            start: list.page * list.perPage, limit: list.perPage, total: total)
    }

    /// `GET /connections/{id}`.
    public func connection(_ caller: ManagementCaller, id: String) throws(ServiceError) -> ManagedConnection {
        try caller.require(.readConnections)
        let (record, isDefault) = try access.read { try Self.existingConnection(id, caller, $0) }
        return ManagedConnection(record, isDefault: isDefault)
    }

    /// `POST /connections`.
    public func createConnection(
        _ caller: ManagementCaller, _ input: ConnectionInput
    ) throws(ServiceError) -> ManagedConnection {
        try caller.require(.createConnections)
        guard input.name != nil else { throw .invalidRequest("name is required") }
        let now = clock.now()
        let blank = ConnectionRecord(
            tenantID: caller.tenant.id, id: "con_" + Hex.lowercase(try random.serviceBytes(16)), name: "",
            createdAt: now, updatedAt: now)
        let record = try apply(input, to: blank)
        try access.write(.durable) { transaction in
            try Self.requireClients(record.enabledClients, caller, transaction)
            if try transaction.connections.get(tenantID: caller.tenant.id, name: record.name) != nil {
                throw ServiceError.conflict("a connection named \(record.name) already exists")
            }
            try transaction.connections.insert(record)
        }
        return ManagedConnection(record, isDefault: false)
    }

    /// `PATCH /connections/{id}`. Read, merge and write happen in one transaction, so a concurrent
    /// change to another field is never undone.
    public func updateConnection(
        _ caller: ManagementCaller, id: String, _ input: ConnectionInput
    ) throws(ServiceError) -> ManagedConnection {
        try caller.require(.updateConnections)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            let (existing, isDefault) = try Self.existingConnection(id, caller, transaction)
            var record = try apply(input, to: existing)
            record.updatedAt = now
            try Self.requireClients(record.enabledClients, caller, transaction)
            if let named = try transaction.connections.get(tenantID: caller.tenant.id, name: record.name),
                named.id != id
            {
                throw ServiceError.conflict("a connection named \(record.name) already exists")
            }
            try transaction.connections.update(record)
            return ManagedConnection(record, isDefault: isDefault)
        }
    }

    /// `DELETE /connections/{id}`: deletes the connection with its users; the default one → 409.
    public func deleteConnection(_ caller: ManagementCaller, id: String) throws(ServiceError) {
        try caller.require(.deleteConnections)
        let now = clock.now()
        try access.write(.durable) { transaction in
            let (connection, _) = try Self.existingConnection(id, caller, transaction)
            let tenant = try transaction.tenants.get(id: caller.tenant.id)
            if tenant?.defaultConnectionID == connection.id {
                throw ServiceError.conflict(
                    "this is the tenant's default connection; make another the default (PATCH /tenant/settings) first")
            }
            let users = try Page.all { try transaction.users.search(tenantID: caller.tenant.id, query: nil, page: $0) }
            for user in users where user.connectionID == connection.id {
                try transaction.refreshTokens.revokeAll(tenantID: caller.tenant.id, userID: user.id, at: now)
                try transaction.users.delete(tenantID: caller.tenant.id, id: user.id)
            }
            try transaction.connections.delete(tenantID: caller.tenant.id, id: id)
        }
    }

    // MARK: Helpers

    /// The connection and whether it is the tenant's default (read from the store, not the caller's copy).
    static func existingConnection(
        _ id: String, _ caller: ManagementCaller, _ transaction: any StoreTransaction
    ) throws -> (ConnectionRecord, Bool) {
        guard id.utf8.count <= 128, let connection = try transaction.connections.get(tenantID: caller.tenant.id, id: id)
        else {
            throw ServiceError.notFound("no connection with this id")
        }
        let tenant = try transaction.tenants.get(id: caller.tenant.id)
        return (connection, tenant?.defaultConnectionID == connection.id)
    }

    static func requireClients(
        _ ids: [String], _ caller: ManagementCaller, _ transaction: any StoreTransaction
    ) throws {
        for (index, id) in ids.enumerated() where try transaction.clients.get(tenantID: caller.tenant.id, id: id) == nil
        {
            throw ServiceError.invalidRequest("enabled_clients[\(index)] is not a client of this tenant")
        }
    }

    /// Auth0 connection names: letters, digits and hyphens, 1–128, no hyphen at either end.
    static func connectionName(_ value: String) throws(ServiceError) -> String {
        let valid =
            !value.isEmpty && value.utf8.count <= 128 && !value.hasPrefix("-") && !value.hasSuffix("-")
            && value.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
        guard valid else {
            throw .invalidRequest("name must be 1 to 128 letters, digits or hyphens, not starting or ending with one")
        }
        return value
    }

    func apply(_ input: ConnectionInput, to original: ConnectionRecord) throws(ServiceError) -> ConnectionRecord {
        typealias V = ManagementValidation
        var record = original
        if let name = input.name { record.name = try Self.connectionName(name) }
        if let strategy = input.strategy {
            guard let value = ConnectionStrategy(rawValue: strategy) else {
                throw .invalidRequest("strategy must be auth0 (a database connection) or apple (Sign in with Apple)")
            }
            record.strategy = value
            if value == .apple {
                // A social connection holds no users: no passwords, no passkeys of its own.
                record.password.enabled = false
                record.passkey.enabled = false
                record.apple = record.apple ?? AppleSettings()
            }
        }
        if record.strategy == .apple {
            return try applyApple(input, to: record)
        }
        guard input.apple == nil else {
            throw .invalidRequest("team_id, kid, app_id and app_secret are options of an apple connection")
        }
        if let allowed = input.upgradesAllowed {
            var types: [UpgradeType] = []
            for (index, value) in allowed.enumerated() {
                let type = try V.oneOf(value, "options.upgrades.allowed[\(index)]", as: UpgradeType.self)
                if !types.contains(type) { types.append(type) }
            }
            record.upgrades.allowed = types
        }
        if let age = input.upgradesMaxAuthAge {
            record.upgrades.maxAuthAge = try V.bounded(age, "options.upgrades.max_auth_age", 0...86_400)
        }
        if let value = input.upgradesStepUp {
            record.upgrades.stepUp = try V.oneOf(value, "options.upgrades.step_up", as: StepUpRule.self)
        }
        if let enabled = input.passwordEnabled { record.password.enabled = enabled }
        if let enabled = input.passkeyEnabled { record.passkey.enabled = enabled }
        if let value = input.challengeUI {
            record.passkey.challengeUI = try V.oneOf(
                value, "options.passkey_options.challenge_ui", as: ChallengeUI.self)
        }
        if let value = input.progressiveEnrollmentEnabled { record.passkey.progressiveEnrollmentEnabled = value }
        if let value = input.localEnrollmentEnabled { record.passkey.localEnrollmentEnabled = value }
        if let value = input.onePasskeyPerProvider { record.passkey.onePerProvider = value }
        if let value = input.userVerification {
            record.passkey.userVerification = try V.oneOf(
                value, "options.passkey_options.user_verification", as: UserVerificationPolicy.self)
        }
        if let value = input.attestationRequirement {
            record.passkey.attestationRequirement = try V.oneOf(
                value, "options.passkey_options.attestation_requirement", as: AttestationRequirement.self)
        }
        if let versions = input.minOSVersions {
            var migration = record.passkey.migration
            for (platform, version) in versions {
                let field = "options.passkey_options.min_os_versions.\(platform.prefix(32))"
                guard OSVersion(version) != nil else { throw .invalidRequest("\(field) must look like 16.4 or 9") }
                switch platform {
                case "ios": migration.minIOSVersion = version
                case "android": migration.minAndroidVersion = version
                case "ios_webview": migration.minIOSWebViewVersion = version
                case "android_webview": migration.minAndroidWebViewVersion = version
                default:
                    throw .invalidRequest(
                        "options.passkey_options.min_os_versions takes ios, android, ios_webview and android_webview")
                }
            }
            record.passkey.migration = migration
        }
        if let days = input.deviceKeyGraceDays {
            record.passkey.migration.deviceKeyGraceDays = try V.bounded(
                days, "options.passkey_options.device_key_grace_days", 0...3_650)
        }
        if let days = input.enrollmentSnoozeDays {
            record.passkey.migration.promptSnoozeDays = try V.bounded(
                days, "options.passkey_options.enrollment_snooze_days", 1...3_650)
        }
        if let rules = input.passwordRules {
            record.password.rules = try Self.passwordRules(rules)
        }
        // Auth0's older length fields edit the rules' minlength (the string is then canonical).
        var minLength: Int?
        if let level = input.passwordPolicy {
            guard let length = Self.passwordPolicies.first(where: { $0.0 == level })?.1 else {
                throw .invalidRequest(
                    "options.passwordPolicy must be one of \(Self.passwordPolicies.map(\.0).joined(separator: ", "))")
            }
            minLength = length
        }
        if let length = input.passwordMinLength {
            minLength = try V.bounded(length, "options.password_complexity_options.min_length", Self.passwordLengths)
        }
        if let minLength {
            var rules = PasswordRulesParser.parse(record.password.rules).rules
            rules.minLength = minLength
            if let maxLength = rules.maxLength, maxLength < minLength { rules.maxLength = minLength }
            record.password.rules = rules.canonical
        }
        if let hashing = input.passwordHashing {
            record.password.hashing = try Self.hashing(hashing, over: record.password.hashing)
        }
        for (name, attribute) in input.attributes.sorted(by: { $0.key < $1.key }) {
            let field = "options.attributes.\(name)"
            guard Self.identifierNames.contains(name) else {
                throw .invalidRequest("\(field) is not an identifier (email, phone_number or username)")
            }
            let current: IdentifierRule
            switch name {
            case "email": current = record.identifiers.email
            case "phone_number": current = record.identifiers.phoneNumber
            default: current = record.identifiers.username
            }
            let rule = try Self.rule(attribute, current: current, field: field)
            switch name {
            case "email": record.identifiers.email = rule
            case "phone_number": record.identifiers.phoneNumber = rule
            default: record.identifiers.username = rule
            }
        }
        let rules = [record.identifiers.email, record.identifiers.phoneNumber, record.identifiers.username]
        guard rules.contains(where: { $0 != .disabled }) else {
            throw .invalidRequest("options.attributes must leave at least one identifier active")
        }
        if let clients = input.enabledClients {
            record.enabledClients = try Self.enabledClients(clients)
        }
        return record
    }

    /// An `apple` connection's options over `original`: only they and `enabled_clients` apply. The
    /// `.p8` key is checked to be a P-256 private key and sealed; it is never returned.
    func applyApple(_ input: ConnectionInput, to original: ConnectionRecord) throws(ServiceError) -> ConnectionRecord {
        typealias V = ManagementValidation
        let databaseOnly: [Any?] = [
            input.passwordEnabled, input.passkeyEnabled, input.challengeUI, input.progressiveEnrollmentEnabled,
            input.localEnrollmentEnabled, input.userVerification, input.passwordMinLength, input.passwordPolicy,
            input.passwordRules, input.passwordHashing, input.minOSVersions, input.deviceKeyGraceDays,
            input.enrollmentSnoozeDays, input.upgradesAllowed, input.upgradesMaxAuthAge, input.upgradesStepUp,
            input.attestationRequirement, input.onePasskeyPerProvider,
        ]
        guard databaseOnly.allSatisfy({ $0 == nil }), input.attributes.isEmpty else {
            throw .invalidRequest(
                "an apple connection takes team_id, kid, client_id, app_id, app_secret, issuer, "
                    + "jwks_uri and token_endpoint as options")
        }
        var record = original
        var apple = record.apple ?? AppleSettings()
        let enabledClients = input.enabledClients
        let input = input.apple ?? AppleInput()
        if let value = input.teamID { apple.teamID = try Self.appleIdentifier(value, "options.team_id") }
        if let value = input.keyID { apple.keyID = try Self.appleIdentifier(value, "options.kid") }
        if let value = input.servicesID {
            apple.servicesID = value.isEmpty ? nil : try Self.bundleID(value, "options.client_id")
        }
        if let values = input.appIDs {
            apple.appIDs = try V.list(values, "options.app_id", max: 50) { value, field throws(ServiceError) in
                try Self.bundleID(value, field)
            }
        }
        if let value = input.issuer { apple.issuer = try Self.appleURL(value, "options.issuer") }
        if let value = input.keysURL { apple.keysURL = try Self.appleURL(value, "options.jwks_uri") }
        if let value = input.tokenURL { apple.tokenURL = try Self.appleURL(value, "options.token_endpoint") }
        if let value = input.authorizeURL {
            apple.authorizeURL = try Self.appleURL(value, "options.authorization_endpoint")
        }
        if let pem = input.secret {
            apple.sealedKey = try appleKeys.seal(
                pem: pem, tenantID: record.tenantID, connectionID: record.id, random: random)
        }
        record.apple = apple
        if let clients = enabledClients {
            record.enabledClients = try Self.enabledClients(clients)
        }
        return record
    }

    /// A Team ID or Key ID: 1 to 64 letters and digits (Apple's are 10).
    static func appleIdentifier(_ value: String, _ field: String) throws(ServiceError) -> String {
        guard !value.isEmpty, value.utf8.count <= 64,
            value.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        else { throw .invalidRequest("\(field) must be 1 to 64 letters and digits") }
        return value
    }

    /// A bundle ID or Services ID: reverse-DNS letters, digits, hyphens and dots.
    static func bundleID(_ value: String, _ field: String) throws(ServiceError) -> String {
        guard !value.isEmpty, value.utf8.count <= 255,
            value.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == ".")
            })
        else { throw .invalidRequest("\(field) must be a bundle ID such as com.example.app") }
        return value
    }

    /// An https URL, or an http one on loopback (a local fake of Apple's service).
    static func appleURL(_ value: String, _ field: String) throws(ServiceError) -> String {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)),
            value.utf8.count <= 2_048
        else { throw .invalidRequest("\(field) must be an https URL (or http on localhost)") }
        return value
    }

    /// `enabled_clients`: at most 1,000 client ids (checked against the tenant in the write).
    static func enabledClients(_ clients: [String]) throws(ServiceError) -> [String] {
        try ManagementValidation.list(clients, "enabled_clients", max: 1_000) { value, field throws(ServiceError) in
            guard !value.isEmpty, value.utf8.count <= 128 else { throw .invalidRequest("\(field) is not a client id") }
            return value
        }
    }

    /// Auth0's `identifier.active` + `signup.status` as an `IdentifierRule`, merged over `current`.
    static func rule(
        _ attribute: IdentifierAttributeInput, current: IdentifierRule, field: String
    ) throws(ServiceError) -> IdentifierRule {
        if let status = attribute.signupStatus {
            _ = try ManagementValidation.oneOf(status, "\(field).signup.status", signupStatuses)
        }
        let active =
            attribute.active ?? (current != .disabled || attribute.signupStatus.map { $0 != "inactive" } == true)
        guard active else {
            if attribute.signupStatus == "required" {
                throw .invalidRequest("\(field).signup.status cannot be required when identifier.active is false")
            }
            return .disabled
        }
        let status = attribute.signupStatus ?? (current == .disabled ? "optional" : current.rawValue)
        switch status {
        case "required": return .required
        case "optional": return .optional
        default: return .disabled
        }
    }
}

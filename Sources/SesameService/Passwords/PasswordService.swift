import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import Synchronization

/// What `/dbconnections/signup` carries (Auth0's fields).
public struct PasswordSignupRequest: Sendable {
    public var clientID: String?
    public var connection: String?
    public var password: String?
    public var profile: SignupProfileInput
    public var metadata: [String: String]
    public init(
        clientID: String?, connection: String?, password: String?, profile: SignupProfileInput,
        metadata: [String: String] = [:]
    ) {
        self.clientID = clientID
        self.connection = connection
        self.password = password
        self.profile = profile
        self.metadata = metadata
    }
}

/// A user the password grants may issue tokens for.
public struct PasswordLogin: Sendable {
    public var user: UserRecord
    public var connection: ConnectionRecord
    /// RFC 8176: `pwd`.
    public var amr: [String]
    public var authTime: Date
    /// How the password fares now (`password_status` in the token response).
    public var status: PasswordStatus
}

/// Password accounts (Auth0's database connections): signup, the password grants' check, and
/// setting a password. Hashes are Argon2id with the connection's parameters, made and checked
/// outside any store transaction, at most `gate.maxConcurrent` at once.
///
/// An unknown user costs what a wrong password costs: the password is checked against a dummy
/// hash made with the connection's parameters, and the answer is the same 403.
public final class PasswordService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let events: AuthEventRecorder
    public let gate: PasswordHashGate
    let limits: AttemptLimits
    /// Where reset links go.
    let messages: any MessageSender
    let breaches: BreachDetection
    /// One dummy hash per parameter set, made on first need.
    private let dummies = Mutex<[Argon2Parameters: String]>([:])

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, events: AuthEventRecorder,
        messages: any MessageSender, gate: PasswordHashGate = PasswordHashGate(), maxAccountFailures: Int = 10,
        maxAddressFailures: Int = 100, ranges: (any PasswordRangeLookup)? = nil
    ) {
        self.messages = messages
        self.breaches = BreachDetection(ranges: ranges)
        self.limits = AttemptLimits(maxAccountFailures: maxAccountFailures, maxAddressFailures: maxAddressFailures)
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.events = events
        self.gate = gate
    }

    // MARK: Signup

    /// `POST /dbconnections/signup`: a user with a password, in a connection with passwords on.
    /// The password must meet the connection's rules exactly as they are published.
    public func signup(tenant: TenantRecord, _ request: PasswordSignupRequest) throws(ServiceError) -> UserRecord {
        try signup(tenant: tenant, request, hosted: false)
    }

    /// A signup; `hosted`: from the hosted pages, where the account page's client may sign users up
    /// (to the tenant's default connection; the API never takes that client).
    func signup(tenant: TenantRecord, _ request: PasswordSignupRequest, hosted: Bool) throws(ServiceError)
        -> UserRecord
    {
        let now = clock.now()
        let (client, connection, profile) = try access.read { transaction in
            guard let clientID = request.clientID, !clientID.isEmpty else {
                throw ServiceError.invalidRequest("client_id is required")
            }
            let found =
                hosted
                ? try AccountClient.client(clientID, tenant: tenant, in: transaction)
                : try transaction.clients.get(tenantID: tenant.id, id: clientID)
            guard clientID.utf8.count <= 128, let client = found else {
                throw ServiceError.invalidClient("unknown client")
            }
            guard let name = request.connection, !name.isEmpty else {
                throw ServiceError.invalidRequest("connection is required")
            }
            let connection = try Self.connection(named: name, tenant: tenant, client: client, in: transaction)
            let profile = try ProfileValidation.validate(
                request.profile, metadata: request.metadata, policy: connection.identifiers)
            if tenant.revealsTakenIdentifiers, try Self.isTaken(profile, connection: connection, in: transaction) {
                throw ServiceError.signupRefused(.userExists)
            }
            return (client, connection, profile)
        }
        guard let raw = request.password else { throw .invalidRequest("password is required") }
        let password = try PasswordText(raw)
        try Self.requireRules(password, connection: connection)
        try refuseBreached(password, tenant: tenant, stage: .signup)
        let credential = try newCredential(password, parameters: connection.password.hashing, now: now)
        let user = UserRecord(
            tenantID: tenant.id, id: "sesame|" + Hex.lowercase(try random.serviceBytes(12)),
            connectionID: connection.id, userHandle: try random.serviceBytes(32), profile: profile,
            userMetadata: request.metadata, createdAt: now, updatedAt: now, password: credential)
        let refusal: SignupRefusal = tenant.revealsTakenIdentifiers ? .userExists : .hidden
        do {
            try access.write(.durable) { transaction in
                if try Self.isTaken(profile, connection: connection, in: transaction) {
                    throw ServiceError.signupRefused(refusal)
                }
                do {
                    try transaction.users.insert(user)
                } catch StoreError.conflict(_) {
                    throw ServiceError.signupRefused(refusal)
                }
            }
        } catch {
            if case .signupRefused = error {
                record(tenant, .signup, outcome: .invalidSignup, client: client.id, user: nil, now: now)
            }
            throw error
        }
        record(tenant, .signup, outcome: .success, client: client.id, user: user.id, now: now)
        return user
    }

    // MARK: The password grants

    /// Checks `username` and `password` for the password grants: `password-realm` names the
    /// connection as `realm`, `password` uses the tenant's default connection. `address` (the
    /// client-address key) is what brute-force protection counts by (`AttemptLimits`).
    ///
    /// An account whose password an upgrade replaced answers the right password with
    /// `passwordReplaced` (what it signs in with now) and any other with `wrongCredentials`.
    /// `forUpgrade` (an upgrade's authorization, docs/account-upgrades.md) lets a breached password through even
    /// where the tenant blocks it at login: moving off it is the point.
    func logIn(
        tenant: TenantRecord, client: ClientRecord, grant: OAuthGrantType, realm: String?, username: String?,
        password: String?, address: String, forUpgrade: Bool = false
    ) throws(ServiceError) -> PasswordLogin {
        let now = clock.now()
        guard let username, !username.isEmpty else { throw .invalidRequest("username is required") }
        guard username.utf8.count <= 320 else { throw .invalidRequest("username is longer than 320 bytes") }
        guard let password else { throw .invalidRequest("password is required") }
        let text = try PasswordText(password)
        let name: String?
        switch grant {
        case .passwordRealm:
            guard let realm, !realm.isEmpty else { throw .invalidRequest("realm is required for password-realm") }
            name = realm
        default:
            name = nil
        }
        let (connection, found) = try access.read { transaction in
            let connection = try Self.connection(
                named: name, field: "realm", tenant: tenant, client: client, in: transaction)
            return (connection, try Self.user(username, connection: connection, in: transaction))
        }
        let accountKey = AttemptLimits.accountKey(user: found, identifier: username, address: address)
        let addressKey = AttemptLimits.addressKey(address)
        do {
            try access.write(.relaxed) { transaction in
                try limits.reserve(
                    tenantID: tenant.id, account: accountKey, address: addressKey, now: now, in: transaction)
            }
        } catch {
            if case .tooManyAttempts(let text, _) = error {
                events.audit?.record(
                    text == AttemptLimits.blockedDescription ? .blockedAccount : .blockedAddress, tenantID: tenant.id,
                    clientID: client.id, user: found,
                    details: AuditDetails(method: .password, reason: .tooManyAttempts))
            }
            throw error
        }
        // A check that could not run (the hash gate was full) gives its attempt back.
        let matched: Bool
        do {
            if let credential = found?.password {
                matched = try verify(text, credential)
            } else {
                // The same work as a wrong password, then the same answer.
                try checkDummy(text, parameters: connection.password.hashing)
                matched = false
            }
        } catch {
            if case .unavailable = error {
                try? access.write(.relaxed) { transaction in
                    try limits.giveBack(
                        tenantID: tenant.id, account: accountKey, address: addressKey, now: now, in: transaction)
                }
            }
            throw error
        }
        guard matched, let user = found, let credential = user.password else {
            record(tenant, .login, outcome: .invalidGrant, client: client.id, user: found?.id, now: now)
            // A wrong password names the account; an unknown identifier names nobody (what was
            // typed is not kept: it may be a password typed into the wrong field).
            events.audit?.record(
                found == nil ? .failedUsername : .failedPassword, tenantID: tenant.id, clientID: client.id,
                user: found,
                details: AuditDetails(method: .password, reason: found == nil ? .unknownUser : .wrongPassword))
            throw .wrongCredentials
        }
        // Only a caller who knows the password learns that the user is blocked.
        guard !user.blocked else {
            record(tenant, .login, outcome: .blocked, client: client.id, user: user.id, now: now)
            events.audit?.record(
                .failedLogin, tenantID: tenant.id, clientID: client.id, user: user,
                details: AuditDetails(method: .password, reason: .userBlocked))
            throw .userBlocked
        }
        if let replacement = user.passwordReplacement {
            record(tenant, .login, outcome: .invalidGrant, client: client.id, user: user.id, now: now)
            throw .passwordReplaced(replacement)
        }
        let breached = breaches.isBreached(text, settings: tenant.breachedPasswords)
        if breached {
            events.audit?.record(
                .breachedPassword, tenantID: tenant.id, clientID: client.id, user: user,
                details: AuditDetails(method: .password))
            notifyBreach(tenant: tenant, user: user, now: now)
            if !forUpgrade, BreachDetection.blocks(tenant.breachedPasswords, at: .login) {
                record(tenant, .login, outcome: .blocked, client: client.id, user: user.id, now: now)
                throw .passwordLeaked
            }
        }
        let status: PasswordStatus =
            breached
            ? .breached : PasswordRulesParser.parse(connection.password.rules).rules.allows(text.text) ? .ok : .weak
        var current = user
        current.lastLoginAt = now
        if Self.needsRehash(credential, parameters: connection.password.hashing) {
            // An imported hash, or one made with other parameters: replaced now, and only if the
            // password was not changed meanwhile (compare-and-set on the hash in the write).
            let fresh = try hashNew(text, parameters: connection.password.hashing)
            current = try access.write(.relaxed) { transaction in
                try limits.succeeded(
                    tenantID: tenant.id, account: accountKey, address: addressKey, now: now, in: transaction)
                guard var stored = try transaction.users.get(tenantID: tenant.id, id: user.id) else {
                    throw ServiceError.wrongCredentials
                }
                if let password = stored.password, password.hash == credential.hash {
                    stored.password?.scheme = .argon2id
                    stored.password?.hash = fresh
                }
                stored.lastLoginAt = now
                try transaction.users.update(stored)
                return stored
            }
        } else {
            try access.write(.relaxed) { transaction in
                try limits.succeeded(
                    tenantID: tenant.id, account: accountKey, address: addressKey, now: now, in: transaction)
                try transaction.users.touch(tenantID: tenant.id, id: user.id, lastLoginAt: now)
            }
        }
        record(
            tenant, .login, outcome: .success, client: client.id, user: user.id, now: now, connectionID: connection.id)
        return PasswordLogin(user: current, connection: connection, amr: ["pwd"], authTime: now, status: status)
    }

    /// Drops expired attempt counters and tickets (the server calls this every second).
    @discardableResult public func sweep() -> Int {
        let now = clock.now()
        return
            (try? access.write(.relaxed) { transaction in
                try transaction.attemptCounters.deleteExpired(now: now, limit: 256)
                    + transaction.authSessions.deleteExpired(now: now, limit: 64)
            }) ?? 0
    }

    // MARK: Rules

    /// `GET /password-rules`: the rules string of the connection (default: the tenant's default
    /// connection) a client signs users up to, exactly as stored.
    public func rules(tenant: TenantRecord, clientID: String?, connection name: String?) throws(ServiceError) -> String
    {
        try access.read { transaction in
            guard let clientID, !clientID.isEmpty else { throw ServiceError.invalidRequest("client_id is required") }
            guard clientID.utf8.count <= 128,
                let client = try transaction.clients.get(tenantID: tenant.id, id: clientID)
            else { throw ServiceError.invalidClient("unknown client") }
            return try Self.connection(named: name, tenant: tenant, client: client, in: transaction).password.rules
        }
    }

    // MARK: Setting a password

    /// A new credential for `password` in `connection`, after checking it against the rules and
    /// the breached corpus (as `stage` of the tenant's detection says). Whoever stores it keeps the
    /// id of the password the user has then (`PasswordCredential.replacing`).
    func credential(
        for password: PasswordText, connection: ConnectionRecord, tenant: TenantRecord, stage: BreachStage
    ) throws(ServiceError) -> PasswordCredential {
        try Self.requireRules(password, connection: connection)
        try refuseBreached(password, tenant: tenant, stage: stage)
        return try newCredential(password, parameters: connection.password.hashing, now: clock.now())
    }

    /// A credential for an upgrade's strong password (docs/account-upgrades.md): the connection's rules, and no
    /// breached password whatever the tenant's shields say (the corpus, the test prefix, and the
    /// tenant's range endpoint when it has one).
    func upgradeCredential(for password: PasswordText, connection: ConnectionRecord, tenant: TenantRecord)
        throws(ServiceError) -> PasswordCredential
    {
        try Self.requireRules(password, connection: connection)
        var settings = tenant.breachedPasswords
        settings.enabled = true
        if breaches.isBreached(password, settings: settings) { throw .signupRefused(.passwordLeaked) }
        return try newCredential(password, parameters: connection.password.hashing, now: clock.now())
    }

    // MARK: Breached passwords

    /// 400 `password_leaked` when `password` is breached and `stage` blocks.
    func refuseBreached(_ password: PasswordText, tenant: TenantRecord, stage: BreachStage) throws(ServiceError) {
        let settings = tenant.breachedPasswords
        guard BreachDetection.blocks(settings, at: stage), breaches.isBreached(password, settings: settings) else {
            return
        }
        events.audit?.record(
            stage == .signup ? .breachedPasswordAtSignup : .breachedPasswordAtReset, tenantID: tenant.id,
            details: AuditDetails(method: .password, reason: .passwordLeaked))
        throw .signupRefused(.passwordLeaked)
    }

    /// With the `user_notification` shield: tells the user, at most once an hour.
    private func notifyBreach(tenant: TenantRecord, user: UserRecord, now: Date) {
        guard tenant.breachedPasswords.shields.contains(.userNotification), let email = user.profile.email else {
            return
        }
        let first =
            (try? access.write(.relaxed) { transaction in
                try transaction.attemptCounters.add(
                    tenantID: tenant.id, key: AttemptLimits.key("breach-notice", user.id), delta: 1, now: now,
                    windowEndsAt: now + 3_600, sliding: false) == 1
            }) ?? false
        guard first else { return }
        try? messages.send(
            OutgoingMessage(
                tenantID: tenant.id, channel: .email, template: .breachedPassword, recipient: email,
                text: "Someone signed in to your \(tenant.name) account with a password that has appeared in a data "
                    + "breach elsewhere. Change it, or add a passkey, at \(tenant.publicURL)."))
    }

    // MARK: Hashing

    private func newCredential(
        _ password: PasswordText, parameters: Argon2Parameters, now: Date
    ) throws(ServiceError) -> PasswordCredential {
        PasswordCredential(
            id: "password|" + Hex.lowercase(try random.serviceBytes(12)), scheme: .argon2id,
            hash: try hashNew(password, parameters: parameters), createdAt: now, changedAt: now)
    }

    func hashNew(_ password: PasswordText, parameters: Argon2Parameters) throws(ServiceError) -> String {
        let hasher = Self.hasher(parameters)
        do {
            return try gate.run { try hasher.hash(password: password.bytes, random: random) }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .unavailable("the password could not be hashed")
        }
    }

    /// Whether `password` matches `credential`, in whatever scheme it was stored.
    func verify(_ password: PasswordText, _ credential: PasswordCredential) throws(ServiceError) -> Bool {
        let bytes = password.bytes
        do {
            return try gate.run {
                switch credential.scheme {
                case .argon2id: return try PasswordHasher().verify(password: bytes, phc: credential.hash)
                case .bcrypt: return try ImportedPasswordHash.verifyBcrypt(password: bytes, hash: credential.hash)
                case .argon2: return try ImportedPasswordHash.verifyArgon2(password: bytes, phc: credential.hash)
                case .pbkdf2: return try ImportedPasswordHash.PBKDF2(phc: credential.hash).verify(password: bytes)
                case .sha256Salted:
                    return try ImportedPasswordHash.SaltedSHA256(stored: credential.hash).verify(password: bytes)
                }
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .unavailable("a stored password hash could not be read")
        }
    }

    /// Checks `password` against a dummy hash with `parameters`, for a user who does not exist.
    private func checkDummy(_ password: PasswordText, parameters: Argon2Parameters) throws(ServiceError) {
        let dummy: String
        if let made = dummies.withLock({ $0[parameters] }) {
            dummy = made
        } else {
            let made = try hashNew(
                try PasswordText(Hex.lowercase(try random.serviceBytes(16))), parameters: parameters)
            dummy = dummies.withLock { cache in
                if let first = cache[parameters] { return first }
                cache[parameters] = made
                return made
            }
        }
        _ = try verify(
            password,
            PasswordCredential(id: "", scheme: .argon2id, hash: dummy, createdAt: .distantPast, changedAt: .distantPast)
        )
    }

    static func hasher(_ parameters: Argon2Parameters) -> PasswordHasher {
        PasswordHasher(
            memoryKiB: UInt32(clamping: parameters.memoryKiB), iterations: UInt32(clamping: parameters.iterations),
            parallelism: UInt32(clamping: parameters.parallelism))
    }

    /// True for an imported hash, or an Argon2id hash made with other parameters.
    static func needsRehash(_ credential: PasswordCredential, parameters: Argon2Parameters) -> Bool {
        guard credential.scheme == .argon2id, let stored = PasswordHasher.parameters(phc: credential.hash) else {
            return true
        }
        return Int(stored.memoryKiB) != parameters.memoryKiB || Int(stored.iterations) != parameters.iterations
            || Int(stored.parallelism) != parameters.parallelism
    }

    // MARK: Lookups

    /// 400 `invalid_password` unless `password` meets every rule of the connection.
    static func requireRules(_ password: PasswordText, connection: ConnectionRecord) throws(ServiceError) {
        let verdicts = PasswordRulesParser.parse(connection.password.rules).rules.check(password.text)
        guard verdicts.allSatisfy(\.verified) else {
            throw .signupRefused(.weakPassword(rules: connection.password.rules, verdicts: verdicts))
        }
    }

    /// The connection `name` (nil: the tenant's default), enabled for `client`, with passwords on.
    static func connection(
        named name: String?, field: String = "connection", tenant: TenantRecord, client: ClientRecord,
        in transaction: any StoreTransaction
    ) throws -> ConnectionRecord {
        let connection = try ConnectionLookup.connection(
            named: name, field: field, tenant: tenant, client: client, in: transaction)
        guard connection.password.enabled else {
            throw ServiceError.invalidRequest("passwords are not enabled for connection \(connection.name)")
        }
        return connection
    }

    /// The user of `connection` that `identifier` names: by email first, then username, then phone.
    static func user(
        _ identifier: String, connection: ConnectionRecord, in transaction: any StoreTransaction
    ) throws -> UserRecord? {
        let email = TextRules.email(identifier)
        let username = TextRules.username(identifier)
        let found = try transaction.users.withIdentifiers(
            tenantID: connection.tenantID, connectionID: connection.id, email: email, phoneNumber: identifier,
            username: username)
        return found.first { $0.profile.email?.lowercased() == email }
            ?? found.first { $0.profile.username.map(UsernameProfile.caseMapped) == username }
            ?? found.first { $0.profile.phoneNumber == identifier }
    }

    static func isTaken(
        _ profile: UserProfile, connection: ConnectionRecord, in transaction: any StoreTransaction
    ) throws -> Bool {
        !(try transaction.users.withIdentifiers(
            tenantID: connection.tenantID, connectionID: connection.id, email: profile.email,
            phoneNumber: profile.phoneNumber, username: profile.username
        )
        .isEmpty)
    }

    private func record(
        _ tenant: TenantRecord, _ type: AuthEventKind, outcome: AuthEventOutcome, client: String?, user: String?,
        now: Date, connectionID: String? = nil
    ) {
        events.record(
            tenantID: tenant.id, type: type, method: .password, outcome: outcome, at: now, clientID: client,
            userID: user, connectionID: connectionID)
    }
}

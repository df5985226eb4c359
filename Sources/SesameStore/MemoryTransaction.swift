import Foundation

/// One `InMemoryStore` transaction: works on its own copy of the state. Every check runs before the
/// first change, so an operation that throws leaves the copy as it was.
final class MemoryTransaction: StoreTransaction {
    var state: MemoryState
    private let writable: Bool
    private var open = true

    init(state: MemoryState, writable: Bool) {
        self.state = state
        self.writable = writable
    }

    /// Ends the transaction: any later call throws.
    func close() { open = false }

    func checkOpen() throws {
        guard open else { throw StoreError.unavailable("the transaction has ended") }
    }

    func checkWritable() throws {
        try checkOpen()
        guard writable else { throw StoreError.unavailable("write in a read transaction") }
    }

    // MARK: Helpers

    /// The lowercased hosts a tenant answers on: its domain and custom domains.
    static func hosts(of tenant: TenantRecord) -> Set<String> {
        Set(([tenant.domain] + tenant.customDomains).map { $0.lowercased() })
    }

    func configurationGeneration() throws -> Int64 {
        try checkOpen()
        return state.configurationGeneration
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func paged<T>(_ items: [T], _ page: Page) -> [T] {
        Array(items.dropFirst(page.offset).prefix(page.limit))
    }

    // MARK: Repositories

    var tenants: any TenantRepository { MemoryTenants(tx: self) }
    var clients: any ClientRepository { MemoryClients(tx: self) }
    var connections: any ConnectionRepository { MemoryConnections(tx: self) }
    var resourceServers: any ResourceServerRepository { MemoryResourceServers(tx: self) }
    var users: any UserRepository { MemoryUsers(tx: self) }
    var passkeys: any PasskeyRepository { MemoryPasskeys(tx: self) }
    var signingKeys: any SigningKeyRepository { MemorySigningKeys(tx: self) }
    var refreshTokens: any RefreshTokenRepository { MemoryRefreshTokens(tx: self) }
    var authSessions: any AuthSessionRepository { MemoryAuthSessions(tx: self) }
    var dpopProofs: any DPoPProofRepository { MemoryDPoPProofs(tx: self) }
    var authEvents: any AuthEventRepository { MemoryAuthEvents(tx: self) }
    var attemptCounters: any AttemptCounterRepository { MemoryAttemptCounters(tx: self) }
    var outbox: any OutboxRepository { MemoryOutbox(tx: self) }
    var ssoSessions: any SSOSessionRepository { MemorySSOSessions(tx: self) }
    var deviceKeys: any DeviceKeyRepository { MemoryDeviceKeys(tx: self) }
    var linkedIdentities: any LinkedIdentityRepository { MemoryLinkedIdentities(tx: self) }
    var authenticatorMetadata: any AuthenticatorMetadataRepository { MemoryAuthenticatorMetadata(tx: self) }
    var auditEvents: any AuditEventRepository { MemoryAuditEvents(tx: self) }
}

/// The tenant repository of a memory transaction.
struct MemoryTenants: TenantRepository {
    let tx: MemoryTransaction

    func get(id: String) throws -> TenantRecord? {
        try tx.checkOpen()
        return tx.state.tenants[id]
    }

    func get(host: String) throws -> TenantRecord? {
        try tx.checkOpen()
        let wanted = host.lowercased()
        return tx.state.tenants.values.first { MemoryTransaction.hosts(of: $0).contains(wanted) }
    }

    func all() throws -> [TenantRecord] {
        try tx.checkOpen()
        return tx.state.tenants.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insert(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.tenants[tenant.id] == nil else { throw StoreError.conflict(.tenantID) }
        try checkHosts(of: tenant)
        tx.state.tenants[tenant.id] = tenant
    }

    func update(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.tenants[tenant.id] != nil else { throw StoreError.notFound("tenant \(tenant.id)") }
        try checkHosts(of: tenant)
        tx.state.tenants[tenant.id] = tenant
    }

    fileprivate func checkHosts(of tenant: TenantRecord) throws {
        let mine = MemoryTransaction.hosts(of: tenant)
        for other in tx.state.tenants.values where other.id != tenant.id {
            if !mine.isDisjoint(with: MemoryTransaction.hosts(of: other)) { throw StoreError.conflict(.tenantHost) }
        }
    }
}

/// The client repository of a memory transaction.
struct MemoryClients: ClientRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> ClientRecord? {
        try tx.checkOpen()
        return tx.state.clients[MemoryKey(tenantID: tenantID, id: id)]
    }

    func list(tenantID: String, page: Page) throws -> [ClientRecord] {
        try tx.checkOpen()
        let all = tx.state.clients.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insert(_ client: ClientRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: client.tenantID, id: client.id)
        guard tx.state.clients[key] == nil else { throw StoreError.conflict(.clientID) }
        tx.state.clients[key] = client
    }

    func update(_ client: ClientRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: client.tenantID, id: client.id)
        guard tx.state.clients[key] != nil else { throw StoreError.notFound("client \(client.id)") }
        tx.state.clients[key] = client
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.clients.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("client \(id)")
        }
    }
}

/// The connection repository of a memory transaction.
struct MemoryConnections: ConnectionRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return tx.state.connections[MemoryKey(tenantID: tenantID, id: id)]
    }

    func get(tenantID: String, name: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return tx.state.connections.values.first { $0.tenantID == tenantID && $0.name == name }
    }

    func list(tenantID: String, page: Page) throws -> [ConnectionRecord] {
        try tx.checkOpen()
        let all = tx.state.connections.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insert(_ connection: ConnectionRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: connection.tenantID, id: connection.id)
        guard tx.state.connections[key] == nil else { throw StoreError.conflict(.connectionID) }
        try checkName(of: connection)
        tx.state.connections[key] = connection
    }

    func update(_ connection: ConnectionRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: connection.tenantID, id: connection.id)
        guard tx.state.connections[key] != nil else { throw StoreError.notFound("connection \(connection.id)") }
        try checkName(of: connection)
        tx.state.connections[key] = connection
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.connections.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("connection \(id)")
        }
    }

    fileprivate func checkName(of connection: ConnectionRecord) throws {
        let taken = tx.state.connections.values.contains {
            $0.tenantID == connection.tenantID && $0.id != connection.id && $0.name == connection.name
        }
        if taken { throw StoreError.conflict(.connectionName) }
    }
}

/// The resource server repository of a memory transaction.
struct MemoryResourceServers: ResourceServerRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return tx.state.resourceServers[MemoryKey(tenantID: tenantID, id: id)]
    }

    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return tx.state.resourceServers.values.first { $0.tenantID == tenantID && $0.identifier == identifier }
    }

    func list(tenantID: String, page: Page) throws -> [ResourceServerRecord] {
        try tx.checkOpen()
        let all = tx.state.resourceServers.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insert(_ server: ResourceServerRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: server.tenantID, id: server.id)
        guard tx.state.resourceServers[key] == nil else { throw StoreError.conflict(.resourceServerID) }
        try checkIdentifier(of: server)
        tx.state.resourceServers[key] = server
    }

    func update(_ server: ResourceServerRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: server.tenantID, id: server.id)
        guard tx.state.resourceServers[key] != nil else { throw StoreError.notFound("resource server \(server.id)") }
        try checkIdentifier(of: server)
        tx.state.resourceServers[key] = server
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.resourceServers.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("resource server \(id)")
        }
    }

    fileprivate func checkIdentifier(of server: ResourceServerRecord) throws {
        let taken = tx.state.resourceServers.values.contains {
            $0.tenantID == server.tenantID && $0.id != server.id && $0.identifier == server.identifier
        }
        if taken { throw StoreError.conflict(.resourceServerIdentifier) }
    }
}

/// The user repository of a memory transaction.
struct MemoryUsers: UserRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> UserRecord? {
        try tx.checkOpen()
        return tx.state.users[MemoryKey(tenantID: tenantID, id: id)]
    }

    func get(tenantID: String, userHandle: [UInt8]) throws -> UserRecord? {
        try tx.checkOpen()
        return tx.state.users.values.first { $0.tenantID == tenantID && $0.userHandle == userHandle }
    }

    func withIdentifiers(
        tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?
    ) throws
        -> [UserRecord]
    {
        try tx.checkOpen()
        let email = email?.lowercased()
        let username = username.map(UsernameProfile.caseMapped)
        let found = tx.state.users.values.filter { user in
            guard user.tenantID == tenantID, user.connectionID == connectionID else { return false }
            if let email, user.profile.email?.lowercased() == email { return true }
            if let phoneNumber, user.profile.phoneNumber == phoneNumber { return true }
            if let username, user.profile.username.map(UsernameProfile.caseMapped) == username { return true }
            return false
        }
        return found.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func search(tenantID: String, query: String?, page: Page) throws -> [UserRecord] {
        try tx.checkOpen()
        let needle = Array((query ?? "").lowercased().utf8)
        let found = tx.state.users.values.filter { user in
            guard user.tenantID == tenantID else { return false }
            if needle.isEmpty { return true }
            let fields = [
                user.profile.email, user.profile.username, user.profile.phoneNumber, user.profile.name, user.id,
            ]
            return fields.contains { field in
                guard let field else { return false }
                return Array(field.lowercased().utf8).firstRange(of: needle) != nil
            }
        }
        // Newest first; equal times in id order.
        let sorted = found.sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id }
        return MemoryTransaction.paged(sorted, page)
    }

    func insert(_ user: UserRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: user.tenantID, id: user.id)
        guard tx.state.users[key] == nil else { throw StoreError.conflict(.userID) }
        try checkIdentifiers(of: user)
        tx.state.users[key] = user
    }

    func touch(tenantID: String, id: String, lastLoginAt: Date) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: tenantID, id: id)
        guard let user = tx.state.users[key], user.lastLoginAt.map({ $0 < lastLoginAt }) ?? true else { return }
        tx.state.users[key]?.lastLoginAt = lastLoginAt
    }

    func update(_ user: UserRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: user.tenantID, id: user.id)
        guard tx.state.users[key] != nil else { throw StoreError.notFound("user \(user.id)") }
        try checkIdentifiers(of: user)
        tx.state.users[key] = user
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        guard tx.state.users.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("user \(id)")
        }
        tx.state.passkeys = tx.state.passkeys.filter { !($0.value.tenantID == tenantID && $0.value.userID == id) }
        tx.state.deviceKeys = tx.state.deviceKeys.filter { !($0.value.tenantID == tenantID && $0.value.userID == id) }
        tx.state.linkedIdentities = tx.state.linkedIdentities.filter {
            !($0.value.tenantID == tenantID && $0.value.userID == id)
        }
    }

    func adoption(tenantID: String, connectionID: String?) throws -> UserAdoption {
        try tx.checkOpen()
        let users = tx.state.users.values.filter {
            $0.tenantID == tenantID && (connectionID == nil || $0.connectionID == connectionID)
        }
        let ids = Set(users.map(\.id))
        let withPasskey = Set(tx.state.passkeys.values.filter { $0.tenantID == tenantID }.map(\.userID))
            .intersection(ids)
        let withKey = Set(
            tx.state.deviceKeys.values.filter { $0.tenantID == tenantID && $0.state != .revoked }.map(\.userID)
        ).intersection(ids)
        return UserAdoption(
            total: users.count, withPasskey: withPasskey.count,
            withDeviceKeyOnly: withKey.subtracting(withPasskey).count)
    }

    fileprivate func checkIdentifiers(of user: UserRecord) throws {
        let others = tx.state.users.values.filter { $0.tenantID == user.tenantID && $0.id != user.id }
        if others.contains(where: { $0.userHandle == user.userHandle }) {
            throw StoreError.conflict(.userHandle)
        }
        let sameConnection = others.filter { $0.connectionID == user.connectionID }
        if let email = user.profile.email?.lowercased(),
            sameConnection.contains(where: { $0.profile.email?.lowercased() == email })
        {
            throw StoreError.conflict(.userEmail)
        }
        if let phone = user.profile.phoneNumber, sameConnection.contains(where: { $0.profile.phoneNumber == phone }) {
            throw StoreError.conflict(.userPhoneNumber)
        }
        if let username = user.profile.username.map(UsernameProfile.caseMapped),
            sameConnection.contains(where: { $0.profile.username.map(UsernameProfile.caseMapped) == username })
        {
            throw StoreError.conflict(.userUsername)
        }
    }
}

/// The passkey repository of a memory transaction.
struct MemoryPasskeys: PasskeyRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord? {
        try tx.checkOpen()
        return tx.state.passkeys.values.first { $0.tenantID == tenantID && $0.credentialID == credentialID }
    }

    func get(tenantID: String, id: String) throws -> PasskeyRecord? {
        try tx.checkOpen()
        return tx.state.passkeys[MemoryKey(tenantID: tenantID, id: id)]
    }

    func list(tenantID: String, userID: String) throws -> [PasskeyRecord] {
        try tx.checkOpen()
        let all = tx.state.passkeys.values.filter { $0.tenantID == tenantID && $0.userID == userID }
        return all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insert(_ passkey: PasskeyRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: passkey.tenantID, id: passkey.id)
        guard tx.state.passkeys[key] == nil else { throw StoreError.conflict(.passkeyID) }
        try checkCredentialID(of: passkey)
        tx.state.passkeys[key] = passkey
    }

    func recordAssertion(tenantID: String, id: String, signCount: UInt32, backupState: Bool, at: Date) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: tenantID, id: id)
        guard tx.state.passkeys[key] != nil else { throw StoreError.notFound("passkey \(id)") }
        tx.state.passkeys[key]?.signCount = signCount
        tx.state.passkeys[key]?.backupState = backupState
        tx.state.passkeys[key]?.lastUsedAt = at
    }

    func touch(tenantID: String, id: String, lastUsedAt: Date) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: tenantID, id: id)
        guard let passkey = tx.state.passkeys[key], passkey.lastUsedAt.map({ $0 < lastUsedAt }) ?? true else { return }
        tx.state.passkeys[key]?.lastUsedAt = lastUsedAt
    }

    func update(_ passkey: PasskeyRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: passkey.tenantID, id: passkey.id)
        guard tx.state.passkeys[key] != nil else { throw StoreError.notFound("passkey \(passkey.id)") }
        try checkCredentialID(of: passkey)
        tx.state.passkeys[key] = passkey
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        guard tx.state.passkeys.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("passkey \(id)")
        }
    }

    fileprivate func checkCredentialID(of passkey: PasskeyRecord) throws {
        let taken = tx.state.passkeys.values.contains {
            $0.tenantID == passkey.tenantID && $0.id != passkey.id && $0.credentialID == passkey.credentialID
        }
        if taken { throw StoreError.conflict(.passkeyCredentialID) }
    }
}

/// The signing key repository of a memory transaction.
struct MemorySigningKeys: SigningKeyRepository {
    let tx: MemoryTransaction

    func list(tenantID: String) throws -> [SigningKeyRecord] {
        try tx.checkOpen()
        let all = tx.state.signingKeys.values.filter { $0.tenantID == tenantID }
        return all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insert(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.signingKeys[memoryKey] == nil else { throw StoreError.conflict(.signingKeyID) }
        tx.state.signingKeys[memoryKey] = key
    }

    func update(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.signingKeys[memoryKey] != nil else { throw StoreError.notFound("signing key \(key.id)") }
        tx.state.signingKeys[memoryKey] = key
    }
}

/// The refresh token repository of a memory transaction.
struct MemoryRefreshTokens: RefreshTokenRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord? {
        try tx.checkOpen()
        return tx.state.refreshTokens.values.first { $0.tenantID == tenantID && $0.tokenHash == tokenHash }
    }

    func list(tenantID: String, page: Page) throws -> [RefreshTokenRecord] {
        try tx.checkOpen()
        return MemoryTransaction.paged(
            tx.state.refreshTokens.values.filter { $0.tenantID == tenantID }.sorted { $0.id < $1.id }, page)
    }

    func insert(_ token: RefreshTokenRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: token.tenantID, id: token.id)
        guard tx.state.refreshTokens[key] == nil else { throw StoreError.conflict(.refreshTokenID) }
        try checkTokenHash(of: token)
        tx.state.refreshTokens[key] = token
    }

    func markUsed(tenantID: String, id: String, at: Date) throws -> Bool {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: tenantID, id: id)
        guard let token = tx.state.refreshTokens[key], token.usedAt == nil, token.revokedAt == nil else { return false }
        tx.state.refreshTokens[key]?.usedAt = at
        return true
    }

    func update(_ token: RefreshTokenRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: token.tenantID, id: token.id)
        guard tx.state.refreshTokens[key] != nil else { throw StoreError.notFound("refresh token \(token.id)") }
        try checkTokenHash(of: token)
        tx.state.refreshTokens[key] = token
    }

    /// Token hashes are unique across tenants.
    fileprivate func checkTokenHash(of token: RefreshTokenRecord) throws {
        let taken = tx.state.refreshTokens.contains {
            $0.key != MemoryKey(tenantID: token.tenantID, id: token.id) && $0.value.tokenHash == token.tokenHash
        }
        if taken { throw StoreError.conflict(.refreshTokenHash) }
    }

    @discardableResult func revokeFamily(tenantID: String, familyID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.familyID == familyID }
    }

    @discardableResult func revokeAll(tenantID: String, userID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.userID == userID }
    }

    @discardableResult func revokeAll(tenantID: String, passkeyID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.passkeyID == passkeyID }
    }

    @discardableResult func revokeAll(tenantID: String, userID: String, exceptFamily familyID: String, at: Date)
        throws -> Int
    {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.userID == userID && $0.familyID != familyID }
    }

    /// Sets `revokedAt` on the matching tokens not yet revoked; returns how many changed.
    fileprivate func revoke(at: Date, where matches: (RefreshTokenRecord) -> Bool) -> Int {
        var changed = 0
        for (key, token) in tx.state.refreshTokens where token.revokedAt == nil && matches(token) {
            var revoked = token
            revoked.revokedAt = at
            tx.state.refreshTokens[key] = revoked
            changed += 1
        }
        return changed
    }
}

/// The auth session repository of a memory transaction.
struct MemoryAuthSessions: AuthSessionRepository {
    let tx: MemoryTransaction

    func insert(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    {
        try tx.checkWritable()
        let held = tx.state.authSessions.values.lazy.filter { $0.requester == session.requester && $0.expiresAt > now }
        if held.prefix(maxPerRequester).count >= maxPerRequester { return .requesterFull }
        tx.state.authSessions[MemoryTransaction.hex(session.handleHash)] = session
        return .inserted
    }

    func consume(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try tx.checkWritable()
        return tx.state.authSessions.removeValue(forKey: MemoryTransaction.hex(handleHash))
    }

    func get(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try tx.checkOpen()
        return tx.state.authSessions[MemoryTransaction.hex(handleHash)]
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let expired = tx.state.authSessions.filter { $0.value.expiresAt <= now }.keys.prefix(limit)
        for key in expired { tx.state.authSessions.removeValue(forKey: key) }
        return expired.count
    }
}

/// The DPoP proof repository of a memory transaction.
struct MemoryDPoPProofs: DPoPProofRepository {
    let tx: MemoryTransaction

    func record(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: tenantID, id: MemoryTransaction.hex(key))
        if let held = tx.state.dpopProofs[memoryKey], held > now { return false }
        // Drop expired entries now and then, so the cache holds only live proofs.
        if tx.state.dpopProofs.count >= 1_024, tx.state.dpopProofs.count.isMultiple(of: 256) {
            tx.state.dpopProofs = tx.state.dpopProofs.filter { $0.value > now }
        }
        tx.state.dpopProofs[memoryKey] = expiresAt
        return true
    }
}

/// The auth event repository of a memory transaction.
struct MemoryAuthEvents: AuthEventRepository {
    let tx: MemoryTransaction

    func insert(_ events: [AuthEventRecord]) throws {
        try tx.checkWritable()
        var keys = Set<MemoryKey>()
        for event in events {
            let key = MemoryKey(tenantID: event.tenantID, id: event.id)
            guard tx.state.authEvents[key] == nil, keys.insert(key).inserted else {
                throw StoreError.conflict(.authEventID)
            }
        }
        for event in events { tx.state.authEvents[MemoryKey(tenantID: event.tenantID, id: event.id)] = event }
        for event in events {
            guard let cell = event.dailyCount else { continue }
            tx.state.dailyCounts[MemoryDailyKey(tenantID: event.tenantID, cell: cell.key), default: 0] += 1
        }
    }

    func dailyCounts(
        tenantID: String, from: String, to: String, clientID: String?, connectionID: String?
    ) throws -> [AuthDailyCount] {
        try tx.checkOpen()
        return tx.state.dailyCounts.compactMap { key, count -> AuthDailyCount? in
            let cell = key.cell
            guard key.tenantID == tenantID, cell.day >= from, cell.day <= to,
                clientID == nil || cell.clientID == clientID, connectionID == nil || cell.connectionID == connectionID
            else { return nil }
            var counted = cell
            counted.count = count
            return counted
        }.sorted { $0.day < $1.day }
    }

    func list(tenantID: String, page: Page) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        let all = tx.state.authEvents.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.at, $0.id) < ($1.at, $1.id) }, page)
    }

    func since(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        let all = tx.state.authEvents.values.filter { $0.tenantID == tenantID && $0.at >= since }
        let sorted = all.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        return Array(sorted.prefix(max(0, limit)))
    }
}

/// The attempt counters of a memory transaction.
struct MemoryAttemptCounters: AttemptCounterRepository {
    let tx: MemoryTransaction

    private static func key(_ tenantID: String, _ key: [UInt8]) -> MemoryKey {
        MemoryKey(tenantID: tenantID, id: MemoryTransaction.hex(key))
    }

    func add(tenantID: String, key: [UInt8], delta: Int, now: Date, windowEndsAt: Date, sliding: Bool) throws -> Int {
        try tx.checkWritable()
        let memoryKey = Self.key(tenantID, key)
        var counter: AttemptCount
        if let held = tx.state.attemptCounters[memoryKey], held.windowEndsAt > now {
            counter = AttemptCount(
                count: max(0, held.count + delta), windowEndsAt: sliding ? windowEndsAt : held.windowEndsAt)
        } else {
            counter = AttemptCount(count: max(0, delta), windowEndsAt: windowEndsAt)
        }
        tx.state.attemptCounters[memoryKey] = counter
        return counter.count
    }

    func get(tenantID: String, key: [UInt8], now: Date) throws -> AttemptCount? {
        try tx.checkOpen()
        guard let held = tx.state.attemptCounters[Self.key(tenantID, key)], held.windowEndsAt > now else { return nil }
        return held
    }

    func reset(tenantID: String, key: [UInt8]) throws {
        try tx.checkWritable()
        tx.state.attemptCounters.removeValue(forKey: Self.key(tenantID, key))
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let expired = tx.state.attemptCounters.filter { $0.value.windowEndsAt <= now }.keys.prefix(limit)
        for key in expired { tx.state.attemptCounters.removeValue(forKey: key) }
        return expired.count
    }
}

/// The outbox of a memory transaction.
struct MemoryOutbox: OutboxRepository {
    let tx: MemoryTransaction

    func insert(_ message: OutboxMessageRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: message.tenantID, id: message.id)
        guard tx.state.outbox[key] == nil else { throw StoreError.conflict(.outboxMessageID) }
        tx.state.outbox[key] = message
    }

    func list(tenantID: String, page: Page) throws -> [OutboxMessageRecord] {
        try tx.checkOpen()
        let all = tx.state.outbox.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }, page)
    }

    func deleteOlder(than before: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let old = tx.state.outbox.filter { $0.value.createdAt < before }.keys.prefix(limit)
        for key in old { tx.state.outbox.removeValue(forKey: key) }
        return old.count
    }
}

/// The SSO sessions of a memory transaction.
struct MemorySSOSessions: SSOSessionRepository {
    let tx: MemoryTransaction

    func insert(_ session: SSOSessionRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: session.tenantID, id: session.id)
        guard tx.state.ssoSessions[key] == nil else { throw StoreError.conflict(.ssoSessionID) }
        guard !tx.state.ssoSessions.values.contains(where: { $0.cookieHash == session.cookieHash }) else {
            throw StoreError.conflict(.ssoSessionCookie)
        }
        tx.state.ssoSessions[key] = session
    }

    func get(cookieHash: [UInt8]) throws -> SSOSessionRecord? {
        try tx.checkOpen()
        return tx.state.ssoSessions.values.first { $0.cookieHash == cookieHash }
    }

    func update(_ session: SSOSessionRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: session.tenantID, id: session.id)
        guard let held = tx.state.ssoSessions[key] else { throw StoreError.notFound("sso session \(session.id)") }
        if held.cookieHash != session.cookieHash,
            tx.state.ssoSessions.values.contains(where: { $0.cookieHash == session.cookieHash })
        {
            throw StoreError.conflict(.ssoSessionCookie)
        }
        tx.state.ssoSessions[key] = session
    }

    func list(tenantID: String, userID: String) throws -> [SSOSessionRecord] {
        try tx.checkOpen()
        return tx.state.ssoSessions.values.filter { $0.tenantID == tenantID && $0.userID == userID }
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try tx.checkWritable()
        return tx.state.ssoSessions.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil
    }

    func deleteAll(tenantID: String, userID: String) throws -> Int {
        try tx.checkWritable()
        let keys = tx.state.ssoSessions.filter { $0.value.tenantID == tenantID && $0.value.userID == userID }.keys
        for key in keys { tx.state.ssoSessions.removeValue(forKey: key) }
        return keys.count
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let ended = tx.state.ssoSessions.filter { $0.value.endsAt <= now }.keys.prefix(limit)
        for key in ended { tx.state.ssoSessions.removeValue(forKey: key) }
        return ended.count
    }
}

/// The device keys of a memory transaction.
struct MemoryDeviceKeys: DeviceKeyRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> DeviceKeyRecord? {
        try tx.checkOpen()
        return tx.state.deviceKeys[MemoryKey(tenantID: tenantID, id: id)]
    }

    func list(tenantID: String, userID: String) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        return tx.state.deviceKeys.values.filter { $0.tenantID == tenantID && $0.userID == userID }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func list(tenantID: String, page: Page) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        let all = tx.state.deviceKeys.values.filter { $0.tenantID == tenantID }.sorted { $0.id < $1.id }
        return MemoryTransaction.paged(all, page)
    }

    func insert(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.deviceKeys[memoryKey] == nil else { throw StoreError.conflict(.deviceKeyID) }
        tx.state.deviceKeys[memoryKey] = key
    }

    func update(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.deviceKeys[memoryKey] != nil else { throw StoreError.notFound("device key \(key.id)") }
        tx.state.deviceKeys[memoryKey] = key
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try tx.checkWritable()
        return tx.state.deviceKeys.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil
    }
}

/// The linked identities of a memory transaction.
struct MemoryLinkedIdentities: LinkedIdentityRepository {
    let tx: MemoryTransaction

    static func key(_ tenantID: String, _ connectionID: String, _ subject: String) -> MemoryKey {
        MemoryKey(tenantID: tenantID, id: connectionID + " " + subject)
    }

    func get(tenantID: String, connectionID: String, subject: String) throws -> LinkedIdentityRecord? {
        try tx.checkOpen()
        return tx.state.linkedIdentities[Self.key(tenantID, connectionID, subject)]
    }

    func list(tenantID: String, userID: String) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        return tx.state.linkedIdentities.values.filter { $0.tenantID == tenantID && $0.userID == userID }
            .sorted { ($0.createdAt, $0.subject) < ($1.createdAt, $1.subject) }
    }

    func list(tenantID: String, page: Page) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        let all = tx.state.linkedIdentities.values.filter { $0.tenantID == tenantID }
            .sorted { ($0.connectionID, $0.subject) < ($1.connectionID, $1.subject) }
        return MemoryTransaction.paged(all, page)
    }

    func insert(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        let key = Self.key(identity.tenantID, identity.connectionID, identity.subject)
        guard tx.state.linkedIdentities[key] == nil else { throw StoreError.conflict(.linkedIdentity) }
        tx.state.linkedIdentities[key] = identity
    }

    func update(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        let key = Self.key(identity.tenantID, identity.connectionID, identity.subject)
        guard tx.state.linkedIdentities[key] != nil else {
            throw StoreError.notFound("linked identity \(identity.subject)")
        }
        tx.state.linkedIdentities[key] = identity
    }

    func delete(tenantID: String, connectionID: String, subject: String) throws -> Bool {
        try tx.checkWritable()
        return tx.state.linkedIdentities.removeValue(forKey: Self.key(tenantID, connectionID, subject)) != nil
    }
}

/// The FIDO metadata of a memory transaction.
struct MemoryAuthenticatorMetadata: AuthenticatorMetadataRepository {
    let tx: MemoryTransaction

    func blob() throws -> MetadataBLOBRecord? {
        try tx.checkOpen()
        return tx.state.metadataBLOB
    }

    func replace(blob: MetadataBLOBRecord, entries: [AuthenticatorMetadataRecord]) throws {
        try tx.checkWritable()
        var indexed: [String: AuthenticatorMetadataRecord] = [:]
        for entry in entries {
            for key in entry.lookupKeys {
                guard indexed.updateValue(entry, forKey: key) == nil else {
                    throw StoreError.conflict(.authenticatorMetadata)
                }
            }
        }
        tx.state.metadataBLOB = blob
        tx.state.metadataEntries = indexed
    }

    func get(aaguid: String) throws -> AuthenticatorMetadataRecord? {
        try tx.checkOpen()
        return tx.state.metadataEntries["aaguid:" + aaguid]
    }

    func get(attestationKeyIdentifier: String) throws -> AuthenticatorMetadataRecord? {
        try tx.checkOpen()
        return tx.state.metadataEntries["key:" + attestationKeyIdentifier]
    }

    func entries() throws -> [AuthenticatorMetadataRecord] {
        try tx.checkOpen()
        return tx.state.metadataEntries.filter { $0.key == $0.value.lookupKeys.first }.sorted { $0.key < $1.key }
            .map(\.value)
    }
}

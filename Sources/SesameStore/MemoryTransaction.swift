import Foundation

/// One `InMemoryStore` transaction: works on its own copy of the state. Every check runs before the
/// first change, so an operation that throws leaves the copy as it was.
final class MemoryTransaction: StoreTransaction {
    private(set) var state: MemoryState
    private let writable: Bool
    private var open = true

    init(state: MemoryState, writable: Bool) {
        self.state = state
        self.writable = writable
    }

    /// Ends the transaction: any later call throws.
    func close() { open = false }

    private func checkOpen() throws {
        guard open else { throw StoreError.unavailable("the transaction has ended") }
    }

    private func checkWritable() throws {
        try checkOpen()
        guard writable else { throw StoreError.unavailable("write in a read transaction") }
    }

    // MARK: Tenants

    func tenant(id: String) throws -> TenantRecord? {
        try checkOpen()
        return state.tenants[id]
    }

    func tenant(host: String) throws -> TenantRecord? {
        try checkOpen()
        let wanted = host.lowercased()
        return state.tenants.values.first { Self.hosts(of: $0).contains(wanted) }
    }

    func tenants() throws -> [TenantRecord] {
        try checkOpen()
        return state.tenants.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insertTenant(_ tenant: TenantRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        guard state.tenants[tenant.id] == nil else { throw StoreError.conflict(.tenantID) }
        try checkHosts(of: tenant)
        state.tenants[tenant.id] = tenant
    }

    func updateTenant(_ tenant: TenantRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        guard state.tenants[tenant.id] != nil else { throw StoreError.notFound("tenant \(tenant.id)") }
        try checkHosts(of: tenant)
        state.tenants[tenant.id] = tenant
    }

    /// The lowercased hosts a tenant answers on: its domain and custom domains.
    static func hosts(of tenant: TenantRecord) -> Set<String> {
        Set(([tenant.domain] + tenant.customDomains).map { $0.lowercased() })
    }

    private func checkHosts(of tenant: TenantRecord) throws {
        let mine = Self.hosts(of: tenant)
        for other in state.tenants.values where other.id != tenant.id {
            if !mine.isDisjoint(with: Self.hosts(of: other)) { throw StoreError.conflict(.tenantHost) }
        }
    }

    // MARK: Clients

    func client(tenantID: String, id: String) throws -> ClientRecord? {
        try checkOpen()
        return state.clients[MemoryKey(tenantID: tenantID, id: id)]
    }

    func clients(tenantID: String, page: Page) throws -> [ClientRecord] {
        try checkOpen()
        let all = state.clients.values.filter { $0.tenantID == tenantID }
        return Self.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insertClient(_ client: ClientRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        let key = MemoryKey(tenantID: client.tenantID, id: client.id)
        guard state.clients[key] == nil else { throw StoreError.conflict(.clientID) }
        state.clients[key] = client
    }

    func updateClient(_ client: ClientRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        let key = MemoryKey(tenantID: client.tenantID, id: client.id)
        guard state.clients[key] != nil else { throw StoreError.notFound("client \(client.id)") }
        state.clients[key] = client
    }

    func deleteClient(tenantID: String, id: String) throws {
        try checkWritable()
        state.configurationGeneration += 1
        guard state.clients.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("client \(id)")
        }
    }

    // MARK: Connections

    func connection(tenantID: String, id: String) throws -> ConnectionRecord? {
        try checkOpen()
        return state.connections[MemoryKey(tenantID: tenantID, id: id)]
    }

    func connection(tenantID: String, name: String) throws -> ConnectionRecord? {
        try checkOpen()
        return state.connections.values.first { $0.tenantID == tenantID && $0.name == name }
    }

    func connections(tenantID: String, page: Page) throws -> [ConnectionRecord] {
        try checkOpen()
        let all = state.connections.values.filter { $0.tenantID == tenantID }
        return Self.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insertConnection(_ connection: ConnectionRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        let key = MemoryKey(tenantID: connection.tenantID, id: connection.id)
        guard state.connections[key] == nil else { throw StoreError.conflict(.connectionID) }
        try checkName(of: connection)
        state.connections[key] = connection
    }

    func updateConnection(_ connection: ConnectionRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        let key = MemoryKey(tenantID: connection.tenantID, id: connection.id)
        guard state.connections[key] != nil else { throw StoreError.notFound("connection \(connection.id)") }
        try checkName(of: connection)
        state.connections[key] = connection
    }

    func deleteConnection(tenantID: String, id: String) throws {
        try checkWritable()
        state.configurationGeneration += 1
        guard state.connections.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("connection \(id)")
        }
    }

    private func checkName(of connection: ConnectionRecord) throws {
        let taken = state.connections.values.contains {
            $0.tenantID == connection.tenantID && $0.id != connection.id && $0.name == connection.name
        }
        if taken { throw StoreError.conflict(.connectionName) }
    }

    // MARK: Resource servers

    func resourceServer(tenantID: String, id: String) throws -> ResourceServerRecord? {
        try checkOpen()
        return state.resourceServers[MemoryKey(tenantID: tenantID, id: id)]
    }

    func resourceServer(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try checkOpen()
        return state.resourceServers.values.first { $0.tenantID == tenantID && $0.identifier == identifier }
    }

    func resourceServers(tenantID: String, page: Page) throws -> [ResourceServerRecord] {
        try checkOpen()
        let all = state.resourceServers.values.filter { $0.tenantID == tenantID }
        return Self.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insertResourceServer(_ server: ResourceServerRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        let key = MemoryKey(tenantID: server.tenantID, id: server.id)
        guard state.resourceServers[key] == nil else { throw StoreError.conflict(.resourceServerID) }
        try checkIdentifier(of: server)
        state.resourceServers[key] = server
    }

    func updateResourceServer(_ server: ResourceServerRecord) throws {
        try checkWritable()
        state.configurationGeneration += 1
        let key = MemoryKey(tenantID: server.tenantID, id: server.id)
        guard state.resourceServers[key] != nil else { throw StoreError.notFound("resource server \(server.id)") }
        try checkIdentifier(of: server)
        state.resourceServers[key] = server
    }

    func deleteResourceServer(tenantID: String, id: String) throws {
        try checkWritable()
        state.configurationGeneration += 1
        guard state.resourceServers.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("resource server \(id)")
        }
    }

    private func checkIdentifier(of server: ResourceServerRecord) throws {
        let taken = state.resourceServers.values.contains {
            $0.tenantID == server.tenantID && $0.id != server.id && $0.identifier == server.identifier
        }
        if taken { throw StoreError.conflict(.resourceServerIdentifier) }
    }

    // MARK: Users

    func user(tenantID: String, id: String) throws -> UserRecord? {
        try checkOpen()
        return state.users[MemoryKey(tenantID: tenantID, id: id)]
    }

    func user(tenantID: String, userHandle: [UInt8]) throws -> UserRecord? {
        try checkOpen()
        return state.users.values.first { $0.tenantID == tenantID && $0.userHandle == userHandle }
    }

    func users(tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?) throws
        -> [UserRecord]
    {
        try checkOpen()
        let email = email?.lowercased()
        let username = username?.lowercased()
        let found = state.users.values.filter { user in
            guard user.tenantID == tenantID, user.connectionID == connectionID else { return false }
            if let email, user.profile.email?.lowercased() == email { return true }
            if let phoneNumber, user.profile.phoneNumber == phoneNumber { return true }
            if let username, user.profile.username?.lowercased() == username { return true }
            return false
        }
        return found.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func users(tenantID: String, query: String?, page: Page) throws -> [UserRecord] {
        try checkOpen()
        let needle = Array((query ?? "").lowercased().utf8)
        let found = state.users.values.filter { user in
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
        return Self.paged(sorted, page)
    }

    func insertUser(_ user: UserRecord) throws {
        try checkWritable()
        let key = MemoryKey(tenantID: user.tenantID, id: user.id)
        guard state.users[key] == nil else { throw StoreError.conflict(.userID) }
        try checkIdentifiers(of: user)
        state.users[key] = user
    }

    func updateUser(_ user: UserRecord) throws {
        try checkWritable()
        let key = MemoryKey(tenantID: user.tenantID, id: user.id)
        guard state.users[key] != nil else { throw StoreError.notFound("user \(user.id)") }
        try checkIdentifiers(of: user)
        state.users[key] = user
    }

    func deleteUser(tenantID: String, id: String) throws {
        try checkWritable()
        guard state.users.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("user \(id)")
        }
        state.passkeys = state.passkeys.filter { !($0.value.tenantID == tenantID && $0.value.userID == id) }
    }

    private func checkIdentifiers(of user: UserRecord) throws {
        let others = state.users.values.filter { $0.tenantID == user.tenantID && $0.id != user.id }
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
        if let username = user.profile.username?.lowercased(),
            sameConnection.contains(where: { $0.profile.username?.lowercased() == username })
        {
            throw StoreError.conflict(.userUsername)
        }
    }

    // MARK: Passkeys

    func passkey(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord? {
        try checkOpen()
        return state.passkeys.values.first { $0.tenantID == tenantID && $0.credentialID == credentialID }
    }

    func passkey(tenantID: String, id: String) throws -> PasskeyRecord? {
        try checkOpen()
        return state.passkeys[MemoryKey(tenantID: tenantID, id: id)]
    }

    func passkeys(tenantID: String, userID: String) throws -> [PasskeyRecord] {
        try checkOpen()
        let all = state.passkeys.values.filter { $0.tenantID == tenantID && $0.userID == userID }
        return all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insertPasskey(_ passkey: PasskeyRecord) throws {
        try checkWritable()
        let key = MemoryKey(tenantID: passkey.tenantID, id: passkey.id)
        guard state.passkeys[key] == nil else { throw StoreError.conflict(.passkeyID) }
        try checkCredentialID(of: passkey)
        state.passkeys[key] = passkey
    }

    func updatePasskey(_ passkey: PasskeyRecord) throws {
        try checkWritable()
        let key = MemoryKey(tenantID: passkey.tenantID, id: passkey.id)
        guard state.passkeys[key] != nil else { throw StoreError.notFound("passkey \(passkey.id)") }
        try checkCredentialID(of: passkey)
        state.passkeys[key] = passkey
    }

    func deletePasskey(tenantID: String, id: String) throws {
        try checkWritable()
        guard state.passkeys.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("passkey \(id)")
        }
    }

    private func checkCredentialID(of passkey: PasskeyRecord) throws {
        let taken = state.passkeys.values.contains {
            $0.tenantID == passkey.tenantID && $0.id != passkey.id && $0.credentialID == passkey.credentialID
        }
        if taken { throw StoreError.conflict(.passkeyCredentialID) }
    }

    // MARK: Signing keys

    func signingKeys(tenantID: String) throws -> [SigningKeyRecord] {
        try checkOpen()
        let all = state.signingKeys.values.filter { $0.tenantID == tenantID }
        return all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard state.signingKeys[memoryKey] == nil else { throw StoreError.conflict(.signingKeyID) }
        state.signingKeys[memoryKey] = key
    }

    func updateSigningKey(_ key: SigningKeyRecord) throws {
        try checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard state.signingKeys[memoryKey] != nil else { throw StoreError.notFound("signing key \(key.id)") }
        state.signingKeys[memoryKey] = key
    }

    // MARK: Refresh tokens

    func refreshToken(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord? {
        try checkOpen()
        return state.refreshTokens.values.first { $0.tenantID == tenantID && $0.tokenHash == tokenHash }
    }

    func refreshTokens(tenantID: String, page: Page) throws -> [RefreshTokenRecord] {
        try checkOpen()
        return Self.paged(state.refreshTokens.values.filter { $0.tenantID == tenantID }.sorted { $0.id < $1.id }, page)
    }

    func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try checkWritable()
        let key = MemoryKey(tenantID: token.tenantID, id: token.id)
        guard state.refreshTokens[key] == nil else { throw StoreError.conflict(.refreshTokenID) }
        try checkTokenHash(of: token)
        state.refreshTokens[key] = token
    }

    func updateRefreshToken(_ token: RefreshTokenRecord) throws {
        try checkWritable()
        let key = MemoryKey(tenantID: token.tenantID, id: token.id)
        guard state.refreshTokens[key] != nil else { throw StoreError.notFound("refresh token \(token.id)") }
        try checkTokenHash(of: token)
        state.refreshTokens[key] = token
    }

    /// Token hashes are unique across tenants.
    private func checkTokenHash(of token: RefreshTokenRecord) throws {
        let taken = state.refreshTokens.contains {
            $0.key != MemoryKey(tenantID: token.tenantID, id: token.id) && $0.value.tokenHash == token.tokenHash
        }
        if taken { throw StoreError.conflict(.refreshTokenHash) }
    }

    @discardableResult func revokeRefreshTokenFamily(tenantID: String, familyID: String, at: Date) throws -> Int {
        try checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.familyID == familyID }
    }

    @discardableResult func revokeRefreshTokens(tenantID: String, userID: String, at: Date) throws -> Int {
        try checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.userID == userID }
    }

    @discardableResult func revokeRefreshTokens(tenantID: String, passkeyID: String, at: Date) throws -> Int {
        try checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.passkeyID == passkeyID }
    }

    /// Sets `revokedAt` on the matching tokens not yet revoked; returns how many changed.
    private func revoke(at: Date, where matches: (RefreshTokenRecord) -> Bool) -> Int {
        var changed = 0
        for (key, token) in state.refreshTokens where token.revokedAt == nil && matches(token) {
            var revoked = token
            revoked.revokedAt = at
            state.refreshTokens[key] = revoked
            changed += 1
        }
        return changed
    }

    // MARK: Auth events

    func configurationGeneration() throws -> Int64 {
        try checkOpen()
        return state.configurationGeneration
    }

    func insertAuthSession(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    {
        try checkWritable()
        let held = state.authSessions.values.lazy.filter { $0.requester == session.requester && $0.expiresAt > now }
        if held.prefix(maxPerRequester).count >= maxPerRequester { return .requesterFull }
        state.authSessions[Self.hex(session.handleHash)] = session
        return .inserted
    }

    func consumeAuthSession(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try checkWritable()
        return state.authSessions.removeValue(forKey: Self.hex(handleHash))
    }

    func authSession(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try checkOpen()
        return state.authSessions[Self.hex(handleHash)]
    }

    func deleteExpiredAuthSessions(now: Date, limit: Int) throws -> Int {
        try checkWritable()
        let expired = state.authSessions.filter { $0.value.expiresAt <= now }.keys.prefix(limit)
        for key in expired { state.authSessions.removeValue(forKey: key) }
        return expired.count
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    func recordDPoPProof(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool {
        try checkWritable()
        let memoryKey = MemoryKey(tenantID: tenantID, id: Self.hex(key))
        if let held = state.dpopProofs[memoryKey], held > now { return false }
        // Drop expired entries now and then, so the cache holds only live proofs.
        if state.dpopProofs.count >= 1_024, state.dpopProofs.count.isMultiple(of: 256) {
            state.dpopProofs = state.dpopProofs.filter { $0.value > now }
        }
        state.dpopProofs[memoryKey] = expiresAt
        return true
    }

    func insertAuthEvents(_ events: [AuthEventRecord]) throws {
        try checkWritable()
        var keys = Set<MemoryKey>()
        for event in events {
            let key = MemoryKey(tenantID: event.tenantID, id: event.id)
            guard state.authEvents[key] == nil, keys.insert(key).inserted else {
                throw StoreError.conflict(.authEventID)
            }
        }
        for event in events { state.authEvents[MemoryKey(tenantID: event.tenantID, id: event.id)] = event }
    }

    func authEvents(tenantID: String, page: Page) throws -> [AuthEventRecord] {
        try checkOpen()
        let all = state.authEvents.values.filter { $0.tenantID == tenantID }
        return Self.paged(all.sorted { ($0.at, $0.id) < ($1.at, $1.id) }, page)
    }

    func authEvents(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord] {
        try checkOpen()
        let all = state.authEvents.values.filter { $0.tenantID == tenantID && $0.at >= since }
        let sorted = all.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        return Array(sorted.prefix(max(0, limit)))
    }

    // MARK: Helpers

    static func paged<T>(_ items: [T], _ page: Page) -> [T] {
        Array(items.dropFirst(page.offset).prefix(page.limit))
    }
}

import Foundation
import Synchronization

/// Keeps tenants, clients and connections in memory in front of another store. They are read on
/// every request (a tenant by host, the client, its connection) and change only through the
/// Management API and `init`, so reading them from the store — a query plus a JSON decode each,
/// about 30% of a login's CPU in the load benchmark — is waste.
///
/// Invalidation: a write transaction that inserts, updates or deletes any tenant, client,
/// connection or API clears the whole cache before and after it commits. Every such write also
/// raises the store's configuration generation in its own transaction, and each read transaction
/// compares it with the generation the cache was filled at, so a change made by another process
/// sharing the database is seen on this process's next request.
public final class CachingStore: SesameStore {
    fileprivate struct Cache: Sendable {
        var tenantsByHost: [String: TenantRecord?] = [:]
        var tenantsByID: [String: TenantRecord?] = [:]
        var clients: [String: ClientRecord?] = [:]
        var connectionsByID: [String: ConnectionRecord?] = [:]
        var connectionsByName: [String: ConnectionRecord?] = [:]
        var resourceServersByIdentifier: [String: ResourceServerRecord?] = [:]
        /// The store's configuration generation the entries were read at (nil: none yet).
        var storeGeneration: Int64?
        var count: Int {
            tenantsByHost.count + tenantsByID.count + clients.count + connectionsByID.count + connectionsByName.count
                + resourceServersByIdentifier.count
        }
    }

    /// The store behind the cache.
    public let inner: any SesameStore
    /// The most entries kept; beyond it the cache is cleared (hostile hosts or ids cannot grow it).
    public let capacity: Int
    private let cache = Mutex(Cache())
    private let generation = Atomic<UInt64>(0)

    public init(_ inner: any SesameStore, capacity: Int = 10_000) {
        self.inner = inner
        self.capacity = capacity
    }

    public func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        // The generation before the transaction's snapshot exists: a record it loads may be cached
        // only if no configuration write committed since (it could predate that write).
        let start = generation.load(ordering: .sequentiallyConsistent)
        return try inner.read { transaction in
            // Another process's configuration write shows as a newer store generation: what was
            // cached before it is dropped, and a snapshot older than the cache caches nothing.
            let seen = try transaction.configurationGeneration()
            cache.withLock { cache in
                if cache.storeGeneration.map({ seen > $0 }) ?? true {
                    cache = Cache()
                    cache.storeGeneration = seen
                }
            }
            return try body(
                CachingTransaction(
                    inner: transaction, store: self, watcher: nil, startGeneration: start, storeGeneration: seen))
        }
    }

    public func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let watcher = ConfigurationWriteWatcher()
        defer { if watcher.changed { invalidate() } }
        return try inner.write(durability) { transaction in
            try body(
                CachingTransaction(
                    inner: transaction, store: self, watcher: watcher, startGeneration: 0, storeGeneration: nil))
        }
    }

    /// Drops every cached record.
    public func invalidate() {
        generation.add(1, ordering: .sequentiallyConsistent)
        cache.withLock { cache in
            let seen = cache.storeGeneration
            cache = Cache()
            cache.storeGeneration = seen
        }
    }

    // MARK: Cached lookups (used by read transactions only)

    /// The cached value, or `load()` from a read transaction that began at `startGeneration`.
    fileprivate func cached<Value: Sendable>(
        _ path: WritableKeyPath<Cache, [String: Value?]>, _ key: String, startGeneration: UInt64,
        storeGeneration: Int64?, load: () throws -> Value?
    ) rethrows -> Value? {
        if let hit = cache.withLock({ cache -> Value?? in
            cache.storeGeneration == storeGeneration ? cache[keyPath: path][key] : nil
        }) {
            return hit
        }
        let value = try load()
        cache.withLock { cache in
            // A configuration write committed since the transaction began (here or, by the store
            // generation, elsewhere): its snapshot may be older, so what it read must not outlive it.
            guard generation.load(ordering: .sequentiallyConsistent) == startGeneration,
                cache.storeGeneration == storeGeneration
            else { return }
            if cache.count >= capacity { cache = Cache() }
            cache[keyPath: path][key] = .some(value)
        }
        return value
    }

    fileprivate static func key(_ parts: String...) -> String { parts.joined(separator: "\u{0}") }
}

/// Notes whether a write touched configuration (tenants, clients, connections).
private final class ConfigurationWriteWatcher: @unchecked Sendable {  // used by one write on one thread
    var changed = false
}

/// Forwards to the store's transaction. In a read (no watcher), configuration lookups are answered
/// from the cache; in a write (a watcher), reads go to the store, so they see the transaction's own
/// changes, and any configuration change marks the cache stale at once and again after commit.
private struct CachingTransaction: StoreTransaction {
    let inner: any StoreTransaction
    let store: CachingStore
    let watcher: ConfigurationWriteWatcher?
    /// The cache generation when a read transaction began (unused in writes).
    let startGeneration: UInt64
    /// The store's configuration generation this read transaction saw (nil in writes).
    let storeGeneration: Int64?

    private func touch() {
        guard let watcher else { return }
        watcher.changed = true
        store.invalidate()
    }

    func tenant(id: String) throws -> TenantRecord? {
        guard watcher == nil else { return try inner.tenant(id: id) }
        return try store.cached(\.tenantsByID, id, startGeneration: startGeneration, storeGeneration: storeGeneration) {
            try inner.tenant(id: id)
        }
    }
    func tenant(host: String) throws -> TenantRecord? {
        guard watcher == nil else { return try inner.tenant(host: host) }
        return try store.cached(
            \.tenantsByHost, host.lowercased(), startGeneration: startGeneration, storeGeneration: storeGeneration
        ) {
            try inner.tenant(host: host)
        }
    }
    func client(tenantID: String, id: String) throws -> ClientRecord? {
        guard watcher == nil else { return try inner.client(tenantID: tenantID, id: id) }
        return try store.cached(
            \.clients, CachingStore.key(tenantID, id), startGeneration: startGeneration,
            storeGeneration: storeGeneration
        ) {
            try inner.client(tenantID: tenantID, id: id)
        }
    }
    func connection(tenantID: String, id: String) throws -> ConnectionRecord? {
        guard watcher == nil else { return try inner.connection(tenantID: tenantID, id: id) }
        return try store.cached(
            \.connectionsByID, CachingStore.key(tenantID, id), startGeneration: startGeneration,
            storeGeneration: storeGeneration
        ) {
            try inner.connection(tenantID: tenantID, id: id)
        }
    }
    func connection(tenantID: String, name: String) throws -> ConnectionRecord? {
        guard watcher == nil else { return try inner.connection(tenantID: tenantID, name: name) }
        return try store.cached(
            \.connectionsByName, CachingStore.key(tenantID, name), startGeneration: startGeneration,
            storeGeneration: storeGeneration
        ) {
            try inner.connection(tenantID: tenantID, name: name)
        }
    }

    func resourceServer(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        guard watcher == nil else { return try inner.resourceServer(tenantID: tenantID, identifier: identifier) }
        return try store.cached(
            \.resourceServersByIdentifier, CachingStore.key(tenantID, identifier), startGeneration: startGeneration,
            storeGeneration: storeGeneration
        ) {
            try inner.resourceServer(tenantID: tenantID, identifier: identifier)
        }
    }
    func resourceServer(tenantID: String, id: String) throws -> ResourceServerRecord? {
        try inner.resourceServer(tenantID: tenantID, id: id)
    }
    func resourceServers(tenantID: String, page: Page) throws -> [ResourceServerRecord] {
        try inner.resourceServers(tenantID: tenantID, page: page)
    }
    func insertResourceServer(_ server: ResourceServerRecord) throws {
        touch()
        try inner.insertResourceServer(server)
    }
    func updateResourceServer(_ server: ResourceServerRecord) throws {
        touch()
        try inner.updateResourceServer(server)
    }
    func deleteResourceServer(tenantID: String, id: String) throws {
        touch()
        try inner.deleteResourceServer(tenantID: tenantID, id: id)
    }

    func tenants() throws -> [TenantRecord] { try inner.tenants() }
    func configurationGeneration() throws -> Int64 { try inner.configurationGeneration() }
    func insertTenant(_ tenant: TenantRecord) throws {
        touch()
        try inner.insertTenant(tenant)
    }
    func updateTenant(_ tenant: TenantRecord) throws {
        touch()
        try inner.updateTenant(tenant)
    }
    func clients(tenantID: String, page: Page) throws -> [ClientRecord] {
        try inner.clients(tenantID: tenantID, page: page)
    }
    func insertClient(_ client: ClientRecord) throws {
        touch()
        try inner.insertClient(client)
    }
    func updateClient(_ client: ClientRecord) throws {
        touch()
        try inner.updateClient(client)
    }
    func deleteClient(tenantID: String, id: String) throws {
        touch()
        try inner.deleteClient(tenantID: tenantID, id: id)
    }
    func connections(tenantID: String, page: Page) throws -> [ConnectionRecord] {
        try inner.connections(tenantID: tenantID, page: page)
    }
    func insertConnection(_ connection: ConnectionRecord) throws {
        touch()
        try inner.insertConnection(connection)
    }
    func updateConnection(_ connection: ConnectionRecord) throws {
        touch()
        try inner.updateConnection(connection)
    }
    func deleteConnection(tenantID: String, id: String) throws {
        touch()
        try inner.deleteConnection(tenantID: tenantID, id: id)
    }
    func user(tenantID: String, id: String) throws -> UserRecord? { try inner.user(tenantID: tenantID, id: id) }
    func user(tenantID: String, userHandle: [UInt8]) throws -> UserRecord? {
        try inner.user(tenantID: tenantID, userHandle: userHandle)
    }
    func users(tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?) throws
        -> [UserRecord]
    {
        try inner.users(
            tenantID: tenantID, connectionID: connectionID, email: email, phoneNumber: phoneNumber, username: username)
    }
    func users(tenantID: String, query: String?, page: Page) throws -> [UserRecord] {
        try inner.users(tenantID: tenantID, query: query, page: page)
    }
    func insertUser(_ user: UserRecord) throws { try inner.insertUser(user) }
    func updateUser(_ user: UserRecord) throws { try inner.updateUser(user) }
    func deleteUser(tenantID: String, id: String) throws { try inner.deleteUser(tenantID: tenantID, id: id) }
    func passkey(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord? {
        try inner.passkey(tenantID: tenantID, credentialID: credentialID)
    }
    func passkey(tenantID: String, id: String) throws -> PasskeyRecord? {
        try inner.passkey(tenantID: tenantID, id: id)
    }
    func passkeys(tenantID: String, userID: String) throws -> [PasskeyRecord] {
        try inner.passkeys(tenantID: tenantID, userID: userID)
    }
    func insertPasskey(_ passkey: PasskeyRecord) throws { try inner.insertPasskey(passkey) }
    func updatePasskey(_ passkey: PasskeyRecord) throws { try inner.updatePasskey(passkey) }
    func deletePasskey(tenantID: String, id: String) throws { try inner.deletePasskey(tenantID: tenantID, id: id) }
    func signingKeys(tenantID: String) throws -> [SigningKeyRecord] { try inner.signingKeys(tenantID: tenantID) }
    func insertSigningKey(_ key: SigningKeyRecord) throws { try inner.insertSigningKey(key) }
    func updateSigningKey(_ key: SigningKeyRecord) throws { try inner.updateSigningKey(key) }
    func refreshTokens(tenantID: String, page: Page) throws -> [RefreshTokenRecord] {
        try inner.refreshTokens(tenantID: tenantID, page: page)
    }
    func authEvents(tenantID: String, page: Page) throws -> [AuthEventRecord] {
        try inner.authEvents(tenantID: tenantID, page: page)
    }
    func refreshToken(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord? {
        try inner.refreshToken(tenantID: tenantID, tokenHash: tokenHash)
    }
    func insertRefreshToken(_ token: RefreshTokenRecord) throws { try inner.insertRefreshToken(token) }
    func updateRefreshToken(_ token: RefreshTokenRecord) throws { try inner.updateRefreshToken(token) }
    func revokeRefreshTokenFamily(tenantID: String, familyID: String, at: Date) throws -> Int {
        try inner.revokeRefreshTokenFamily(tenantID: tenantID, familyID: familyID, at: at)
    }
    func revokeRefreshTokens(tenantID: String, userID: String, at: Date) throws -> Int {
        try inner.revokeRefreshTokens(tenantID: tenantID, userID: userID, at: at)
    }
    func revokeRefreshTokens(tenantID: String, passkeyID: String, at: Date) throws -> Int {
        try inner.revokeRefreshTokens(tenantID: tenantID, passkeyID: passkeyID, at: at)
    }
    func insertAuthEvents(_ events: [AuthEventRecord]) throws { try inner.insertAuthEvents(events) }
    func insertAuthSession(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    {
        try inner.insertAuthSession(session, maxPerRequester: maxPerRequester, now: now)
    }
    func consumeAuthSession(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try inner.consumeAuthSession(handleHash: handleHash)
    }
    func authSession(handleHash: [UInt8]) throws -> AuthSessionRecord? { try inner.authSession(handleHash: handleHash) }
    func deleteExpiredAuthSessions(now: Date, limit: Int) throws -> Int {
        try inner.deleteExpiredAuthSessions(now: now, limit: limit)
    }
    func recordDPoPProof(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool {
        try inner.recordDPoPProof(tenantID: tenantID, key: key, expiresAt: expiresAt, now: now)
    }
    func authEvents(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord] {
        try inner.authEvents(tenantID: tenantID, since: since, limit: limit)
    }
}

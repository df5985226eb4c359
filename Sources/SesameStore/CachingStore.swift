import Foundation
import Synchronization

/// Keeps tenants, clients and connections in memory in front of another store. They are read on
/// every request (a tenant by host, the client, its connection) and change only through the
/// Management API and `init`, so reading them from the store — a query plus a JSON decode each,
/// about 30% of a login's CPU in the load benchmark — is waste.
///
/// Invalidation: a write transaction that inserts, updates or deletes any tenant, client,
/// connection or API clears the whole cache before and after it commits. Every such write also
/// raises the store's configuration generation in its own transaction, and a read transaction
/// compares it with the generation the cache was filled at, so a change made by another process
/// sharing the database is seen on this process's next request. Inside a `ConfigurationScope` (one
/// request) that comparison happens once, at the first read.
public final class CachingStore: SesameStore {
    struct Cache: Sendable {
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
        let scope = ConfigurationScope.current
        return try inner.read { transaction in
            let seen: Int64
            if let trusted = scope?.trusted(by: self, localGeneration: start),
                let current = cache.withLock({ $0.storeGeneration }), current >= trusted
            {
                // This request already compared the store's generation. The snapshot begins
                // after that comparison, so it is at least as new as what the cache holds.
                seen = current
            } else {
                // Another process's configuration write shows as a newer store generation: what
                // was cached before it is dropped, and a snapshot older than the cache caches
                // nothing.
                seen = try transaction.configurationGeneration()
                cache.withLock { cache in
                    if cache.storeGeneration.map({ seen > $0 }) ?? true {
                        cache = Cache()
                        cache.storeGeneration = seen
                    }
                }
                scope?.record(seen, by: self, localGeneration: start)
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

/// One unit of work, such as an HTTP request, in which a `CachingStore` compares the store's
/// configuration generation once: at the first read, and again only after this process writes
/// configuration. Later reads in the scope trust the cache that comparison validated, so a read
/// the cache answers whole costs the database nothing. A change another process makes is still
/// seen from the next scope on (the next request). Without a scope, every read compares.
public final class ConfigurationScope: Sendable {
    @TaskLocal static var current: ConfigurationScope?

    private struct Check {
        let store: ObjectIdentifier
        let storeGeneration: Int64
        let localGeneration: UInt64
    }
    private let check = Mutex<Check?>(nil)

    private init() {}

    /// Runs `body` in a new scope (nested scopes are independent).
    public static func run<T>(_ body: () throws -> T) rethrows -> T {
        try $current.withValue(ConfigurationScope()) { try body() }
    }

    /// The store generation `store` compared in this scope, if no configuration write of this
    /// process has happened since (`localGeneration` is the cache's write counter).
    fileprivate func trusted(by store: CachingStore, localGeneration: UInt64) -> Int64? {
        check.withLock { check in
            guard let check, check.store == ObjectIdentifier(store), check.localGeneration == localGeneration else {
                return nil
            }
            return check.storeGeneration
        }
    }

    fileprivate func record(_ storeGeneration: Int64, by store: CachingStore, localGeneration: UInt64) {
        check.withLock {
            $0 = Check(
                store: ObjectIdentifier(store), storeGeneration: storeGeneration, localGeneration: localGeneration)
        }
    }
}

/// Notes whether a write touched configuration (tenants, clients, connections).
private final class ConfigurationWriteWatcher: @unchecked Sendable {  // used by one write on one thread
    var changed = false
}

/// The store's transaction, with the configuration repositories put behind the cache. In a read
/// (no watcher), configuration lookups are answered from the cache; in a write (a watcher), reads go
/// to the store, so they see the transaction's own changes, and any configuration change marks the
/// cache stale at once and again after commit. Every other repository is the store's own.
private struct CachingTransaction: StoreTransaction {
    let inner: any StoreTransaction
    let store: CachingStore
    let watcher: ConfigurationWriteWatcher?
    /// The cache generation when a read transaction began (unused in writes).
    let startGeneration: UInt64
    /// The store's configuration generation this read transaction saw (nil in writes).
    let storeGeneration: Int64?

    var tenants: any TenantRepository { CachedTenants(inner: inner.tenants, scope: scope) }
    var clients: any ClientRepository { CachedClients(inner: inner.clients, scope: scope) }
    var connections: any ConnectionRepository { CachedConnections(inner: inner.connections, scope: scope) }
    var resourceServers: any ResourceServerRepository {
        CachedResourceServers(inner: inner.resourceServers, scope: scope)
    }
    var users: any UserRepository { inner.users }
    var passkeys: any PasskeyRepository { inner.passkeys }
    var signingKeys: any SigningKeyRepository { inner.signingKeys }
    var refreshTokens: any RefreshTokenRepository { inner.refreshTokens }
    var authSessions: any AuthSessionRepository { inner.authSessions }
    var dpopProofs: any DPoPProofRepository { inner.dpopProofs }
    var authEvents: any AuthEventRepository { inner.authEvents }
    var attemptCounters: any AttemptCounterRepository { inner.attemptCounters }
    var outbox: any OutboxRepository { inner.outbox }
    var ssoSessions: any SSOSessionRepository { inner.ssoSessions }
    var deviceKeys: any DeviceKeyRepository { inner.deviceKeys }
    var linkedIdentities: any LinkedIdentityRepository { inner.linkedIdentities }
    var authenticatorMetadata: any AuthenticatorMetadataRepository { inner.authenticatorMetadata }
    var auditEvents: any AuditEventRepository { inner.auditEvents }
    func configurationGeneration() throws -> Int64 { try inner.configurationGeneration() }

    private var scope: CacheScope {
        CacheScope(store: store, watcher: watcher, startGeneration: startGeneration, storeGeneration: storeGeneration)
    }
}

/// What a cached repository needs of its transaction: the cache, and whether it is a write.
private struct CacheScope {
    let store: CachingStore
    let watcher: ConfigurationWriteWatcher?
    let startGeneration: UInt64
    let storeGeneration: Int64?

    /// Marks a write as a configuration change (the cache is dropped now and after commit).
    func touch() {
        guard let watcher else { return }
        watcher.changed = true
        store.invalidate()
    }

    /// In a read, the cached value (or `load()`, cached); in a write, `load()`.
    func lookup<Value: Sendable>(
        _ path: WritableKeyPath<CachingStore.Cache, [String: Value?]>, _ key: String, load: () throws -> Value?
    ) throws -> Value? {
        guard watcher == nil else { return try load() }
        return try store.cached(
            path, key, startGeneration: startGeneration, storeGeneration: storeGeneration, load: load)
    }
}

private struct CachedTenants: TenantRepository {
    let inner: any TenantRepository
    let scope: CacheScope

    func get(id: String) throws -> TenantRecord? {
        try scope.lookup(\.tenantsByID, id) { try inner.get(id: id) }
    }
    func get(host: String) throws -> TenantRecord? {
        try scope.lookup(\.tenantsByHost, host.lowercased()) { try inner.get(host: host) }
    }
    func all() throws -> [TenantRecord] { try inner.all() }
    func insert(_ tenant: TenantRecord) throws {
        scope.touch()
        try inner.insert(tenant)
    }
    func update(_ tenant: TenantRecord) throws {
        scope.touch()
        try inner.update(tenant)
    }
}

/// A configuration repository in front of the store's: its lists go to the store, and each write
/// clears the cache before it goes there too.
private protocol CachedConfigurations: ConfigurationRepository {
    var scope: CacheScope { get }
    /// The store's repository.
    var behind: any ConfigurationRepository<Record> { get }
}

/// `repository` as a `ConfigurationRepository` (the compiler does not convert `any ClientRepository`
/// to `any ConfigurationRepository<ClientRecord>` directly; opened here, it does).
private func configurations<Repository: ConfigurationRepository>(_ repository: Repository)
    -> any ConfigurationRepository<Repository.Record>
{
    repository
}

extension CachedConfigurations {
    func list(tenantID: String, page: Page) throws -> [Record] { try behind.list(tenantID: tenantID, page: page) }
    func insert(_ record: Record) throws {
        scope.touch()
        try behind.insert(record)
    }
    func update(_ record: Record) throws {
        scope.touch()
        try behind.update(record)
    }
    func delete(tenantID: String, id: String) throws {
        scope.touch()
        try behind.delete(tenantID: tenantID, id: id)
    }
}

private struct CachedClients: ClientRepository, CachedConfigurations {
    let inner: any ClientRepository
    let scope: CacheScope
    var behind: any ConfigurationRepository<ClientRecord> { configurations(inner) }

    func get(tenantID: String, id: String) throws -> ClientRecord? {
        try scope.lookup(\.clients, CachingStore.key(tenantID, id)) { try inner.get(tenantID: tenantID, id: id) }
    }
}

private struct CachedConnections: ConnectionRepository, CachedConfigurations {
    let inner: any ConnectionRepository
    let scope: CacheScope
    var behind: any ConfigurationRepository<ConnectionRecord> { configurations(inner) }

    func get(tenantID: String, id: String) throws -> ConnectionRecord? {
        try scope.lookup(\.connectionsByID, CachingStore.key(tenantID, id)) {
            try inner.get(tenantID: tenantID, id: id)
        }
    }
    func get(tenantID: String, name: String) throws -> ConnectionRecord? {
        try scope.lookup(\.connectionsByName, CachingStore.key(tenantID, name)) {
            try inner.get(tenantID: tenantID, name: name)
        }
    }
}

private struct CachedResourceServers: ResourceServerRepository, CachedConfigurations {
    let inner: any ResourceServerRepository
    let scope: CacheScope
    var behind: any ConfigurationRepository<ResourceServerRecord> { configurations(inner) }

    func get(tenantID: String, id: String) throws -> ResourceServerRecord? { try inner.get(tenantID: tenantID, id: id) }
    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try scope.lookup(\.resourceServersByIdentifier, CachingStore.key(tenantID, identifier)) {
            try inner.get(tenantID: tenantID, identifier: identifier)
        }
    }
}

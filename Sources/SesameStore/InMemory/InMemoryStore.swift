import Foundation
import Synchronization

/// A store that keeps everything in process memory: for tests and development. It follows exactly
/// the rules `SQLiteStore` enforces (the storage conformance suite runs against both).
///
/// Reads see a snapshot of the committed state. Writes are serialised; each runs on a copy of the
/// state that replaces the committed state only if the body returns, so a throwing body writes nothing.
public final class InMemoryStore: SesameStore {
    private let committed = Mutex(MemoryState())
    /// Serialises writers; held for the whole body of a write.
    private let writer = WriterLock()

    /// Creates an empty store.
    public init() {}

    public func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        let snapshot = committed.withLock { $0 }
        let transaction = MemoryTransaction(state: snapshot, writable: false)
        defer { transaction.close() }
        return try body(transaction)
    }

    public func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T {
        try writer.withLock {
            let transaction = MemoryTransaction(state: committed.withLock { $0 }, writable: true)
            defer { transaction.close() }
            let result = try body(transaction)
            let changed = transaction.state
            committed.withLock { $0 = changed }
            return result
        }
    }
}

/// A record's key: tenant id and record id.
struct MemoryKey: Hashable, Sendable {
    var tenantID: String
    var id: String
}

/// A roll-up cell of one tenant.
struct MemoryDailyKey: Sendable, Hashable {
    var tenantID: String
    var cell: AuthDailyCount
}

/// Everything an `InMemoryStore` holds.
struct MemoryState: Sendable {
    var tenants: [String: TenantRecord] = [:]
    var clients: [MemoryKey: ClientRecord] = [:]
    var connections: [MemoryKey: ConnectionRecord] = [:]
    var resourceServers: [MemoryKey: ResourceServerRecord] = [:]
    var users: [MemoryKey: UserRecord] = [:]
    var passkeys: [MemoryKey: PasskeyRecord] = [:]
    var signingKeys: [MemoryKey: SigningKeyRecord] = [:]
    var refreshTokens: [MemoryKey: RefreshTokenRecord] = [:]
    var authEvents: [MemoryKey: AuthEventRecord] = [:]
    /// Pending ceremonies by the hex of their handle hash.
    var authSessions: [String: AuthSessionRecord] = [:]
    /// DPoP proof keys by tenant and hex key, with their expiry.
    var dpopProofs: [MemoryKey: Date] = [:]
    /// Attempt counters by tenant and hex key.
    var attemptCounters: [MemoryKey: AttemptCount] = [:]
    var outbox: [MemoryKey: OutboxMessageRecord] = [:]
    var ssoSessions: [MemoryKey: SSOSessionRecord] = [:]
    var deviceKeys: [MemoryKey: DeviceKeyRecord] = [:]
    /// Linked identities by tenant and "<connection id> <subject>".
    var linkedIdentities: [MemoryKey: LinkedIdentityRecord] = [:]
    /// The imported FIDO metadata BLOB, and its entries by "aaguid:<aaguid>" and "key:<hex>".
    var metadataBLOB: MetadataBLOBRecord?
    var metadataEntries: [String: AuthenticatorMetadataRecord] = [:]
    var auditEvents: [MemoryKey: AuditEventRecord] = [:]
    /// The auth events' daily roll-up: each cell (without its count) and its count.
    var dailyCounts: [MemoryDailyKey: Int] = [:]
    /// Raised by every tenant, client, connection and resource-server write.
    var configurationGeneration: Int64 = 0
}

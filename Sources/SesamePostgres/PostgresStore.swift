import Dispatch
import Foundation
import SesameSQL
import SesameStore
import Synchronization

/// The store for several processes: PostgreSQL over libpq.
///
/// **Isolation.** Every write runs `SERIALIZABLE`: it commits only if the result is what some
/// one-at-a-time order of the concurrent writes would give, so the contract's read-check-write
/// paths (refresh rotation, counters, auth-session consumption, identifier uniqueness) are as
/// correct as under SQLite's single writer. A write that loses a serialisation race is run again,
/// from the start, up to `maxAttempts` times. Reads run `REPEATABLE READ, READ ONLY`: one snapshot.
///
/// **Durability.** `.durable` commits with `synchronous_commit = on`, `.relaxed` with `off` (the
/// commit may be lost in a server crash, never half-applied).
///
/// **Connections.** A pool of at most `maxConnections`; a caller waits up to `acquireTimeout` for
/// one, then gets 503. A broken connection (the server restarted) is dropped and a new one opened on
/// the next request, so the server recovers by itself.
public final class PostgresStore: SesameStore {
    /// The libpq connection string or URI.
    public let dsn: String
    public let maxConnections: Int
    public static let maxAttempts = 8
    public static let acquireTimeout: TimeInterval = 5
    private let idle = Mutex<[PostgresConnection]>([])
    private let slots: DispatchSemaphore
    /// Read transactions that began on the database (tests: a read the cache answers whole does not).
    private let readsBegun = Atomic<Int>(0)
    /// How many read transactions have begun on the database since the store was opened.
    var beganReads: Int { readsBegun.load(ordering: .relaxed) }
    /// Threads inside a write: a write opened from inside another on the same thread would wait on
    /// its own row locks for ever, so it throws instead (as the other stores do).
    private let writers = Mutex<Set<ObjectIdentifier>>([])

    /// Connects, and brings the schema up to date (under an advisory lock: several processes may
    /// start at once). Throws `StoreError.unavailable` when the database cannot be reached or was
    /// migrated by a newer Sesame.
    public init(dsn: String, maxConnections: Int = 16) throws {
        self.dsn = dsn
        self.maxConnections = max(1, maxConnections)
        slots = DispatchSemaphore(value: self.maxConnections)
        let connection = try PostgresConnection(dsn: dsn)
        try Self.migrate(connection)
        idle.withLock { $0.append(connection) }
    }

    /// Creates schema `name` (letters, digits and `_` only) on the server `dsn` names: for tests
    /// and tools that keep several stores in one database.
    public static func createSchema(_ name: String, dsn: String) throws {
        try PostgresConnection(dsn: dsn).script("CREATE SCHEMA \(try identifier(name))")
    }

    /// Drops schema `name` with everything in it.
    public static func dropSchema(_ name: String, dsn: String) throws {
        try PostgresConnection(dsn: dsn).script("DROP SCHEMA IF EXISTS \(try identifier(name)) CASCADE")
    }

    private static func identifier(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 63,
            name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
            )
        else { throw StoreError.unavailable("\(name) is not a plain schema name") }
        return name
    }

    private static func migrate(_ connection: PostgresConnection) throws {
        try connection.script("BEGIN")
        do {
            try connection.script("SELECT pg_advisory_xact_lock(\(PostgresMigrations.lockKey))")
            try connection.script(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at TEXT NOT NULL)")
            let applied = Set(try connection.query("SELECT version FROM schema_migrations", []) { $0.integer(0) })
            let known = Int64(PostgresMigrations.all.count)
            if let newest = applied.max(), newest > known {
                throw StoreError.unavailable(
                    "the database has schema version \(newest) but this Sesame knows versions up to \(known): "
                        + "run a newer Sesame")
            }
            for (offset, migration) in PostgresMigrations.all.enumerated() where !applied.contains(Int64(offset + 1)) {
                switch migration {
                case .sql(let script): try connection.script(script)
                case .records(let step): try step(connection)
                }
                try connection.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, to_char(now() AT TIME ZONE 'UTC', "
                        + "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
                    [.integer(Int64(offset + 1))])
            }
            try connection.script("COMMIT")
        } catch {
            connection.executeIgnoringErrors("ROLLBACK")
            throw error
        }
    }

    public func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        // Nothing is taken from the pool until the body runs its first statement: a read the
        // configuration cache answers whole costs no connection and no round trip. The snapshot's
        // configuration generation comes back with BEGIN, in the same round trip.
        var held: PostgresConnection?
        var holdsSlot = false
        defer {
            if let held, held.isHealthy { idle.withLock { $0.append(held) } }
            if holdsSlot { slots.signal() }
        }
        let transaction = SQLTransaction(lazyRead: { [self] in
            readsBegun.add(1, ordering: .relaxed)
            guard slots.wait(timeout: .now() + Self.acquireTimeout) == .success else {
                throw StoreError.unavailable("no database connection became free in time")
            }
            holdsSlot = true
            var connection = try idle.withLock { $0.popLast() } ?? PostgresConnection(dsn: dsn)
            held = connection
            let generation: String?
            do {
                generation = try connection.begin(Self.readBegin)
            } catch is PostgresReconnect {
                // The server went away and came back since this connection was last used: nothing
                // ran on it, so begin again on a new one (one that fails is 503).
                connection = try PostgresConnection(dsn: dsn)
                held = connection
                do {
                    generation = try connection.begin(Self.readBegin)
                } catch is PostgresReconnect {
                    throw StoreError.unavailable("the database connection broke; nothing was written")
                }
            }
            return (connection, generation.flatMap { Int64($0) })
        })
        defer { transaction.close() }
        do {
            let result = try body(transaction)
            if transaction.begun, let held { try held.script("COMMIT") }
            return result
        } catch {
            if transaction.begun, let held { held.executeIgnoringErrors("ROLLBACK") }
            throw error
        }
    }

    private static let readBegin =
        "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; SELECT value FROM configuration_generation WHERE id = 1"

    public func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let me = ObjectIdentifier(Thread.current)
        guard writers.withLock({ $0.insert(me).inserted }) else {
            throw StoreError.unavailable("a write transaction is already open on this thread")
        }
        defer { _ = writers.withLock { $0.remove(me) } }
        var attempt = 1
        while true {
            do {
                return try withConnection { connection in try once(durability, connection, body) }
            } catch is PostgresRetry where attempt < Self.maxAttempts {
                attempt += 1
            } catch is PostgresRetry {
                throw StoreError.unavailable("the write kept conflicting with concurrent writes; nothing was written")
            }
        }
    }

    private func once<T>(
        _ durability: Durability, _ connection: PostgresConnection, _ body: (any StoreTransaction) throws -> T
    ) throws -> T {
        try connection.begin(
            "BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL synchronous_commit = \(durability == .durable ? "on" : "off")"
        )
        let transaction = SQLTransaction(connection: connection, writable: true)
        connection.guardsStatements = true
        defer {
            connection.guardsStatements = false
            transaction.close()
        }
        do {
            let result = try body(transaction)
            try connection.script("COMMIT")
            return result
        } catch {
            connection.executeIgnoringErrors("ROLLBACK")
            // A serialisation failure surfaces as whatever the body made of it: look underneath.
            if let retry = error as? PostgresRetry { throw retry }
            throw error
        }
    }

    /// A pooled connection for `body`; a broken one is closed instead of being put back.
    private func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard slots.wait(timeout: .now() + Self.acquireTimeout) == .success else {
            throw StoreError.unavailable("no database connection became free in time")
        }
        defer { slots.signal() }
        var connection = try idle.withLock { $0.popLast() } ?? PostgresConnection(dsn: dsn)
        defer {
            if connection.isHealthy { idle.withLock { $0.append(connection) } }
        }
        do {
            return try body(connection)
        } catch is PostgresReconnect {
            // The server went away and came back since this connection was last used: the
            // transaction never began, so begin it on a new connection (one that fails is 503).
            connection = try PostgresConnection(dsn: dsn)
            do {
                return try body(connection)
            } catch is PostgresReconnect {
                throw StoreError.unavailable("the database connection broke; nothing was written")
            }
        }
    }
}

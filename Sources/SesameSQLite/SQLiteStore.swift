import Foundation
import SesameSQL
import SesameStore
import Synchronization

/// The default store: one SQLite database file in WAL mode.
///
/// Writes go through a single writer connection, one at a time; a `.durable` write commits with
/// `synchronous=FULL` (on disk before it returns), a `.relaxed` one with `NORMAL`. Reads run on a
/// small pool of reader connections, each in its own snapshot transaction, concurrently with the
/// writer. Every connection keeps its prepared statements. The schema is migrated at open.
public final class SQLiteStore: SesameStore {
    /// The database file.
    public let path: String
    private let writer: SQLiteConnection
    /// Checkpoints the WAL on its own thread, so a commit never waits for the copy and the sync.
    let checkpointer: WALCheckpointer
    /// Serialises writers; held for the whole body of a write.
    private let writerLock = WriterLock()
    /// The write transaction writers share (group commit), open between the writes that arrive
    /// while one is running; guarded by `writerLock`.
    private nonisolated(unsafe) var openGroupCommit: GroupCommit?
    /// Writers waiting for `writerLock`: while there are any, a finished write leaves its
    /// transaction open for them, and the last one commits for all.
    private let waitingWriters = Atomic<Int>(0)
    /// The most writes one commit holds (then it commits even with writers waiting).
    static let maxGroupMembers = 64
    /// Write transactions committed (tests: how many writes shared one).
    private let commitCount = Atomic<Int>(0)
    /// Idle reader connections; more are opened on demand and at most `maxIdleReaders` kept.
    private let readers = Mutex<[SQLiteConnection]>([])
    private let maxIdleReaders = 8
    /// Read transactions that began on the database (tests: a read the cache answers whole does not).
    private let readsBegun = Atomic<Int>(0)

    /// Opens the database at `path`, creating it (mode 0600) if missing, and brings its schema up
    /// to date. Throws `StoreError.unavailable` if it cannot be opened or was written by a newer
    /// Sesame (a migration this build does not know).
    public convenience init(path: String) throws {
        try self.init(path: path, checkpointPages: WALCheckpointer.defaultThreshold)
    }

    /// The same, with the WAL size (in pages) at which the background checkpoint starts (tests
    /// make it small).
    init(path: String, checkpointPages: Int32) throws {
        self.path = path
        try Self.createFile(path)
        writer = try SQLiteConnection(path: path, reader: false)
        let mode = try writer.query("PRAGMA journal_mode = WAL") { $0.text(0) ?? "" }.first ?? ""
        guard mode.lowercased() == "wal" else {
            throw StoreError.unavailable("cannot switch \(path) to WAL mode (journal mode is \(mode))")
        }
        try writer.execute("PRAGMA synchronous = NORMAL")
        // A group commit's members each run in a savepoint, whose undo pages SQLite keeps in a
        // statement journal: in memory, not in a temporary file opened, written and unlinked
        // once a member dirties more than 64 KiB (the batched flushes did, once per flush).
        try writer.execute("PRAGMA temp_store = MEMORY")
        try Self.migrate(writer)
        checkpointer = try WALCheckpointer(
            connection: try SQLiteConnection(path: path, reader: false), threshold: checkpointPages)
        writer.reportCommits(to: checkpointer)
    }

    deinit {
        checkpointer.stop()
    }

    /// Creates the file with mode 0600 if it does not exist (SQLite gives its -wal and -shm the same mode).
    private static func createFile(_ path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError.unavailable("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }

    /// Applies the migrations not yet recorded, in one transaction.
    private static func migrate(_ connection: SQLiteConnection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try connection.executeScript(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
            let applied = Set(try connection.query("SELECT version FROM schema_migrations") { $0.integer(0) })
            let known = Int64(Migrations.all.count)
            if let newest = applied.max(), newest > known {
                throw StoreError.unavailable(
                    "the database has schema version \(newest) but this Sesame knows versions up to \(known): "
                        + "run a newer Sesame")
            }
            for (offset, migration) in Migrations.all.enumerated() where !applied.contains(Int64(offset + 1)) {
                switch migration {
                case .sql(let script): try connection.executeScript(script)
                case .records(let step): try step(connection)
                }
                try connection.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                    [.integer(Int64(offset + 1))])
            }
            try connection.execute("COMMIT")
        } catch {
            connection.executeIgnoringErrors("ROLLBACK")
            throw error
        }
    }

    public func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        let connection = try checkOutReader()
        var healthy = true
        defer { checkIn(connection, healthy: healthy) }
        // BEGIN goes out with the first statement: a read the configuration cache answers whole
        // takes no lock and touches no file.
        let transaction = SQLTransaction(lazyRead: { [self] in
            readsBegun.add(1, ordering: .relaxed)
            do {
                try connection.execute("BEGIN")
            } catch {
                healthy = false
                throw error
            }
            return (connection, nil)
        })
        defer { transaction.close() }
        let result: T
        do {
            result = try body(transaction)
        } catch {
            if transaction.begun {
                connection.executeIgnoringErrors("ROLLBACK")
                healthy = healthy && connection.isAutocommit
            }
            throw error
        }
        guard transaction.begun else { return result }
        do {
            try connection.execute("COMMIT")
        } catch {
            connection.executeIgnoringErrors("ROLLBACK")
            healthy = connection.isAutocommit
            throw error
        }
        return result
    }

    public func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T {
        // Only a writer that will take the lock may be counted as waiting for it: a finished write
        // hands its open transaction on to the waiting ones.
        guard !writerLock.heldByCurrentThread else {
            throw StoreError.unavailable("a write transaction is already open on this thread")
        }
        waitingWriters.add(1, ordering: .relaxed)
        let (result, joined): (T, GroupCommit?) = try writerLock.withLock {
            waitingWriters.subtract(1, ordering: .relaxed)
            let group = try openGroup(durability)
            let member = group.members > 0
            let transaction = SQLTransaction(connection: writer, writable: true)
            defer { transaction.close() }
            let outcome: Result<T, any Error>
            do {
                // The first write needs no savepoint: if it fails, nothing else is in the transaction.
                if member { try writer.execute("SAVEPOINT group_member") }
                let value = try body(transaction)
                if member { try writer.execute("RELEASE group_member") }
                group.members += 1
                outcome = .success(value)
            } catch {
                outcome = .failure(error)
                if !writer.isAutocommit, member {
                    writer.executeIgnoringErrors("ROLLBACK TO group_member")
                    writer.executeIgnoringErrors("RELEASE group_member")
                }
            }
            switch outcome {
            case .success(let result): return (result, try endTurn(group) ? group : nil)
            case .failure(let error):
                // The writes before this one in the group still commit (or go on to the next writer).
                _ = try? endTurn(group)
                throw error
            }
        }
        try joined?.waitForCommit()
        return result
    }

    /// The group the writer connection has open, or a new one. A durable write does not join a
    /// relaxed group (a transaction's `synchronous` level is fixed at BEGIN): the open group is
    /// committed first. Runs under the writer lock.
    private func openGroup(_ durability: Durability) throws -> GroupCommit {
        if let group = openGroupCommit {
            if group.durable || durability == .relaxed { return group }
            try commit(group)
        }
        if durability == .durable { try writer.execute("PRAGMA synchronous = FULL") }
        do {
            try writer.execute("BEGIN IMMEDIATE")
        } catch {
            if durability == .durable { writer.executeIgnoringErrors("PRAGMA synchronous = NORMAL") }
            throw error
        }
        let group = GroupCommit(durable: durability == .durable)
        openGroupCommit = group
        return group
    }

    /// After a write's body: leaves the transaction open for the next writer if one is waiting
    /// (returns true; the caller then waits for that group's commit), else commits it, or rolls it
    /// back if no write in it succeeded. Throws the commit's error, or if SQLite already rolled the
    /// transaction back. Runs under the writer lock.
    private func endTurn(_ group: GroupCommit) throws -> Bool {
        if writer.isAutocommit {
            // SQLite rolled the whole transaction back (a full disk, an I/O error): every write
            // that had joined it is lost, and their callers learn it, this one too.
            let error = StoreError.unavailable("the write transaction was rolled back")
            finish(group, .failure(error))
            throw error
        }
        if group.members > 0, group.members < Self.maxGroupMembers,
            waitingWriters.load(ordering: .relaxed) > 0
        {
            return true
        }
        if group.members == 0 {
            writer.executeIgnoringErrors("ROLLBACK")
            finish(group, .success(()))
            return false
        }
        try commit(group)
        return false
    }

    /// Commits `group`'s transaction and tells the writes waiting for it. Runs under the writer lock.
    private func commit(_ group: GroupCommit) throws {
        do {
            try writer.execute("COMMIT")
            commitCount.add(1, ordering: .relaxed)
            finish(group, .success(()))
        } catch {
            if !writer.isAutocommit { writer.executeIgnoringErrors("ROLLBACK") }
            finish(group, .failure(error))
            throw error
        }
    }

    private func finish(_ group: GroupCommit, _ outcome: Result<Void, any Error>) {
        if group.durable { writer.executeIgnoringErrors("PRAGMA synchronous = NORMAL") }
        openGroupCommit = nil
        group.complete(outcome)
    }

    private func checkOutReader() throws -> SQLiteConnection {
        if let idle = readers.withLock({ $0.popLast() }) { return idle }
        return try SQLiteConnection(path: path, reader: true)
    }

    private func checkIn(_ connection: SQLiteConnection, healthy: Bool) {
        guard healthy else { return }
        readers.withLock { idle in
            if idle.count < maxIdleReaders { idle.append(connection) }
        }
    }

    // MARK: For tests and diagnostics

    /// Write transactions committed since the store was opened.
    var commits: Int { commitCount.load(ordering: .relaxed) }

    /// Writers waiting for the writer lock now.
    var writersWaiting: Int { waitingWriters.load(ordering: .relaxed) }

    /// How many read transactions have begun on the database since it was opened.
    var beganReads: Int { readsBegun.load(ordering: .relaxed) }

    /// The applied migrations: version and when (ISO 8601, UTC).
    func appliedMigrations() throws -> [(version: Int, appliedAt: String)] {
        try writerLock.withLock {
            try writer.query("SELECT version, applied_at FROM schema_migrations ORDER BY version") {
                (Int($0.integer(0)), $0.text(1) ?? "")
            }
        }
    }

    /// Runs raw SQL on the writer connection, outside any store transaction (tests only).
    func executeRaw(_ sql: String) throws {
        try writerLock.withLock { try writer.executeScript(sql) }
    }

    /// Column 0 of each row of `sql` as bytes, read on the writer connection (tests only).
    func rawBytes(_ sql: String) throws -> [[UInt8]] {
        try writerLock.withLock { try writer.query(sql) { $0.bytes(0) } }
    }

    /// The writer's `PRAGMA synchronous` value (1 = NORMAL, 2 = FULL).
    func writerSynchronous() throws -> Int {
        try writerLock.withLock {
            Int(try writer.query("PRAGMA synchronous") { $0.integer(0) }.first ?? -1)
        }
    }
}

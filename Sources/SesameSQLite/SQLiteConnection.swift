internal import CSQLite
import Foundation
import SesameSQL
import SesameStore

/// The one owner of a database connection (`sqlite3*`): closes it in `deinit`. Caches its prepared
/// statements by SQL text and its JSON coders. Used by one thread at a time (it is opened
/// without SQLite's own mutex); the store hands it out under a lock, hence `@unchecked Sendable`.
final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    private let db: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    private let json = RecordJSON()
    /// Where the writer reports its commits' WAL sizes (`reportCommits(to:)`); nil on the others.
    private var checkpointer: WALCheckpointer?

    /// Opens (creating if needed) the database at `path`. A reader is made query-only.
    init(path: String, reader: Bool) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else { throw StoreError.unavailable("cannot open \(path): out of memory") }
        guard rc == SQLITE_OK else {
            let error = StoreErrorMapping.error(db: handle, code: rc)
            sqlite3_close_v2(handle)
            throw error
        }
        db = handle
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA foreign_keys = ON")
        if reader { try execute("PRAGMA query_only = ON") }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(db)
    }

    /// Reports each commit's WAL size to `checkpointer` instead of checkpointing inside the commit
    /// (the hook replaces SQLite's auto-checkpoint). The writer connection only.
    func reportCommits(to checkpointer: WALCheckpointer) {
        self.checkpointer = checkpointer
        // The context is this connection, unretained: the hook lives no longer than its `db`.
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            db,
            { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
                return connection.checkpointer?.committed(pages: pages, writer: connection) ?? SQLITE_OK
            }, context)
    }

    /// One passive checkpoint of the main database: copies what no reader still needs and syncs
    /// the file, without waiting for any lock. Returns SQLite's result code.
    @discardableResult func checkpointPassive() -> Int32 {
        sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// True when no transaction is open.
    var isAutocommit: Bool { sqlite3_get_autocommit(db) != 0 }

    /// The cached statement for `sql`, prepared on first use.
    private func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let prepared = try SQLiteStatement(db: db, sql: sql)
        statements[sql] = prepared
        return prepared
    }

    /// Runs one statement that returns no rows of interest; returns the number of rows it changed.
    @discardableResult func execute(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(values, db: db)
        while try statement.step(db: db) {}
        return Int(sqlite3_changes(db))
    }

    /// Runs `sql` when its failure cannot be reported any better than the error already in flight
    /// (a ROLLBACK after a failure, restoring a pragma).
    func executeIgnoringErrors(_ sql: String) {
        do { try execute(sql) } catch {}
    }

    /// Runs one query and maps each row.
    func query<R>(_ sql: String, _ values: [SQLValue] = [], row: (any SQLRow) throws -> R) throws -> [R] {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(values, db: db)
        var rows: [R] = []
        while try statement.step(db: db) { rows.append(try row(statement)) }
        return rows
    }

    /// Runs a script of several statements (migrations), uncached.
    func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw StoreError.unavailable(text)
        }
    }

    /// Decodes the JSON `data` column `index` of the current row as `T`; `corrupt` if it does not decode.
    func decode<T: Decodable>(_ type: T.Type, _ statement: any SQLRow, column index: Int32, table: String) throws
        -> T
    {
        try json.decode(T.self, from: statement.data(index), table: table)
    }

    /// The JSON for `record`.
}

import Foundation
import SesameStore

/// One store transaction over one SQL connection, for every SQL backend (SQLite, PostgreSQL): the
/// backend opens and ends the database transaction, this type runs the contract's statements in it.
/// An operation made of several statements runs inside a savepoint, so if it throws it leaves
/// nothing behind even when the body goes on.
public final class SQLTransaction: StoreTransaction {
    /// The connection (nil until a lazily begun read begins).
    private var underlying: (any SQLConnection)?
    private let writable: Bool
    private var open = true
    /// What a lazily begun read runs before its first statement (nil: begun, or eager): it
    /// begins the transaction and returns the connection it runs on and, when the backend read it
    /// in the same round trip, the configuration generation.
    private var pendingBegin: (() throws -> (any SQLConnection, Int64?))?

    /// The configuration generation, when the backend read it with the transaction's first
    /// statement (a read transaction's snapshot cannot change it).
    private var knownGeneration: Int64?

    /// A transaction the backend has already begun.
    public init(connection: any SQLConnection, writable: Bool, configurationGeneration: Int64? = nil) {
        underlying = connection
        self.writable = writable
        knownGeneration = writable ? nil : configurationGeneration
    }

    /// A read transaction that begins (`begin()`) just before its first statement. A read whose
    /// lookups are all answered elsewhere (the configuration cache) then costs the database
    /// nothing, not even a connection. Both backends take a read's snapshot at its first
    /// statement, not at BEGIN, so deferring BEGIN changes no answer.
    public init(lazyRead begin: @escaping () throws -> (any SQLConnection, Int64?)) {
        writable = false
        pendingBegin = begin
    }

    /// Whether the transaction has begun on the database (a lazily begun read that ran no
    /// statement has not, and has nothing to commit or roll back).
    public var begun: Bool { pendingBegin == nil }

    /// The connection, with the transaction begun on it.
    var connection: any SQLConnection {
        get throws {
            try checkOpen()
            if let begin = pendingBegin {
                pendingBegin = nil
                do {
                    let (connection, generation) = try begin()
                    underlying = connection
                    if knownGeneration == nil { knownGeneration = generation }
                } catch {
                    // Never run a statement outside the transaction the body asked for.
                    open = false
                    throw error
                }
            }
            guard let underlying else { throw StoreError.unavailable("the transaction has ended") }
            return underlying
        }
    }

    /// Ends the transaction: any later call throws.
    public func close() { open = false }

    func checkOpen() throws {
        guard open else { throw StoreError.unavailable("the transaction has ended") }
    }

    func checkWritable() throws {
        try checkOpen()
        guard writable else { throw StoreError.unavailable("write in a read transaction") }
    }

    /// Moves the time in `column` of the tenant's row `id` of `table` forward to `at`: a later time
    /// there is kept (two logins racing leave the latest), and a missing row is no error.
    func moveForward(_ table: String, _ column: String, to at: Date, tenantID: String, id: String) throws {
        try checkWritable()
        try connection.executeNarrow(
            """
            UPDATE \(table) SET \(column) = ?1 WHERE tenant_id = ?2 AND id = ?3
            AND (\(column) IS NULL OR \(column) < ?1)
            """, [Self.time(at), .text(tenantID), .text(id)])
    }

    /// The count a `SELECT COUNT(…)` statement answers (0 for no row).
    func count(_ sql: String, _ values: [SQLValue]) throws -> Int {
        Int(try connection.query(sql, values) { $0.integer(0) }.first ?? 0)
    }

    /// Runs `body` in a savepoint: all of it or none of it.
    func atomically<T>(_ body: () throws -> T) throws -> T {
        try connection.execute("SAVEPOINT store_operation")
        do {
            let result = try body()
            try connection.execute("RELEASE store_operation")
            return result
        } catch {
            underlying?.executeIgnoringErrors("ROLLBACK TO store_operation")
            underlying?.executeIgnoringErrors("RELEASE store_operation")
            throw error
        }
    }

    /// The records decoded from the `data` column (column 0) of each row of `sql`.
    func records<T: Decodable>(_ type: T.Type, table: String, _ sql: String, _ values: [SQLValue]) throws
        -> [T]
    {
        try connection.query(sql, values) { row in try decode(T.self, row, column: 0, table: table) }
    }

    /// The record in column `index` of `row` (`StoredRecord.decode`).
    func decode<T: Decodable>(_ type: T.Type, _ row: any SQLRow, column index: Int32, table: String) throws -> T {
        try StoredRecord.decode(T.self, row, column: index, table: table, legacyJSON: try connection)
    }

    /// The `data` value for `record` (`StoredRecord.encode`).
    func encode(_ record: some BinaryCodedRecord) -> SQLValue { StoredRecord.encode(record) }

    func record<T: Decodable>(_ type: T.Type, table: String, _ sql: String, _ values: [SQLValue]) throws -> T? {
        try records(T.self, table: table, sql, values).first
    }

    static func paging(_ page: Page) -> [SQLValue] {
        [.integer(Int64(page.limit)), .integer(Int64(page.offset))]
    }

    static func time(_ date: Date) -> SQLValue { .real(date.timeIntervalSinceReferenceDate) }

    public static func optionalTime(_ date: Date?) -> SQLValue { date.map(time) ?? .null }

    public func configurationGeneration() throws -> Int64 {
        try checkOpen()
        if let knownGeneration { return knownGeneration }
        let connection = try connection
        if let knownGeneration { return knownGeneration }
        return try connection.query("SELECT value FROM configuration_generation WHERE id = 1") { row in
            row.integer(0)
        }.first ?? 0
    }

    static func authSession(_ row: any SQLRow) -> AuthSessionRecord {
        AuthSessionRecord(
            handleHash: row.bytes(0), tenantID: row.text(1) ?? "", requester: row.text(2) ?? "",
            expiresAt: Date(timeIntervalSinceReferenceDate: row.double(3)), payload: row.bytes(4))
    }

    // MARK: For tests

    /// SQLite only (tests): this connection's `PRAGMA synchronous` (1 = NORMAL, 2 = FULL).
    public func synchronousLevel() throws -> Int {
        Int(try connection.query("PRAGMA synchronous") { $0.integer(0) }.first ?? -1)
    }

    // MARK: Repositories

    public var tenants: any TenantRepository { SQLTenants(tx: self) }
    public var clients: any ClientRepository { SQLConfigurations<ClientRecord>(tx: self) }
    public var connections: any ConnectionRepository { SQLConfigurations<ConnectionRecord>(tx: self) }
    public var resourceServers: any ResourceServerRepository { SQLConfigurations<ResourceServerRecord>(tx: self) }
    public var users: any UserRepository { SQLUsers(tx: self) }
    public var passkeys: any PasskeyRepository { SQLPasskeys(tx: self) }
    public var signingKeys: any SigningKeyRepository { SQLConfigurations<SigningKeyRecord>(tx: self) }
    public var refreshTokens: any RefreshTokenRepository { SQLRefreshTokens(tx: self) }
    public var authSessions: any AuthSessionRepository { SQLAuthSessions(tx: self) }
    public var dpopProofs: any DPoPProofRepository { SQLDPoPProofs(tx: self) }
    public var authEvents: any AuthEventRepository { SQLAuthEvents(tx: self) }
    public var attemptCounters: any AttemptCounterRepository { SQLAttemptCounters(tx: self) }
    public var outbox: any OutboxRepository { SQLOutbox(tx: self) }
    public var ssoSessions: any SSOSessionRepository { SQLSSOSessions(tx: self) }
    public var deviceKeys: any DeviceKeyRepository { SQLDeviceKeys(tx: self) }
    public var linkedIdentities: any LinkedIdentityRepository { SQLLinkedIdentities(tx: self) }
    public var authenticatorMetadata: any AuthenticatorMetadataRepository { SQLAuthenticatorMetadata(tx: self) }
    public var auditEvents: any AuditEventRepository { SQLAuditEvents(tx: self) }
}

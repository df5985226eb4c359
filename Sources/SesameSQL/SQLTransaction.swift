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
    public var clients: any ClientRepository { SQLClients(tx: self) }
    public var connections: any ConnectionRepository { SQLConnections(tx: self) }
    public var resourceServers: any ResourceServerRepository { SQLResourceServers(tx: self) }
    public var users: any UserRepository { SQLUsers(tx: self) }
    public var passkeys: any PasskeyRepository { SQLPasskeys(tx: self) }
    public var signingKeys: any SigningKeyRepository { SQLSigningKeys(tx: self) }
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

/// The tenant repository of a SQL transaction.
struct SQLTenants: TenantRepository {
    let tx: SQLTransaction

    func get(id: String) throws -> TenantRecord? {
        try tx.checkOpen()
        return try tx.record(TenantRecord.self, table: "tenants", "SELECT data FROM tenants WHERE id = ?", [.text(id)])
    }

    func get(host: String) throws -> TenantRecord? {
        try tx.checkOpen()
        return try tx.record(
            TenantRecord.self, table: "tenants",
            "SELECT t.data FROM tenant_hosts h JOIN tenants t ON t.id = h.tenant_id WHERE h.host = ?",
            [.text(host.lowercased())])
    }

    func all() throws -> [TenantRecord] {
        try tx.checkOpen()
        return try tx.records(
            TenantRecord.self, table: "tenants", "SELECT data FROM tenants ORDER BY created_at, id", [])
    }

    func insert(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        let data = tx.encode(tenant)
        try tx.atomically {
            try tx.connection.execute(
                "INSERT INTO tenants (id, created_at, version, data) VALUES (?, ?, ?, ?)",
                [.text(tenant.id), SQLTransaction.time(tenant.createdAt), .integer(Int64(tenant.version)), data])
            try insertHosts(of: tenant)
        }
    }

    func update(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        let data = tx.encode(tenant)
        try tx.atomically {
            let changed = try tx.connection.execute(
                "UPDATE tenants SET created_at = ?, version = ?, data = ? WHERE id = ?",
                [SQLTransaction.time(tenant.createdAt), .integer(Int64(tenant.version)), data, .text(tenant.id)])
            guard changed > 0 else { throw StoreError.notFound("tenant \(tenant.id)") }
            try tx.connection.execute("DELETE FROM tenant_hosts WHERE tenant_id = ?", [.text(tenant.id)])
            try insertHosts(of: tenant)
        }
    }

    fileprivate func insertHosts(of tenant: TenantRecord) throws {
        let hosts = Set(([tenant.domain] + tenant.customDomains).map { $0.lowercased() })
        for host in hosts.sorted() {
            try tx.connection.execute(
                "INSERT INTO tenant_hosts (host, tenant_id) VALUES (?, ?)", [.text(host), .text(tenant.id)])
        }
    }
}

/// The client repository of a SQL transaction.
struct SQLClients: ClientRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> ClientRecord? {
        try tx.checkOpen()
        return try tx.record(
            ClientRecord.self, table: "clients", "SELECT data FROM clients WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    func list(tenantID: String, page: Page) throws -> [ClientRecord] {
        try tx.checkOpen()
        return try tx.records(
            ClientRecord.self, table: "clients",
            "SELECT data FROM clients WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ client: ClientRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO clients (tenant_id, id, created_at, version, data) VALUES (?, ?, ?, ?, ?)",
            [
                .text(client.tenantID), .text(client.id), SQLTransaction.time(client.createdAt),
                .integer(Int64(client.version)), tx.encode(client),
            ])
    }

    func update(_ client: ClientRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE clients SET created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                SQLTransaction.time(client.createdAt), .integer(Int64(client.version)),
                tx.encode(client),
                .text(client.tenantID), .text(client.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("client \(client.id)") }
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM clients WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("client \(id)") }
    }
}

/// The connection repository of a SQL transaction.
struct SQLConnections: ConnectionRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return try tx.record(
            ConnectionRecord.self, table: "connections", "SELECT data FROM connections WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    func get(tenantID: String, name: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return try tx.record(
            ConnectionRecord.self, table: "connections",
            "SELECT data FROM connections WHERE tenant_id = ? AND name = ?", [.text(tenantID), .text(name)])
    }

    func list(tenantID: String, page: Page) throws -> [ConnectionRecord] {
        try tx.checkOpen()
        return try tx.records(
            ConnectionRecord.self, table: "connections",
            "SELECT data FROM connections WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ record: ConnectionRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO connections (tenant_id, id, name, created_at, version, data) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(record.tenantID), .text(record.id), .text(record.name), SQLTransaction.time(record.createdAt),
                .integer(Int64(record.version)), tx.encode(record),
            ])
    }

    func update(_ record: ConnectionRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE connections SET name = ?, created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                .text(record.name), SQLTransaction.time(record.createdAt), .integer(Int64(record.version)),
                tx.encode(record), .text(record.tenantID), .text(record.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("connection \(record.id)") }
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM connections WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("connection \(id)") }
    }
}

/// The resource server repository of a SQL transaction.
struct SQLResourceServers: ResourceServerRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return try tx.record(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
    }

    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return try tx.record(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? AND identifier = ?",
            [.text(tenantID), .text(identifier)])
    }

    func list(tenantID: String, page: Page) throws -> [ResourceServerRecord] {
        try tx.checkOpen()
        return try tx.records(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ record: ResourceServerRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO resource_servers (tenant_id, id, identifier, created_at, version, data)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.tenantID), .text(record.id), .text(record.identifier),
                SQLTransaction.time(record.createdAt),
                .integer(Int64(record.version)), tx.encode(record),
            ])
    }

    func update(_ record: ResourceServerRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            """
            UPDATE resource_servers SET identifier = ?, created_at = ?, version = ?, data = ?
            WHERE tenant_id = ? AND id = ?
            """,
            [
                .text(record.identifier), SQLTransaction.time(record.createdAt), .integer(Int64(record.version)),
                tx.encode(record), .text(record.tenantID), .text(record.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("resource server \(record.id)") }
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM resource_servers WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("resource server \(id)") }
    }
}

/// The user repository of a SQL transaction. `last_login_at` is a column of its own, so the
/// batched last-login write changes it and nothing else; it wins over the copy in `data`.
struct SQLUsers: UserRepository {
    let tx: SQLTransaction

    /// The columns every user query selects, in the order `user(_:)` reads them.
    static let columns = "data, last_login_at"

    func user(_ row: any SQLRow) throws -> UserRecord {
        var user = try tx.decode(UserRecord.self, row, column: 0, table: "users")
        user.lastLoginAt = row.optionalDate(1)
        return user
    }

    func users(_ sql: String, _ values: [SQLValue]) throws -> [UserRecord] {
        try tx.connection.query(sql, values) { try user($0) }
    }

    func get(tenantID: String, id: String) throws -> UserRecord? {
        try tx.checkOpen()
        return try users(
            "SELECT \(Self.columns) FROM users WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)]
        ).first
    }

    func get(tenantID: String, userHandle: [UInt8]) throws -> UserRecord? {
        try tx.checkOpen()
        return try users(
            "SELECT \(Self.columns) FROM users WHERE tenant_id = ? AND user_handle = ?",
            [.text(tenantID), .blob(userHandle)]
        ).first
    }

    func withIdentifiers(
        tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?
    ) throws -> [UserRecord] {
        try tx.checkOpen()
        return try users(
            """
            SELECT \(Self.columns) FROM users WHERE tenant_id = ? AND connection_id = ?
            AND (email_lower = ? OR phone_number = ? OR username_lower = ?) ORDER BY created_at, id
            """,
            [
                .text(tenantID), .text(connectionID), .optionalText(email?.lowercased()), .optionalText(phoneNumber),
                .optionalText(username.map(UsernameProfile.caseMapped)),
            ])
    }

    func search(tenantID: String, query: String?, page: Page) throws -> [UserRecord] {
        try tx.checkOpen()
        let needle = (query ?? "").lowercased()
        guard !needle.isEmpty else {
            return try users(
                "SELECT \(Self.columns) FROM users WHERE tenant_id = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?",
                [.text(tenantID)] + SQLTransaction.paging(page))
        }
        var escaped = ""
        for character in needle {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return try users(
            """
            SELECT \(Self.columns) FROM users WHERE tenant_id = ?1 AND (email_lower LIKE ?2 ESCAPE '\\'
            OR username_lower LIKE ?2 ESCAPE '\\' OR phone_number LIKE ?2 ESCAPE '\\'
            OR name_lower LIKE ?2 ESCAPE '\\' OR id_lower LIKE ?2 ESCAPE '\\')
            ORDER BY created_at DESC, id LIMIT ?3 OFFSET ?4
            """,
            [.text(tenantID), .text("%" + escaped + "%")] + SQLTransaction.paging(page))
    }

    /// The values of the user columns after tenant_id and id, in table order.
    private func userColumns(_ user: UserRecord) throws -> [SQLValue] {
        [
            .text(user.connectionID), .blob(user.userHandle), .optionalText(user.profile.email?.lowercased()),
            .optionalText(user.profile.phoneNumber),
            .optionalText(user.profile.username.map(UsernameProfile.caseMapped)),
            .optionalText(user.profile.name?.lowercased()), .text(user.id.lowercased()),
            SQLTransaction.time(user.createdAt), SQLTransaction.optionalTime(user.lastLoginAt),
            .integer(Int64(user.version)), tx.encode(user),
        ]
    }

    func insert(_ user: UserRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO users (tenant_id, id, connection_id, user_handle, email_lower, phone_number, username_lower,
            name_lower, id_lower, created_at, last_login_at, version, data)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(user.tenantID), .text(user.id)] + userColumns(user))
    }

    func update(_ user: UserRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            """
            UPDATE users SET connection_id = ?, user_handle = ?, email_lower = ?, phone_number = ?,
            username_lower = ?, name_lower = ?, id_lower = ?, created_at = ?, last_login_at = ?, version = ?, data = ?
            WHERE tenant_id = ? AND id = ?
            """,
            userColumns(user) + [.text(user.tenantID), .text(user.id)])
        guard changed > 0 else { throw StoreError.notFound("user \(user.id)") }
    }

    func touch(tenantID: String, id: String, lastLoginAt: Date) throws {
        try tx.checkWritable()
        try tx.connection.executeNarrow(
            """
            UPDATE users SET last_login_at = ?1 WHERE tenant_id = ?2 AND id = ?3
            AND (last_login_at IS NULL OR last_login_at < ?1)
            """, [SQLTransaction.time(lastLoginAt), .text(tenantID), .text(id)])
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let key: [SQLValue] = [.text(tenantID), .text(id)]
        try tx.atomically {
            let changed = try tx.connection.execute("DELETE FROM users WHERE tenant_id = ? AND id = ?", key)
            guard changed > 0 else { throw StoreError.notFound("user \(id)") }
            try tx.connection.execute("DELETE FROM passkeys WHERE tenant_id = ? AND user_id = ?", key)
            try tx.connection.execute("DELETE FROM device_keys WHERE tenant_id = ? AND user_id = ?", key)
            try tx.connection.execute("DELETE FROM linked_identities WHERE tenant_id = ? AND user_id = ?", key)
        }
    }

    func adoption(tenantID: String, connectionID: String?) throws -> UserAdoption {
        try tx.checkOpen()
        if connectionID == nil { return try adoptionOfTenant(tenantID) }
        // A connection's users: each user is looked up in the key tables' user indexes.
        let inConnection = " AND u.connection_id = ?"
        let values: [SQLValue] = [.text(tenantID)] + (connectionID.map { [.text($0)] } ?? [])
        let total =
            try tx.connection.query(
                "SELECT COUNT(*) FROM users u WHERE u.tenant_id = ?\(inConnection)", values
            ) { $0.integer(0) }.first ?? 0
        let withPasskey =
            try tx.connection.query(
                """
                SELECT COUNT(*) FROM users u WHERE u.tenant_id = ?\(inConnection)
                AND EXISTS (SELECT 1 FROM passkeys p WHERE p.tenant_id = u.tenant_id AND p.user_id = u.id)
                """, values
            ) { $0.integer(0) }.first ?? 0
        let keyOnly =
            try tx.connection.query(
                """
                SELECT COUNT(*) FROM users u WHERE u.tenant_id = ?\(inConnection)
                AND EXISTS (SELECT 1 FROM device_keys d WHERE d.tenant_id = u.tenant_id AND d.user_id = u.id
                    AND d.state <> 'revoked')
                AND NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.tenant_id = u.tenant_id AND p.user_id = u.id)
                """, values
            ) { $0.integer(0) }.first ?? 0
        return UserAdoption(total: Int(total), withPasskey: Int(withPasskey), withDeviceKeyOnly: Int(keyOnly))
    }

    /// The whole tenant: the key tables' user indexes are counted on their own, with no pass over
    /// the users.
    private func adoptionOfTenant(_ tenantID: String) throws -> UserAdoption {
        let values: [SQLValue] = [.text(tenantID)]
        let total =
            try tx.connection.query("SELECT COUNT(*) FROM users WHERE tenant_id = ?", values) {
                $0.integer(0)
            }.first ?? 0
        let withPasskey =
            try tx.connection.query(
                "SELECT COUNT(DISTINCT user_id) FROM passkeys WHERE tenant_id = ?", values
            ) { $0.integer(0) }.first ?? 0
        // A key whose user is gone does not count (deleting a user deletes its keys; this is belt and braces).
        let keyOnly =
            try tx.connection.query(
                """
                SELECT COUNT(DISTINCT d.user_id) FROM device_keys d WHERE d.tenant_id = ? AND d.state <> 'revoked'
                AND NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.tenant_id = d.tenant_id AND p.user_id = d.user_id)
                AND EXISTS (SELECT 1 FROM users u WHERE u.tenant_id = d.tenant_id AND u.id = d.user_id)
                """, values
            ) { $0.integer(0) }.first ?? 0
        return UserAdoption(total: Int(total), withPasskey: Int(withPasskey), withDeviceKeyOnly: Int(keyOnly))
    }
}

/// The passkey repository of a SQL transaction. The counter, the backup state and the last-used
/// time are columns of their own, so a login changes them and nothing else; they win over the
/// copies in `data`.
struct SQLPasskeys: PasskeyRepository {
    let tx: SQLTransaction

    /// The columns every passkey query selects, in the order `passkey(_:)` reads them.
    static let columns = "data, sign_count, backup_state, last_used_at"

    func passkey(_ row: any SQLRow) throws -> PasskeyRecord {
        var passkey = try tx.decode(PasskeyRecord.self, row, column: 0, table: "passkeys")
        let signCount = row.integer(1)
        guard let counter = UInt32(exactly: signCount) else {
            throw StoreError.corrupt("a row of passkeys does not decode: field sign_count: \(signCount)")
        }
        passkey.signCount = counter
        passkey.backupState = row.integer(2) != 0
        passkey.lastUsedAt = row.optionalDate(3)
        return passkey
    }

    func passkeys(_ sql: String, _ values: [SQLValue]) throws -> [PasskeyRecord] {
        try tx.connection.query(sql, values) { try passkey($0) }
    }

    func get(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord? {
        try tx.checkOpen()
        return try passkeys(
            "SELECT \(Self.columns) FROM passkeys WHERE tenant_id = ? AND credential_id = ?",
            [.text(tenantID), .blob(credentialID)]
        ).first
    }

    func get(tenantID: String, id: String) throws -> PasskeyRecord? {
        try tx.checkOpen()
        return try passkeys(
            "SELECT \(Self.columns) FROM passkeys WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)]
        ).first
    }

    func list(tenantID: String, userID: String) throws -> [PasskeyRecord] {
        try tx.checkOpen()
        return try passkeys(
            "SELECT \(Self.columns) FROM passkeys WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, id",
            [.text(tenantID), .text(userID)])
    }

    func insert(_ passkey: PasskeyRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO passkeys (tenant_id, id, user_id, credential_id, created_at, sign_count, backup_state,
            last_used_at, version, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(passkey.tenantID), .text(passkey.id), .text(passkey.userID), .blob(passkey.credentialID),
                SQLTransaction.time(passkey.createdAt), .integer(Int64(passkey.signCount)),
                .integer(passkey.backupState ? 1 : 0), SQLTransaction.optionalTime(passkey.lastUsedAt),
                .integer(Int64(passkey.version)), tx.encode(passkey),
            ])
    }

    func update(_ passkey: PasskeyRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            """
            UPDATE passkeys SET user_id = ?, credential_id = ?, created_at = ?, sign_count = ?, backup_state = ?,
            last_used_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?
            """,
            [
                .text(passkey.userID), .blob(passkey.credentialID), SQLTransaction.time(passkey.createdAt),
                .integer(Int64(passkey.signCount)), .integer(passkey.backupState ? 1 : 0),
                SQLTransaction.optionalTime(passkey.lastUsedAt), .integer(Int64(passkey.version)),
                tx.encode(passkey), .text(passkey.tenantID), .text(passkey.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("passkey \(passkey.id)") }
    }

    func recordAssertion(tenantID: String, id: String, signCount: UInt32, backupState: Bool, at: Date) throws {
        try tx.checkWritable()
        let changed = try tx.connection.executeNarrow(
            "UPDATE passkeys SET sign_count = ?, backup_state = ?, last_used_at = ? WHERE tenant_id = ? AND id = ?",
            [
                .integer(Int64(signCount)), .integer(backupState ? 1 : 0), SQLTransaction.time(at), .text(tenantID),
                .text(id),
            ])
        guard changed > 0 else { throw StoreError.notFound("passkey \(id)") }
    }

    func touch(tenantID: String, id: String, lastUsedAt: Date) throws {
        try tx.checkWritable()
        try tx.connection.executeNarrow(
            """
            UPDATE passkeys SET last_used_at = ?1 WHERE tenant_id = ?2 AND id = ?3
            AND (last_used_at IS NULL OR last_used_at < ?1)
            """, [SQLTransaction.time(lastUsedAt), .text(tenantID), .text(id)])
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM passkeys WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("passkey \(id)") }
    }
}

/// The signing key repository of a SQL transaction.
struct SQLSigningKeys: SigningKeyRepository {
    let tx: SQLTransaction

    func list(tenantID: String) throws -> [SigningKeyRecord] {
        try tx.checkOpen()
        return try tx.records(
            SigningKeyRecord.self, table: "signing_keys",
            "SELECT data FROM signing_keys WHERE tenant_id = ? ORDER BY created_at, id", [.text(tenantID)])
    }

    func insert(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO signing_keys (tenant_id, id, created_at, version, data) VALUES (?, ?, ?, ?, ?)",
            [
                .text(key.tenantID), .text(key.id), SQLTransaction.time(key.createdAt), .integer(Int64(key.version)),
                tx.encode(key),
            ])
    }

    func update(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE signing_keys SET created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                SQLTransaction.time(key.createdAt), .integer(Int64(key.version)), tx.encode(key),
                .text(key.tenantID), .text(key.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("signing key \(key.id)") }
    }
}

/// The refresh token repository of a SQL transaction. `used_at` and `revoked_at` are columns of
/// their own: rotation is a compare-and-set on `used_at`, revocation one `UPDATE`, and both win
/// over the copies in `data`.
struct SQLRefreshTokens: RefreshTokenRepository {
    let tx: SQLTransaction

    /// The columns every token query selects, in the order `token(_:)` reads them.
    static let columns = "data, used_at, revoked_at"

    func token(_ row: any SQLRow) throws -> RefreshTokenRecord {
        var token = try tx.decode(RefreshTokenRecord.self, row, column: 0, table: "refresh_tokens")
        token.usedAt = row.optionalDate(1)
        token.revokedAt = row.optionalDate(2)
        return token
    }

    func get(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord? {
        try tx.checkOpen()
        return try tx.connection.query(
            "SELECT \(Self.columns) FROM refresh_tokens WHERE token_hash = ? AND tenant_id = ?",
            [.blob(tokenHash), .text(tenantID)]
        ) { try token($0) }.first
    }

    func list(tenantID: String, page: Page) throws -> [RefreshTokenRecord] {
        try tx.checkOpen()
        return try tx.connection.query(
            "SELECT \(Self.columns) FROM refresh_tokens WHERE tenant_id = ? ORDER BY id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page)
        ) { try token($0) }
    }

    private func tokenColumns(_ token: RefreshTokenRecord) throws -> [SQLValue] {
        [
            .blob(token.tokenHash), .text(token.familyID), .text(token.clientID), .text(token.userID),
            .optionalText(token.passkeyID), SQLTransaction.time(token.createdAt),
            SQLTransaction.optionalTime(token.usedAt), SQLTransaction.optionalTime(token.revokedAt),
            .integer(Int64(token.version)), tx.encode(token),
        ]
    }

    func insert(_ token: RefreshTokenRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO refresh_tokens (tenant_id, id, token_hash, family_id, client_id, user_id, passkey_id,
            created_at, used_at, revoked_at, version, data, family_head) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
            CASE WHEN EXISTS (SELECT 1 FROM refresh_tokens WHERE tenant_id = ? AND family_id = ?) THEN 0 ELSE 1 END)
            """,
            [.text(token.tenantID), .text(token.id)] + tokenColumns(token) + [
                .text(token.tenantID), .text(token.familyID),
            ])
    }

    func update(_ token: RefreshTokenRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            """
            UPDATE refresh_tokens SET token_hash = ?, family_id = ?, client_id = ?, user_id = ?, passkey_id = ?,
            created_at = ?, used_at = ?, revoked_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?
            """,
            tokenColumns(token) + [.text(token.tenantID), .text(token.id)])
        guard changed > 0 else { throw StoreError.notFound("refresh token \(token.id)") }
    }

    func markUsed(tenantID: String, id: String, at: Date) throws -> Bool {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            UPDATE refresh_tokens SET used_at = ? WHERE tenant_id = ? AND id = ?
            AND used_at IS NULL AND revoked_at IS NULL
            """, [SQLTransaction.time(at), .text(tenantID), .text(id)]) > 0
    }

    @discardableResult func revokeFamily(tenantID: String, familyID: String, at: Date) throws -> Int {
        try revoke(at: at, "family_id", familyID, tenantID: tenantID)
    }

    @discardableResult func revokeAll(tenantID: String, userID: String, at: Date) throws -> Int {
        try revokeFamilies(at: at, headsWhere: "user_id", userID, tenantID: tenantID)
    }

    @discardableResult func revokeAll(tenantID: String, passkeyID: String, at: Date) throws -> Int {
        try revokeFamilies(at: at, headsWhere: "passkey_id", passkeyID, tenantID: tenantID)
    }

    @discardableResult func revokeAll(tenantID: String, userID: String, exceptFamily familyID: String, at: Date)
        throws -> Int
    {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            UPDATE refresh_tokens SET revoked_at = ?
            WHERE tenant_id = ? AND family_id <> ? AND revoked_at IS NULL AND family_id IN (
                SELECT family_id FROM refresh_tokens WHERE tenant_id = ? AND user_id = ? AND family_head = 1)
            """, [SQLTransaction.time(at), .text(tenantID), .text(familyID), .text(tenantID), .text(userID)])
    }

    /// Revokes every token of the families whose first token has `column` = `value` (the user and
    /// passkey indexes hold only a family's first token, and a family's tokens share both).
    private func revokeFamilies(at: Date, headsWhere column: String, _ value: String, tenantID: String) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            UPDATE refresh_tokens SET revoked_at = ? WHERE tenant_id = ? AND revoked_at IS NULL AND family_id IN (
                SELECT family_id FROM refresh_tokens WHERE tenant_id = ? AND \(column) = ? AND family_head = 1)
            """, [SQLTransaction.time(at), .text(tenantID), .text(tenantID), .text(value)])
    }

    /// Sets `revoked_at` on the tenant's tokens whose `column` is `value` and that are not yet
    /// revoked; returns how many changed.
    private func revoke(at: Date, _ column: String, _ value: String, tenantID: String) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            "UPDATE refresh_tokens SET revoked_at = ? WHERE tenant_id = ? AND \(column) = ? AND revoked_at IS NULL",
            [SQLTransaction.time(at), .text(tenantID), .text(value)])
    }
}

/// The auth session repository of a SQL transaction.
struct SQLAuthSessions: AuthSessionRepository {
    let tx: SQLTransaction

    func insert(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    {
        try tx.checkWritable()
        return try tx.atomically {
            let held =
                try tx.connection.query(
                    """
                    SELECT COUNT(*) FROM (SELECT 1 FROM auth_sessions WHERE requester = ? AND expires_at > ? LIMIT ?) AS held
                    """, [.text(session.requester), SQLTransaction.time(now), .integer(Int64(maxPerRequester))]
                ) { row in row.integer(0) }.first ?? 0
            guard held < Int64(maxPerRequester) else { return .requesterFull }
            try tx.connection.execute(
                """
                INSERT INTO auth_sessions (handle_hash, tenant_id, requester, expires_at, payload)
                VALUES (?, ?, ?, ?, ?)
                """,
                [
                    .blob(session.handleHash), .text(session.tenantID), .text(session.requester),
                    SQLTransaction.time(session.expiresAt), .blob(session.payload),
                ])
            return .inserted
        }
    }

    func consume(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try tx.checkWritable()
        return try tx.connection.query(
            """
            DELETE FROM auth_sessions WHERE handle_hash = ?
            RETURNING handle_hash, tenant_id, requester, expires_at, payload
            """, [.blob(handleHash)], row: SQLTransaction.authSession
        ).first
    }

    func get(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try tx.checkOpen()
        return try tx.connection.query(
            "SELECT handle_hash, tenant_id, requester, expires_at, payload FROM auth_sessions WHERE handle_hash = ?",
            [.blob(handleHash)], row: SQLTransaction.authSession
        ).first
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            DELETE FROM auth_sessions WHERE handle_hash IN
                (SELECT handle_hash FROM auth_sessions WHERE expires_at <= ? LIMIT ?)
            """, [SQLTransaction.time(now), .integer(Int64(limit))])
    }
}

/// The DPoP proof repository of a SQL transaction.
struct SQLDPoPProofs: DPoPProofRepository {
    let tx: SQLTransaction

    func record(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool {
        try tx.checkWritable()
        return try tx.atomically {
            // A few expired entries go with each insert, so the table holds only live proofs.
            try tx.connection.execute(
                """
                DELETE FROM dpop_proofs WHERE (tenant_id, proof_key) IN
                    (SELECT tenant_id, proof_key FROM dpop_proofs WHERE expires_at <= ? LIMIT 16)
                """, [SQLTransaction.time(now)])
            let inserted = try tx.connection.execute(
                """
                INSERT INTO dpop_proofs (tenant_id, proof_key, expires_at) VALUES (?, ?, ?)
                ON CONFLICT (tenant_id, proof_key) DO UPDATE SET expires_at = excluded.expires_at
                WHERE dpop_proofs.expires_at <= ?
                """, [.text(tenantID), .blob(key), SQLTransaction.time(expiresAt), SQLTransaction.time(now)])
            return inserted > 0
        }
    }
}

/// The auth event repository of a SQL transaction.
struct SQLAuthEvents: AuthEventRepository {
    let tx: SQLTransaction

    func insert(_ events: [AuthEventRecord]) throws {
        try tx.checkWritable()
        try tx.atomically {
            for event in events {
                try tx.connection.execute(
                    "INSERT INTO auth_events (tenant_id, id, at, data) VALUES (?, ?, ?, ?)",
                    [
                        .text(event.tenantID), .text(event.id), SQLTransaction.time(event.at),
                        tx.encode(event),
                    ])
            }
            try SQLAuthEvents.addDailyCounts(of: events, tx.connection)
        }
    }

    /// Adds the events that count to the roll-up (`auth_daily_counts`), one upsert per cell.
    static func addDailyCounts(of events: [AuthEventRecord], _ connection: any SQLConnection) throws {
        // A batch may hold several tenants' events: each tenant's cells go under its id.
        var byTenant: [String: [AuthEventRecord]] = [:]
        for event in events { byTenant[event.tenantID, default: []].append(event) }
        for (tenantID, tenantEvents) in byTenant {
            for cell in AuthEventRecord.dailyCounts(tenantEvents) {
                try connection.execute(
                    """
                    INSERT INTO auth_daily_counts (tenant_id, day, client_id, connection_id, method, passkey_kind,
                        aaguid, platform, count)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, day, method, passkey_kind, aaguid, platform, client_id, connection_id)
                    DO UPDATE SET count = auth_daily_counts.count + excluded.count
                    """,
                    [
                        .text(tenantID), .text(cell.day), .text(cell.clientID), .text(cell.connectionID),
                        .text(cell.method.rawValue), .text(cell.passkeyKind?.rawValue ?? ""), .text(cell.aaguid),
                        .text(cell.platform?.rawValue ?? ""), .integer(Int64(cell.count)),
                    ])
            }
        }
    }

    func dailyCounts(
        tenantID: String, from: String, to: String, clientID: String?, connectionID: String?
    ) throws -> [AuthDailyCount] {
        try tx.checkOpen()
        // Summed over the dimensions the query does not name (clients and connections), so a
        // year reads one row per day and kind of authentication rather than one per client too.
        let client = clientID == nil ? "''" : "client_id"
        let connection = connectionID == nil ? "''" : "connection_id"
        var sql = """
            SELECT day, \(client), \(connection), method, passkey_kind, aaguid, platform, SUM(count)
            FROM auth_daily_counts WHERE tenant_id = ? AND day >= ? AND day <= ?
            """
        var values: [SQLValue] = [.text(tenantID), .text(from), .text(to)]
        if let clientID {
            sql += " AND client_id = ?"
            values.append(.text(clientID))
        }
        if let connectionID {
            sql += " AND connection_id = ?"
            values.append(.text(connectionID))
        }
        // In the key's order, so SQLite groups as it reads.
        let named = [clientID == nil ? nil : "client_id", connectionID == nil ? nil : "connection_id"].compactMap { $0 }
        sql +=
            " GROUP BY " + (["day", "method", "passkey_kind", "aaguid", "platform"] + named).joined(separator: ", ")
            + " ORDER BY day"
        return try tx.connection.query(sql, values) { row in
            let method = row.text(3) ?? ""
            let kind = row.text(4) ?? ""
            let platform = row.text(6) ?? ""
            guard let counted = AuthStatsMethod(rawValue: method),
                kind.isEmpty || PasskeyKind(rawValue: kind) != nil,
                platform.isEmpty || ClientPlatform(rawValue: platform) != nil
            else {
                throw StoreError.corrupt("a row of auth_daily_counts names an unknown method, kind or platform")
            }
            return AuthDailyCount(
                day: row.text(0) ?? "", clientID: row.text(1) ?? "", connectionID: row.text(2) ?? "",
                method: counted, passkeyKind: PasskeyKind(rawValue: kind), aaguid: row.text(5) ?? "",
                platform: ClientPlatform(rawValue: platform), count: Int(row.integer(7)))
        }
    }

    func list(tenantID: String, page: Page) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        return try tx.records(
            AuthEventRecord.self, table: "auth_events",
            "SELECT data FROM auth_events WHERE tenant_id = ? ORDER BY at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func since(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        return try tx.records(
            AuthEventRecord.self, table: "auth_events",
            "SELECT data FROM auth_events WHERE tenant_id = ? AND at >= ? ORDER BY at, id LIMIT ?",
            [.text(tenantID), SQLTransaction.time(since), .integer(Int64(max(0, limit)))])
    }
}

/// The attempt counters of a SQL transaction. `add` reads and then writes inside the write
/// transaction, which is serialisable on both backends, so no two writers see the same count.
struct SQLAttemptCounters: AttemptCounterRepository {
    let tx: SQLTransaction

    func add(tenantID: String, key: [UInt8], delta: Int, now: Date, windowEndsAt: Date, sliding: Bool) throws -> Int {
        try tx.checkWritable()
        let held = try get(tenantID: tenantID, key: key, now: now)
        let count = max(0, (held?.count ?? 0) + delta)
        let ends = held.map { sliding ? windowEndsAt : $0.windowEndsAt } ?? windowEndsAt
        try tx.connection.execute(
            """
            INSERT INTO attempt_counters (tenant_id, counter_key, attempts, window_ends_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (tenant_id, counter_key) DO UPDATE
            SET attempts = excluded.attempts, window_ends_at = excluded.window_ends_at
            """, [.text(tenantID), .blob(key), .integer(Int64(count)), SQLTransaction.time(ends)])
        return count
    }

    func get(tenantID: String, key: [UInt8], now: Date) throws -> AttemptCount? {
        try tx.checkOpen()
        return try tx.connection.query(
            """
            SELECT attempts, window_ends_at FROM attempt_counters
            WHERE tenant_id = ? AND counter_key = ? AND window_ends_at > ?
            """, [.text(tenantID), .blob(key), SQLTransaction.time(now)]
        ) { row in
            AttemptCount(
                count: Int(row.integer(0)), windowEndsAt: Date(timeIntervalSinceReferenceDate: row.double(1)))
        }.first
    }

    func reset(tenantID: String, key: [UInt8]) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "DELETE FROM attempt_counters WHERE tenant_id = ? AND counter_key = ?", [.text(tenantID), .blob(key)])
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            DELETE FROM attempt_counters WHERE (tenant_id, counter_key) IN
                (SELECT tenant_id, counter_key FROM attempt_counters WHERE window_ends_at <= ? LIMIT ?)
            """, [SQLTransaction.time(now), .integer(Int64(limit))])
    }
}

/// The outbox of a SQL transaction.
struct SQLOutbox: OutboxRepository {
    let tx: SQLTransaction

    func insert(_ message: OutboxMessageRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO outbox (tenant_id, id, created_at, data) VALUES (?, ?, ?, ?)",
            [.text(message.tenantID), .text(message.id), SQLTransaction.time(message.createdAt), tx.encode(message)])
    }

    func list(tenantID: String, page: Page) throws -> [OutboxMessageRecord] {
        try tx.checkOpen()
        return try tx.records(
            OutboxMessageRecord.self, table: "outbox",
            "SELECT data FROM outbox WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func deleteOlder(than before: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            DELETE FROM outbox WHERE (tenant_id, id) IN
                (SELECT tenant_id, id FROM outbox WHERE created_at < ? LIMIT ?)
            """, [SQLTransaction.time(before), .integer(Int64(limit))])
    }
}

/// The SSO sessions of a SQL transaction. `ends_at` is the earlier of the idle and absolute expiry.
struct SQLSSOSessions: SSOSessionRepository {
    let tx: SQLTransaction

    func insert(_ session: SSOSessionRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO sso_sessions (tenant_id, id, cookie_hash, user_id, created_at, ends_at, data)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.tenantID), .text(session.id), .blob(session.cookieHash), .text(session.userID),
                SQLTransaction.time(session.createdAt), SQLTransaction.time(session.endsAt), tx.encode(session),
            ])
    }

    func get(cookieHash: [UInt8]) throws -> SSOSessionRecord? {
        try tx.checkOpen()
        return try tx.record(
            SSOSessionRecord.self, table: "sso_sessions", "SELECT data FROM sso_sessions WHERE cookie_hash = ?",
            [.blob(cookieHash)])
    }

    func update(_ session: SSOSessionRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE sso_sessions SET cookie_hash = ?, ends_at = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                .blob(session.cookieHash), SQLTransaction.time(session.endsAt), tx.encode(session),
                .text(session.tenantID), .text(session.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("sso session \(session.id)") }
    }

    func list(tenantID: String, userID: String) throws -> [SSOSessionRecord] {
        try tx.checkOpen()
        return try tx.records(
            SSOSessionRecord.self, table: "sso_sessions",
            "SELECT data FROM sso_sessions WHERE tenant_id = ? AND user_id = ? ORDER BY created_at DESC, id DESC",
            [.text(tenantID), .text(userID)])
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try tx.checkWritable()
        return try tx.connection.execute(
            "DELETE FROM sso_sessions WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)]) > 0
    }

    func deleteAll(tenantID: String, userID: String) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.execute(
            "DELETE FROM sso_sessions WHERE tenant_id = ? AND user_id = ?", [.text(tenantID), .text(userID)])
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            DELETE FROM sso_sessions WHERE (tenant_id, id) IN
                (SELECT tenant_id, id FROM sso_sessions WHERE ends_at <= ? LIMIT ?)
            """, [SQLTransaction.time(now), .integer(Int64(limit))])
    }
}

/// The device keys of a SQL transaction. `state` is a column of its own for the adoption counts.
struct SQLDeviceKeys: DeviceKeyRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> DeviceKeyRecord? {
        try tx.checkOpen()
        return try tx.record(
            DeviceKeyRecord.self, table: "device_keys", "SELECT data FROM device_keys WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    func list(tenantID: String, userID: String) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        return try tx.records(
            DeviceKeyRecord.self, table: "device_keys",
            "SELECT data FROM device_keys WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, id",
            [.text(tenantID), .text(userID)])
    }

    func list(tenantID: String, page: Page) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        return try tx.records(
            DeviceKeyRecord.self, table: "device_keys",
            "SELECT data FROM device_keys WHERE tenant_id = ? ORDER BY id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO device_keys (tenant_id, id, user_id, state, created_at, data) VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(key.tenantID), .text(key.id), .text(key.userID), .text(key.state.rawValue),
                SQLTransaction.time(key.createdAt), tx.encode(key),
            ])
    }

    func update(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE device_keys SET user_id = ?, state = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                .text(key.userID), .text(key.state.rawValue), tx.encode(key), .text(key.tenantID), .text(key.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("device key \(key.id)") }
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try tx.checkWritable()
        return try tx.connection.execute(
            "DELETE FROM device_keys WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)]) > 0
    }
}

/// The linked identities of a SQL transaction; `user_id` is a column of its own for a user's list.
struct SQLLinkedIdentities: LinkedIdentityRepository {
    let tx: SQLTransaction

    func get(tenantID: String, connectionID: String, subject: String) throws -> LinkedIdentityRecord? {
        try tx.checkOpen()
        return try tx.record(
            LinkedIdentityRecord.self, table: "linked_identities",
            "SELECT data FROM linked_identities WHERE tenant_id = ? AND connection_id = ? AND subject = ?",
            [.text(tenantID), .text(connectionID), .text(subject)])
    }

    func list(tenantID: String, userID: String) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        return try tx.records(
            LinkedIdentityRecord.self, table: "linked_identities",
            "SELECT data FROM linked_identities WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, subject",
            [.text(tenantID), .text(userID)])
    }

    func list(tenantID: String, page: Page) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        return try tx.records(
            LinkedIdentityRecord.self, table: "linked_identities",
            "SELECT data FROM linked_identities WHERE tenant_id = ? ORDER BY connection_id, subject LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO linked_identities (tenant_id, connection_id, subject, user_id, created_at, data)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(identity.tenantID), .text(identity.connectionID), .text(identity.subject),
                .text(identity.userID), SQLTransaction.time(identity.createdAt), tx.encode(identity),
            ])
    }

    func update(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE linked_identities SET user_id = ?, data = ? WHERE tenant_id = ? AND connection_id = ? AND subject = ?",
            [
                .text(identity.userID), tx.encode(identity), .text(identity.tenantID), .text(identity.connectionID),
                .text(identity.subject),
            ])
        guard changed > 0 else { throw StoreError.notFound("linked identity \(identity.subject)") }
    }

    func delete(tenantID: String, connectionID: String, subject: String) throws -> Bool {
        try tx.checkWritable()
        return try tx.connection.execute(
            "DELETE FROM linked_identities WHERE tenant_id = ? AND connection_id = ? AND subject = ?",
            [.text(tenantID), .text(connectionID), .text(subject)]) > 0
    }
}

/// The FIDO metadata of a SQL transaction: one `metadata_blob` row, and each entry once per
/// lookup key ("aaguid:<aaguid>", "key:<hex>") in `authenticator_metadata`.
struct SQLAuthenticatorMetadata: AuthenticatorMetadataRepository {
    let tx: SQLTransaction

    func blob() throws -> MetadataBLOBRecord? {
        try tx.checkOpen()
        return try tx.record(
            MetadataBLOBRecord.self, table: "metadata_blob", "SELECT data FROM metadata_blob WHERE id = 1", [])
    }

    func replace(blob: MetadataBLOBRecord, entries: [AuthenticatorMetadataRecord]) throws {
        try tx.checkWritable()
        try tx.atomically {
            try tx.connection.execute("DELETE FROM authenticator_metadata", [])
            try tx.connection.execute("DELETE FROM metadata_blob", [])
            try tx.connection.execute(
                "INSERT INTO metadata_blob (id, serial, data) VALUES (1, ?, ?)",
                [.integer(Int64(blob.serial)), tx.encode(blob)])
            for entry in entries {
                let data = tx.encode(entry)
                for key in entry.lookupKeys {
                    try tx.connection.execute(
                        "INSERT INTO authenticator_metadata (lookup_key, data) VALUES (?, ?)", [.text(key), data])
                }
            }
        }
    }

    func get(aaguid: String) throws -> AuthenticatorMetadataRecord? {
        try entry("aaguid:" + aaguid)
    }

    func get(attestationKeyIdentifier: String) throws -> AuthenticatorMetadataRecord? {
        try entry("key:" + attestationKeyIdentifier)
    }

    func entries() throws -> [AuthenticatorMetadataRecord] {
        try tx.checkOpen()
        // Each entry has a row per lookup key; its first key's row stands for it.
        let rows = try tx.connection.query(
            "SELECT lookup_key, data FROM authenticator_metadata ORDER BY lookup_key", []
        ) { row in
            (
                row.text(0),
                try tx.decode(AuthenticatorMetadataRecord.self, row, column: 1, table: "authenticator_metadata")
            )
        }
        return rows.filter { $0.0 == $0.1.lookupKeys.first }.map(\.1)
    }

    private func entry(_ key: String) throws -> AuthenticatorMetadataRecord? {
        try tx.checkOpen()
        return try tx.record(
            AuthenticatorMetadataRecord.self, table: "authenticator_metadata",
            "SELECT data FROM authenticator_metadata WHERE lookup_key = ?", [.text(key)])
    }
}

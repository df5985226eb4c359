import Foundation
import SesameStore

/// One store transaction over one SQL connection, for every SQL backend (SQLite, PostgreSQL): the
/// backend opens and ends the database transaction, this type runs the contract's statements in it.
/// An operation made of several statements runs inside a savepoint, so if it throws it leaves
/// nothing behind even when the body goes on.
public final class SQLTransaction: StoreTransaction {
    private let connection: any SQLConnection
    private let writable: Bool
    private var open = true

    public init(connection: any SQLConnection, writable: Bool) {
        self.connection = connection
        self.writable = writable
    }

    /// Ends the transaction: any later call throws.
    public func close() { open = false }

    private func checkOpen() throws {
        guard open else { throw StoreError.unavailable("the transaction has ended") }
    }

    private func checkWritable() throws {
        try checkOpen()
        guard writable else { throw StoreError.unavailable("write in a read transaction") }
    }

    /// Runs `body` in a savepoint: all of it or none of it.
    private func atomically<T>(_ body: () throws -> T) throws -> T {
        try connection.execute("SAVEPOINT store_operation")
        do {
            let result = try body()
            try connection.execute("RELEASE store_operation")
            return result
        } catch {
            connection.executeIgnoringErrors("ROLLBACK TO store_operation")
            connection.executeIgnoringErrors("RELEASE store_operation")
            throw error
        }
    }

    /// The records decoded from the `data` column (column 0) of each row of `sql`.
    private func records<T: Decodable>(_ type: T.Type, table: String, _ sql: String, _ values: [SQLValue]) throws
        -> [T]
    {
        try connection.query(sql, values) { row in
            let record = try connection.decode(T.self, row, column: 0, table: table)
            try (record as? any VersionedRecord)?.checkVersion(table: table)
            return record
        }
    }

    private func record<T: Decodable>(_ type: T.Type, table: String, _ sql: String, _ values: [SQLValue]) throws -> T? {
        try records(T.self, table: table, sql, values).first
    }

    private static func paging(_ page: Page) -> [SQLValue] {
        [.integer(Int64(page.limit)), .integer(Int64(page.offset))]
    }

    private static func time(_ date: Date) -> SQLValue { .real(date.timeIntervalSinceReferenceDate) }

    // MARK: Tenants

    public func tenant(id: String) throws -> TenantRecord? {
        try checkOpen()
        return try record(TenantRecord.self, table: "tenants", "SELECT data FROM tenants WHERE id = ?", [.text(id)])
    }

    public func tenant(host: String) throws -> TenantRecord? {
        try checkOpen()
        return try record(
            TenantRecord.self, table: "tenants",
            "SELECT t.data FROM tenant_hosts h JOIN tenants t ON t.id = h.tenant_id WHERE h.host = ?",
            [.text(host.lowercased())])
    }

    public func tenants() throws -> [TenantRecord] {
        try checkOpen()
        return try records(TenantRecord.self, table: "tenants", "SELECT data FROM tenants ORDER BY created_at, id", [])
    }

    public func insertTenant(_ tenant: TenantRecord) throws {
        try checkWritable()
        let data = try connection.encode(tenant)
        try atomically {
            try connection.execute(
                "INSERT INTO tenants (id, created_at, version, data) VALUES (?, ?, ?, ?)",
                [.text(tenant.id), Self.time(tenant.createdAt), .integer(Int64(tenant.version)), data])
            try insertHosts(of: tenant)
        }
    }

    public func updateTenant(_ tenant: TenantRecord) throws {
        try checkWritable()
        let data = try connection.encode(tenant)
        try atomically {
            let changed = try connection.execute(
                "UPDATE tenants SET created_at = ?, version = ?, data = ? WHERE id = ?",
                [Self.time(tenant.createdAt), .integer(Int64(tenant.version)), data, .text(tenant.id)])
            guard changed > 0 else { throw StoreError.notFound("tenant \(tenant.id)") }
            try connection.execute("DELETE FROM tenant_hosts WHERE tenant_id = ?", [.text(tenant.id)])
            try insertHosts(of: tenant)
        }
    }

    private func insertHosts(of tenant: TenantRecord) throws {
        let hosts = Set(([tenant.domain] + tenant.customDomains).map { $0.lowercased() })
        for host in hosts.sorted() {
            try connection.execute(
                "INSERT INTO tenant_hosts (host, tenant_id) VALUES (?, ?)", [.text(host), .text(tenant.id)])
        }
    }

    // MARK: Clients

    public func client(tenantID: String, id: String) throws -> ClientRecord? {
        try checkOpen()
        return try record(
            ClientRecord.self, table: "clients", "SELECT data FROM clients WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    public func clients(tenantID: String, page: Page) throws -> [ClientRecord] {
        try checkOpen()
        return try records(
            ClientRecord.self, table: "clients",
            "SELECT data FROM clients WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + Self.paging(page))
    }

    public func insertClient(_ client: ClientRecord) throws {
        try checkWritable()
        try connection.execute(
            "INSERT INTO clients (tenant_id, id, created_at, version, data) VALUES (?, ?, ?, ?, ?)",
            [
                .text(client.tenantID), .text(client.id), Self.time(client.createdAt),
                .integer(Int64(client.version)), try connection.encode(client),
            ])
    }

    public func updateClient(_ client: ClientRecord) throws {
        try checkWritable()
        let changed = try connection.execute(
            "UPDATE clients SET created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                Self.time(client.createdAt), .integer(Int64(client.version)), try connection.encode(client),
                .text(client.tenantID), .text(client.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("client \(client.id)") }
    }

    public func deleteClient(tenantID: String, id: String) throws {
        try checkWritable()
        let changed = try connection.execute(
            "DELETE FROM clients WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("client \(id)") }
    }

    // MARK: Connections

    public func connection(tenantID: String, id: String) throws -> ConnectionRecord? {
        try checkOpen()
        return try record(
            ConnectionRecord.self, table: "connections", "SELECT data FROM connections WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    public func connection(tenantID: String, name: String) throws -> ConnectionRecord? {
        try checkOpen()
        return try record(
            ConnectionRecord.self, table: "connections",
            "SELECT data FROM connections WHERE tenant_id = ? AND name = ?", [.text(tenantID), .text(name)])
    }

    public func connections(tenantID: String, page: Page) throws -> [ConnectionRecord] {
        try checkOpen()
        return try records(
            ConnectionRecord.self, table: "connections",
            "SELECT data FROM connections WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + Self.paging(page))
    }

    public func insertConnection(_ record: ConnectionRecord) throws {
        try checkWritable()
        try connection.execute(
            "INSERT INTO connections (tenant_id, id, name, created_at, version, data) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(record.tenantID), .text(record.id), .text(record.name), Self.time(record.createdAt),
                .integer(Int64(record.version)), try connection.encode(record),
            ])
    }

    public func updateConnection(_ record: ConnectionRecord) throws {
        try checkWritable()
        let changed = try connection.execute(
            "UPDATE connections SET name = ?, created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                .text(record.name), Self.time(record.createdAt), .integer(Int64(record.version)),
                try connection.encode(record), .text(record.tenantID), .text(record.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("connection \(record.id)") }
    }

    public func deleteConnection(tenantID: String, id: String) throws {
        try checkWritable()
        let changed = try connection.execute(
            "DELETE FROM connections WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("connection \(id)") }
    }

    // MARK: Resource servers

    public func resourceServer(tenantID: String, id: String) throws -> ResourceServerRecord? {
        try checkOpen()
        return try record(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
    }

    public func resourceServer(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try checkOpen()
        return try record(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? AND identifier = ?",
            [.text(tenantID), .text(identifier)])
    }

    public func resourceServers(tenantID: String, page: Page) throws -> [ResourceServerRecord] {
        try checkOpen()
        return try records(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + Self.paging(page))
    }

    public func insertResourceServer(_ record: ResourceServerRecord) throws {
        try checkWritable()
        try connection.execute(
            """
            INSERT INTO resource_servers (tenant_id, id, identifier, created_at, version, data)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.tenantID), .text(record.id), .text(record.identifier), Self.time(record.createdAt),
                .integer(Int64(record.version)), try connection.encode(record),
            ])
    }

    public func updateResourceServer(_ record: ResourceServerRecord) throws {
        try checkWritable()
        let changed = try connection.execute(
            """
            UPDATE resource_servers SET identifier = ?, created_at = ?, version = ?, data = ?
            WHERE tenant_id = ? AND id = ?
            """,
            [
                .text(record.identifier), Self.time(record.createdAt), .integer(Int64(record.version)),
                try connection.encode(record), .text(record.tenantID), .text(record.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("resource server \(record.id)") }
    }

    public func deleteResourceServer(tenantID: String, id: String) throws {
        try checkWritable()
        let changed = try connection.execute(
            "DELETE FROM resource_servers WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("resource server \(id)") }
    }

    // MARK: Users

    public func user(tenantID: String, id: String) throws -> UserRecord? {
        try checkOpen()
        return try record(
            UserRecord.self, table: "users", "SELECT data FROM users WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    public func user(tenantID: String, userHandle: [UInt8]) throws -> UserRecord? {
        try checkOpen()
        return try record(
            UserRecord.self, table: "users", "SELECT data FROM users WHERE tenant_id = ? AND user_handle = ?",
            [.text(tenantID), .blob(userHandle)])
    }

    public func users(tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?)
        throws
        -> [UserRecord]
    {
        try checkOpen()
        return try records(
            UserRecord.self, table: "users",
            """
            SELECT data FROM users WHERE tenant_id = ? AND connection_id = ?
            AND (email_lower = ? OR phone_number = ? OR username_lower = ?) ORDER BY created_at, id
            """,
            [
                .text(tenantID), .text(connectionID), .optionalText(email?.lowercased()), .optionalText(phoneNumber),
                .optionalText(username?.lowercased()),
            ])
    }

    public func users(tenantID: String, query: String?, page: Page) throws -> [UserRecord] {
        try checkOpen()
        let needle = (query ?? "").lowercased()
        guard !needle.isEmpty else {
            return try records(
                UserRecord.self, table: "users",
                "SELECT data FROM users WHERE tenant_id = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?",
                [.text(tenantID)] + Self.paging(page))
        }
        var escaped = ""
        for character in needle {
            if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
            escaped.append(character)
        }
        return try records(
            UserRecord.self, table: "users",
            """
            SELECT data FROM users WHERE tenant_id = ?1 AND (email_lower LIKE ?2 ESCAPE '\\'
            OR username_lower LIKE ?2 ESCAPE '\\' OR phone_number LIKE ?2 ESCAPE '\\'
            OR name_lower LIKE ?2 ESCAPE '\\' OR id_lower LIKE ?2 ESCAPE '\\')
            ORDER BY created_at DESC, id LIMIT ?3 OFFSET ?4
            """,
            [.text(tenantID), .text("%" + escaped + "%")] + Self.paging(page))
    }

    /// The values of the user columns after tenant_id and id, in table order.
    private func userColumns(_ user: UserRecord) throws -> [SQLValue] {
        [
            .text(user.connectionID), .blob(user.userHandle), .optionalText(user.profile.email?.lowercased()),
            .optionalText(user.profile.phoneNumber), .optionalText(user.profile.username?.lowercased()),
            .optionalText(user.profile.name?.lowercased()), .text(user.id.lowercased()), Self.time(user.createdAt),
            .integer(Int64(user.version)), try connection.encode(user),
        ]
    }

    public func insertUser(_ user: UserRecord) throws {
        try checkWritable()
        try connection.execute(
            """
            INSERT INTO users (tenant_id, id, connection_id, user_handle, email_lower, phone_number, username_lower,
            name_lower, id_lower, created_at, version, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(user.tenantID), .text(user.id)] + userColumns(user))
    }

    public func updateUser(_ user: UserRecord) throws {
        try checkWritable()
        let changed = try connection.execute(
            """
            UPDATE users SET connection_id = ?, user_handle = ?, email_lower = ?, phone_number = ?,
            username_lower = ?, name_lower = ?, id_lower = ?, created_at = ?, version = ?, data = ?
            WHERE tenant_id = ? AND id = ?
            """,
            userColumns(user) + [.text(user.tenantID), .text(user.id)])
        guard changed > 0 else { throw StoreError.notFound("user \(user.id)") }
    }

    public func deleteUser(tenantID: String, id: String) throws {
        try checkWritable()
        let key: [SQLValue] = [.text(tenantID), .text(id)]
        try atomically {
            let changed = try connection.execute("DELETE FROM users WHERE tenant_id = ? AND id = ?", key)
            guard changed > 0 else { throw StoreError.notFound("user \(id)") }
            try connection.execute("DELETE FROM passkeys WHERE tenant_id = ? AND user_id = ?", key)
        }
    }

    // MARK: Passkeys

    public func passkey(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord? {
        try checkOpen()
        return try record(
            PasskeyRecord.self, table: "passkeys",
            "SELECT data FROM passkeys WHERE tenant_id = ? AND credential_id = ?",
            [.text(tenantID), .blob(credentialID)])
    }

    public func passkey(tenantID: String, id: String) throws -> PasskeyRecord? {
        try checkOpen()
        return try record(
            PasskeyRecord.self, table: "passkeys", "SELECT data FROM passkeys WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    public func passkeys(tenantID: String, userID: String) throws -> [PasskeyRecord] {
        try checkOpen()
        return try records(
            PasskeyRecord.self, table: "passkeys",
            "SELECT data FROM passkeys WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, id",
            [.text(tenantID), .text(userID)])
    }

    public func insertPasskey(_ passkey: PasskeyRecord) throws {
        try checkWritable()
        try connection.execute(
            "INSERT INTO passkeys (tenant_id, id, user_id, credential_id, created_at, version, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .text(passkey.tenantID), .text(passkey.id), .text(passkey.userID), .blob(passkey.credentialID),
                Self.time(passkey.createdAt), .integer(Int64(passkey.version)), try connection.encode(passkey),
            ])
    }

    public func updatePasskey(_ passkey: PasskeyRecord) throws {
        try checkWritable()
        let changed = try connection.execute(
            """
            UPDATE passkeys SET user_id = ?, credential_id = ?, created_at = ?, version = ?, data = ?
            WHERE tenant_id = ? AND id = ?
            """,
            [
                .text(passkey.userID), .blob(passkey.credentialID), Self.time(passkey.createdAt),
                .integer(Int64(passkey.version)), try connection.encode(passkey), .text(passkey.tenantID),
                .text(passkey.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("passkey \(passkey.id)") }
    }

    public func deletePasskey(tenantID: String, id: String) throws {
        try checkWritable()
        let changed = try connection.execute(
            "DELETE FROM passkeys WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("passkey \(id)") }
    }

    // MARK: Signing keys

    public func signingKeys(tenantID: String) throws -> [SigningKeyRecord] {
        try checkOpen()
        return try records(
            SigningKeyRecord.self, table: "signing_keys",
            "SELECT data FROM signing_keys WHERE tenant_id = ? ORDER BY created_at, id", [.text(tenantID)])
    }

    public func insertSigningKey(_ key: SigningKeyRecord) throws {
        try checkWritable()
        try connection.execute(
            "INSERT INTO signing_keys (tenant_id, id, created_at, version, data) VALUES (?, ?, ?, ?, ?)",
            [
                .text(key.tenantID), .text(key.id), Self.time(key.createdAt), .integer(Int64(key.version)),
                try connection.encode(key),
            ])
    }

    public func updateSigningKey(_ key: SigningKeyRecord) throws {
        try checkWritable()
        let changed = try connection.execute(
            "UPDATE signing_keys SET created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                Self.time(key.createdAt), .integer(Int64(key.version)), try connection.encode(key),
                .text(key.tenantID), .text(key.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("signing key \(key.id)") }
    }

    // MARK: Refresh tokens

    public func refreshToken(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord? {
        try checkOpen()
        return try record(
            RefreshTokenRecord.self, table: "refresh_tokens",
            "SELECT data FROM refresh_tokens WHERE token_hash = ? AND tenant_id = ?",
            [.blob(tokenHash), .text(tenantID)])
    }

    private func tokenColumns(_ token: RefreshTokenRecord) throws -> [SQLValue] {
        [
            .blob(token.tokenHash), .text(token.familyID), .text(token.clientID), .text(token.userID),
            .optionalText(token.passkeyID), Self.time(token.createdAt), .integer(Int64(token.version)),
            try connection.encode(token),
        ]
    }

    public func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try checkWritable()
        try connection.execute(
            """
            INSERT INTO refresh_tokens (tenant_id, id, token_hash, family_id, client_id, user_id, passkey_id,
            created_at, version, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(token.tenantID), .text(token.id)] + tokenColumns(token))
    }

    public func updateRefreshToken(_ token: RefreshTokenRecord) throws {
        try checkWritable()
        let changed = try connection.execute(
            """
            UPDATE refresh_tokens SET token_hash = ?, family_id = ?, client_id = ?, user_id = ?, passkey_id = ?,
            created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?
            """,
            tokenColumns(token) + [.text(token.tenantID), .text(token.id)])
        guard changed > 0 else { throw StoreError.notFound("refresh token \(token.id)") }
    }

    @discardableResult public func revokeRefreshTokenFamily(tenantID: String, familyID: String, at: Date) throws -> Int
    {
        try checkWritable()
        return try revoke(
            at: at, "SELECT data FROM refresh_tokens WHERE tenant_id = ? AND family_id = ?",
            [.text(tenantID), .text(familyID)])
    }

    @discardableResult public func revokeRefreshTokens(tenantID: String, userID: String, at: Date) throws -> Int {
        try checkWritable()
        return try revoke(
            at: at, "SELECT data FROM refresh_tokens WHERE tenant_id = ? AND user_id = ?",
            [.text(tenantID), .text(userID)])
    }

    @discardableResult public func revokeRefreshTokens(tenantID: String, passkeyID: String, at: Date) throws -> Int {
        try checkWritable()
        return try revoke(
            at: at, "SELECT data FROM refresh_tokens WHERE tenant_id = ? AND passkey_id = ?",
            [.text(tenantID), .text(passkeyID)])
    }

    /// Sets `revokedAt` on the tokens `sql` selects that are not yet revoked; returns how many changed.
    private func revoke(at: Date, _ sql: String, _ values: [SQLValue]) throws -> Int {
        try atomically {
            let tokens = try records(RefreshTokenRecord.self, table: "refresh_tokens", sql, values)
            var changed = 0
            for var token in tokens where token.revokedAt == nil {
                token.revokedAt = at
                try connection.execute(
                    "UPDATE refresh_tokens SET data = ? WHERE tenant_id = ? AND id = ?",
                    [try connection.encode(token), .text(token.tenantID), .text(token.id)])
                changed += 1
            }
            return changed
        }
    }

    // MARK: Auth events

    public func configurationGeneration() throws -> Int64 {
        try checkOpen()
        return try connection.query("SELECT value FROM configuration_generation WHERE id = 1") { row in
            row.integer(0)
        }.first ?? 0
    }

    public func insertAuthSession(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    {
        try checkWritable()
        return try atomically {
            let held =
                try connection.query(
                    """
                    SELECT COUNT(*) FROM (SELECT 1 FROM auth_sessions WHERE requester = ? AND expires_at > ? LIMIT ?) AS held
                    """, [.text(session.requester), Self.time(now), .integer(Int64(maxPerRequester))]
                ) { row in row.integer(0) }.first ?? 0
            guard held < Int64(maxPerRequester) else { return .requesterFull }
            try connection.execute(
                """
                INSERT INTO auth_sessions (handle_hash, tenant_id, requester, expires_at, payload)
                VALUES (?, ?, ?, ?, ?)
                """,
                [
                    .blob(session.handleHash), .text(session.tenantID), .text(session.requester),
                    Self.time(session.expiresAt), .blob(session.payload),
                ])
            return .inserted
        }
    }

    public func consumeAuthSession(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try checkWritable()
        return try connection.query(
            """
            DELETE FROM auth_sessions WHERE handle_hash = ?
            RETURNING handle_hash, tenant_id, requester, expires_at, payload
            """, [.blob(handleHash)], row: Self.authSession
        ).first
    }

    public func authSession(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try checkOpen()
        return try connection.query(
            "SELECT handle_hash, tenant_id, requester, expires_at, payload FROM auth_sessions WHERE handle_hash = ?",
            [.blob(handleHash)], row: Self.authSession
        ).first
    }

    public func deleteExpiredAuthSessions(now: Date, limit: Int) throws -> Int {
        try checkWritable()
        return try connection.execute(
            """
            DELETE FROM auth_sessions WHERE handle_hash IN
                (SELECT handle_hash FROM auth_sessions WHERE expires_at <= ? LIMIT ?)
            """, [Self.time(now), .integer(Int64(limit))])
    }

    private static func authSession(_ row: any SQLRow) -> AuthSessionRecord {
        AuthSessionRecord(
            handleHash: row.bytes(0), tenantID: row.text(1) ?? "", requester: row.text(2) ?? "",
            expiresAt: Date(timeIntervalSinceReferenceDate: row.double(3)), payload: row.bytes(4))
    }

    public func recordDPoPProof(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool {
        try checkWritable()
        return try atomically {
            // A few expired entries go with each insert, so the table holds only live proofs.
            try connection.execute(
                """
                DELETE FROM dpop_proofs WHERE (tenant_id, proof_key) IN
                    (SELECT tenant_id, proof_key FROM dpop_proofs WHERE expires_at <= ? LIMIT 16)
                """, [Self.time(now)])
            let inserted = try connection.execute(
                """
                INSERT INTO dpop_proofs (tenant_id, proof_key, expires_at) VALUES (?, ?, ?)
                ON CONFLICT (tenant_id, proof_key) DO UPDATE SET expires_at = excluded.expires_at
                WHERE dpop_proofs.expires_at <= ?
                """, [.text(tenantID), .blob(key), Self.time(expiresAt), Self.time(now)])
            return inserted > 0
        }
    }

    public func insertAuthEvents(_ events: [AuthEventRecord]) throws {
        try checkWritable()
        try atomically {
            for event in events {
                try connection.execute(
                    "INSERT INTO auth_events (tenant_id, id, at, data) VALUES (?, ?, ?, ?)",
                    [.text(event.tenantID), .text(event.id), Self.time(event.at), try connection.encode(event)])
            }
        }
    }

    public func refreshTokens(tenantID: String, page: Page) throws -> [RefreshTokenRecord] {
        try checkOpen()
        return try records(
            RefreshTokenRecord.self, table: "refresh_tokens",
            "SELECT data FROM refresh_tokens WHERE tenant_id = ? ORDER BY id LIMIT ? OFFSET ?",
            [.text(tenantID)] + Self.paging(page))
    }

    public func authEvents(tenantID: String, page: Page) throws -> [AuthEventRecord] {
        try checkOpen()
        return try records(
            AuthEventRecord.self, table: "auth_events",
            "SELECT data FROM auth_events WHERE tenant_id = ? ORDER BY at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + Self.paging(page))
    }

    public func authEvents(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord] {
        try checkOpen()
        return try records(
            AuthEventRecord.self, table: "auth_events",
            "SELECT data FROM auth_events WHERE tenant_id = ? AND at >= ? ORDER BY at, id LIMIT ?",
            [.text(tenantID), Self.time(since), .integer(Int64(max(0, limit)))])
    }

    // MARK: For tests

    /// SQLite only (tests): this connection's `PRAGMA synchronous` (1 = NORMAL, 2 = FULL).
    public func synchronousLevel() throws -> Int {
        Int(try connection.query("PRAGMA synchronous") { $0.integer(0) }.first ?? -1)
    }
}

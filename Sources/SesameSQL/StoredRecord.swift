import Foundation
import SesameStore

/// How the SQL backends keep a record in its `data` column. Every stored record has a binary form
/// (`BinaryCodedRecord`: passkeys, users, refresh tokens and auth events since SQLite migration 9 /
/// PostgreSQL 2; tenants, clients, connections, APIs and signing keys since SQLite 11 /
/// PostgreSQL 4), so no login, refresh or cache fill runs Foundation's JSON decoder. Older
/// Sesames wrote JSON; those migrations rewrite such rows, and a JSON row is still read (its first
/// byte tells it apart), through the connection's legacy JSON coder.
public enum StoredRecord {
    /// The record in column `index` of `row`: the binary form, or a JSON row from an older Sesame.
    /// A version newer than this Sesame's is corrupt.
    public static func decode<T: Decodable>(
        _ type: T.Type, _ row: any SQLRow, column index: Int32, table: String, legacyJSON: any SQLConnection
    ) throws -> T {
        if let coded = T.self as? any BinaryCodedRecord.Type {
            let bytes = row.bytes(index)
            if RecordBinary.isBinary(bytes),
                let record = try RecordBinary.decode(coded, from: bytes, table: table) as? T
            {
                return record
            }
        }
        let record = try legacyJSON.decode(T.self, row, column: index, table: table)
        try (record as? any VersionedRecord)?.checkVersion(table: table)
        return record
    }

    /// The data step of SQLite migration 15 / PostgreSQL 8: the daily roll-up is rebuilt from the
    /// auth events already stored, a thousand at a time.
    public static func rebuildDailyCounts(_ connection: any SQLConnection) throws {
        try connection.execute("DELETE FROM auth_daily_counts")
        var after: (Double, String, String)?
        while true {
            var sql = "SELECT tenant_id, id, at, data FROM auth_events"
            var values: [SQLValue] = []
            if let after {
                sql += " WHERE (at, tenant_id, id) > (?, ?, ?)"
                values = [.real(after.0), .text(after.1), .text(after.2)]
            }
            sql += " ORDER BY at, tenant_id, id LIMIT 1000"
            let rows = try connection.query(sql, values) { row -> (Double, String, String, AuthEventRecord) in
                let event = try decode(
                    AuthEventRecord.self, row, column: 3, table: "auth_events", legacyJSON: connection)
                return (row.double(2), row.text(0) ?? "", row.text(1) ?? "", event)
            }
            try SQLAuthEvents.addDailyCounts(of: rows.map(\.3), connection)
            guard let last = rows.last, rows.count == 1000 else { return }
            after = (last.0, last.1, last.2)
        }
    }

    /// The `data` value for `record`: its binary form (every stored record has one).
    public static func encode(_ record: some BinaryCodedRecord) -> SQLValue { .blob(RecordBinary.encode(record)) }

    /// The data step of SQLite migration 11 / PostgreSQL migration 4: every configuration row
    /// still in JSON is rewritten in the binary form (its `version` column too: a version-1 client
    /// is upgraded as it is read). Binary rows are left alone, so the step can run again.
    public static func rewriteConfiguration(_ connection: any SQLConnection) throws {
        try rewrite(connection, TenantRecord.self, table: "tenants", key: "id = ?") { [.text($0.id)] }
        try rewrite(connection, ClientRecord.self, table: "clients", key: "tenant_id = ? AND id = ?") {
            [.text($0.tenantID), .text($0.id)]
        }
        try rewrite(connection, ConnectionRecord.self, table: "connections", key: "tenant_id = ? AND id = ?") {
            [.text($0.tenantID), .text($0.id)]
        }
        try rewrite(
            connection, ResourceServerRecord.self, table: "resource_servers", key: "tenant_id = ? AND id = ?"
        ) { [.text($0.tenantID), .text($0.id)] }
        try rewrite(connection, SigningKeyRecord.self, table: "signing_keys", key: "tenant_id = ? AND id = ?") {
            [.text($0.tenantID), .text($0.id)]
        }
    }

    private static func rewrite<R: BinaryCodedRecord & Decodable>(
        _ connection: any SQLConnection, _ type: R.Type, table: String, key: String, _ keyValues: (R) -> [SQLValue]
    ) throws {
        try rewriteJSONRows(connection, R.self, table: table) { record in
            (
                "UPDATE \(table) SET version = ?, data = ? WHERE \(key)",
                [.integer(Int64(record.version)), encode(record)] + keyValues(record)
            )
        }
    }

    /// Decodes every JSON row of `table` and runs the statement `update` makes for it (binary rows
    /// are left alone, so a migration step built on this can run again).
    public static func rewriteJSONRows<R: BinaryCodedRecord & Decodable>(
        _ connection: any SQLConnection, _ type: R.Type, table: String, _ update: (R) -> (String, [SQLValue])
    ) throws {
        let rows = try connection.query("SELECT data FROM \(table)", []) { row -> R? in
            guard !RecordBinary.isBinary(row.bytes(0)) else { return nil }
            return try decode(R.self, row, column: 0, table: table, legacyJSON: connection)
        }
        for record in rows.compactMap({ $0 }) {
            let (sql, values) = update(record)
            try connection.execute(sql, values)
        }
    }

    /// The Management API scopes every full management client held before `create:users`.
    public static let scopesBeforeCreateUsers: Set<String> = [
        "read:clients", "create:clients", "update:clients", "delete:clients", "read:client_keys",
        "update:client_keys", "read:connections", "create:connections", "update:connections", "delete:connections",
        "read:users", "update:users", "delete:users", "read:authentication_methods", "delete:authentication_methods",
        "read:client_grants", "create:client_grants", "update:client_grants", "delete:client_grants",
        "read:resource_servers", "create:resource_servers", "update:resource_servers", "delete:resource_servers",
        "read:tenant_settings", "update:tenant_settings",
    ]

    /// The Management API scopes that came with passwords and MFA.
    public static let scopesOfPasswords = [
        "create:users", "read:outbox", "read:guardian_factors", "update:guardian_factors", "read:mfa_policies",
        "update:mfa_policies", "read:attack_protection", "update:attack_protection",
    ]

    /// Every Management API scope before the adoption statistics (SQLite 15 / PostgreSQL 8 add `read:stats`).
    public static var scopesBeforeStats: Set<String> { scopesBeforeCreateUsers.union(scopesOfPasswords) }

    /// Every Management API scope before the audit log (SQLite 18 / PostgreSQL 11 add `read:logs`).
    public static var scopesBeforeLogs: Set<String> { scopesBeforeStats.union(["read:stats"]) }

    /// A data step: every client grant holding all of `held` also gets `added` (so a full
    /// management client keeps full access when a release adds scopes).
    public static func grantScopes(
        _ connection: any SQLConnection, toGrantsHolding held: Set<String>, _ added: [String]
    ) throws {
        let rows = try connection.query("SELECT data FROM clients", []) {
            try decode(ClientRecord.self, $0, column: 0, table: "clients", legacyJSON: connection)
        }
        for var client in rows {
            var changed = false
            for index in client.grants.indices where held.isSubset(of: client.grants[index].scopes) {
                for scope in added where !client.grants[index].scopes.contains(scope) {
                    client.grants[index].scopes.append(scope)
                    changed = true
                }
            }
            guard changed else { continue }
            try connection.execute(
                "UPDATE clients SET data = ? WHERE tenant_id = ? AND id = ?",
                [encode(client), .text(client.tenantID), .text(client.id)])
        }
    }

    /// RFC 8265: every stored username's comparison column in the UsernameCaseMapped profile
    /// (`UsernameProfile`). A row whose mapped username another user of its connection holds
    /// already keeps its old column, so both still sign in as before until an operator renames one.
    public static func mapUsernames(_ connection: any SQLConnection) throws {
        let rows = try connection.query(
            "SELECT tenant_id, id, connection_id, username_lower FROM users WHERE username_lower IS NOT NULL", []
        ) { row in (row.text(0) ?? "", row.text(1) ?? "", row.text(2) ?? "", row.text(3) ?? "") }
        for (tenantID, id, connectionID, current) in rows {
            let mapped = UsernameProfile.caseMapped(current)
            guard mapped != current else { continue }
            let taken = try connection.query(
                "SELECT id FROM users WHERE tenant_id = ? AND connection_id = ? AND username_lower = ?",
                [.text(tenantID), .text(connectionID), .text(mapped)]
            ) { $0.text(0) }
            guard taken.isEmpty else { continue }
            try connection.execute(
                "UPDATE users SET username_lower = ? WHERE tenant_id = ? AND id = ?",
                [.text(mapped), .text(tenantID), .text(id)])
        }
    }
}

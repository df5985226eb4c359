import Foundation
import SesameStore

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
        try tx.moveForward("users", "last_login_at", to: lastLoginAt, tenantID: tenantID, id: id)
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
        let total = try tx.count("SELECT COUNT(*) FROM users u WHERE u.tenant_id = ?\(inConnection)", values)
        let withPasskey =
            try tx.count(
                """
                SELECT COUNT(*) FROM users u WHERE u.tenant_id = ?\(inConnection)
                AND EXISTS (SELECT 1 FROM passkeys p WHERE p.tenant_id = u.tenant_id AND p.user_id = u.id)
                """, values
            )
        let keyOnly =
            try tx.count(
                """
                SELECT COUNT(*) FROM users u WHERE u.tenant_id = ?\(inConnection)
                AND EXISTS (SELECT 1 FROM device_keys d WHERE d.tenant_id = u.tenant_id AND d.user_id = u.id
                    AND d.state <> 'revoked')
                AND NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.tenant_id = u.tenant_id AND p.user_id = u.id)
                """, values
            )
        return UserAdoption(total: total, withPasskey: withPasskey, withDeviceKeyOnly: keyOnly)
    }

    /// The whole tenant: the key tables' user indexes are counted on their own, with no pass over
    /// the users.
    private func adoptionOfTenant(_ tenantID: String) throws -> UserAdoption {
        let values: [SQLValue] = [.text(tenantID)]
        let total =
            try tx.count("SELECT COUNT(*) FROM users WHERE tenant_id = ?", values)
        let withPasskey =
            try tx.count(
                "SELECT COUNT(DISTINCT user_id) FROM passkeys WHERE tenant_id = ?", values
            )
        // A key whose user is gone does not count (deleting a user deletes its keys; this is belt and braces).
        let keyOnly =
            try tx.count(
                """
                SELECT COUNT(DISTINCT d.user_id) FROM device_keys d WHERE d.tenant_id = ? AND d.state <> 'revoked'
                AND NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.tenant_id = d.tenant_id AND p.user_id = d.user_id)
                AND EXISTS (SELECT 1 FROM users u WHERE u.tenant_id = d.tenant_id AND u.id = d.user_id)
                """, values
            )
        return UserAdoption(total: total, withPasskey: withPasskey, withDeviceKeyOnly: keyOnly)
    }
}

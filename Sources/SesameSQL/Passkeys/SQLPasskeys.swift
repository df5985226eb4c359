import Foundation
import SesameStore

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
        try tx.moveForward("passkeys", "last_used_at", to: lastUsedAt, tenantID: tenantID, id: id)
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM passkeys WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("passkey \(id)") }
    }
}

import Foundation
import SesameStore

/// The data step of the migration that gave the hot records their own columns (SQLite 9,
/// PostgreSQL 2): each passkey, user and refresh-token row gets its counter, backup state and
/// times copied into the new columns, and its `data` rewritten in the binary record form, so no
/// row on the login or refresh path needs Foundation's JSON decoder any more. Rows already in the
/// binary form are left alone, so the step can run again.
public enum HotRecordColumns {
    /// Runs the step on `connection`, inside the migration's transaction.
    public static func migrate(_ connection: any SQLConnection) throws {
        try StoredRecord.rewriteJSONRows(connection, PasskeyRecord.self, table: "passkeys") { passkey in
            (
                "UPDATE passkeys SET sign_count = ?, backup_state = ?, last_used_at = ?, data = ? "
                    + "WHERE tenant_id = ? AND id = ?",
                [
                    .integer(Int64(passkey.signCount)), .integer(passkey.backupState ? 1 : 0),
                    SQLTransaction.optionalTime(passkey.lastUsedAt), StoredRecord.encode(passkey),
                    .text(passkey.tenantID), .text(passkey.id),
                ]
            )
        }
        try StoredRecord.rewriteJSONRows(connection, UserRecord.self, table: "users") { user in
            (
                "UPDATE users SET last_login_at = ?, data = ? WHERE tenant_id = ? AND id = ?",
                [
                    SQLTransaction.optionalTime(user.lastLoginAt), StoredRecord.encode(user),
                    .text(user.tenantID), .text(user.id),
                ]
            )
        }
        try StoredRecord.rewriteJSONRows(connection, RefreshTokenRecord.self, table: "refresh_tokens") { token in
            (
                "UPDATE refresh_tokens SET used_at = ?, revoked_at = ?, data = ? WHERE tenant_id = ? AND id = ?",
                [
                    SQLTransaction.optionalTime(token.usedAt), SQLTransaction.optionalTime(token.revokedAt),
                    StoredRecord.encode(token), .text(token.tenantID), .text(token.id),
                ]
            )
        }
    }
}

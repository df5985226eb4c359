import Foundation
import SesameStore

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

    @discardableResult func revokeAll(tenantID: String, userID: String, clientID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            UPDATE refresh_tokens SET revoked_at = ? WHERE tenant_id = ? AND revoked_at IS NULL AND family_id IN (
                SELECT family_id FROM refresh_tokens WHERE tenant_id = ? AND user_id = ? AND family_head = 1
                AND client_id = ?)
            """, [SQLTransaction.time(at), .text(tenantID), .text(tenantID), .text(userID), .text(clientID)])
    }

    func current(tenantID: String, userID: String, limit: Int) throws -> [RefreshTokenRecord] {
        try tx.checkOpen()
        return try tx.connection.query(
            """
            SELECT \(Self.columns) FROM refresh_tokens WHERE tenant_id = ? AND used_at IS NULL AND revoked_at IS NULL
            AND family_id IN (SELECT family_id FROM refresh_tokens WHERE tenant_id = ? AND user_id = ? AND family_head = 1)
            ORDER BY created_at DESC, id DESC LIMIT ?
            """, [.text(tenantID), .text(tenantID), .text(userID), .integer(Int64(max(0, limit)))]
        ) { try token($0) }
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

import Foundation
import SesameStore

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

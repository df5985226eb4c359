import Foundation
import SesameStore

/// The auth session repository of a SQL transaction.
struct SQLAuthSessions: AuthSessionRepository {
    let tx: SQLTransaction

    func insert(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    {
        try tx.checkWritable()
        return try tx.atomically {
            let held = try tx.count(
                """
                SELECT COUNT(*) FROM (SELECT 1 FROM auth_sessions WHERE requester = ? AND expires_at > ? LIMIT ?) AS held
                """, [.text(session.requester), SQLTransaction.time(now), .integer(Int64(maxPerRequester))])
            guard held < maxPerRequester else { return .requesterFull }
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

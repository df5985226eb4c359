import Foundation
import SesameWire

/// The auth session repository of a memory transaction.
struct MemoryAuthSessions: AuthSessionRepository {
    let tx: MemoryTransaction

    func insert(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    {
        try tx.checkWritable()
        let held = tx.state.authSessions.values.lazy.filter { $0.requester == session.requester && $0.expiresAt > now }
        if held.prefix(maxPerRequester).count >= maxPerRequester { return .requesterFull }
        tx.state.authSessions[Hex.lowercase(session.handleHash)] = session
        return .inserted
    }

    func consume(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try tx.checkWritable()
        return tx.state.authSessions.removeValue(forKey: Hex.lowercase(handleHash))
    }

    func get(handleHash: [UInt8]) throws -> AuthSessionRecord? {
        try tx.checkOpen()
        return tx.state.authSessions[Hex.lowercase(handleHash)]
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.table(\.authSessions).remove(limit: limit) { $0.expiresAt <= now }
    }
}

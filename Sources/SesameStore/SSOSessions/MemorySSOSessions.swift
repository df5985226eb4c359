import Foundation

/// The SSO sessions of a memory transaction.
struct MemorySSOSessions: SSOSessionRepository {
    let tx: MemoryTransaction
    var table: MemoryTable<MemoryKey, SSOSessionRecord> { tx.table(\.ssoSessions) }

    func insert(_ session: SSOSessionRecord) throws {
        try table.insert(session, at: session.memoryKey, conflict: .ssoSessionID) {
            guard !tx.state.ssoSessions.values.contains(where: { $0.cookieHash == session.cookieHash }) else {
                throw StoreError.conflict(.ssoSessionCookie)
            }
        }
    }

    func get(cookieHash: [UInt8]) throws -> SSOSessionRecord? {
        try table.first { $0.cookieHash == cookieHash }
    }

    func update(_ session: SSOSessionRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: session.tenantID, id: session.id)
        guard let held = tx.state.ssoSessions[key] else { throw StoreError.notFound("sso session \(session.id)") }
        if held.cookieHash != session.cookieHash,
            tx.state.ssoSessions.values.contains(where: { $0.cookieHash == session.cookieHash })
        {
            throw StoreError.conflict(.ssoSessionCookie)
        }
        tx.state.ssoSessions[key] = session
    }

    func list(tenantID: String, userID: String) throws -> [SSOSessionRecord] {
        try table.filter(
            { $0.tenantID == tenantID && $0.userID == userID }, by: { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) })
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try table.remove(MemoryKey(tenantID: tenantID, id: id))
    }

    func deleteAll(tenantID: String, userID: String) throws -> Int {
        try table.remove { $0.tenantID == tenantID && $0.userID == userID }
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try table.remove(limit: limit) { $0.endsAt <= now }
    }
}

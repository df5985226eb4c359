import Foundation

/// The SSO sessions of a memory transaction.
struct MemorySSOSessions: SSOSessionRepository {
    let tx: MemoryTransaction

    func insert(_ session: SSOSessionRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: session.tenantID, id: session.id)
        guard tx.state.ssoSessions[key] == nil else { throw StoreError.conflict(.ssoSessionID) }
        guard !tx.state.ssoSessions.values.contains(where: { $0.cookieHash == session.cookieHash }) else {
            throw StoreError.conflict(.ssoSessionCookie)
        }
        tx.state.ssoSessions[key] = session
    }

    func get(cookieHash: [UInt8]) throws -> SSOSessionRecord? {
        try tx.checkOpen()
        return tx.state.ssoSessions.values.first { $0.cookieHash == cookieHash }
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
        try tx.checkOpen()
        return tx.state.ssoSessions.values.filter { $0.tenantID == tenantID && $0.userID == userID }
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try tx.checkWritable()
        return tx.state.ssoSessions.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil
    }

    func deleteAll(tenantID: String, userID: String) throws -> Int {
        try tx.checkWritable()
        let keys = tx.state.ssoSessions.filter { $0.value.tenantID == tenantID && $0.value.userID == userID }.keys
        for key in keys { tx.state.ssoSessions.removeValue(forKey: key) }
        return keys.count
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let ended = tx.state.ssoSessions.filter { $0.value.endsAt <= now }.keys.prefix(limit)
        for key in ended { tx.state.ssoSessions.removeValue(forKey: key) }
        return ended.count
    }
}

import Foundation

/// The refresh token repository of a memory transaction.
struct MemoryRefreshTokens: RefreshTokenRepository {
    let tx: MemoryTransaction
    var table: MemoryTable<MemoryKey, RefreshTokenRecord> { tx.table(\.refreshTokens) }

    func get(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord? {
        try table.first { $0.tenantID == tenantID && $0.tokenHash == tokenHash }
    }

    func list(tenantID: String, page: Page) throws -> [RefreshTokenRecord] {
        try tx.checkOpen()
        return MemoryTransaction.paged(
            tx.state.refreshTokens.values.filter { $0.tenantID == tenantID }.sorted { $0.id < $1.id }, page)
    }

    func insert(_ token: RefreshTokenRecord) throws {
        try table.insert(token, at: token.memoryKey, conflict: .refreshTokenID) { try checkTokenHash(of: token) }
    }

    func markUsed(tenantID: String, id: String, at: Date) throws -> Bool {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: tenantID, id: id)
        guard let token = tx.state.refreshTokens[key], token.usedAt == nil, token.revokedAt == nil else { return false }
        tx.state.refreshTokens[key]?.usedAt = at
        return true
    }

    func update(_ token: RefreshTokenRecord) throws {
        try table.update(token, at: token.memoryKey, missing: "refresh token \(token.id)") {
            try checkTokenHash(of: token)
        }
    }

    /// Token hashes are unique across tenants.
    fileprivate func checkTokenHash(of token: RefreshTokenRecord) throws {
        let taken = tx.state.refreshTokens.contains {
            $0.key != MemoryKey(tenantID: token.tenantID, id: token.id) && $0.value.tokenHash == token.tokenHash
        }
        if taken { throw StoreError.conflict(.refreshTokenHash) }
    }

    @discardableResult func revokeFamily(tenantID: String, familyID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.familyID == familyID }
    }

    @discardableResult func revokeAll(tenantID: String, userID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.userID == userID }
    }

    @discardableResult func revokeAll(tenantID: String, passkeyID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.passkeyID == passkeyID }
    }

    @discardableResult func revokeAll(tenantID: String, userID: String, exceptFamily familyID: String, at: Date)
        throws -> Int
    {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.userID == userID && $0.familyID != familyID }
    }

    @discardableResult func revokeAll(tenantID: String, userID: String, clientID: String, at: Date) throws -> Int {
        try tx.checkWritable()
        return revoke(at: at) { $0.tenantID == tenantID && $0.userID == userID && $0.clientID == clientID }
    }

    func current(tenantID: String, userID: String, limit: Int) throws -> [RefreshTokenRecord] {
        try tx.checkOpen()
        return Array(
            tx.state.refreshTokens.values.filter {
                $0.tenantID == tenantID && $0.userID == userID && $0.usedAt == nil && $0.revokedAt == nil
            }
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }.prefix(max(0, limit)))
    }

    /// Sets `revokedAt` on the matching tokens not yet revoked; returns how many changed.
    fileprivate func revoke(at: Date, where matches: (RefreshTokenRecord) -> Bool) -> Int {
        var changed = 0
        for (key, token) in tx.state.refreshTokens where token.revokedAt == nil && matches(token) {
            var revoked = token
            revoked.revokedAt = at
            tx.state.refreshTokens[key] = revoked
            changed += 1
        }
        return changed
    }
}

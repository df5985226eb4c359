import Foundation

/// The linked identities of a memory transaction.
struct MemoryLinkedIdentities: LinkedIdentityRepository {
    let tx: MemoryTransaction

    static func key(_ tenantID: String, _ connectionID: String, _ subject: String) -> MemoryKey {
        MemoryKey(tenantID: tenantID, id: connectionID + " " + subject)
    }

    func get(tenantID: String, connectionID: String, subject: String) throws -> LinkedIdentityRecord? {
        try tx.checkOpen()
        return tx.state.linkedIdentities[Self.key(tenantID, connectionID, subject)]
    }

    func list(tenantID: String, userID: String) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        return tx.state.linkedIdentities.values.filter { $0.tenantID == tenantID && $0.userID == userID }
            .sorted { ($0.createdAt, $0.subject) < ($1.createdAt, $1.subject) }
    }

    func list(tenantID: String, page: Page) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        let all = tx.state.linkedIdentities.values.filter { $0.tenantID == tenantID }
            .sorted { ($0.connectionID, $0.subject) < ($1.connectionID, $1.subject) }
        return MemoryTransaction.paged(all, page)
    }

    func insert(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        let key = Self.key(identity.tenantID, identity.connectionID, identity.subject)
        guard tx.state.linkedIdentities[key] == nil else { throw StoreError.conflict(.linkedIdentity) }
        tx.state.linkedIdentities[key] = identity
    }

    func update(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        let key = Self.key(identity.tenantID, identity.connectionID, identity.subject)
        guard tx.state.linkedIdentities[key] != nil else {
            throw StoreError.notFound("linked identity \(identity.subject)")
        }
        tx.state.linkedIdentities[key] = identity
    }

    func delete(tenantID: String, connectionID: String, subject: String) throws -> Bool {
        try tx.checkWritable()
        return tx.state.linkedIdentities.removeValue(forKey: Self.key(tenantID, connectionID, subject)) != nil
    }
}

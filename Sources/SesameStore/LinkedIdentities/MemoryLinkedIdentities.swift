import Foundation

/// The linked identities of a memory transaction.
struct MemoryLinkedIdentities: LinkedIdentityRepository {
    let tx: MemoryTransaction
    var table: MemoryTable<MemoryKey, LinkedIdentityRecord> { tx.table(\.linkedIdentities) }

    static func key(_ tenantID: String, _ connectionID: String, _ subject: String) -> MemoryKey {
        MemoryKey(tenantID: tenantID, id: connectionID + " " + subject)
    }

    func get(tenantID: String, connectionID: String, subject: String) throws -> LinkedIdentityRecord? {
        try table.get(Self.key(tenantID, connectionID, subject))
    }

    func list(tenantID: String, userID: String) throws -> [LinkedIdentityRecord] {
        try table.filter(
            { $0.tenantID == tenantID && $0.userID == userID },
            by: { ($0.createdAt, $0.subject) < ($1.createdAt, $1.subject) })
    }

    func list(tenantID: String, page: Page) throws -> [LinkedIdentityRecord] {
        let all = try table.filter(
            { $0.tenantID == tenantID }, by: { ($0.connectionID, $0.subject) < ($1.connectionID, $1.subject) })
        return MemoryTransaction.paged(all, page)
    }

    func insert(_ identity: LinkedIdentityRecord) throws {
        let key = Self.key(identity.tenantID, identity.connectionID, identity.subject)
        try table.insert(identity, at: key, conflict: .linkedIdentity)
    }

    func update(_ identity: LinkedIdentityRecord) throws {
        let key = Self.key(identity.tenantID, identity.connectionID, identity.subject)
        try table.update(identity, at: key, missing: "linked identity \(identity.subject)")
    }

    func delete(tenantID: String, connectionID: String, subject: String) throws -> Bool {
        try table.remove(Self.key(tenantID, connectionID, subject))
    }
}

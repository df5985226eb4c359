import Foundation
import SesameStore

/// The linked identities of a SQL transaction; `user_id` is a column of its own for a user's list.
struct SQLLinkedIdentities: LinkedIdentityRepository {
    let tx: SQLTransaction

    func get(tenantID: String, connectionID: String, subject: String) throws -> LinkedIdentityRecord? {
        try tx.checkOpen()
        return try tx.record(
            LinkedIdentityRecord.self, table: "linked_identities",
            "SELECT data FROM linked_identities WHERE tenant_id = ? AND connection_id = ? AND subject = ?",
            [.text(tenantID), .text(connectionID), .text(subject)])
    }

    func list(tenantID: String, userID: String) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        return try tx.records(
            LinkedIdentityRecord.self, table: "linked_identities",
            "SELECT data FROM linked_identities WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, subject",
            [.text(tenantID), .text(userID)])
    }

    func list(tenantID: String, page: Page) throws -> [LinkedIdentityRecord] {
        try tx.checkOpen()
        return try tx.records(
            LinkedIdentityRecord.self, table: "linked_identities",
            "SELECT data FROM linked_identities WHERE tenant_id = ? ORDER BY connection_id, subject LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO linked_identities (tenant_id, connection_id, subject, user_id, created_at, data)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(identity.tenantID), .text(identity.connectionID), .text(identity.subject),
                .text(identity.userID), SQLTransaction.time(identity.createdAt), tx.encode(identity),
            ])
    }

    func update(_ identity: LinkedIdentityRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE linked_identities SET user_id = ?, data = ? WHERE tenant_id = ? AND connection_id = ? AND subject = ?",
            [
                .text(identity.userID), tx.encode(identity), .text(identity.tenantID), .text(identity.connectionID),
                .text(identity.subject),
            ])
        guard changed > 0 else { throw StoreError.notFound("linked identity \(identity.subject)") }
    }

    func delete(tenantID: String, connectionID: String, subject: String) throws -> Bool {
        try tx.checkWritable()
        return try tx.connection.execute(
            "DELETE FROM linked_identities WHERE tenant_id = ? AND connection_id = ? AND subject = ?",
            [.text(tenantID), .text(connectionID), .text(subject)]) > 0
    }
}

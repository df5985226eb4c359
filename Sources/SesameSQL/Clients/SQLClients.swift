import Foundation
import SesameStore

/// The client repository of a SQL transaction.
struct SQLClients: ClientRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> ClientRecord? {
        try tx.checkOpen()
        return try tx.record(
            ClientRecord.self, table: "clients", "SELECT data FROM clients WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    func list(tenantID: String, page: Page) throws -> [ClientRecord] {
        try tx.checkOpen()
        return try tx.records(
            ClientRecord.self, table: "clients",
            "SELECT data FROM clients WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ client: ClientRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO clients (tenant_id, id, created_at, version, data) VALUES (?, ?, ?, ?, ?)",
            [
                .text(client.tenantID), .text(client.id), SQLTransaction.time(client.createdAt),
                .integer(Int64(client.version)), tx.encode(client),
            ])
    }

    func update(_ client: ClientRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE clients SET created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                SQLTransaction.time(client.createdAt), .integer(Int64(client.version)),
                tx.encode(client),
                .text(client.tenantID), .text(client.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("client \(client.id)") }
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM clients WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("client \(id)") }
    }
}

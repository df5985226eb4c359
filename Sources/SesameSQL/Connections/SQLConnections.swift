import Foundation
import SesameStore

/// The connection repository of a SQL transaction.
struct SQLConnections: ConnectionRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return try tx.record(
            ConnectionRecord.self, table: "connections", "SELECT data FROM connections WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    func get(tenantID: String, name: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return try tx.record(
            ConnectionRecord.self, table: "connections",
            "SELECT data FROM connections WHERE tenant_id = ? AND name = ?", [.text(tenantID), .text(name)])
    }

    func list(tenantID: String, page: Page) throws -> [ConnectionRecord] {
        try tx.checkOpen()
        return try tx.records(
            ConnectionRecord.self, table: "connections",
            "SELECT data FROM connections WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ record: ConnectionRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO connections (tenant_id, id, name, created_at, version, data) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(record.tenantID), .text(record.id), .text(record.name), SQLTransaction.time(record.createdAt),
                .integer(Int64(record.version)), tx.encode(record),
            ])
    }

    func update(_ record: ConnectionRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE connections SET name = ?, created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                .text(record.name), SQLTransaction.time(record.createdAt), .integer(Int64(record.version)),
                tx.encode(record), .text(record.tenantID), .text(record.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("connection \(record.id)") }
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM connections WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("connection \(id)") }
    }
}

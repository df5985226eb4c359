import Foundation
import SesameStore

/// The resource server repository of a SQL transaction.
struct SQLResourceServers: ResourceServerRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return try tx.record(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
    }

    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return try tx.record(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? AND identifier = ?",
            [.text(tenantID), .text(identifier)])
    }

    func list(tenantID: String, page: Page) throws -> [ResourceServerRecord] {
        try tx.checkOpen()
        return try tx.records(
            ResourceServerRecord.self, table: "resource_servers",
            "SELECT data FROM resource_servers WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ record: ResourceServerRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO resource_servers (tenant_id, id, identifier, created_at, version, data)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(record.tenantID), .text(record.id), .text(record.identifier),
                SQLTransaction.time(record.createdAt),
                .integer(Int64(record.version)), tx.encode(record),
            ])
    }

    func update(_ record: ResourceServerRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            """
            UPDATE resource_servers SET identifier = ?, created_at = ?, version = ?, data = ?
            WHERE tenant_id = ? AND id = ?
            """,
            [
                .text(record.identifier), SQLTransaction.time(record.createdAt), .integer(Int64(record.version)),
                tx.encode(record), .text(record.tenantID), .text(record.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("resource server \(record.id)") }
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM resource_servers WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("resource server \(id)") }
    }
}

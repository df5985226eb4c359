import Foundation
import SesameStore

/// The outbox of a SQL transaction.
struct SQLOutbox: OutboxRepository {
    let tx: SQLTransaction

    func insert(_ message: OutboxMessageRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO outbox (tenant_id, id, created_at, data) VALUES (?, ?, ?, ?)",
            [.text(message.tenantID), .text(message.id), SQLTransaction.time(message.createdAt), tx.encode(message)])
    }

    func list(tenantID: String, page: Page) throws -> [OutboxMessageRecord] {
        try tx.checkOpen()
        return try tx.records(
            OutboxMessageRecord.self, table: "outbox",
            "SELECT data FROM outbox WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func deleteOlder(than before: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            DELETE FROM outbox WHERE (tenant_id, id) IN
                (SELECT tenant_id, id FROM outbox WHERE created_at < ? LIMIT ?)
            """, [SQLTransaction.time(before), .integer(Int64(limit))])
    }
}

import Foundation

/// The outbox of a memory transaction.
struct MemoryOutbox: OutboxRepository {
    let tx: MemoryTransaction
    var table: MemoryTable<MemoryKey, OutboxMessageRecord> { tx.table(\.outbox) }

    func insert(_ message: OutboxMessageRecord) throws {
        try table.insert(message, at: message.memoryKey, conflict: .outboxMessageID)
    }

    func list(tenantID: String, page: Page) throws -> [OutboxMessageRecord] {
        let all = try table.filter({ $0.tenantID == tenantID }, by: { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) })
        return MemoryTransaction.paged(all, page)
    }

    func deleteOlder(than before: Date, limit: Int) throws -> Int {
        try table.remove(limit: limit) { $0.createdAt < before }
    }
}

import Foundation

/// The outbox of a memory transaction.
struct MemoryOutbox: OutboxRepository {
    let tx: MemoryTransaction

    func insert(_ message: OutboxMessageRecord) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: message.tenantID, id: message.id)
        guard tx.state.outbox[key] == nil else { throw StoreError.conflict(.outboxMessageID) }
        tx.state.outbox[key] = message
    }

    func list(tenantID: String, page: Page) throws -> [OutboxMessageRecord] {
        try tx.checkOpen()
        let all = tx.state.outbox.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }, page)
    }

    func deleteOlder(than before: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let old = tx.state.outbox.filter { $0.value.createdAt < before }.keys.prefix(limit)
        for key in old { tx.state.outbox.removeValue(forKey: key) }
        return old.count
    }
}

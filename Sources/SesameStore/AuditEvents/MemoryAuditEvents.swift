import Foundation

/// The audit log of a memory transaction.
struct MemoryAuditEvents: AuditEventRepository {
    let tx: MemoryTransaction

    var table: MemoryTable<MemoryKey, AuditEventRecord> { tx.table(\.auditEvents) }

    func append(_ events: [AuditEventRecord]) throws {
        try table.insert(events, key: { MemoryKey(tenantID: $0.tenantID, id: $0.id) }, conflict: .auditEventID)
    }

    func get(tenantID: String, id: String) throws -> AuditEventRecord? {
        try table.get(MemoryKey(tenantID: tenantID, id: id))
    }

    private func matching(_ tenantID: String, _ query: AuditQuery) -> [AuditEventRecord] {
        tx.state.auditEvents.values.filter { $0.tenantID == tenantID && query.matches($0) }
    }

    func list(tenantID: String, query: AuditQuery, page: Page) throws -> [AuditEventRecord] {
        try tx.checkOpen()
        return MemoryTransaction.paged(matching(tenantID, query).sorted { $0.id > $1.id }, page)
    }

    func count(tenantID: String, query: AuditQuery) throws -> Int {
        try tx.checkOpen()
        return matching(tenantID, query).count
    }

    func list(tenantID: String, query: AuditQuery, after: String?, limit: Int) throws -> [AuditEventRecord] {
        try tx.checkOpen()
        let later = matching(tenantID, query).filter { event in after.map { event.id > $0 } ?? true }
        return Array(later.sorted { $0.id < $1.id }.prefix(min(max(0, limit), 100)))
    }

    func deleteOlder(tenantID: String, than before: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let old = tx.state.auditEvents.values.filter { $0.tenantID == tenantID && $0.at < before }
            .sorted { $0.id < $1.id }.prefix(max(0, limit))
        for event in old { tx.state.auditEvents[MemoryKey(tenantID: tenantID, id: event.id)] = nil }
        return old.count
    }
}

import Foundation

/// The auth event repository of a memory transaction.
struct MemoryAuthEvents: AuthEventRepository {
    let tx: MemoryTransaction

    func insert(_ events: [AuthEventRecord]) throws {
        try tx.table(\.authEvents).insert(
            events, key: { MemoryKey(tenantID: $0.tenantID, id: $0.id) }, conflict: .authEventID)
        for event in events {
            guard let cell = event.dailyCount else { continue }
            tx.state.dailyCounts[MemoryDailyKey(tenantID: event.tenantID, cell: cell.key), default: 0] += 1
        }
    }

    func dailyCounts(
        tenantID: String, from: String, to: String, clientID: String?, connectionID: String?
    ) throws -> [AuthDailyCount] {
        try tx.checkOpen()
        return tx.state.dailyCounts.compactMap { key, count -> AuthDailyCount? in
            let cell = key.cell
            guard key.tenantID == tenantID, cell.day >= from, cell.day <= to,
                clientID == nil || cell.clientID == clientID, connectionID == nil || cell.connectionID == connectionID
            else { return nil }
            var counted = cell
            counted.count = count
            return counted
        }.sorted { $0.day < $1.day }
    }

    func list(tenantID: String, page: Page) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        let all = tx.state.authEvents.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.at, $0.id) < ($1.at, $1.id) }, page)
    }

    func since(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        let all = tx.state.authEvents.values.filter { $0.tenantID == tenantID && $0.at >= since }
        let sorted = all.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        return Array(sorted.prefix(max(0, limit)))
    }
}

import Foundation
import SesameStore

/// The attempt counters of a SQL transaction. `add` reads and then writes inside the write
/// transaction, which is serialisable on both backends, so no two writers see the same count.
struct SQLAttemptCounters: AttemptCounterRepository {
    let tx: SQLTransaction

    func add(tenantID: String, key: [UInt8], delta: Int, now: Date, windowEndsAt: Date, sliding: Bool) throws -> Int {
        try tx.checkWritable()
        let held = try get(tenantID: tenantID, key: key, now: now)
        let count = max(0, (held?.count ?? 0) + delta)
        let ends = held.map { sliding ? windowEndsAt : $0.windowEndsAt } ?? windowEndsAt
        try tx.connection.execute(
            """
            INSERT INTO attempt_counters (tenant_id, counter_key, attempts, window_ends_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (tenant_id, counter_key) DO UPDATE
            SET attempts = excluded.attempts, window_ends_at = excluded.window_ends_at
            """, [.text(tenantID), .blob(key), .integer(Int64(count)), SQLTransaction.time(ends)])
        return count
    }

    func get(tenantID: String, key: [UInt8], now: Date) throws -> AttemptCount? {
        try tx.checkOpen()
        return try tx.connection.query(
            """
            SELECT attempts, window_ends_at FROM attempt_counters
            WHERE tenant_id = ? AND counter_key = ? AND window_ends_at > ?
            """, [.text(tenantID), .blob(key), SQLTransaction.time(now)]
        ) { row in
            AttemptCount(
                count: Int(row.integer(0)), windowEndsAt: Date(timeIntervalSinceReferenceDate: row.double(1)))
        }.first
    }

    func reset(tenantID: String, key: [UInt8]) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "DELETE FROM attempt_counters WHERE tenant_id = ? AND counter_key = ?", [.text(tenantID), .blob(key)])
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        return try tx.connection.executeNarrow(
            """
            DELETE FROM attempt_counters WHERE (tenant_id, counter_key) IN
                (SELECT tenant_id, counter_key FROM attempt_counters WHERE window_ends_at <= ? LIMIT ?)
            """, [SQLTransaction.time(now), .integer(Int64(limit))])
    }
}

import Foundation
import SesameWire

/// The attempt counters of a memory transaction.
struct MemoryAttemptCounters: AttemptCounterRepository {
    let tx: MemoryTransaction

    private static func key(_ tenantID: String, _ key: [UInt8]) -> MemoryKey {
        MemoryKey(tenantID: tenantID, id: Hex.lowercase(key))
    }

    func add(tenantID: String, key: [UInt8], delta: Int, now: Date, windowEndsAt: Date, sliding: Bool) throws -> Int {
        try tx.checkWritable()
        let memoryKey = Self.key(tenantID, key)
        var counter: AttemptCount
        if let held = tx.state.attemptCounters[memoryKey], held.windowEndsAt > now {
            counter = AttemptCount(
                count: max(0, held.count + delta), windowEndsAt: sliding ? windowEndsAt : held.windowEndsAt)
        } else {
            counter = AttemptCount(count: max(0, delta), windowEndsAt: windowEndsAt)
        }
        tx.state.attemptCounters[memoryKey] = counter
        return counter.count
    }

    func get(tenantID: String, key: [UInt8], now: Date) throws -> AttemptCount? {
        try tx.checkOpen()
        guard let held = tx.state.attemptCounters[Self.key(tenantID, key)], held.windowEndsAt > now else { return nil }
        return held
    }

    func reset(tenantID: String, key: [UInt8]) throws {
        try tx.checkWritable()
        tx.state.attemptCounters.removeValue(forKey: Self.key(tenantID, key))
    }

    func deleteExpired(now: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        let expired = tx.state.attemptCounters.filter { $0.value.windowEndsAt <= now }.keys.prefix(limit)
        for key in expired { tx.state.attemptCounters.removeValue(forKey: key) }
        return expired.count
    }
}

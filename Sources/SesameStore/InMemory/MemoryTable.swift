import Foundation

/// One table of a memory transaction's state: the checked reads and writes every memory
/// repository makes of its records, so a repository states only its keys, its conflicts and its
/// other indexes.
struct MemoryTable<Key: Hashable & Sendable, Record: Sendable> {
    let tx: MemoryTransaction
    /// Where the state keeps the records.
    let rows: WritableKeyPath<MemoryState, [Key: Record]>

    /// The record at `key`.
    func get(_ key: Key) throws -> Record? {
        try tx.checkOpen()
        return tx.state[keyPath: rows][key]
    }

    /// The first record that `matches` (a second unique member).
    func first(where matches: (Record) -> Bool) throws -> Record? {
        try tx.checkOpen()
        return tx.state[keyPath: rows].values.first(where: matches)
    }

    /// The records that `matches`, in `order`.
    func filter(_ matches: (Record) -> Bool, by order: (Record, Record) -> Bool) throws -> [Record] {
        try tx.checkOpen()
        return tx.state[keyPath: rows].values.filter(matches).sorted(by: order)
    }

    /// Adds `record` at `key`: refused as `conflict` when the key is held, then by `check`.
    func insert(_ record: Record, at key: Key, conflict: UniqueRule, check: () throws -> Void = {}) throws {
        try tx.checkWritable()
        guard tx.state[keyPath: rows][key] == nil else { throw StoreError.conflict(conflict) }
        try check()
        tx.state[keyPath: rows][key] = record
    }

    /// Adds every record of `records` at its key, or none: refused as `conflict` when a key is
    /// held or given twice.
    func insert(_ records: [Record], key: (Record) -> Key, conflict: UniqueRule) throws {
        try tx.checkWritable()
        var keys = Set<Key>()
        for record in records {
            guard tx.state[keyPath: rows][key(record)] == nil, keys.insert(key(record)).inserted else {
                throw StoreError.conflict(conflict)
            }
        }
        for record in records { tx.state[keyPath: rows][key(record)] = record }
    }

    /// Replaces the record at `key`: refused as not found, `missing` naming it ("user u1"), when
    /// there is none, then by `check`.
    func update(_ record: Record, at key: Key, missing: @autoclosure () -> String, check: () throws -> Void = {})
        throws
    {
        try tx.checkWritable()
        guard tx.state[keyPath: rows][key] != nil else { throw StoreError.notFound(missing()) }
        try check()
        tx.state[keyPath: rows][key] = record
    }

    /// Moves the time at `path` of the record at `key` forward to `at`: a later time is kept, and a
    /// missing record is no error.
    func moveForward(_ key: Key, _ path: WritableKeyPath<Record, Date?>, to at: Date) throws {
        try tx.checkWritable()
        guard let record = tx.state[keyPath: rows][key], record[keyPath: path].map({ $0 < at }) ?? true else { return }
        tx.state[keyPath: rows][key]?[keyPath: path] = at
    }

    /// Removes the record at `key`: whether there was one.
    func remove(_ key: Key) throws -> Bool {
        try tx.checkWritable()
        return tx.state[keyPath: rows].removeValue(forKey: key) != nil
    }

    /// Removes the record at `key`: refused as not found, `missing` naming it, when there is none.
    func delete(_ key: Key, missing: @autoclosure () -> String) throws {
        guard try remove(key) else { throw StoreError.notFound(missing()) }
    }

    /// Removes at most `limit` of the records that `match`: how many went.
    func remove(limit: Int = .max, where matches: (Record) -> Bool) throws -> Int {
        try tx.checkWritable()
        let keys = tx.state[keyPath: rows].filter { matches($0.value) }.keys.prefix(limit)
        for key in keys { tx.state[keyPath: rows].removeValue(forKey: key) }
        return keys.count
    }
}

extension MemoryTransaction {
    /// The table the state keeps at `rows`.
    func table<Key, Record>(_ rows: WritableKeyPath<MemoryState, [Key: Record]>) -> MemoryTable<Key, Record> {
        MemoryTable(tx: self, rows: rows)
    }
}

/// A record the memory store keeps by tenant and id.
protocol MemoryKeyed {
    var tenantID: String { get }
    var id: String { get }
    var createdAt: Date { get }
}

extension MemoryKeyed {
    var memoryKey: MemoryKey { MemoryKey(tenantID: tenantID, id: id) }

    /// The order of a list oldest first, equal times in id order.
    static func oldestFirst(_ one: Self, _ other: Self) -> Bool {
        (one.createdAt, one.id) < (other.createdAt, other.id)
    }
}

extension PasskeyRecord: MemoryKeyed {}
extension UserRecord: MemoryKeyed {}
extension RefreshTokenRecord: MemoryKeyed {}
extension DeviceKeyRecord: MemoryKeyed {}
extension OutboxMessageRecord: MemoryKeyed {}
extension SSOSessionRecord: MemoryKeyed {}

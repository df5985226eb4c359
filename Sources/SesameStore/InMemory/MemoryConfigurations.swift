import Foundation

/// A record the memory store keeps by tenant and id in a table of the state: the configuration
/// aggregates (clients, connections, APIs, signing keys), whose repositories differ only in these
/// few facts.
protocol MemoryConfigurationRecord: Sendable {
    var tenantID: String { get }
    var id: String { get }
    var createdAt: Date { get }
    /// Where the state keeps them.
    static var rows: WritableKeyPath<MemoryState, [MemoryKey: Self]> { get }
    /// What inserting an id the tenant holds already is.
    static var idConflict: UniqueRule { get }
    /// How a missing one is named in `notFound` ("client c1").
    static var noun: String { get }
    /// The other member unique within the tenant (a connection's name), and its conflict.
    static var otherUnique: (conflict: UniqueRule, value: @Sendable (Self) -> String)? { get }
    /// Whether a change moves the configuration generation (what the configuration cache keys on).
    static var isCached: Bool { get }
}

extension MemoryConfigurationRecord {
    static var otherUnique: (conflict: UniqueRule, value: @Sendable (Self) -> String)? { nil }
    static var isCached: Bool { true }
}

/// The repository of one configuration aggregate in a memory transaction: each aggregate's
/// protocol is met by a conditional conformance in its folder (Clients/MemoryClients.swift, …).
struct MemoryConfigurations<Record: MemoryConfigurationRecord> {
    let tx: MemoryTransaction

    private var rows: [MemoryKey: Record] { tx.state[keyPath: Record.rows] }

    func get(tenantID: String, id: String) throws -> Record? {
        try tx.checkOpen()
        return rows[MemoryKey(tenantID: tenantID, id: id)]
    }

    /// The tenant's first record that `matches` (for a second unique member).
    func first(tenantID: String, where matches: (Record) -> Bool) throws -> Record? {
        try tx.checkOpen()
        return rows.values.first { $0.tenantID == tenantID && matches($0) }
    }

    /// The tenant's records, oldest first.
    func list(tenantID: String) throws -> [Record] {
        try tx.checkOpen()
        return rows.values.filter { $0.tenantID == tenantID }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func list(tenantID: String, page: Page) throws -> [Record] {
        MemoryTransaction.paged(try list(tenantID: tenantID), page)
    }

    func insert(_ record: Record) throws {
        try write(record, exists: false)
    }

    func update(_ record: Record) throws {
        try write(record, exists: true)
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        guard tx.state[keyPath: Record.rows].removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("\(Record.noun) \(id)")
        }
        if Record.isCached { tx.state.configurationGeneration += 1 }
    }

    /// Inserts (`exists` false) or replaces a record, after every check.
    private func write(_ record: Record, exists: Bool) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: record.tenantID, id: record.id)
        switch (exists, rows[key] != nil) {
        case (false, true): throw StoreError.conflict(Record.idConflict)
        case (true, false): throw StoreError.notFound("\(Record.noun) \(record.id)")
        default: break
        }
        if let (conflict, value) = Record.otherUnique {
            let taken = rows.values.contains {
                $0.tenantID == record.tenantID && $0.id != record.id && value($0) == value(record)
            }
            if taken { throw StoreError.conflict(conflict) }
        }
        tx.state[keyPath: Record.rows][key] = record
        if Record.isCached { tx.state.configurationGeneration += 1 }
    }
}

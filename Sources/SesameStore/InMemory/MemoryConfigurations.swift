import Foundation

/// A record the memory store keeps by tenant and id in a table of the state: the configuration
/// aggregates (clients, connections, APIs, signing keys), whose repositories differ only in these
/// few facts.
protocol MemoryConfigurationRecord: MemoryKeyed, Sendable {
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

    private var table: MemoryTable<MemoryKey, Record> { tx.table(Record.rows) }

    func get(tenantID: String, id: String) throws -> Record? {
        try table.get(MemoryKey(tenantID: tenantID, id: id))
    }

    /// The tenant's first record that `matches` (for a second unique member).
    func first(tenantID: String, where matches: (Record) -> Bool) throws -> Record? {
        try table.first { $0.tenantID == tenantID && matches($0) }
    }

    /// The tenant's records, oldest first.
    func list(tenantID: String) throws -> [Record] {
        try table.filter({ $0.tenantID == tenantID }, by: Record.oldestFirst)
    }

    func list(tenantID: String, page: Page) throws -> [Record] {
        MemoryTransaction.paged(try list(tenantID: tenantID), page)
    }

    func insert(_ record: Record) throws {
        try table.insert(record, at: record.memoryKey, conflict: Record.idConflict) { try checkOtherUnique(of: record) }
        if Record.isCached { tx.state.configurationGeneration += 1 }
    }

    func update(_ record: Record) throws {
        try table.update(record, at: record.memoryKey, missing: "\(Record.noun) \(record.id)") {
            try checkOtherUnique(of: record)
        }
        if Record.isCached { tx.state.configurationGeneration += 1 }
    }

    func delete(tenantID: String, id: String) throws {
        try table.delete(MemoryKey(tenantID: tenantID, id: id), missing: "\(Record.noun) \(id)")
        if Record.isCached { tx.state.configurationGeneration += 1 }
    }

    private func checkOtherUnique(of record: Record) throws {
        guard let (conflict, value) = Record.otherUnique else { return }
        let taken = tx.state[keyPath: Record.rows].values.contains {
            $0.tenantID == record.tenantID && $0.id != record.id && value($0) == value(record)
        }
        if taken { throw StoreError.conflict(conflict) }
    }
}

extension MemoryConfigurations: ConfigurationRepository {}

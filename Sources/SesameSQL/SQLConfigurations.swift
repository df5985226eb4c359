import Foundation
import SesameStore

/// A record a SQL store keeps in a table of its own with the columns every configuration table has
/// (`tenant_id`, `id`, `created_at`, `version`, `data`) and perhaps a few more: the configuration
/// aggregates (clients, connections, APIs, signing keys), whose repositories differ only in these.
protocol SQLConfigurationRecord: BinaryCodedRecord, Decodable {
    var tenantID: String { get }
    var id: String { get }
    var createdAt: Date { get }
    static var sqlTable: String { get }
    /// How a missing one is named in `notFound` ("client c1").
    static var noun: String { get }
    /// The columns beyond the common ones, in the table's order, and their values.
    static var extraColumns: [(name: String, value: @Sendable (Self) -> SQLValue)] { get }
}

extension SQLConfigurationRecord {
    static var extraColumns: [(name: String, value: @Sendable (Self) -> SQLValue)] { [] }
}

/// The repository of one configuration aggregate in a SQL transaction: each aggregate's protocol
/// is met by a conditional conformance in its folder (Clients/SQLClients.swift, …).
struct SQLConfigurations<Record: SQLConfigurationRecord> {
    let tx: SQLTransaction

    private var table: String { Record.sqlTable }

    func get(tenantID: String, id: String) throws -> Record? {
        try first(tenantID: tenantID, column: "id", equals: id)
    }

    /// The record whose `column` (a unique one) holds `value`.
    func first(tenantID: String, column: String, equals value: String) throws -> Record? {
        try tx.checkOpen()
        return try tx.record(
            Record.self, table: table, "SELECT data FROM \(table) WHERE tenant_id = ? AND \(column) = ?",
            [.text(tenantID), .text(value)])
    }

    /// The tenant's records, oldest first.
    func list(tenantID: String) throws -> [Record] {
        try tx.checkOpen()
        return try tx.records(
            Record.self, table: table, "SELECT data FROM \(table) WHERE tenant_id = ? ORDER BY created_at, id",
            [.text(tenantID)])
    }

    func list(tenantID: String, page: Page) throws -> [Record] {
        try tx.checkOpen()
        return try tx.records(
            Record.self, table: table,
            "SELECT data FROM \(table) WHERE tenant_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ record: Record) throws {
        try tx.checkWritable()
        let extra = Record.extraColumns
        let names = ["tenant_id", "id"] + extra.map(\.name) + ["created_at", "version", "data"]
        try tx.connection.execute(
            "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")",
            [.text(record.tenantID), .text(record.id)] + extra.map { $0.value(record) } + common(record))
    }

    func update(_ record: Record) throws {
        try tx.checkWritable()
        let extra = Record.extraColumns
        let assignments = (extra.map(\.name) + ["created_at", "version", "data"]).map { "\($0) = ?" }
        let changed = try tx.connection.execute(
            "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE tenant_id = ? AND id = ?",
            extra.map { $0.value(record) } + common(record) + [.text(record.tenantID), .text(record.id)])
        guard changed > 0 else { throw StoreError.notFound("\(Record.noun) \(record.id)") }
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "DELETE FROM \(table) WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
        guard changed > 0 else { throw StoreError.notFound("\(Record.noun) \(id)") }
    }

    /// `created_at`, `version` and `data`.
    private func common(_ record: Record) -> [SQLValue] {
        [SQLTransaction.time(record.createdAt), .integer(Int64(record.version)), tx.encode(record)]
    }
}

extension SQLConfigurations: ConfigurationRepository {}

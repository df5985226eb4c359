import Foundation
import SesameStore

extension ConnectionRecord: SQLConfigurationRecord {
    static var sqlTable: String { "connections" }
    static var noun: String { "connection" }
    static var extraColumns: [(name: String, value: @Sendable (ConnectionRecord) -> SQLValue)] {
        [("name", { .text($0.name) })]
    }
}

/// The connection repository of a SQL transaction.
extension SQLConfigurations: ConnectionRepository where Record == ConnectionRecord {
    func get(tenantID: String, name: String) throws -> ConnectionRecord? {
        try first(tenantID: tenantID, column: "name", equals: name)
    }
}

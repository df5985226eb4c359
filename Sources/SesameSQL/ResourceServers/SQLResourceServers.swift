import Foundation
import SesameStore

extension ResourceServerRecord: SQLConfigurationRecord {
    static var sqlTable: String { "resource_servers" }
    static var noun: String { "resource server" }
    static var extraColumns: [(name: String, value: @Sendable (ResourceServerRecord) -> SQLValue)] {
        [("identifier", { .text($0.identifier) })]
    }
}

/// The resource server repository of a SQL transaction.
extension SQLConfigurations: ResourceServerRepository where Record == ResourceServerRecord {
    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try first(tenantID: tenantID, column: "identifier", equals: identifier)
    }
}

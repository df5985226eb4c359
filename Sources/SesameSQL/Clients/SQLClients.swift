import Foundation
import SesameStore

extension ClientRecord: SQLConfigurationRecord {
    static var sqlTable: String { "clients" }
    static var noun: String { "client" }
}

/// The client repository of a SQL transaction.
extension SQLConfigurations: ClientRepository where Record == ClientRecord {}

import Foundation
import SesameStore

extension SigningKeyRecord: SQLConfigurationRecord {
    static var sqlTable: String { "signing_keys" }
    static var noun: String { "signing key" }
}

/// The signing key repository of a SQL transaction.
extension SQLConfigurations: SigningKeyRepository where Record == SigningKeyRecord {}

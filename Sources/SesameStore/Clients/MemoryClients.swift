import Foundation

extension ClientRecord: MemoryConfigurationRecord {
    static var rows: WritableKeyPath<MemoryState, [MemoryKey: ClientRecord]> { \.clients }
    static var idConflict: UniqueRule { .clientID }
    static var noun: String { "client" }
}

/// The client repository of a memory transaction.
extension MemoryConfigurations: ClientRepository where Record == ClientRecord {}

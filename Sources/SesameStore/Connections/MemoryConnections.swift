import Foundation

extension ConnectionRecord: MemoryConfigurationRecord {
    static var rows: WritableKeyPath<MemoryState, [MemoryKey: ConnectionRecord]> { \.connections }
    static var idConflict: UniqueRule { .connectionID }
    static var noun: String { "connection" }
    static var otherUnique: (conflict: UniqueRule, value: @Sendable (ConnectionRecord) -> String)? {
        (.connectionName, { $0.name })
    }
}

/// The connection repository of a memory transaction.
extension MemoryConfigurations: ConnectionRepository where Record == ConnectionRecord {
    func get(tenantID: String, name: String) throws -> ConnectionRecord? {
        try first(tenantID: tenantID) { $0.name == name }
    }
}

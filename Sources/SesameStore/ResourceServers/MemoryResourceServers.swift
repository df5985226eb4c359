import Foundation

extension ResourceServerRecord: MemoryConfigurationRecord {
    static var rows: WritableKeyPath<MemoryState, [MemoryKey: ResourceServerRecord]> { \.resourceServers }
    static var idConflict: UniqueRule { .resourceServerID }
    static var noun: String { "resource server" }
    static var otherUnique: (conflict: UniqueRule, value: @Sendable (ResourceServerRecord) -> String)? {
        (.resourceServerIdentifier, { $0.identifier })
    }
}

/// The resource server repository of a memory transaction.
extension MemoryConfigurations: ResourceServerRepository where Record == ResourceServerRecord {
    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try first(tenantID: tenantID) { $0.identifier == identifier }
    }
}

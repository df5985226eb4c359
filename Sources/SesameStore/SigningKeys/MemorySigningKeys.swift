import Foundation

extension SigningKeyRecord: MemoryConfigurationRecord {
    static var rows: WritableKeyPath<MemoryState, [MemoryKey: SigningKeyRecord]> { \.signingKeys }
    static var idConflict: UniqueRule { .signingKeyID }
    static var noun: String { "signing key" }
    /// The key ring is loaded on its own, not through the configuration cache.
    static var isCached: Bool { false }
}

/// The signing key repository of a memory transaction.
extension MemoryConfigurations: SigningKeyRepository where Record == SigningKeyRecord {}

import Foundation

/// The FIDO metadata of a memory transaction.
struct MemoryAuthenticatorMetadata: AuthenticatorMetadataRepository {
    let tx: MemoryTransaction

    func blob() throws -> MetadataBLOBRecord? {
        try tx.checkOpen()
        return tx.state.metadataBLOB
    }

    func replace(blob: MetadataBLOBRecord, entries: [AuthenticatorMetadataRecord]) throws {
        try tx.checkWritable()
        var indexed: [String: AuthenticatorMetadataRecord] = [:]
        for entry in entries {
            for key in entry.lookupKeys {
                guard indexed.updateValue(entry, forKey: key) == nil else {
                    throw StoreError.conflict(.authenticatorMetadata)
                }
            }
        }
        tx.state.metadataBLOB = blob
        tx.state.metadataEntries = indexed
    }

    func get(aaguid: String) throws -> AuthenticatorMetadataRecord? {
        try tx.checkOpen()
        return tx.state.metadataEntries["aaguid:" + aaguid]
    }

    func get(attestationKeyIdentifier: String) throws -> AuthenticatorMetadataRecord? {
        try tx.checkOpen()
        return tx.state.metadataEntries["key:" + attestationKeyIdentifier]
    }

    func entries() throws -> [AuthenticatorMetadataRecord] {
        try tx.checkOpen()
        return tx.state.metadataEntries.filter { $0.key == $0.value.lookupKeys.first }.sorted { $0.key < $1.key }
            .map(\.value)
    }
}

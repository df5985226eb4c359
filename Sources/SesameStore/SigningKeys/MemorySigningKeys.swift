import Foundation

/// The signing key repository of a memory transaction.
struct MemorySigningKeys: SigningKeyRepository {
    let tx: MemoryTransaction

    func list(tenantID: String) throws -> [SigningKeyRecord] {
        try tx.checkOpen()
        let all = tx.state.signingKeys.values.filter { $0.tenantID == tenantID }
        return all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insert(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.signingKeys[memoryKey] == nil else { throw StoreError.conflict(.signingKeyID) }
        tx.state.signingKeys[memoryKey] = key
    }

    func update(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.signingKeys[memoryKey] != nil else { throw StoreError.notFound("signing key \(key.id)") }
        tx.state.signingKeys[memoryKey] = key
    }
}

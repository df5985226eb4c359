import Foundation

/// The device keys of a memory transaction.
struct MemoryDeviceKeys: DeviceKeyRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> DeviceKeyRecord? {
        try tx.checkOpen()
        return tx.state.deviceKeys[MemoryKey(tenantID: tenantID, id: id)]
    }

    func list(tenantID: String, userID: String) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        return tx.state.deviceKeys.values.filter { $0.tenantID == tenantID && $0.userID == userID }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func list(tenantID: String, page: Page) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        let all = tx.state.deviceKeys.values.filter { $0.tenantID == tenantID }.sorted { $0.id < $1.id }
        return MemoryTransaction.paged(all, page)
    }

    func insert(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.deviceKeys[memoryKey] == nil else { throw StoreError.conflict(.deviceKeyID) }
        tx.state.deviceKeys[memoryKey] = key
    }

    func update(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        let memoryKey = MemoryKey(tenantID: key.tenantID, id: key.id)
        guard tx.state.deviceKeys[memoryKey] != nil else { throw StoreError.notFound("device key \(key.id)") }
        tx.state.deviceKeys[memoryKey] = key
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try tx.checkWritable()
        return tx.state.deviceKeys.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil
    }
}

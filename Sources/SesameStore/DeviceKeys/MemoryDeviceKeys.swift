import Foundation

/// The device keys of a memory transaction.
struct MemoryDeviceKeys: DeviceKeyRepository {
    let tx: MemoryTransaction
    var table: MemoryTable<MemoryKey, DeviceKeyRecord> { tx.table(\.deviceKeys) }

    func get(tenantID: String, id: String) throws -> DeviceKeyRecord? {
        try table.get(MemoryKey(tenantID: tenantID, id: id))
    }

    func list(tenantID: String, userID: String) throws -> [DeviceKeyRecord] {
        try table.filter({ $0.tenantID == tenantID && $0.userID == userID }, by: DeviceKeyRecord.oldestFirst)
    }

    func list(tenantID: String, page: Page) throws -> [DeviceKeyRecord] {
        MemoryTransaction.paged(try table.filter({ $0.tenantID == tenantID }, by: { $0.id < $1.id }), page)
    }

    func insert(_ key: DeviceKeyRecord) throws {
        try table.insert(key, at: key.memoryKey, conflict: .deviceKeyID)
    }

    func update(_ key: DeviceKeyRecord) throws {
        try table.update(key, at: key.memoryKey, missing: "device key \(key.id)")
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try table.remove(MemoryKey(tenantID: tenantID, id: id))
    }
}

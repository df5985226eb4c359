import Foundation
import SesameStore

/// The device keys of a SQL transaction. `state` is a column of its own for the adoption counts.
struct SQLDeviceKeys: DeviceKeyRepository {
    let tx: SQLTransaction

    func get(tenantID: String, id: String) throws -> DeviceKeyRecord? {
        try tx.checkOpen()
        return try tx.record(
            DeviceKeyRecord.self, table: "device_keys", "SELECT data FROM device_keys WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    func list(tenantID: String, userID: String) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        return try tx.records(
            DeviceKeyRecord.self, table: "device_keys",
            "SELECT data FROM device_keys WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, id",
            [.text(tenantID), .text(userID)])
    }

    func list(tenantID: String, page: Page) throws -> [DeviceKeyRecord] {
        try tx.checkOpen()
        return try tx.records(
            DeviceKeyRecord.self, table: "device_keys",
            "SELECT data FROM device_keys WHERE tenant_id = ? ORDER BY id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func insert(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            """
            INSERT INTO device_keys (tenant_id, id, user_id, state, created_at, data) VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(key.tenantID), .text(key.id), .text(key.userID), .text(key.state.rawValue),
                SQLTransaction.time(key.createdAt), tx.encode(key),
            ])
    }

    func update(_ key: DeviceKeyRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE device_keys SET user_id = ?, state = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                .text(key.userID), .text(key.state.rawValue), tx.encode(key), .text(key.tenantID), .text(key.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("device key \(key.id)") }
    }

    func delete(tenantID: String, id: String) throws -> Bool {
        try tx.checkWritable()
        return try tx.connection.execute(
            "DELETE FROM device_keys WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)]) > 0
    }
}

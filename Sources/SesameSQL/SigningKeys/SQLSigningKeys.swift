import Foundation
import SesameStore

/// The signing key repository of a SQL transaction.
struct SQLSigningKeys: SigningKeyRepository {
    let tx: SQLTransaction

    func list(tenantID: String) throws -> [SigningKeyRecord] {
        try tx.checkOpen()
        return try tx.records(
            SigningKeyRecord.self, table: "signing_keys",
            "SELECT data FROM signing_keys WHERE tenant_id = ? ORDER BY created_at, id", [.text(tenantID)])
    }

    func insert(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        try tx.connection.execute(
            "INSERT INTO signing_keys (tenant_id, id, created_at, version, data) VALUES (?, ?, ?, ?, ?)",
            [
                .text(key.tenantID), .text(key.id), SQLTransaction.time(key.createdAt), .integer(Int64(key.version)),
                tx.encode(key),
            ])
    }

    func update(_ key: SigningKeyRecord) throws {
        try tx.checkWritable()
        let changed = try tx.connection.execute(
            "UPDATE signing_keys SET created_at = ?, version = ?, data = ? WHERE tenant_id = ? AND id = ?",
            [
                SQLTransaction.time(key.createdAt), .integer(Int64(key.version)), tx.encode(key),
                .text(key.tenantID), .text(key.id),
            ])
        guard changed > 0 else { throw StoreError.notFound("signing key \(key.id)") }
    }
}

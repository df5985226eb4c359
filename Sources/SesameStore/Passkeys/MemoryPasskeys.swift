import Foundation

/// The passkey repository of a memory transaction.
struct MemoryPasskeys: PasskeyRepository {
    let tx: MemoryTransaction
    var table: MemoryTable<MemoryKey, PasskeyRecord> { tx.table(\.passkeys) }

    func get(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord? {
        try table.first { $0.tenantID == tenantID && $0.credentialID == credentialID }
    }

    func get(tenantID: String, id: String) throws -> PasskeyRecord? {
        try table.get(MemoryKey(tenantID: tenantID, id: id))
    }

    func list(tenantID: String, userID: String) throws -> [PasskeyRecord] {
        try table.filter({ $0.tenantID == tenantID && $0.userID == userID }, by: PasskeyRecord.oldestFirst)
    }

    func insert(_ passkey: PasskeyRecord) throws {
        try table.insert(passkey, at: passkey.memoryKey, conflict: .passkeyID) { try checkCredentialID(of: passkey) }
    }

    func recordAssertion(tenantID: String, id: String, signCount: UInt32, backupState: Bool, at: Date) throws {
        try tx.checkWritable()
        let key = MemoryKey(tenantID: tenantID, id: id)
        guard tx.state.passkeys[key] != nil else { throw StoreError.notFound("passkey \(id)") }
        tx.state.passkeys[key]?.signCount = signCount
        tx.state.passkeys[key]?.backupState = backupState
        tx.state.passkeys[key]?.lastUsedAt = at
    }

    func touch(tenantID: String, id: String, lastUsedAt: Date) throws {
        try table.moveForward(MemoryKey(tenantID: tenantID, id: id), \.lastUsedAt, to: lastUsedAt)
    }

    func update(_ passkey: PasskeyRecord) throws {
        try table.update(passkey, at: passkey.memoryKey, missing: "passkey \(passkey.id)") {
            try checkCredentialID(of: passkey)
        }
    }

    func delete(tenantID: String, id: String) throws {
        try table.delete(MemoryKey(tenantID: tenantID, id: id), missing: "passkey \(id)")
    }

    fileprivate func checkCredentialID(of passkey: PasskeyRecord) throws {
        let taken = tx.state.passkeys.values.contains {
            $0.tenantID == passkey.tenantID && $0.id != passkey.id && $0.credentialID == passkey.credentialID
        }
        if taken { throw StoreError.conflict(.passkeyCredentialID) }
    }
}

import Foundation

/// The user repository of a memory transaction.
struct MemoryUsers: UserRepository {
    let tx: MemoryTransaction
    var table: MemoryTable<MemoryKey, UserRecord> { tx.table(\.users) }

    func get(tenantID: String, id: String) throws -> UserRecord? {
        try table.get(MemoryKey(tenantID: tenantID, id: id))
    }

    func get(tenantID: String, userHandle: [UInt8]) throws -> UserRecord? {
        try table.first { $0.tenantID == tenantID && $0.userHandle == userHandle }
    }

    func withIdentifiers(
        tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?
    ) throws
        -> [UserRecord]
    {
        try tx.checkOpen()
        let email = email?.lowercased()
        let username = username.map(UsernameProfile.caseMapped)
        let found = tx.state.users.values.filter { user in
            guard user.tenantID == tenantID, user.connectionID == connectionID else { return false }
            if let email, user.profile.email?.lowercased() == email { return true }
            if let phoneNumber, user.profile.phoneNumber == phoneNumber { return true }
            if let username, user.profile.username.map(UsernameProfile.caseMapped) == username { return true }
            return false
        }
        return found.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func search(tenantID: String, query: String?, page: Page) throws -> [UserRecord] {
        try tx.checkOpen()
        let needle = Array((query ?? "").lowercased().utf8)
        let found = tx.state.users.values.filter { user in
            guard user.tenantID == tenantID else { return false }
            if needle.isEmpty { return true }
            let fields = [
                user.profile.email, user.profile.username, user.profile.phoneNumber, user.profile.name, user.id,
            ]
            return fields.contains { field in
                guard let field else { return false }
                return Array(field.lowercased().utf8).firstRange(of: needle) != nil
            }
        }
        // Newest first; equal times in id order.
        let sorted = found.sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id }
        return MemoryTransaction.paged(sorted, page)
    }

    func insert(_ user: UserRecord) throws {
        try table.insert(user, at: user.memoryKey, conflict: .userID) { try checkIdentifiers(of: user) }
    }

    func touch(tenantID: String, id: String, lastLoginAt: Date) throws {
        try table.moveForward(MemoryKey(tenantID: tenantID, id: id), \.lastLoginAt, to: lastLoginAt)
    }

    func update(_ user: UserRecord) throws {
        try table.update(user, at: user.memoryKey, missing: "user \(user.id)") { try checkIdentifiers(of: user) }
    }

    func delete(tenantID: String, id: String) throws {
        try table.delete(MemoryKey(tenantID: tenantID, id: id), missing: "user \(id)")
        tx.state.passkeys = tx.state.passkeys.filter { !($0.value.tenantID == tenantID && $0.value.userID == id) }
        tx.state.deviceKeys = tx.state.deviceKeys.filter { !($0.value.tenantID == tenantID && $0.value.userID == id) }
        tx.state.linkedIdentities = tx.state.linkedIdentities.filter {
            !($0.value.tenantID == tenantID && $0.value.userID == id)
        }
    }

    func adoption(tenantID: String, connectionID: String?) throws -> UserAdoption {
        try tx.checkOpen()
        let users = tx.state.users.values.filter {
            $0.tenantID == tenantID && (connectionID == nil || $0.connectionID == connectionID)
        }
        let ids = Set(users.map(\.id))
        let withPasskey = Set(tx.state.passkeys.values.filter { $0.tenantID == tenantID }.map(\.userID))
            .intersection(ids)
        let withKey = Set(
            tx.state.deviceKeys.values.filter { $0.tenantID == tenantID && $0.state != .revoked }.map(\.userID)
        ).intersection(ids)
        return UserAdoption(
            total: users.count, withPasskey: withPasskey.count,
            withDeviceKeyOnly: withKey.subtracting(withPasskey).count)
    }

    fileprivate func checkIdentifiers(of user: UserRecord) throws {
        let others = tx.state.users.values.filter { $0.tenantID == user.tenantID && $0.id != user.id }
        if others.contains(where: { $0.userHandle == user.userHandle }) {
            throw StoreError.conflict(.userHandle)
        }
        let sameConnection = others.filter { $0.connectionID == user.connectionID }
        if let email = user.profile.email?.lowercased(),
            sameConnection.contains(where: { $0.profile.email?.lowercased() == email })
        {
            throw StoreError.conflict(.userEmail)
        }
        if let phone = user.profile.phoneNumber, sameConnection.contains(where: { $0.profile.phoneNumber == phone }) {
            throw StoreError.conflict(.userPhoneNumber)
        }
        if let username = user.profile.username.map(UsernameProfile.caseMapped),
            sameConnection.contains(where: { $0.profile.username.map(UsernameProfile.caseMapped) == username })
        {
            throw StoreError.conflict(.userUsername)
        }
    }
}

// Written against Apple's Security framework API (SecItemCopyMatching, SecItemAdd, SecItemUpdate,
// SecItemDelete). Sesame's CI runs on Linux: it type-checks this file against hand-written stand-ins
// for the SDK (scripts/apple-standins-check.sh, -D SESAME_APPLE_STANDINS) but cannot run it; the
// encoding of `Credentials` it stores is the shared, tested `Codable` form.
#if (canImport(Security) && canImport(AuthenticationServices)) || SESAME_APPLE_STANDINS
    import Foundation
    import Security

    /// Credentials in the Keychain as one generic-password item (`kSecClassGenericPassword`,
    /// service + account), readable after the first unlock since boot (so a background refresh
    /// works while the device is locked; a read before that throws `.io`) and never synced or
    /// restored to another device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    /// Data that is there but does not decode throws `.corrupt` and is left in place.
    ///
    /// Every operation uses the data protection keychain (`kSecUseDataProtectionKeychain`), also on
    /// macOS, where only that keychain honours the accessibility and the access group. On macOS
    /// that needs a signed app with an application identifier (or `keychain-access-groups`)
    /// entitlement; without one, for example in an unsigned `swift run` tool, every call throws
    /// `.io` with `errSecMissingEntitlement` (-34018). Use `FileCredentialsStore` there.
    public final class KeychainCredentialsStore: CredentialsStore {
        /// `kSecAttrService`.
        public let service: String
        /// `kSecAttrAccount`.
        public let account: String
        /// `kSecAttrAccessGroup` (to share with an app extension), or nil.
        public let accessGroup: String?

        /// A store for one item; `service` is usually the bundle id.
        public init(service: String, account: String = "credentials", accessGroup: String? = nil) {
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
        }

        private func query() -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// Adds or replaces the item.
        public func save(_ credentials: Credentials) throws {
            let data: Data
            do {
                data = try JSONEncoder().encode(credentials)
            } catch {
                throw CredentialsStoreError(.io, "cannot encode credentials: \(error)")
            }
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query() as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let add = query().merging(attributes) { _, new in new }
                status = SecItemAdd(add as CFDictionary, nil)
                if status == errSecDuplicateItem {
                    // A concurrent save added the item since the update: replace it, once.
                    status = SecItemUpdate(query() as CFDictionary, attributes as CFDictionary)
                }
            }
            guard status == errSecSuccess else { throw Self.failure("save", status) }
        }

        /// Reads the item: nil when there is none.
        public func load() throws -> Credentials? {
            var query = query()
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess else { throw Self.failure("read", status) }
            guard let data = result as? Data else {
                throw CredentialsStoreError(.corrupt, "the Keychain item \(service)/\(account) holds no data")
            }
            do {
                return try JSONDecoder().decode(Credentials.self, from: data)
            } catch {
                throw CredentialsStoreError(
                    .corrupt, "the Keychain item \(service)/\(account) is not valid credentials: \(error)")
            }
        }

        /// Deletes the item; no error when there is none.
        public func clear() throws {
            let status = SecItemDelete(query() as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
        }

        private static func failure(_ operation: String, _ status: OSStatus) -> CredentialsStoreError {
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            return CredentialsStoreError(.io, "cannot \(operation) the Keychain item: \(message)")
        }
    }
#endif

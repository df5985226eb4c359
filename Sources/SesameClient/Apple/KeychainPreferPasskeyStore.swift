// Written against Apple's Security framework API (SecItemCopyMatching, SecItemAdd, SecItemDelete).
// Sesame's CI runs on Linux: it type-checks this file against hand-written stand-ins for the SDK
// (scripts/apple-standins-check.sh, -D SESAME_APPLE_STANDINS) but cannot run it.
#if canImport(Security) || SESAME_APPLE_STANDINS
    import Foundation
    import Security

    /// Prefer-passkey flags in the Keychain: one generic-password item per user
    /// (`kSecClassGenericPassword`; service + an account naming the tenant and the user), whose
    /// presence is the flag. Readable after the first unlock since boot and never synced or
    /// restored to another device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`): a passkey
    /// may sync, but whether this device may offer it first is this device's to learn.
    ///
    /// Like `KeychainCredentialsStore` it uses the data protection keychain, which on macOS needs
    /// a signed app with an application identifier; without one every call throws `.io`.
    public final class KeychainPreferPasskeyStore: PreferPasskeyStore {
        /// `kSecAttrService` (usually the bundle id).
        public let service: String
        /// `kSecAttrAccessGroup` (to share with an app extension), or nil.
        public let accessGroup: String?

        /// A store under `service`.
        public init(service: String, accessGroup: String? = nil) {
            self.service = service
            self.accessGroup = accessGroup
        }

        /// The item's account: "prefer-passkey|<tenant>|<user id>".
        static func account(_ user: PreferPasskeyKey) -> String {
            "prefer-passkey|" + user.tenant + "|" + user.userID
        }

        private func query(_ user: PreferPasskeyKey) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: Self.account(user),
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        /// Whether the user's item exists.
        public func prefersPasskey(_ user: PreferPasskeyKey) throws -> Bool {
            var query = query(user)
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            let status = SecItemCopyMatching(query as CFDictionary, nil)
            if status == errSecItemNotFound { return false }
            guard status == errSecSuccess else { throw Self.failure("read", status) }
            return true
        }

        /// Adds the user's item (no error when it exists).
        public func setPrefersPasskey(_ user: PreferPasskeyKey) throws {
            var attributes = query(user)
            attributes[kSecValueData as String] = Data("1".utf8)
            attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let status = SecItemAdd(attributes as CFDictionary, nil)
            guard status == errSecSuccess || status == errSecDuplicateItem else { throw Self.failure("save", status) }
        }

        /// Deletes the user's item (no error when there is none).
        public func clearPrefersPasskey(_ user: PreferPasskeyKey) throws {
            let status = SecItemDelete(query(user) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
        }

        private static func failure(_ operation: String, _ status: OSStatus) -> CredentialsStoreError {
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            return CredentialsStoreError(.io, "cannot \(operation) the prefer-passkey Keychain item: \(message)")
        }
    }
#endif

// Written against Apple's Security framework API (SecKeyCreateRandomKey, SecAccessControl,
// SecKeyCreateSignature, SecKeyCopyExternalRepresentation, SecItem*). Sesame's CI runs on Linux: it
// type-checks this file against hand-written stand-ins for the SDK (scripts/apple-standins-check.sh,
// -D SESAME_APPLE_STANDINS) but cannot run it. What it computes — the JWK of the exported point
// (`ECPublicKeyJWK(uncompressedPoint:)`) and the signed message — is shared code tested on Linux.
// Bytes cross into and out of CFData with CFDataCreate / CFDataGetBytePtr rather than bridging
// casts, which the stand-ins cannot model.
#if canImport(Security) || SESAME_APPLE_STANDINS
    import Foundation
    import Security
    import SesameWire

    /// A `DeviceKeyProvider` over the Secure Enclave: each key is a P-256 key made inside the
    /// enclave (`kSecAttrTokenIDSecureEnclave`), kept as a permanent Keychain key under an
    /// application tag (its handle), usable only while the device is unlocked, never exported,
    /// synced or restored elsewhere (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`), and only
    /// after Face ID or Touch ID with the fingers or face enrolled when it was made
    /// (`.privateKeyUsage` + `.biometryCurrentSet`): enrolling another finger makes the key
    /// unusable, and re-authentication then falls back to a passkey.
    ///
    /// Signing shows the biometric prompt (the app's `NSFaceIDUsageDescription` explains it) and
    /// blocks until it is answered; it runs off the main actor. A dismissed prompt is `.cancelled`;
    /// a key that is gone is `.deviceKey` with code `device_key_not_found`. The Simulator has no
    /// Secure Enclave: `createKey` fails there. On macOS the app must be signed (the data
    /// protection keychain).
    public struct SecureEnclaveDeviceKeyProvider: DeviceKeyProvider {
        /// The prefix of every key's application tag (usually the bundle id); a key's handle is
        /// `<prefix>.device-key.<UUID>`.
        public let tagPrefix: String
        /// `kSecAttrAccessGroup` (to share keys with an app extension), or nil.
        public let accessGroup: String?

        /// A provider whose keys are tagged under `tagPrefix`.
        public init(tagPrefix: String, accessGroup: String? = nil) {
            self.tagPrefix = tagPrefix
            self.accessGroup = accessGroup
        }

        /// Makes a key in the Secure Enclave and returns its handle and public key.
        public func createKey() async throws -> DeviceKey {
            let handle = tagPrefix + ".device-key." + UUID().uuidString
            var error: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly as CFTypeRef,
                    [.privateKeyUsage, .biometryCurrentSet], &error)
            else { throw Self.failure("cannot make the key's access control", error) }
            var privateAttributes: [String: Any] = [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: Data(handle.utf8),
                kSecAttrAccessControl as String: access,
            ]
            if let accessGroup { privateAttributes[kSecAttrAccessGroup as String] = accessGroup }
            let attributes: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecUseDataProtectionKeychain as String: true,
                kSecPrivateKeyAttrs as String: privateAttributes,
            ]
            guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
                throw Self.failure("the Secure Enclave could not make a key", error)
            }
            guard let publicKey = SecKeyCopyPublicKey(privateKey) else {
                throw AuthenticationError.deviceKey("the new key has no public key")
            }
            guard let point = SecKeyCopyExternalRepresentation(publicKey, &error) else {
                throw Self.failure("cannot export the public key", error)
            }
            return DeviceKey(handle: handle, publicKey: try ECPublicKeyJWK(uncompressedPoint: Self.bytes(point)))
        }

        /// Signs `message` with the key (ECDSA P-256 over SHA-256 of the message, DER), after the
        /// biometric prompt.
        public func sign(_ message: [UInt8], handle: String) async throws -> [UInt8] {
            let key = try privateKey(handle)
            guard let data = message.withUnsafeBufferPointer({ CFDataCreate(nil, $0.baseAddress, $0.count) }) else {
                throw AuthenticationError.deviceKey("cannot hold the message to sign")
            }
            var error: Unmanaged<CFError>?
            guard let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, data, &error) else {
                throw Self.failure("the Secure Enclave did not sign", error)
            }
            return Self.bytes(signature)
        }

        /// Deletes the key (no error when there is none).
        public func deleteKey(handle: String) async throws {
            let status = SecItemDelete(query(handle) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw Self.failure("cannot delete the device key", status)
            }
        }

        private func query(_ handle: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassKey,
                kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrApplicationTag as String: Data(handle.utf8),
                kSecUseDataProtectionKeychain as String: true,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        private func privateKey(_ handle: String) throws(AuthenticationError) -> SecKey {
            var query = query(handle)
            query[kSecReturnRef as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound {
                throw AuthenticationError.deviceKey(
                    "no device key \(handle) on this device", code: "device_key_not_found")
            }
            guard status == errSecSuccess else { throw Self.failure("cannot read the device key", status) }
            guard let result, CFGetTypeID(result) == SecKeyGetTypeID() else {
                throw AuthenticationError.deviceKey("the Keychain returned something other than a key")
            }
            // A cast to a CoreFoundation type cannot fail at run time (the compiler warns that `as?`
            // always succeeds), so the type id above is the check and this cast only names it.
            // swift-format-ignore: NeverForceUnwrap
            return result as! SecKey
        }

        private static func bytes(_ data: CFData) -> [UInt8] {
            guard let start = CFDataGetBytePtr(data) else { return [] }
            return Array(UnsafeBufferPointer(start: start, count: CFDataGetLength(data)))
        }

        /// A Security error as `AuthenticationError`: a cancelled prompt is `.cancelled`.
        private static func failure(_ what: String, _ error: Unmanaged<CFError>?) -> AuthenticationError {
            guard let error = error?.takeRetainedValue() else { return .deviceKey(what) }
            let nsError = error as Error as NSError
            // LAError.userCancel, .systemCancel, .appCancel; or errSecUserCanceled.
            let cancelled =
                (nsError.domain == "com.apple.LocalAuthentication" && [-2, -4, -9].contains(nsError.code))
                || (nsError.domain == "NSOSStatusErrorDomain" && nsError.code == Int(errSecUserCanceled))
            if cancelled { return .cancelled("the biometric prompt was dismissed") }
            return .deviceKey("\(what): \(nsError.localizedDescription) (\(nsError.domain) \(nsError.code))")
        }

        private static func failure(_ what: String, _ status: OSStatus) -> AuthenticationError {
            if status == errSecUserCanceled { return .cancelled("the biometric prompt was dismissed") }
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            return .deviceKey("\(what): \(message)")
        }
    }
#endif

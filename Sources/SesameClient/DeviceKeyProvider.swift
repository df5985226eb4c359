import SesameWire

/// A device key as its provider made it: the handle that names it on this device and its public
/// key, which the server is sent once, at registration.
public struct DeviceKey: Sendable, Hashable {
    /// The provider's name for the key (a Keychain application tag, a file entry). Not a secret.
    public var handle: String
    /// The P-256 public key.
    public var publicKey: ECPublicKeyJWK

    /// A key from its parts.
    public init(handle: String, publicKey: ECPublicKeyJWK) {
        self.handle = handle
        self.publicKey = publicKey
    }
}

/// Makes and uses legacy device keys (docs/migration.md): P-256 keys that never leave this device and
/// only re-authenticate a user already signed in on it. `SecureEnclaveDeviceKeyProvider` on Apple
/// platforms, `SoftwareDeviceKeyProvider` (SesameSoftwarePasskey) on Linux and in tests, or an
/// app's own (Android Keystore through a bridge).
///
/// Throw `AuthenticationError` (`.cancelled` when the user dismissed a biometric prompt,
/// `.deviceKey` with code `device_key_not_found` when the handle names no key, `.deviceKey` for
/// anything else); other errors are reported as `.deviceKey`.
public protocol DeviceKeyProvider: Sendable {
    /// Makes a new P-256 key and returns its handle and public key.
    func createKey() async throws -> DeviceKey
    /// Signs `message` with the key `handle` names: ES256 (ECDSA P-256 with SHA-256 over the
    /// message), as DER or as raw r ‖ s (the server takes both).
    func sign(_ message: [UInt8], handle: String) async throws -> [UInt8]
    /// Deletes the key `handle` names (no error when there is none).
    func deleteKey(handle: String) async throws
}

extension AuthenticationError {
    /// Maps what a device-key provider threw: cancellation and `AuthenticationError` as they are,
    /// anything else as `.deviceKey`.
    static func deviceKeyProvider(_ error: any Error) -> AuthenticationError {
        if let error = error as? AuthenticationError { return error }
        if error is CancellationError { return .cancelled() }
        return .deviceKey("the device key failed: \(error)")
    }
}

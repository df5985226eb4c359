import Foundation
import SesameClient
import SesameCrypto
import SesameWire

/// A `DeviceKeyProvider` in software, for Linux apps, command lines and tests: P-256 keys made
/// with libcrypto (SesameCrypto), kept in memory, or also in a file when given one.
///
/// **The file holds private keys in the clear** (PKCS #8, base64 in JSON): whoever reads it can
/// re-authenticate as its users on any machine. It is created with mode 0600 (its directory 0700),
/// replaced whole through a temporary file and a rename, and a file that is there but unreadable
/// throws `corrupt_store` rather than being taken for an empty one. This is not a hardware key.
public final class SoftwareDeviceKeyProvider: DeviceKeyProvider, @unchecked Sendable {  // state behind `lock`
    /// The file the keys are kept in, or nil for memory only.
    public let path: String?
    /// How signatures are encoded: DER (what `SecKeyCreateSignature` gives) or raw r ‖ s.
    public let signatureFormat: ECDSASignatureFormat

    private let lock = NSLock()
    private var keys: [String: PrivateKey]?

    static let formatName = "sesame-device-keys"
    static let formatVersion = 1

    /// A provider keeping its keys in memory only.
    public init(signatureFormat: ECDSASignatureFormat = .der) {
        path = nil
        self.signatureFormat = signatureFormat
        keys = [:]
    }

    /// A provider keeping its keys in the file at `path` (read on first use).
    public init(path: String, signatureFormat: ECDSASignatureFormat = .der) {
        self.path = path
        self.signatureFormat = signatureFormat
    }

    /// The handles of the keys held.
    public func handles() throws -> [String] {
        try locked { keys in keys.keys.sorted() }
    }

    /// Makes a P-256 key and returns a random handle and the public key.
    public func createKey() async throws -> DeviceKey {
        let key: PrivateKey
        do {
            key = try PrivateKey.generate(.ec(.p256))
        } catch {
            throw AuthenticationError.deviceKey("cannot make a P-256 key: \(error)")
        }
        let jwk = key.publicKey.jwk
        guard let x = jwk.x, let y = jwk.y else { throw AuthenticationError.deviceKey("the new key is not an EC key") }
        let handle = "software." + UUID().uuidString
        try locked { keys in
            keys[handle] = key
            try save(keys)
        }
        return DeviceKey(handle: handle, publicKey: ECPublicKeyJWK(x: x, y: y))
    }

    /// Signs `message` with ES256 in `signatureFormat`.
    public func sign(_ message: [UInt8], handle: String) async throws -> [UInt8] {
        guard let key = try locked({ keys in keys[handle] }) else {
            throw AuthenticationError.deviceKey("no device key \(handle)", code: "device_key_not_found")
        }
        do {
            return try key.signature(for: message, algorithm: .ecdsa(.sha256), format: signatureFormat)
        } catch {
            throw AuthenticationError.deviceKey("cannot sign with \(handle): \(error)")
        }
    }

    /// Deletes the key (no error when there is none).
    public func deleteKey(handle: String) async throws {
        try locked { keys in
            guard keys.removeValue(forKey: handle) != nil else { return }
            try save(keys)
        }
    }

    // MARK: Storage

    /// Runs `body` on the keys, loaded from the file on first use, under the lock.
    private func locked<T>(_ body: (inout [String: PrivateKey]) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        var current = try keys ?? load()
        keys = current
        let result = try body(&current)
        keys = current
        return result
    }

    private func load() throws -> [String: PrivateKey] {
        guard let path, FileManager.default.fileExists(atPath: path) else { return [:] }
        let file: StoredFile
        do {
            file = try JSONDecoder().decode(StoredFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw corrupt("not a device-key JSON document (\(error))")
        }
        guard file.format == Self.formatName else { throw corrupt("format is \"\(file.format)\"") }
        guard file.version == Self.formatVersion else { throw corrupt("unsupported version \(file.version)") }
        var keys: [String: PrivateKey] = [:]
        for (index, entry) in file.keys.enumerated() {
            guard let der = Data(base64Encoded: entry.pkcs8), let key = try? PrivateKey(pkcs8DER: Array(der)),
                key.type == .ec(.p256)
            else { throw corrupt("keys[\(index)] is not a P-256 private key") }
            keys[entry.handle] = key
        }
        return keys
    }

    private func save(_ keys: [String: PrivateKey]) throws {
        guard let path else { return }
        let file = StoredFile(
            format: Self.formatName, version: Self.formatVersion,
            keys: keys.sorted { $0.key < $1.key }.map {
                StoredFile.Entry(handle: $0.key, pkcs8: Data($0.value.pkcs8DER).base64EncodedString())
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try Self.write(try encoder.encode(file), to: path)
        } catch let error as AuthenticationError {
            throw error
        } catch {
            throw AuthenticationError.deviceKey("cannot encode the device keys: \(error)")
        }
    }

    private func corrupt(_ reason: String) -> AuthenticationError {
        .deviceKey(
            "device-key file \(path ?? "") is corrupt: \(reason); it was left as it is", code: "corrupt_store")
    }

    /// Replaces the file whole (the SDK's `AtomicFile`: a temporary file, flushed and renamed over it).
    private static func write(_ data: Data, to path: String) throws(AuthenticationError) {
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw .deviceKey(error.message)
        }
    }
}

/// The on-disk shape (version 1).
private struct StoredFile: Codable {
    struct Entry: Codable {
        var handle: String
        var pkcs8: String
    }

    var format: String
    var version: Int
    var keys: [Entry]
}

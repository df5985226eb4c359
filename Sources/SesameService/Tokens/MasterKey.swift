import Foundation
import SesameCrypto
import WebAuthn

/// The 32-byte key that seals secrets at rest (signing private keys, TOTP secrets) with AES-256-GCM.
///
/// Loaded from `SESAME_MASTER_KEY` or `<data>/master.key` (see `MasterKey+File.swift`). The bytes
/// never appear in a description or an error.
public struct MasterKey: Sendable, CustomStringConvertible {
    /// Key length in bytes.
    public static let size = 32

    private let bytes: [UInt8]

    /// A key from exactly 32 bytes.
    public init(bytes: [UInt8]) throws(MasterKeyError) {
        guard bytes.count == Self.size else { throw .wrongSize(bytes.count) }
        self.bytes = bytes
    }

    /// A key from text: 64 hex digits, or 43 base64url characters (unpadded; 44 with one `=`).
    /// Surrounding whitespace (a trailing newline) is ignored.
    public init(encoded text: String) throws(MasterKeyError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.utf8.count == 2 * Self.size, let decoded = Self.hex(trimmed) {
            try self.init(bytes: decoded)
            return
        }
        var base64 = trimmed
        if base64.hasSuffix("=") { base64.removeLast() }
        guard base64.utf8.count == 43, let decoded = try? Base64URL.decode(base64) else {
            throw .invalidEncoding
        }
        try self.init(bytes: decoded)
    }

    /// A fresh key from `random`.
    public static func generate(random: any RandomSource = SystemRandom()) throws -> MasterKey {
        let drawn = try random.bytes(count: size)
        return try MasterKey(bytes: drawn)
    }

    /// nonce ‖ ciphertext ‖ tag of `plaintext`, bound to `associatedData` (which must be given again to open).
    public func seal(
        _ plaintext: [UInt8], associatedData: [UInt8], random: any RandomSource = SystemRandom()
    ) throws -> [UInt8] {
        try AES256GCM.seal(plaintext, key: bytes, associatedData: associatedData, random: random)
    }

    /// The plaintext of `sealed`; throws `CryptoError.authenticationFailed` for another key, other
    /// associated data, or any tampering.
    public func open(_ sealed: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        try AES256GCM.open(sealed, key: bytes, associatedData: associatedData)
    }

    /// A 32-byte key for one `purpose` (HMAC-SHA-256 of the purpose under the master key), so
    /// every process with the same master key derives the same one; the master key stays inside.
    public func derivedKey(purpose: String) -> [UInt8] {
        HMAC.authenticationCode(for: Array("sesame-derived-key\u{0}\(purpose)".utf8), key: bytes)
    }

    /// Never shows the key.
    public var description: String { "MasterKey(redacted)" }

    /// 64 hex digits → 32 bytes; nil for anything else.
    private static func hex(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                out.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return high == nil ? out : nil
    }
}

/// Why a master key could not be loaded or created. Messages name the source, never the key.
public enum MasterKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key is not 32 bytes.
    case wrongSize(Int)
    /// `SESAME_MASTER_KEY` is neither 64 hex digits nor 43 base64url characters.
    case invalidEncoding
    /// The key file is readable or writable by group or others (mode shown in octal).
    case insecurePermissions(path: String, mode: String)
    /// The key file is not a regular file.
    case notARegularFile(path: String)
    /// The key file has the wrong size.
    case wrongFileSize(path: String, size: Int)
    /// The file system refused (message from errno).
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .wrongSize(let count): return "the master key must be 32 bytes, not \(count)"
        case .invalidEncoding:
            return "SESAME_MASTER_KEY must be 32 bytes as 64 hex digits or 43 base64url characters"
        case .insecurePermissions(let path, let mode):
            return
                "refusing to use \(path): its mode is \(mode); run `chmod 600 \(path)` (group and others must have no access)"
        case .notARegularFile(let path): return "refusing to use \(path): it is not a regular file"
        case .wrongFileSize(let path, let size):
            return "refusing to use \(path): a master key file holds exactly 32 bytes, this one has \(size)"
        case .io(let path, let reason): return "cannot use master key file \(path): \(reason)"
        }
    }
}

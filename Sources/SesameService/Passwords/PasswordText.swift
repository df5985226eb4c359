import Foundation

/// A password as the server hashes and checks it: NFKC-normalised (NIST SP 800-63B §5.1.1.2), never
/// trimmed, at most `maxBytes` bytes of UTF-8 before and after normalising, and without U+0000.
/// The same text always gives the same bytes, whichever way the keyboard composed it.
public struct PasswordText: Sendable {
    /// The most UTF-8 bytes a password may have; a longer one is refused before any hashing.
    public static let maxBytes = 1_024

    /// The normalised password.
    public let text: String
    /// Its UTF-8 bytes: what is hashed.
    public let bytes: [UInt8]

    /// Normalises `raw`; 400 naming `field` when it is empty, too long or holds U+0000.
    public init(_ raw: String, field: String = "password") throws(ServiceError) {
        guard !raw.isEmpty else { throw .invalidRequest("\(field) is required") }
        // The length is checked before normalising, so normalisation never runs on a huge input.
        guard raw.utf8.count <= Self.maxBytes else {
            throw .invalidRequest("\(field) is longer than \(Self.maxBytes) bytes")
        }
        guard !raw.unicodeScalars.contains("\u{0}") else { throw .invalidRequest("\(field) must not contain U+0000") }
        let normalised = raw.precomposedStringWithCompatibilityMapping
        guard normalised.utf8.count <= Self.maxBytes else {
            throw .invalidRequest("\(field) is longer than \(Self.maxBytes) bytes once normalised (NFKC)")
        }
        text = normalised
        bytes = Array(normalised.utf8)
    }
}

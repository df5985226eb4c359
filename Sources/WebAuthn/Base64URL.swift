import SesameCrypto

/// base64url (RFC 4648 §5), the encoding of every binary WebAuthn member: SesameCrypto's `Base64`
/// with WebAuthn's rules. Encoding is unpadded. Decoding accepts padding only where it belongs, and
/// refuses anything outside the alphabet, a bad length or non-zero unused bits, as `malformed`.
public enum Base64URL {
    /// Encodes bytes as unpadded base64url, the form WebAuthn uses everywhere.
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64.encode(bytes, alphabet: .url)
    }

    /// Decodes base64url text, with or without correct `=` padding.
    public static func decode(_ string: String) throws(WebAuthnError) -> [UInt8] {
        try decode(string.utf8)
    }

    /// Decodes base64url from its UTF-8 bytes, with or without correct `=` padding.
    public static func decode(_ utf8: some Collection<UInt8>) throws(WebAuthnError) -> [UInt8] {
        try decode(utf8, unusedBits: .mustBeZero)
    }

    /// Like `decode`, but ignores non-zero unused bits in the last character (RFC 4648 §3.5 lets
    /// decoders do so). Alphabet, length and padding stay strict. For values some clients and test
    /// suites write by hand, such as a `userHandle` that was never real base64url; prefer `decode`.
    public static func decodeIgnoringTrailingBits(_ string: String) throws(WebAuthnError) -> [UInt8] {
        try decode(string.utf8, unusedBits: .ignored)
    }

    private static func decode(
        _ utf8: some Collection<UInt8>, unusedBits: Base64.UnusedBits
    ) throws(WebAuthnError) -> [UInt8] {
        do {
            return try Base64.decode(utf8, alphabet: .url, padding: .optional, unusedBits: unusedBits)
        } catch {
            throw WebAuthnError(.malformed, "base64url: \(error)")
        }
    }
}

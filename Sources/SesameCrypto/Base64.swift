internal import COpenSSL

/// Base64 (RFC 4648 §4) and base64url (§5) over libcrypto's EVP_EncodeBlock / EVP_DecodeBlock: the one
/// base64 of the server. Encoding writes the unpadded form. Decoding checks the text's form first
/// (alphabet, length, padding, unused bits) and says what is wrong with it, then lets libcrypto
/// convert it.
public enum Base64 {
    public enum Alphabet: Sendable {
        /// `-` and `_` (RFC 4648 §5).
        case url
        /// `+` and `/` (RFC 4648 §4).
        case standard

        var name: String { self == .url ? "url-safe" : "base64" }
    }

    /// Whether `=` padding may end the text.
    public enum Padding: Sendable {
        /// None at all (JWK, PHC strings).
        case forbidden
        /// None, or exactly the padding that belongs (WebAuthn's members, where clients differ).
        case optional
    }

    /// Whether the unused low bits of the last character must be zero (the canonical encoding).
    public enum UnusedBits: Sendable {
        case mustBeZero
        /// Ignored, as RFC 4648 §3.5 lets a decoder do: for values written by hand.
        case ignored
    }

    /// What is wrong with a text that is not base64.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A length that leaves 6 stray bits (`characters` long, without padding).
        case impossibleLength(characters: Int)
        /// Padding where none, or another count, belongs.
        case padding(found: Int, expected: Int)
        /// A byte outside the alphabet at `offset`.
        case character(UInt8, offset: Int, alphabet: Alphabet)
        /// Non-zero unused bits in the last character.
        case unusedBits

        public var description: String {
            switch self {
            case .impossibleLength(let characters):
                return "impossible length (\(characters) characters leave 6 stray bits)"
            case .padding(let found, let expected):
                return "\(found) padding characters where \(expected) belong"
            case .character(let byte, let offset, let alphabet):
                let shown =
                    byte >= 0x21 && byte < 0x7F
                    ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
                return "\(shown) at offset \(offset) is not in the \(alphabet.name) alphabet"
            case .unusedBits:
                return "non-zero unused bits in the last character"
            }
        }
    }

    /// The padded standard encoding of `bytes`, as RFC 4648 §4 writes it (Basic credentials, x5c
    /// certificates, Auth0's `public_key`).
    public static func encodePadded(_ bytes: [UInt8]) -> String {
        let text = encode(bytes, alphabet: .standard)
        return text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
    }

    /// Standard base64 written by another system (a certificate, an imported hash, a Basic header,
    /// a data: URL). Trailing `=` are dropped whatever their count, because other systems get it
    /// wrong (a passlib value, unpadded, with one `=` appended to make it "base64"), and the unused
    /// bits are ignored (RFC 4648 §3.5): as lenient as Foundation's decoder, which this replaced.
    /// Nil when the rest is not base64.
    public static func decodeStandard(_ text: some StringProtocol) -> [UInt8]? {
        var bytes = Array(text.utf8)
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        return try? decode(bytes, alphabet: .standard, padding: .forbidden, unusedBits: .ignored)
    }

    /// The unpadded encoding of `bytes`.
    public static func encode(_ bytes: [UInt8], alphabet: Alphabet) -> String {
        if bytes.isEmpty { return "" }
        guard let count = Int32(exactly: bytes.count) else { return "" }
        var out = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let written = out.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { EVP_EncodeBlock(output.baseAddress, $0.baseAddress, count) }
        }
        guard written > 0, Int(written) < out.count else { return "" }
        var length = Int(written)
        while length > 0, out[length - 1] == UInt8(ascii: "=") { length -= 1 }
        if alphabet == .url {
            for index in 0..<length {
                if out[index] == UInt8(ascii: "+") {
                    out[index] = UInt8(ascii: "-")
                } else if out[index] == UInt8(ascii: "/") {
                    out[index] = UInt8(ascii: "_")
                }
            }
        }
        return String(decoding: out[0..<length], as: UTF8.self)
    }

    /// The bytes `text` encodes, or what is wrong with it.
    public static func decode(
        _ text: String, alphabet: Alphabet, padding: Padding = .forbidden, unusedBits: UnusedBits = .mustBeZero
    ) throws(Failure) -> [UInt8] {
        try decode(text.utf8, alphabet: alphabet, padding: padding, unusedBits: unusedBits)
    }

    /// The bytes the UTF-8 `text` encodes, or what is wrong with it.
    public static func decode(
        _ text: some Collection<UInt8>, alphabet: Alphabet, padding: Padding = .forbidden,
        unusedBits: UnusedBits = .mustBeZero
    ) throws(Failure) -> [UInt8] {
        // libcrypto reads the standard alphabet with the padding that belongs, in one buffer.
        var input = Array(text)
        var length = input.count
        while length > 0, input[length - 1] == UInt8(ascii: "=") { length -= 1 }
        let found = input.count - length
        let remainder = length % 4
        if remainder == 1 { throw .impossibleLength(characters: length) }
        let expected = remainder == 0 ? 0 : 4 - remainder
        if found > 0, padding == .forbidden || found != expected {
            throw .padding(found: found, expected: padding == .forbidden ? 0 : expected)
        }
        if length == 0 { return [] }
        var last: UInt8 = 0
        for index in 0..<length {
            let value = sextet(input[index], alphabet)
            guard value != 0xFF else { throw .character(input[index], offset: index, alphabet: alphabet) }
            if alphabet == .url {
                if input[index] == UInt8(ascii: "-") {
                    input[index] = UInt8(ascii: "+")
                } else if input[index] == UInt8(ascii: "_") {
                    input[index] = UInt8(ascii: "/")
                }
            }
            last = value
        }
        // 2 characters carry 1 byte and 4 unused bits; 3 carry 2 bytes and 2 unused bits.
        if unusedBits == .mustBeZero, remainder >= 2, last & (remainder == 2 ? 0x0F : 0x03) != 0 {
            throw .unusedBits
        }
        input.removeLast(found)
        input.append(contentsOf: repeatElement(UInt8(ascii: "="), count: expected))
        guard let count = Int32(exactly: input.count) else { throw .impossibleLength(characters: length) }
        var out = [UInt8](repeating: 0, count: input.count / 4 * 3)
        let decoded = out.withUnsafeMutableBufferPointer { output in
            input.withUnsafeBufferPointer { EVP_DecodeBlock(output.baseAddress, $0.baseAddress, count) }
        }
        // EVP_DecodeBlock counts the padding's zero bytes; the form was checked above, so a
        // failure here is libcrypto's alone.
        guard decoded >= 0, Int(decoded) == out.count, expected <= out.count else {
            OpenSSLError.clear()
            throw .impossibleLength(characters: length)
        }
        out.removeLast(expected)
        return out
    }

    /// The 6-bit value of `byte` in `alphabet`, or 0xFF.
    private static func sextet(_ byte: UInt8, _ alphabet: Alphabet) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-") where alphabet == .url, UInt8(ascii: "+") where alphabet == .standard: return 62
        case UInt8(ascii: "_") where alphabet == .url, UInt8(ascii: "/") where alphabet == .standard: return 63
        default: return 0xFF
        }
    }
}

/// base64url (RFC 4648 §5), byte-level. Decoding is strict: padding is accepted only where it
/// belongs, anything outside the alphabet, a bad length or non-zero trailing bits is rejected.
public enum Base64URL {
    /// The url-safe alphabet, indexed by 6-bit value.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps every byte to its 6-bit value, or 0xFF when the byte is not in the alphabet.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// Encodes bytes as unpadded base64url, the form WebAuthn uses everywhere.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        let count = bytes.count
        while index + 3 <= count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
            out.append(alphabet[Int(chunk >> 6 & 0x3F)])
            out.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        switch count - index {
        case 1:
            let chunk = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
        case 2:
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
            out.append(alphabet[Int(chunk >> 6 & 0x3F)])
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64url text, with or without correct `=` padding.
    public static func decode(_ string: String) throws(WebAuthnError) -> [UInt8] {
        try decode(string.utf8)
    }

    /// Decodes base64url from its UTF-8 bytes, with or without correct `=` padding.
    public static func decode(_ utf8: some Collection<UInt8>) throws(WebAuthnError) -> [UInt8] {
        try decode(utf8, strictTrailingBits: true)
    }

    /// Like `decode`, but ignores non-zero unused bits in the last character (RFC 4648 §3.5 lets
    /// decoders do so). Alphabet, length and padding stay strict. For values some clients and test
    /// suites write by hand, such as a `userHandle` that was never real base64url; prefer `decode`.
    public static func decodeIgnoringTrailingBits(_ string: String) throws(WebAuthnError) -> [UInt8] {
        try decode(string.utf8, strictTrailingBits: false)
    }

    private static func decode(
        _ utf8: some Collection<UInt8>, strictTrailingBits: Bool
    ) throws(WebAuthnError) -> [UInt8] {
        let fast: Result<[UInt8], WebAuthnError>? = utf8.withContiguousStorageIfAvailable { buffer in
            Result { () throws(WebAuthnError) -> [UInt8] in try decodeBuffer(buffer, strictTrailingBits) }
        }
        if let fast {
            return try fast.get()
        }
        let copy = Array(utf8)
        return try copy.withUnsafeBufferPointer { (buffer) throws(WebAuthnError) -> [UInt8] in
            try decodeBuffer(buffer, strictTrailingBits)
        }
    }

    /// The decoder proper; every index it reads is below `length`, which never exceeds `input.count`.
    private static func decodeBuffer(
        _ input: UnsafeBufferPointer<UInt8>, _ strictTrailingBits: Bool
    ) throws(WebAuthnError) -> [UInt8] {
        let padByte = UInt8(ascii: "=")
        var length = input.count
        var padding = 0
        while length > 0, input[length - 1] == padByte {
            length -= 1
            padding += 1
        }
        let remainder = length % 4
        if remainder == 1 {
            throw WebAuthnError(.malformed, "base64url: impossible length (\(length) characters leave 6 stray bits)")
        }
        if padding > 0 {
            let expected = remainder == 0 ? 0 : 4 - remainder
            if padding != expected {
                throw WebAuthnError(.malformed, "base64url: \(padding) padding characters where \(expected) belong")
            }
        }
        let table = decodeTable
        var out = [UInt8]()
        out.reserveCapacity(length / 4 * 3 + 2)
        var index = 0
        // Full quads.
        while index + 4 <= length {
            let a = table[Int(input[index])]
            let b = table[Int(input[index + 1])]
            let c = table[Int(input[index + 2])]
            let d = table[Int(input[index + 3])]
            if (a | b | c | d) & 0xC0 != 0 {
                throw invalidCharacter(in: input, from: index, to: index + 4)
            }
            let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
            out.append(UInt8(truncatingIfNeeded: chunk >> 8))
            out.append(UInt8(truncatingIfNeeded: chunk))
            index += 4
        }
        // The final 2 or 3 characters.
        if remainder >= 2 {
            let a = table[Int(input[index])]
            let b = table[Int(input[index + 1])]
            let c = remainder == 3 ? table[Int(input[index + 2])] : 0
            if (a | b | c) & 0xC0 != 0 {
                throw invalidCharacter(in: input, from: index, to: index + remainder)
            }
            let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
            if remainder == 3 {
                out.append(UInt8(truncatingIfNeeded: chunk >> 8))
                if strictTrailingBits, chunk & 0xFF != 0 {
                    throw WebAuthnError(.malformed, "base64url: non-zero unused bits in the last character")
                }
            } else if strictTrailingBits, chunk & 0xFFFF != 0 {
                throw WebAuthnError(.malformed, "base64url: non-zero unused bits in the last character")
            }
        }
        return out
    }

    private static func invalidCharacter(
        in input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> WebAuthnError {
        var position = start
        while position < end, decodeTable[Int(input[position])] != 0xFF {
            position += 1
        }
        let byte = position < end ? input[position] : 0
        let shown =
            byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return WebAuthnError(.malformed, "base64url: \(shown) at offset \(position) is not in the url-safe alphabet")
    }
}

internal import COpenSSL

/// Strict base64 over libcrypto's EVP_EncodeBlock / EVP_DecodeBlock, in the two unpadded forms
/// SesameCrypto needs: base64url (JWK, RFC 7515 §2) and standard-alphabet (PHC strings).
/// Decoding accepts only the canonical unpadded encoding: no padding, no whitespace, no other
/// characters, and no stray bits in the last character.
enum Base64 {
    enum Alphabet {
        /// `-` and `_` (RFC 4648 §5).
        case url
        /// `+` and `/` (RFC 4648 §4).
        case standard
    }

    /// Unpadded encoding of `bytes`.
    static func encode(_ bytes: [UInt8], alphabet: Alphabet) -> String {
        if bytes.isEmpty { return "" }
        guard let count = Int32(exactly: bytes.count) else { return "" }
        var out = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let written = out.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { EVP_EncodeBlock(output.baseAddress, $0.baseAddress, count) }
        }
        guard written > 0, Int(written) < out.count else { return "" }
        var text = out.prefix(Int(written))
        while text.last == UInt8(ascii: "=") { text.removeLast() }
        if alphabet == .url {
            for index in text.indices {
                if text[index] == UInt8(ascii: "+") {
                    text[index] = UInt8(ascii: "-")
                } else if text[index] == UInt8(ascii: "/") {
                    text[index] = UInt8(ascii: "_")
                }
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes canonical unpadded base64 in `alphabet`; nil for anything else.
    static func decode(_ text: String, alphabet: Alphabet) -> [UInt8]? {
        var input = Array(text.utf8)
        if input.isEmpty { return [] }
        guard input.count % 4 != 1, input.count < Int(Int32.max) - 4 else { return nil }
        for index in input.indices {
            let c = input[index]
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "-") where alphabet == .url: input[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_") where alphabet == .url: input[index] = UInt8(ascii: "/")
            case UInt8(ascii: "+") where alphabet == .standard, UInt8(ascii: "/") where alphabet == .standard:
                continue
            default:
                return nil
            }
        }
        let padding = (4 - input.count % 4) % 4
        input.append(contentsOf: repeatElement(UInt8(ascii: "="), count: padding))
        guard let length = Int32(exactly: input.count) else { return nil }
        var out = [UInt8](repeating: 0, count: input.count / 4 * 3)
        let decoded = out.withUnsafeMutableBufferPointer { output in
            input.withUnsafeBufferPointer { EVP_DecodeBlock(output.baseAddress, $0.baseAddress, length) }
        }
        guard decoded >= 0, Int(decoded) == out.count, padding <= out.count else {
            OpenSSLError.clear()
            return nil
        }
        out.removeLast(padding)
        // Canonical form only: stray low bits in the last character would decode the same bytes.
        guard encode(out, alphabet: alphabet) == text else { return nil }
        return out
    }
}

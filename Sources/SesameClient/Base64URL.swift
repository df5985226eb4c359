import Foundation

/// base64url without padding (RFC 4648 §5), the encoding of every binary WebAuthn member.
/// Internal so that it never clashes with `WebAuthn.Base64URL` in files importing both.
enum Base64URL {
    /// Encodes bytes as base64url without padding.
    static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes base64url with or without padding; nil for any character outside the alphabet or
    /// an impossible length.
    static func decode(_ text: String) -> Data? {
        var body = Substring(text)
        while body.hasSuffix("=") { body.removeLast() }
        guard body.utf8.allSatisfy(isAlphabet), body.utf8.count % 4 != 1 else { return nil }
        var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}

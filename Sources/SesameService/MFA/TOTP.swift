import Foundation
import SesameCrypto

/// TOTP (RFC 6238) with RFC 4226's HOTP: HMAC-SHA-1 (libcrypto), 6 digits, 30-second steps,
/// the parameters every authenticator app uses by default. SHA-1 is what RFC 6238 and the apps
/// use; HMAC-SHA-1 is not weakened by SHA-1's collisions.
public enum TOTP {
    public static let digits = 6
    public static let period: TimeInterval = 30
    /// Codes of the step before and after are accepted too (clock drift).
    public static let window: Int64 = 1

    /// The time step of `date`.
    public static func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / period).rounded(.down)) }

    /// The HOTP value of `counter` under `secret` (RFC 4226 §5.3), with `digits` digits.
    public static func code(secret: [UInt8], counter: Int64, digits: Int = TOTP.digits) -> String {
        var message = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 {
            message[7 - index] = UInt8(truncatingIfNeeded: UInt64(bitPattern: counter) >> (8 * UInt64(index)))
        }
        let mac = HMAC.authenticationCode(for: message, key: secret, hash: .legacySHA1)
        guard mac.count == 20 else { return "" }
        let offset = Int(mac[19] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The step within the window whose code is `code` (compared in constant time), or nil.
    public static func matchingStep(code: String, secret: [UInt8], at date: Date) -> Int64? {
        guard code.utf8.count == digits, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let now = step(at: date)
        var found: Int64?
        for candidate in (now - window)...(now + window) {
            // Every candidate is computed and compared, whichever matches.
            if constantTimeEquals(Array(self.code(secret: secret, counter: candidate).utf8), Array(code.utf8)) {
                found = found ?? candidate
            }
        }
        return found
    }

    /// `otpauth://totp/<issuer>:<account>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`
    /// (the Key URI format authenticator apps read).
    public static func uri(secret: [UInt8], issuer: String, account: String) -> String {
        let label = percentEncoded(issuer) + ":" + percentEncoded(account)
        return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer=\(percentEncoded(issuer))"
            + "&algorithm=SHA1&digits=\(digits)&period=\(Int(period))"
    }

    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// RFC 4648 base32 (upper case, no padding): how TOTP secrets are shown and put in otpauth URIs.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes upper- or lower-case base32, ignoring padding and spaces; nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 where byte != UInt8(ascii: "=") && byte != UInt8(ascii: " ") {
            let upper = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
            guard let value = alphabet.firstIndex(of: upper) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
                bits -= 8
            }
        }
        return out
    }
}

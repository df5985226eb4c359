import Foundation
import SesameCrypto
import SesameWire
import WebAuthn

/// Random identifiers for records and secrets.
enum Identifiers {
    /// A prefixed id with 128 random bits in lowercase hex, e.g. "con_5f0c…".
    static func make(_ prefix: String, _ random: any RandomSource) throws -> String {
        prefix + Hex.lowercase(try random.bytes(count: 16))
    }

    /// A client id: 32 base64url characters (192 bits), Auth0-like, starting with a letter or a
    /// digit: an id that began with `-` would read as an option on a command line
    /// (`sesame signup --client-id --x…`), one id in 64.
    static func clientID(_ random: any RandomSource) throws -> String {
        for _ in 0..<64 {
            let id = Base64URL.encode(try random.bytes(count: 24))
            if let first = id.utf8.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "_") { return id }
        }
        throw ServiceError.unavailable("the random source gave no usable client id")
    }

    /// A secret: 48 base64url characters (288 bits).
    static func secret(_ random: any RandomSource) throws -> String {
        Base64URL.encode(try random.bytes(count: 36))
    }

    /// `prefix`, the time in milliseconds since 1970 as 12 hex digits, then `suffix` in hex: ids
    /// that sort by time.
    static func timeOrdered(_ prefix: String, at: Date, suffix: [UInt8]) -> String {
        let milliseconds = at.timeIntervalSince1970 * 1_000
        let clamped = milliseconds.isFinite ? UInt64(min(max(milliseconds, 0), Double(0xFFFF_FFFF_FFFF))) : 0
        let time = String(clamped, radix: 16)
        return prefix + String(repeating: "0", count: 12 - time.count) + time + Hex.lowercase(suffix)
    }

}

extension RandomSource {
    /// `count` random bytes; a failing source is the service's 503, never a crash.
    func serviceBytes(_ count: Int) throws(ServiceError) -> [UInt8] {
        do {
            return try bytes(count: count)
        } catch {
            throw .unavailable("the random source failed")
        }
    }
}

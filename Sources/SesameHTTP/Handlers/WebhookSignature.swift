import Foundation
import SesameCrypto

/// The `Sesame-Signature` header of the message and audit-log webhooks:
/// `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under the operator's shared secret, so
/// a receiver can tell a POST came from Sesame with the body it was sent, and refuse a replay whose
/// `t` is old (docs/audit-log.md has the receiver's steps).
public enum WebhookSignature {
    /// The header's name.
    public static let header = "Sesame-Signature"

    /// The header's value for `body` sent at `time` (whole seconds, rounded down).
    public static func value(body: [UInt8], secret: [UInt8], time: Date) -> String {
        let seconds = Int64(time.timeIntervalSince1970.rounded(.down))
        let mac = HMAC.authenticationCode(for: Array("\(seconds).".utf8) + body, key: secret)
        return "t=\(seconds),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }
}

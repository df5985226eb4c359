import Foundation
import SesameCrypto

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `Sesame-Signature` header of the message and audit-log webhooks:
/// `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under the operator's shared secret, so
/// a receiver can tell a POST came from Sesame with the body it was sent, and refuse a replay whose
/// `t` is old (docs/audit-log.md has the receiver's steps).
public enum WebhookSignature {
    /// The header's name.
    public static let header = "Sesame-Signature"

    /// The header's value for `body` sent at `time` (whole seconds, rounded down).
    public static func value(body: [UInt8], secret: [UInt8], time: Date) -> String {
        value(body: body, secrets: [secret], time: time)
    }

    /// The header's value with one `v1` per secret, in the order given: during a rotation Sesame
    /// signs under the new secret and the previous one, so a receiver that knows either accepts the
    /// POST (it accepts when any `v1` matches).
    public static func value(body: [UInt8], secrets: [[UInt8]], time: Date) -> String {
        let seconds = Int64(time.timeIntervalSince1970.rounded(.down))
        let message = Array("\(seconds).".utf8) + body
        var header = "t=\(seconds)"
        for secret in secrets {
            let mac = HMAC.authenticationCode(for: message, key: secret)
            header += ",v1=" + mac.map { String(format: "%02x", $0) }.joined()
        }
        return header
    }
}

extension OutboundHTTP {
    /// Posts `body` (of type `contentType`) to a webhook at `url`, signed with `secrets` at the
    /// time `clock` gives (`WebhookSignature`) when there are any, and with `authorization` when
    /// given: the answer's status, nil when none came.
    func post(
        _ body: [UInt8], to url: URL, as contentType: String, signedWith secrets: [[UInt8]], at clock: () -> Date,
        authorization: String? = nil
    ) -> Int? {
        var request = request(url)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        if !secrets.isEmpty {
            request.setValue(
                WebhookSignature.value(body: body, secrets: secrets, time: clock()),
                forHTTPHeaderField: WebhookSignature.header)
        }
        return send(request)?.status
    }
}

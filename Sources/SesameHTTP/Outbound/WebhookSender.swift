import Foundation
import SesameCrypto
import SesameService
import SesameStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends each message as a JSON POST to an operator's URL (docs/mfa.md):
/// `{"to", "channel", "template", "text", "tenant_id"}`, signed with HMAC-SHA256 of
/// `"<timestamp>.<body>"` under the shared secret in `Sesame-Signature: t=<unix seconds>,v1=<hex>`,
/// so the receiver can check it came from Sesame and refuse a replay older than a few minutes.
///
/// A 2xx answer is delivery. A network error, a timeout, 429 or 5xx is tried again after a short
/// pause, `attempts` times in all; any other answer is final. A message that is not delivered
/// within `attempts` × `timeout` (plus the pauses) gives 503 to the request that sent it.
public final class WebhookSender: MessageSender {
    public let url: URL
    /// The current HMAC key, then the previous one during a rotation.
    let secrets: [[UInt8]]
    public let timeout: TimeInterval
    public let attempts: Int
    let pause: TimeInterval
    let http: OutboundHTTP
    let clock: @Sendable () -> Date

    /// - Parameters:
    ///   - secret: the HMAC key, at least 16 bytes.
    ///   - previousSecret: during a rotation, the key the receiver may still expect; each POST then
    ///     carries a second `v1` under it.
    ///   - timeout: for each attempt.
    public init(
        url: URL, secret: [UInt8], previousSecret: [UInt8]? = nil, timeout: TimeInterval = 2.5, attempts: Int = 2,
        pause: TimeInterval = 0.25,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.url = url
        secrets = [secret] + (previousSecret.map { [$0] } ?? [])
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.pause = pause
        self.clock = clock
        http = OutboundHTTP(timeout: timeout)
    }

    public func send(_ message: OutgoingMessage) throws(ServiceError) {
        let body = JSONValueWriter.object([
            ("channel", message.channel.rawValue), ("template", message.template.rawValue),
            ("tenant_id", message.tenantID), ("text", message.text), ("to", message.recipient),
        ])
        for attempt in 1...attempts {
            switch post(body) {
            case .delivered: return
            case .final(let status):
                throw .unavailable("the message webhook refused the message (HTTP \(status))")
            case .retry:
                if attempt < attempts { Thread.sleep(forTimeInterval: pause) }
            }
        }
        throw .unavailable("the message webhook could not be reached; try again in a moment")
    }

    enum Outcome: Sendable {
        case delivered
        case final(Int)
        case retry
    }

    private func post(_ body: [UInt8]) -> Outcome {
        guard let status = http.post(body, to: url, as: "application/json", signedWith: secrets, at: clock) else {
            return .retry
        }
        switch status {
        case 200..<300: return .delivered
        case 429, 500...: return .retry
        default: return .final(status)
        }
    }
}

/// A flat JSON object of strings, keys in the given order.
enum JSONValueWriter {
    static func object(_ members: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(JSONText.quote(key).utf8) + [UInt8(ascii: ":")] + Array(JSONText.quote(value).utf8)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

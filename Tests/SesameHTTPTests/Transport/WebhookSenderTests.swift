import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import Synchronization
import Testing

/// The webhook sender against a real HTTP server on a loopback port.
@Suite("Webhook message sender (live, loopback)", .serialized)
struct WebhookSenderTests {
    /// A receiver that answers the statuses given in turn (then 200) and keeps what it got.
    final class Receiver: Sendable {
        let received = Mutex<[(signature: String, body: [UInt8])]>([])
        let statuses: Mutex<[Int]>
        let server: HTTPServer

        init(statuses: [Int]) throws {
            self.statuses = Mutex(statuses)
            var router = Router()
            let box = Mutex<Receiver?>(nil)
            router.post("/hook") { request, _ in
                guard let receiver = box.withLock({ $0 }) else { return .text("", status: 500) }
                receiver.received.withLock {
                    $0.append((request.headers["Sesame-Signature"] ?? "", request.body))
                }
                let status = receiver.statuses.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
                return .text("", status: status)
            }
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.threads = 2
            server = try HTTPServer(
                configuration: configuration, router: router, metrics: Metrics(),
                log: RequestLog(level: .error, sink: { _ in }))
            box.withLock { $0 = self }
        }

        var url: URL { URL(fileURLWithPath: "/hook").withPort(server.port) }
    }

    static let secret: [UInt8] = Array("a webhook secret of 32 bytes ....".utf8)
    static let message = OutgoingMessage(
        tenantID: "tnt_1", channel: .sms, template: .mfaCode, recipient: "+15550001", text: "Your code is 123456")

    @Test func deliversASignedJSONMessage() throws {
        let receiver = try Receiver(statuses: [])
        defer { receiver.server.stop(gracePeriod: 0) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let sender = WebhookSender(url: receiver.url, secret: Self.secret, clock: { now })
        try sender.send(Self.message)
        let got = try #require(receiver.received.withLock { $0.first })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(got.body)) as? [String: String])
        #expect(
            json == [
                "to": "+15550001", "channel": "sms", "template": "mfa_code", "text": "Your code is 123456",
                "tenant_id": "tnt_1",
            ])
        // The receiver's check: HMAC-SHA256 of "<t>.<body>".
        let expected = HMAC.authenticationCode(for: Array("1800000000.".utf8) + got.body, key: Self.secret)
        #expect(got.signature == "t=1800000000,v1=" + expected.map { String(format: "%02x", $0) }.joined())
        #expect(got.signature == WebhookSignature.value(body: got.body, secret: Self.secret, time: now))
    }

    @Test func duringARotationAMessageIsSignedUnderBothSecrets() throws {
        let receiver = try Receiver(statuses: [])
        defer { receiver.server.stop(gracePeriod: 0) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let current = Array("the new message-webhook secret..".utf8)
        let sender = WebhookSender(url: receiver.url, secret: current, previousSecret: Self.secret, clock: { now })
        try sender.send(Self.message)
        let got = try #require(receiver.received.withLock { $0.first })
        let hex = { (key: [UInt8]) in
            HMAC.authenticationCode(for: Array("1800000000.".utf8) + got.body, key: key)
                .map { String(format: "%02x", $0) }.joined()
        }
        // The new secret's signature first, then the old one's: a receiver with either accepts.
        #expect(got.signature == "t=1800000000,v1=\(hex(current)),v1=\(hex(Self.secret))")
    }

    @Test func aServerErrorIsTriedAgain() throws {
        let receiver = try Receiver(statuses: [503])
        defer { receiver.server.stop(gracePeriod: 0) }
        try WebhookSender(url: receiver.url, secret: Self.secret, pause: 0).send(Self.message)
        #expect(receiver.received.withLock { $0.count } == 2)
    }

    @Test func aRefusalOrAnOutageIsAClearError() throws {
        let receiver = try Receiver(statuses: [400, 500, 500])
        let sender = WebhookSender(url: receiver.url, secret: Self.secret, pause: 0)
        #expect(throws: ServiceError.unavailable("the message webhook refused the message (HTTP 400)")) {
            try sender.send(Self.message)
        }
        #expect(throws: ServiceError.unavailable("the message webhook could not be reached; try again in a moment")) {
            try sender.send(Self.message)
        }
        #expect(receiver.received.withLock { $0.count } == 3)
        // Nothing listens any more: the same clear error, within the attempts' time.
        receiver.server.stop(gracePeriod: 0)
        #expect(throws: ServiceError.self) {
            try WebhookSender(url: receiver.url, secret: Self.secret, timeout: 1, pause: 0).send(Self.message)
        }
    }
}

extension URL {
    /// `http://127.0.0.1:<port>` with this URL's path.
    fileprivate func withPort(_ port: Int) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        components.path = path
        return components.url ?? self
    }
}

import Foundation
import SesameCrypto
import SesameHTTP
import SesameStore
import Synchronization
import Testing

@testable import SesameService

/// The audit-log webhook against a real HTTP server on a loopback port. Delivery steps are driven
/// by the test (`deliverOnce`), or by the worker with the test's own pause; nothing sleeps.
@Suite("Audit-log webhook sink (live, loopback)", .serialized)
struct AuditWebhookSinkTests {
    /// A receiver that answers the statuses given in turn (then 200) and keeps what it got; each
    /// request signals `arrived`.
    final class Receiver: Sendable {
        struct Request: Sendable {
            var path: String
            var authorization: String?
            var contentType: String?
            var signature: String?
            var body: [UInt8]
        }
        let received = Mutex<[Request]>([])
        let statuses: Mutex<[Int]>
        let arrived = DispatchSemaphore(value: 0)
        let server: HTTPServer

        init(statuses: [Int] = []) throws {
            self.statuses = Mutex(statuses)
            var router = Router()
            let box = Mutex<Receiver?>(nil)
            for path in ["/hook", "/elsewhere"] {
                router.post(path) { request, _ in
                    guard let receiver = box.withLock({ $0 }) else { return .text("", status: 500) }
                    receiver.received.withLock {
                        $0.append(
                            Request(
                                path: path, authorization: request.headers["Authorization"],
                                contentType: request.headers["Content-Type"],
                                signature: request.headers["Sesame-Signature"], body: request.body))
                    }
                    let status = receiver.statuses.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
                    receiver.arrived.signal()
                    var response = HTTPResponse.text("", status: status)
                    if (300..<400).contains(status) {
                        response.headers.replaceOrAdd(name: "Location", value: "/elsewhere")
                    }
                    return response
                }
            }
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
            configuration.threads = 2
            server = try HTTPServer(
                configuration: configuration, router: router, metrics: Metrics(),
                log: RequestLog(level: .error, sink: { _ in }))
            box.withLock { $0 = self }
        }

        var url: URL { URL(string: "http://127.0.0.1:\(server.port)/hook") ?? URL(fileURLWithPath: "/hook") }
        var requests: [Request] { received.withLock { $0 } }

        /// The entries of every request, in order.
        func lines() throws -> [[String: Any]] {
            try requests.flatMap { request in
                try String(decoding: request.body, as: UTF8.self).split(separator: "\n").map { line in
                    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                }
            }
        }
    }

    static let token = "audit-receiver-token-1234"
    static let secret = "audit-webhook-signing-secret-5678"

    /// Why a receiver refuses a POST (docs/audit-log.md, "Checking a signature").
    enum Refusal: Error, Equatable {
        case noSignature, malformed, stale, mismatch
    }

    /// A receiver's check of `Sesame-Signature: t=<unix seconds>,v1=<hex>`: the HMAC-SHA256 of
    /// `"<t>."` followed by the body's exact bytes, compared in constant time, and a `t` no more
    /// than `tolerance` seconds from the receiver's clock.
    static func verify(
        _ header: String?, body: [UInt8], secret: [UInt8], now: Date, tolerance: TimeInterval = 300
    ) throws(Refusal) {
        guard let header else { throw .noSignature }
        var time: String?
        var macs: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw .malformed }
            switch pair[0] {
            case "t": time = pair[1]
            case "v1":
                guard let mac = hexBytes(pair[1]) else { throw .malformed }
                macs.append(mac)
            default: continue  // a later scheme this receiver does not know
            }
        }
        guard let time, let seconds = Int64(time), !macs.isEmpty else { throw .malformed }
        guard abs(now.timeIntervalSince1970 - Double(seconds)) <= tolerance else { throw .stale }
        let expected = HMAC.authenticationCode(for: Array("\(time).".utf8) + body, key: secret)
        guard macs.contains(where: { constantTimeEquals($0, expected) }) else { throw .mismatch }
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }

    static func entries(_ count: Int, from start: Int = 0) -> [AuditEntry] {
        (start..<start + count).map { index in
            AuditEntry(
                AuditEventRecord(
                    tenantID: "tnt_1", id: String(format: "log_%012x%016x", index, index),
                    at: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)), type: .failedPassword,
                    userID: "auth0|u\(index)", details: AuditDetails(reason: .wrongPassword)),
                names: AuditEntry.Names())
        }
    }

    @Test func deliversBatchesOfJSONLinesWithTheBearerToken() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop(gracePeriod: 0) }
        let sink = try AuditWebhookSink(
            url: receiver.url, token: Self.token, limits: AuditWebhookSink.Limits(batchSize: 2))
        #expect(sink.deliverOnce() == .idle)
        sink.ship(Self.entries(5))
        #expect(sink.pendingEntries == 5)
        #expect(sink.deliverOnce() == .delivered(2))
        #expect(sink.deliverOnce() == .delivered(2))
        #expect(sink.deliverOnce() == .delivered(1))
        #expect(sink.deliverOnce() == .idle)
        let requests = receiver.requests
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.authorization == "Bearer \(Self.token)")
            #expect(request.contentType == "application/x-ndjson")
            #expect(request.body.last == 0x0A)
        }
        let lines = try receiver.lines()
        #expect(lines.compactMap { $0["log_id"] as? String } == Self.entries(5).map(\.logID))
        #expect(lines.allSatisfy { $0["tenant_id"] as? String == "tnt_1" && $0["type"] as? String == "fp" })
        #expect(sink.deliveredEntries == 5 && sink.droppedEntries == 0)
        // Without a token, no Authorization header.
        let anonymous = try AuditWebhookSink(url: receiver.url)
        anonymous.ship(Self.entries(1))
        #expect(anonymous.deliverOnce() == .delivered(1))
        #expect(receiver.requests.last?.authorization == nil)
    }

    @Test func signedBatchesVerifyOverTheExactBytesAndTamperingIsRefused() throws {
        let receiver = try Receiver(statuses: [503])
        defer { receiver.server.stop(gracePeriod: 0) }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000.75))
        let secret = Array(Self.secret.utf8)
        let sink = try AuditWebhookSink(
            url: receiver.url, token: Self.token, secret: secret, limits: AuditWebhookSink.Limits(batchSize: 2),
            clock: { clock.now() })
        sink.ship(Self.entries(3))
        // The first attempt fails; the retry a minute later is signed anew, with its own time.
        #expect(sink.deliverOnce() == .retry(after: 1))
        clock.advance(by: 60)
        #expect(sink.deliverOnce() == .delivered(2))
        #expect(sink.deliverOnce() == .delivered(1))
        let requests = receiver.requests
        #expect(requests.count == 3)
        #expect(
            requests.map { String($0.signature?.prefix(13) ?? "") } == [
                "t=1800000000,", "t=1800000060,", "t=1800000060,",
            ])
        #expect(requests.allSatisfy { $0.authorization == "Bearer \(Self.token)" })
        // Each verifies over the exact bytes the receiver got, at the time it got them.
        for (request, at) in zip(requests, [1_800_000_001.0, 1_800_000_061, 1_800_000_061]) {
            #expect(throws: Never.self) {
                try Self.verify(
                    request.signature, body: request.body, secret: secret, now: Date(timeIntervalSince1970: at))
            }
            #expect(
                request.signature
                    == WebhookSignature.value(
                        body: request.body, secret: secret, time: Date(timeIntervalSince1970: at - 1)))
        }
        let signed = requests[1]
        let now = Date(timeIntervalSince1970: 1_800_000_061)
        // One byte changed, a byte added, a line dropped, another batch's signature, or the wrong key: refused.
        var flipped = signed.body
        flipped[flipped.count / 2] ^= 0x01
        let firstLine = Array(signed.body.prefix { $0 != 0x0A }) + [0x0A]
        for body in [flipped, signed.body + [0x0A], firstLine, requests[2].body] {
            #expect(throws: Refusal.mismatch) {
                try Self.verify(signed.signature, body: body, secret: secret, now: now)
            }
        }
        #expect(throws: Refusal.mismatch) {
            try Self.verify(signed.signature, body: signed.body, secret: Array("another secret, 16+".utf8), now: now)
        }
        // The first attempt's signature, replayed ten minutes on, is too old; a missing or bent header fails.
        #expect(throws: Refusal.stale) {
            try Self.verify(
                requests[0].signature, body: requests[0].body, secret: secret, now: now.addingTimeInterval(600))
        }
        #expect(throws: Refusal.noSignature) { try Self.verify(nil, body: signed.body, secret: secret, now: now) }
        for bent in ["v1=00", "t=1800000060", "t=1800000060,v1=zz", "t=x,v1=00"] {
            #expect(throws: Refusal.malformed, "\(bent)") {
                try Self.verify(bent, body: signed.body, secret: secret, now: now)
            }
        }
        // The secret itself travels nowhere: not in a header, not in a body.
        for request in requests {
            #expect(request.signature?.contains(Self.secret) == false)
            #expect(!String(decoding: request.body, as: UTF8.self).contains(Self.secret))
        }
        // Without a secret, no signature header.
        let unsigned = try AuditWebhookSink(url: receiver.url)
        unsigned.ship(Self.entries(1))
        #expect(unsigned.deliverOnce() == .delivered(1))
        #expect(receiver.requests.last?.signature == nil)
    }

    @Test func duringARotationEachBatchIsSignedUnderBothSecrets() throws {
        let receiver = try Receiver(statuses: [])
        defer { receiver.server.stop(gracePeriod: 0) }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let current = Array("the-new-audit-signing-secret".utf8)
        let previous = Array(Self.secret.utf8)
        let sink = try AuditWebhookSink(
            url: receiver.url, secret: current, previousSecret: previous, clock: { clock.now() })
        sink.ship(Self.entries(2))
        #expect(sink.deliverOnce() == .delivered(2))
        let request = try #require(receiver.requests.last)
        let header = try #require(request.signature)
        // One `t`, then a `v1` under the current secret and one under the previous, in that order.
        let parts = header.split(separator: ",").map(String.init)
        #expect(parts.count == 3 && parts[0] == "t=1800000000")
        #expect(
            parts[1]
                == WebhookSignature.value(body: request.body, secret: current, time: clock.now()).split(separator: ",")[
                    1
                ].description)
        #expect(
            parts[2]
                == WebhookSignature.value(body: request.body, secret: previous, time: clock.now()).split(
                    separator: ",")[1].description)
        // A receiver that still has the old secret accepts it, one that has the new one too, any other refuses.
        for secret in [current, previous] {
            #expect(throws: Never.self) {
                try Self.verify(header, body: request.body, secret: secret, now: clock.now())
            }
        }
        #expect(throws: Refusal.mismatch) {
            try Self.verify(
                header, body: request.body, secret: Array("a-third-secret-nobody-has".utf8), now: clock.now())
        }
        #expect(!header.contains(Self.secret) && !header.contains("the-new-audit-signing-secret"))
        // A previous secret needs a current one and the same bounds.
        #expect(throws: AuditWebhookSink.ConfigurationError.previousSecretAlone) {
            try AuditWebhookSink(url: receiver.url, previousSecret: previous)
        }
        #expect(throws: AuditWebhookSink.ConfigurationError.badSecret) {
            try AuditWebhookSink(url: receiver.url, secret: current, previousSecret: Array("short".utf8))
        }
    }

    @Test func failuresAreRetriedWithExponentialBackoffUpToTheCap() throws {
        let receiver = try Receiver(statuses: [503, 500, 429, 408, 502])
        defer { receiver.server.stop(gracePeriod: 0) }
        let limits = AuditWebhookSink.Limits(firstRetry: 1, maxRetryDelay: 5, maxAttempts: 10)
        let sink = try AuditWebhookSink(url: receiver.url, limits: limits)
        sink.ship(Self.entries(3))
        var pauses: [TimeInterval] = []
        while case .retry(let pause) = sink.deliverOnce() { pauses.append(pause) }
        #expect(pauses == [1, 2, 4, 5, 5])
        #expect(sink.deliveredEntries == 3 && sink.pendingEntries == 0)
        // The same batch each time, and delivered once.
        let bodies = receiver.requests.map(\.body)
        #expect(bodies.count == 6 && Set(bodies).count == 1)
        #expect(
            (1...12).map { AuditWebhookSink.backoff(afterAttempt: $0, limits) } == [1, 2, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5])
    }

    @Test func aBatchOutOfAttemptsOrRefusedIsDroppedAndCounted() throws {
        let receiver = try Receiver(statuses: [500, 500, 500, 400, 307])
        defer { receiver.server.stop(gracePeriod: 0) }
        let sink = try AuditWebhookSink(
            url: receiver.url, token: Self.token, limits: AuditWebhookSink.Limits(batchSize: 2, maxAttempts: 3))
        sink.ship(Self.entries(6))
        #expect(sink.deliverOnce() == .retry(after: 1))
        #expect(sink.deliverOnce() == .retry(after: 2))
        #expect(sink.deliverOnce() == .dropped(2))
        // A refusal is final at once.
        #expect(sink.deliverOnce() == .dropped(2))
        // So is a redirect: it is not followed, so the token never goes where it points.
        #expect(sink.deliverOnce() == .dropped(2))
        #expect(sink.droppedEntries == 6 && sink.deliveredEntries == 0)
        #expect(receiver.requests.count == 5)
        #expect(receiver.requests.allSatisfy { $0.path == "/hook" })
    }

    @Test func theQueueIsBoundedAndDropsTheOldest() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop(gracePeriod: 0) }
        let sink = try AuditWebhookSink(url: receiver.url, limits: AuditWebhookSink.Limits(maxQueued: 3))
        sink.ship(Self.entries(2))
        sink.ship(Self.entries(3, from: 2))
        #expect(sink.pendingEntries == 3)
        #expect(sink.droppedEntries == 2)
        #expect(sink.deliverOnce() == .delivered(3))
        #expect(try receiver.lines().compactMap { $0["log_id"] as? String } == Self.entries(3, from: 2).map(\.logID))
    }

    @Test func theWorkerDeliversAndPausesThroughTheInjectedWait() throws {
        let receiver = try Receiver(statuses: [503, 503])
        defer { receiver.server.stop(gracePeriod: 0) }
        let pauses = Mutex<[TimeInterval]>([])
        let sink = try AuditWebhookSink(url: receiver.url, pause: { delay in pauses.withLock { $0.append(delay) } })
        sink.start()
        sink.ship(Self.entries(4))
        for _ in 0..<3 { #expect(receiver.arrived.wait(timeout: .now() + 30) == .success) }
        sink.finish(within: 5)
        #expect(pauses.withLock { $0 } == [1, 2])
        #expect(sink.deliveredEntries == 4 && sink.droppedEntries == 0)
        // Three attempts at the same batch of four.
        let bodies = receiver.requests.map(\.body)
        #expect(bodies.count == 3 && Set(bodies).count == 1)
        #expect(try receiver.lines().count == 12)
    }

    @Test func finishDeliversWhatWaitsThenCountsTheRest() throws {
        let receiver = try Receiver(statuses: [200, 500])
        defer { receiver.server.stop(gracePeriod: 0) }
        let sink = try AuditWebhookSink(url: receiver.url, limits: AuditWebhookSink.Limits(batchSize: 2))
        sink.ship(Self.entries(5))
        sink.finish(within: 10)
        // The first batch went; the second failed once, so it and the last are counted as lost.
        #expect(sink.deliveredEntries == 2 && sink.droppedEntries == 3 && sink.pendingEntries == 0)
    }

    @Test func onlyHTTPSOrLoopbackHTTPAndAVisibleToken() throws {
        for good in [
            "https://logs.example.com/in", "http://127.0.0.1:9/in", "http://127.9.0.1/in", "http://[::1]:8/in",
            "http://localhost/in",
        ] {
            let url = try #require(URL(string: good))
            #expect(throws: Never.self, "\(good)") { try AuditWebhookSink.validate(url) }
        }
        for (bad, problem) in [
            ("http://logs.example.com/in", AuditWebhookSink.ConfigurationError.notHTTPS),
            ("http://127.0.0.1.example.com/in", .notHTTPS), ("http://10.0.0.1/in", .notHTTPS),
            ("ftp://127.0.0.1/in", .notHTTPS), ("mailto:ops@example.com", .notHTTPS),
            ("https://user:secret@logs.example.com/in", .credentialsInURL),
        ] {
            let url = try #require(URL(string: bad))
            #expect(throws: problem, "\(bad)") { try AuditWebhookSink.validate(url) }
        }
        let url = try #require(URL(string: "https://logs.example.com/in"))
        for token in ["", "has space", "line\nbreak", String(repeating: "x", count: 4_097)] {
            #expect(throws: AuditWebhookSink.ConfigurationError.badToken) {
                try AuditWebhookSink(url: url, token: token)
            }
        }
        for secret in [[], Array(repeating: UInt8(ascii: "s"), count: 15), Array(repeating: 1, count: 4_097)] {
            #expect(throws: AuditWebhookSink.ConfigurationError.badSecret, "\(secret.count) bytes") {
                try AuditWebhookSink(url: url, secret: secret)
            }
        }
        for secret in [Array(repeating: UInt8(ascii: "s"), count: 16), Array(repeating: 1, count: 4_096)] {
            #expect(throws: Never.self) { try AuditWebhookSink(url: url, secret: secret) }
        }
    }

    @Test("real flows reach the webhook without a secret, and /metrics counts the drops")
    func throughTheApplication() throws {
        let receiver = try Receiver()
        defer { receiver.server.stop(gracePeriod: 0) }
        let clock = ManualClock()
        let sink = try AuditWebhookSink(
            url: receiver.url, token: Self.token, secret: Array(Self.secret.utf8),
            limits: AuditWebhookSink.Limits(maxQueued: 2), clock: { clock.now() })
        let api = try APIHarness(store: .sqlite, auditSinks: [sink])
        let password = "a pass phrase for the hook 7"
        let wrong = "a wrong pass phrase 8 for it"
        #expect(PasswordAccountsTests.signUp(api, email: "hook@example.com", password: password).status == 200)
        #expect(PasswordAccountsTests.logIn(api, username: "hook@example.com", password: wrong).status == 403)
        let login = PasswordAccountsTests.logIn(api, username: "hook@example.com", password: password)
        let refresh = try #require(login.json["refresh_token"] as? String)
        api.application.flush()
        // Three entries (ss, fp, sepft) into a queue of two: the oldest is dropped.
        let stored = try api.application.store.read { transaction in
            try transaction.auditEvents.list(
                tenantID: api.tenant.id, query: AuditQuery(), page: Page(offset: 0, limit: 100))
        }
        #expect(Set(stored.map(\.type)) == [.successSignup, .failedPassword, .successPasswordExchange])
        #expect(sink.deliverOnce() == .delivered(2))
        let types = try receiver.lines().compactMap { $0["type"] as? String }
        #expect(types == ["fp", "sepft"])
        for request in receiver.requests {
            #expect(throws: Never.self) {
                try Self.verify(
                    request.signature, body: request.body, secret: Array(Self.secret.utf8), now: clock.now())
            }
        }
        let bodies = receiver.requests.map { String(decoding: $0.body, as: UTF8.self) }.joined()
        for secret in [password, wrong, refresh, Self.token, Self.secret] { #expect(!bodies.contains(secret)) }
        // Nor is a secret in any line the server logged.
        let logged = api.sesame.log.lines.joined(separator: "\n")
        for secret in [password, wrong, refresh, Self.token, Self.secret] { #expect(!logged.contains(secret)) }
        let metrics = api.application.metrics.render()
        #expect(metrics.contains("# TYPE sesame_audit_log_dropped_total counter"))
        #expect(metrics.contains(#"sesame_audit_log_dropped_total{sink="store"} 0"#))
        #expect(metrics.contains(#"sesame_audit_log_dropped_total{sink="webhook"} 1"#))
        #expect(!metrics.contains(Self.token) && !metrics.contains(Self.secret))
    }
}

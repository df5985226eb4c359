import Foundation
import Synchronization
import Testing

@testable import SesameHTTP

/// Collects log lines in memory.
final class LogCollector: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func sink(_ line: String) { lines.withLock { $0.append(line) } }
    var log: RequestLog { RequestLog(level: .debug, sink: { self.sink($0) }, wallClock: { 1_700_000_000.25 }) }
}

struct SecretLeakingError: Error, CustomStringConvertible {
    var description: String { "password=hunter2" }
}

@Suite("HTTPResponder (in-process pipeline)")
struct HTTPResponderTests {
    static func router() -> Router {
        var router = Router()
        router.get("/ok/{id}") { request, context in
            .text("\(context.pathParameters["id"] ?? "")|\(request.clientIP)|\(request.scheme)|\(request.host)")
        }
        router.post("/boom") { _, _ in throw SecretLeakingError() }
        router.post("/bad") { _, _ in throw HTTPError.invalidRequest("field x is missing") }
        return router
    }

    @Test func unexpectedErrorBecomesGeneric500AndLogsTypeOnly() throws {
        let logs = LogCollector()
        let responder = HTTPResponder(router: Self.router(), log: logs.log)
        let response = responder.respond(
            to: HTTPRequest(method: .post, target: "/boom?token=abc", headers: ["Host": "x"]))
        #expect(response.status == 500)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"error":"server_error","error_description":"internal error"}"#)
        #expect(response.headers["Content-Type"] == "application/json")
        let joined = logs.all.joined(separator: "\n")
        #expect(joined.contains("SecretLeakingError"))
        #expect(!joined.contains("hunter2"))
        #expect(!joined.contains("token=abc"))
    }

    @Test func httpErrorKeepsItsWireForm() throws {
        let responder = HTTPResponder(router: Self.router(), log: LogCollector().log)
        let response = responder.respond(to: HTTPRequest(method: .post, target: "/bad", headers: ["Host": "x"]))
        #expect(response.status == 400)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"error":"invalid_request","error_description":"field x is missing"}"#)
        #expect(response.headers["Cache-Control"] == "no-store")
    }

    @Test func requestLineHasTheFieldsAndNoQuery() throws {
        let logs = LogCollector()
        let responder = HTTPResponder(router: Self.router(), log: logs.log)
        let response = responder.respond(
            to: HTTPRequest(
                method: .get, path: "/ok/7", rawQuery: "code=secret",
                headers: ["Host": "x", "Authorization": "Bearer zzz", "Cookie": "s=1"], remoteAddress: "10.1.2.3"))
        let id = try #require(response.headers["X-Request-Id"])
        #expect(id.count == 32)
        let line = try #require(logs.all.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2023-11-14T22:13:20.250Z")
        #expect(object["level"] as? String == "info")
        #expect(object["msg"] as? String == "request")
        #expect(object["request_id"] as? String == id)
        #expect(object["method"] as? String == "GET")
        #expect(object["route"] as? String == "/ok/{id}")
        #expect(object["status"] as? Int == 200)
        #expect(object["latency_ms"] is Double)
        #expect(object["client_ip"] as? String == "10.1.2.3")
        #expect(!line.contains("secret") && !line.contains("zzz") && !line.contains("s=1") && !line.contains("/ok/7"))
    }

    @Test func logLevelFilters() {
        let logs = LogCollector()
        let log = RequestLog(level: .warn, sink: { logs.sink($0) })
        let responder = HTTPResponder(router: Self.router(), log: log)
        _ = responder.respond(to: HTTPRequest(method: .get, target: "/ok/1", headers: ["Host": "x"]))
        #expect(logs.all.isEmpty)
        _ = responder.respond(to: HTTPRequest(method: .post, target: "/boom", headers: ["Host": "x"]))
        #expect(logs.all.count == 2)  // the error event and the 5xx request line (warn)
    }

    @Test func metricsUseTheRoutePatternNotThePath() {
        let metrics = Metrics()
        let responder = HTTPResponder(router: Self.router(), metrics: metrics, log: LogCollector().log)
        _ = responder.respond(to: HTTPRequest(method: .get, target: "/ok/1", headers: ["Host": "x"]))
        _ = responder.respond(to: HTTPRequest(method: .get, target: "/ok/2", headers: ["Host": "x"]))
        _ = responder.respond(to: HTTPRequest(method: .get, target: "/nope/3", headers: ["Host": "x"]))
        #expect(metrics.httpRequests.value(["/ok/{id}", "GET", "200"]) == 2)
        #expect(metrics.httpRequests.value(["unmatched", "GET", "404"]) == 1)
        #expect(metrics.httpDuration.count(["/ok/{id}"]) == 2)
        #expect(!metrics.render().contains("/ok/1"))
    }

    @Test func forwardedHeadersOnlyFromTrustedProxies() throws {
        let proxies = try TrustedProxies(["10.0.0.0/8"])
        let responder = HTTPResponder(router: Self.router(), trustedProxies: proxies, log: LogCollector().log)
        let headers: HTTPHeaders = [
            "Host": "internal:8080", "X-Forwarded-For": "203.0.113.9, 10.0.0.7", "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "Login.Example.com",
        ]
        let viaProxy = responder.respond(
            to: HTTPRequest(method: .get, path: "/ok/1", headers: headers, remoteAddress: "10.0.0.1"))
        #expect(String(decoding: viaProxy.body, as: UTF8.self) == "1|203.0.113.9|https|login.example.com")
        let direct = responder.respond(
            to: HTTPRequest(method: .get, path: "/ok/1", headers: headers, remoteAddress: "198.51.100.4"))
        #expect(String(decoding: direct.body, as: UTF8.self) == "1|198.51.100.4|http|internal")
    }

    @Test func trustedProxyMayPassTheRequestID() {
        let proxies = TrustedProxies(ranges: [IPAddressRange("127.0.0.1")].compactMap { $0 })
        let responder = HTTPResponder(router: Self.router(), trustedProxies: proxies, log: LogCollector().log)
        let trusted = responder.respond(
            to: HTTPRequest(method: .get, path: "/ok/1", headers: ["Host": "x", "X-Request-Id": "abc-123"]))
        #expect(trusted.headers["X-Request-Id"] == "abc-123")
        let untrusted = responder.respond(
            to: HTTPRequest(
                method: .get, path: "/ok/1", headers: ["Host": "x", "X-Request-Id": "abc-123"],
                remoteAddress: "127.0.0.2"))
        #expect(untrusted.headers["X-Request-Id"] != "abc-123")
    }

    @Test func globalRateLimiterAnswers429() {
        let limiter = RateLimiter(requestsPerMinute: 1, clock: { 100 })
        let responder = HTTPResponder(router: Self.router(), rateLimiter: limiter, log: LogCollector().log)
        #expect(responder.respond(to: HTTPRequest(method: .get, target: "/ok/1", headers: ["Host": "x"])).status == 200)
        let limited = responder.respond(to: HTTPRequest(method: .get, target: "/ok/1", headers: ["Host": "x"]))
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] == "60")
    }
}

import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Audit item 14: the landing page could be framed by any site, no response said `nosniff`, and
/// `/metrics` was public. Responses now carry `X-Content-Type-Options: nosniff`, the page forbids
/// framing, and `/metrics` is served on the API listener only to holders of the metrics token
/// (or on a separate listener, `sesame serve --metrics-listen`).
@Suite("Audit 14: browser hardening and a private /metrics")
struct BrowserHardeningTests {
    @Test(arguments: ["/", "/healthz", "/.well-known/openid-configuration", "/oauth/token", "/no-such-route"])
    func everyResponseSaysNosniff(_ path: String) throws {
        let sesame = try InProcessSesame()
        let response = sesame.send(
            path == "/oauth/token" ? .post : .get, path, body: path == "/oauth/token" ? "{}" : nil)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff", "\(path) \(response.status)")
    }

    @Test func theLandingPageCannotBeFramed() throws {
        let sesame = try InProcessSesame()
        let page = sesame.send(.get, "/")
        #expect(page.status == 200)
        #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(page.headers["X-Frame-Options"] == "DENY")
    }

    @Test func metricsAreNotPublic() throws {
        let sesame = try InProcessSesame()
        #expect(sesame.send(.get, "/metrics").status == 404)
    }

    @Test func metricsNeedTheTokenWhenOneIsSet() throws {
        let store = InMemoryStore()
        let application = SesameApplication(
            store: store, masterKey: try MasterKey.generate(), rateLimitPerMinute: 0,
            metricsToken: "metrics-token-0123456789")
        _ = try Bootstrap.initialize(
            store: store, publicURL: "https://login.example.test", random: SystemRandom(), now: Date())
        let responder = HTTPResponder(router: application.router(), log: RequestLog(level: .error, sink: { _ in }))
        func get(_ authorization: String?) -> HTTPResponse {
            var headers: HTTPHeaders = ["Host": "login.example.test"]
            if let authorization { headers.add(name: "Authorization", value: authorization) }
            return responder.respond(to: HTTPRequest(method: .get, target: "/metrics", headers: headers))
        }
        #expect(get(nil).status == 401)
        #expect(get("Bearer wrong-token-0123456789").status == 401)
        #expect(get("Bearer metrics-token-0123456789x").status == 401)
        #expect(get(nil).headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        let allowed = get("Bearer metrics-token-0123456789")
        #expect(allowed.status == 200)
        #expect(String(decoding: allowed.body, as: UTF8.self).contains("sesame_http_requests_total"))
    }
}

import Dispatch
import Foundation
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import Synchronization
import Testing

/// The native passkey API over a real loopback server, with a software authenticator playing the app.
@Suite("Live passkey flows", .serialized)
struct PasskeyFlowLiveTests {
    @Test func signUpThenLogInThenRefreshThenUserInfo() throws {
        let live = try LiveSesame()
        let authenticator = live.authenticator()
        let signup = try live.signUp(email: "ada@example.com", authenticator: authenticator)
        #expect(signup["token_type"] as? String == "Bearer")
        #expect(signup["refresh_token"] as? String != nil)
        let idToken = try LiveSesame.claims(try #require(signup["id_token"] as? String))
        #expect(idToken["email"] as? String == "ada@example.com")
        #expect(idToken["aud"] as? String == live.bootstrap.clientID)
        #expect(idToken["iss"] as? String == live.origin + "/")
        #expect(idToken["amr"] as? [String] == ["pop", "swk", "user"])
        let subject = try #require(idToken["sub"] as? String)

        let login = try live.logIn(authenticator: authenticator)
        let loginID = try LiveSesame.claims(try #require(login["id_token"] as? String))
        #expect(loginID["sub"] as? String == subject)
        #expect(login["refresh_token"] == nil)  // no offline_access asked for

        // userinfo with the login's access token.
        let accessToken = try #require(login["access_token"] as? String)
        let userInfo = try live.send("GET", "/userinfo", headers: ["Authorization": "Bearer \(accessToken)"])
        #expect(userInfo.status == 200)
        #expect(try LiveSesame.object(userInfo.body)["email"] as? String == "ada@example.com")
        let noToken = try live.send("GET", "/userinfo")
        #expect(noToken.status == 401)
        #expect(noToken.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)

        // Refresh rotates; presenting the old token again revokes the family.
        let first = try #require(signup["refresh_token"] as? String)
        let refreshBody =
            #"{"grant_type":"refresh_token","client_id":"\#(live.bootstrap.clientID)","refresh_token":"\#(first)"}"#
        let rotated = try live.post("/oauth/token", json: refreshBody)
        #expect(rotated.status == 200)
        let second = try #require(try LiveSesame.object(rotated.body)["refresh_token"] as? String)
        #expect(second != first)
        let reused = try live.post("/oauth/token", json: refreshBody)
        #expect(reused.status == 400)
        #expect(reused.json["error"] == "invalid_grant")
        let afterReuse = try live.post(
            "/oauth/token",
            json:
                #"{"grant_type":"refresh_token","client_id":"\#(live.bootstrap.clientID)","refresh_token":"\#(second)"}"#
        )
        #expect(afterReuse.status == 400)  // the whole family was revoked
    }

    @Test func tokensVerifyAgainstTheJWKS() throws {
        let live = try LiveSesame()
        let tokens = try live.signUp(email: "jwks@example.com", authenticator: live.authenticator())
        let jwks = try live.send("GET", "/.well-known/jwks.json")
        #expect(jwks.status == 200)
        let keys = try #require(try LiveSesame.object(jwks.body)["keys"] as? [[String: Any]])
        #expect(Set(keys.compactMap { $0["alg"] as? String }) == ["RS256", "ES256", "EdDSA"])
        let idToken = try #require(tokens["id_token"] as? String)
        let verified = try live.application.tokens.keyRing.verify(
            idToken, tenantID: live.tenant.id,
            expecting: JWTExpectations(
                issuer: live.origin + "/", audience: live.bootstrap.clientID, type: .idToken, now: live.clock.now()))
        #expect(verified.string("email") == "jwks@example.com")
    }

    @Test func anAuthSessionIsSingleUseUnderConcurrency() throws {
        let live = try LiveSesame()
        let authenticator = live.authenticator()
        _ = try live.signUp(email: "race@example.com", authenticator: authenticator)
        let challenge = try live.post("/passkey/challenge", json: #"{"client_id":"\#(live.bootstrap.clientID)"}"#)
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        let session = try LiveSesame.object(challenge.body)["auth_session"] as? String ?? ""
        let body = live.tokenRequest(session: session, response: assertion.jsonString, scope: "openid")
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let status = (try? live.post("/oauth/token", json: body).status) ?? -1
            statuses.withLock { $0.append(status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 200 }.count == 1, "\(all)")
        #expect(all.filter { $0 == 400 }.count == 7, "\(all)")
    }

    @Test func anExpiredAuthSessionIsRefused() throws {
        let live = try LiveSesame()
        let authenticator = live.authenticator()
        let challenge = try live.post(
            "/passkey/register",
            json: #"{"client_id":"\#(live.bootstrap.clientID)","user_profile":{"email":"late@example.com"}}"#)
        let registration = try authenticator.makeCredential(optionsJSON: challenge.body)
        let session = try LiveSesame.object(challenge.body)["auth_session"] as? String ?? ""
        live.clock.advance(by: 61)
        let reply = try live.post(
            "/oauth/token",
            json: live.tokenRequest(session: session, response: registration.jsonString, scope: "openid"))
        #expect(reply.status == 400)
        #expect(reply.json["error"] == "invalid_grant")
        #expect(try live.userCount() == 0)
    }

    @Test func aTakenIdentifierIsRefusedAtSignup() throws {
        let live = try LiveSesame()
        _ = try live.signUp(email: "taken@example.com", authenticator: live.authenticator())
        let again = try live.post(
            "/passkey/register",
            json: #"{"client_id":"\#(live.bootstrap.clientID)","user_profile":{"email":"TAKEN@example.com"}}"#)
        #expect(again.status == 400)
        #expect(again.json["error"] == "invalid_request")
    }

    @Test func challengeEndpointsAreRateLimitedPerIP() throws {
        let live = try LiveSesame(rateLimitPerMinute: 3)
        let body = #"{"client_id":"\#(live.bootstrap.clientID)"}"#
        for _ in 0..<3 { #expect(try live.post("/passkey/challenge", json: body).status == 200) }
        let limited = try live.post("/passkey/challenge", json: body)
        #expect(limited.status == 429)
        #expect(limited.json["error"] == "too_many_requests")
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
        // Other routes are not limited.
        #expect(try live.send("GET", "/healthz").status == 200)
    }

    @Test func anOversizedBodyIs413() throws {
        var limits = ServerLimits()
        limits.maxBodyBytes = 2_048
        let live = try LiveSesame(limits: limits)
        let huge = #"{"client_id":"\#(String(repeating: "a", count: 4_000))"}"#
        let reply = try live.post("/passkey/challenge", json: huge)
        #expect(reply.status == 413)
        #expect(reply.json["error"] == "request_too_large")
    }

    @Test func noSecretReachesTheLog() throws {
        let live = try LiveSesame()
        let authenticator = live.authenticator()
        let tokens = try live.signUp(email: "quiet@example.com", authenticator: authenticator)
        let secret = live.bootstrap.managementClientSecret
        let m2m = try live.post(
            "/oauth/token",
            json:
                #"{"grant_type":"client_credentials","client_id":"\#(live.bootstrap.managementClientID)","client_secret":"\#(secret)","audience":"\#(live.origin)/api/v2/"}"#
        )
        #expect(m2m.status == 200)
        let refresh = try #require(tokens["refresh_token"] as? String)
        _ = try live.post(
            "/oauth/token?refresh_token=\(refresh)",
            json:
                #"{"grant_type":"refresh_token","client_id":"\#(live.bootstrap.clientID)","refresh_token":"\#(refresh)"}"#
        )
        let lines = live.log.lines
        #expect(lines.count >= 3)
        let secrets = [
            secret, refresh, try #require(tokens["access_token"] as? String),
            try #require(tokens["id_token"] as? String),
            try #require(try LiveSesame.object(m2m.body)["access_token"] as? String), "quiet@example.com",
        ]
        for line in lines {
            for value in secrets { #expect(!line.contains(value), "a secret reached the log: \(line)") }
        }
    }

    @Test func landingPageAndHealth() throws {
        let live = try LiveSesame()
        let page = try live.send("GET", "/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(page.text.contains("/.well-known/openid-configuration"))
        #expect(page.text.contains(live.bootstrap.clientID))
        // /metrics is not on the API listener by default (audit 14), but on a listener of its own.
        #expect(try live.send("GET", "/metrics").status == 404)
        let metricsServer = try HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
            router: live.application.metricsRouter(), metrics: live.application.metrics,
            log: RequestLog(level: .error, sink: { _ in }))
        defer { metricsServer.stop(gracePeriod: 1) }
        let metrics = try RawHTTPClient(port: metricsServer.port).get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("sesame_http_requests_total"))
        #expect(try RawHTTPClient(port: metricsServer.port).get("/healthz").status == 200)
    }
}

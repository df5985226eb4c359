import Foundation
import Testing

@testable import SesameClient

/// The web-auth transaction's URL and checks, on Linux, with a stand-in digest and fixed random bytes.
@Suite("WebAuth: the /authorize URL, the callback and the id token")
struct WebAuthTransactionTests {
    /// Not SHA-256: the bytes reversed, which is enough to see the challenge is the digest's.
    struct ReversingDigest: PKCEDigest {
        func sha256(_ bytes: [UInt8]) -> [UInt8] { bytes.reversed() }
    }

    static func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: "/invalid") }
    static let configuration = SesameConfiguration(domain: url("https://login.example.com/"), clientID: "app-1")
    static let redirect = url("com.example.app://callback")

    static func transaction(maxAge: Int? = nil) throws -> WebAuthTransaction {
        try WebAuthTransaction(
            configuration: configuration, redirectURL: redirect, scope: "openid profile", audience: "https://api/",
            prompt: "login", maxAge: maxAge, parameters: ["login_hint": "a+b@example.com", "state": "ignored"],
            digest: ReversingDigest(), random: { Array(repeating: 7, count: $0) })
    }

    func query(_ url: URL) -> [String: String] {
        var values: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            values[item.name] = item.value
        }
        return values
    }

    @Test("the URL carries PKCE S256, state, nonce and the options; the flow's own parameters win")
    func authorizeURL() throws {
        let transaction = try Self.transaction(maxAge: 300)
        let url = transaction.authorizeURL
        #expect(url.absoluteString.hasPrefix("https://login.example.com/authorize?"))
        let values = query(url)
        #expect(values["response_type"] == "code")
        #expect(values["client_id"] == "app-1")
        #expect(values["redirect_uri"] == "com.example.app://callback")
        #expect(values["code_challenge_method"] == "S256")
        #expect(transaction.codeVerifier.count == 43)
        let expected = Base64URL.encode(Data(Array(transaction.codeVerifier.utf8).reversed()))
        #expect(values["code_challenge"] == expected)
        #expect(values["state"] == transaction.state, "a caller's state cannot replace the flow's")
        #expect(values["nonce"] == transaction.nonce)
        #expect(values["audience"] == "https://api/" && values["prompt"] == "login" && values["max_age"] == "300")
        #expect(values["login_hint"] == "a+b@example.com")
        #expect(url.absoluteString.contains("login_hint=a%2Bb%40example.com"), "+ is encoded, not a space")
        // Fresh secrets each time from the real generator.
        let a = try WebAuthTransaction(
            configuration: Self.configuration, redirectURL: Self.redirect, scope: "openid", digest: ReversingDigest())
        let b = try WebAuthTransaction(
            configuration: Self.configuration, redirectURL: Self.redirect, scope: "openid", digest: ReversingDigest())
        #expect(a.codeVerifier != b.codeVerifier && a.state != b.state && a.nonce != b.nonce)
    }

    @Test("the callback: this redirect, this state, this issuer; errors keep their code")
    func callback() throws {
        let t = try Self.transaction()
        let state = t.state
        let iss = "https%3A%2F%2Flogin.example.com%2F"
        #expect(
            try t.code(from: Self.url("com.example.app://callback?code=abc&state=\(state)&iss=\(iss)")) == "abc")
        #expect(try t.code(from: Self.url("com.example.app://callback?code=abc&state=\(state)")) == "abc")
        let refusals: [(String, AuthenticationError.Kind, String)] = [
            ("com.example.app://callback?code=abc&state=other", .invalidResponse, "invalid_callback"),
            ("com.example.app://callback?code=abc", .invalidResponse, "invalid_callback"),
            ("com.example.app://elsewhere?code=abc&state=\(state)", .invalidResponse, "invalid_callback"),
            ("com.evil.app://callback?code=abc&state=\(state)", .invalidResponse, "invalid_callback"),
            (
                "com.example.app://callback?code=abc&state=\(state)&iss=https%3A%2F%2Fevil%2F", .invalidResponse,
                "invalid_callback"
            ),
            ("com.example.app://callback?error=login_required&state=\(state)", .server, "login_required"),
            ("com.example.app://callback?error=access_denied&state=\(state)", .cancelled, "access_denied"),
            ("com.example.app://callback?state=\(state)", .invalidResponse, "invalid_callback"),
        ]
        for (text, kind, code) in refusals {
            do {
                _ = try t.code(from: Self.url(text))
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.kind == kind, "\(text)")
                #expect(error.code == code, "\(text)")
            }
        }
        #expect(t.isCallback(Self.url("COM.EXAMPLE.APP://CALLBACK?x=1")))
        #expect(!t.isCallback(Self.url("https://login.example.com/u/login")))
    }

    static func jwt(_ claims: [String: Any]) throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: claims)
        return "e30." + Base64URL.encode(payload) + ".c2ln"
    }

    @Test("the id token: iss, aud, azp, exp, nonce and max_age")
    func idToken() throws {
        let t = try Self.transaction(maxAge: 60)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let good: [String: Any] = [
            "iss": "https://login.example.com/", "aud": "app-1", "exp": 1_800_000_600, "nonce": t.nonce,
            "auth_time": 1_799_999_990,
        ]
        try t.validate(idToken: try Self.jwt(good), clientID: "app-1", now: now)
        var cases: [[String: Any]] = []
        for (key, value) in [
            ("iss", "https://evil/" as Any), ("aud", "other"), ("exp", 1_799_999_000), ("nonce", "other"),
            ("auth_time", 1_799_990_000), ("aud", ["app-1", "api"]),
        ] {
            var claims = good
            claims[key] = value
            cases.append(claims)
        }
        var missing = good
        missing.removeValue(forKey: "nonce")
        cases.append(missing)
        for claims in cases {
            #expect(throws: AuthenticationError.self, "\(claims)") {
                try t.validate(idToken: try Self.jwt(claims), clientID: "app-1", now: now)
            }
        }
        var azp = good
        azp["aud"] = ["app-1", "api"]
        azp["azp"] = "app-1"
        try t.validate(idToken: try Self.jwt(azp), clientID: "app-1", now: now)
        #expect(throws: AuthenticationError.self) { try t.validate(idToken: "not-a-jwt", clientID: "app-1", now: now) }
    }
}

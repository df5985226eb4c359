import Foundation
import SesameHTTP
import Testing

/// Audit item 1: only the challenge endpoints were rate limited, so anyone could spend the
/// server's CPU on `/oauth/token`. Every route that needs no access token now spends a token of
/// its group's per-address budget first.
@Suite("Audit 1: every public route is rate limited")
struct PublicRateLimitTests {
    /// Routes that need no access token: everything but the Management and My Account APIs (whose
    /// upgrades are public: the extension authorizes with a password, the commits with a token).
    static func publicPatterns() throws -> [String] {
        try InProcessSesame().sesame.responder.router.patterns.filter {
            !$0.hasPrefix("/api/v2/") && (!$0.hasPrefix("/me/v1/") || $0.hasPrefix("/me/v1/upgrades/"))
        }
    }

    @Test func thePublicRoutesAreTheExpectedOnes() throws {
        // A new public route must be added here, and so be covered by the test below.
        #expect(
            Set(try Self.publicPatterns()) == [
                "/", "/healthz", "/passkey/register", "/passkey/challenge", "/oauth/token",
                "/oauth/revoke", "/userinfo", "/.well-known/openid-configuration", "/.well-known/jwks.json",
                "/.well-known/apple-app-site-association", "/apple-app-site-association",
                "/.well-known/assetlinks.json", "/.well-known/webauthn", "/.well-known/passkey-endpoints",
                "/dbconnections/signup", "/dbconnections/change_password", "/dbconnections/reset_password",
                "/password-rules", "/openapi.json", "/mfa/associate", "/mfa/challenge", "/mfa/authenticators",
                "/mfa/authenticators/{id}", "/authorize", "/oidc/logout", "/u/assets/pages.css", "/u/assets/pages.js",
                "/u/assets/favicon.svg",
                "/u/login", "/u/login/password", "/u/login/passkey", "/u/mfa", "/u/mfa/method", "/u/mfa/recovery-code",
                "/u/mfa/recovery-code/saved", "/u/signup", "/u/signup/passkey",
                "/u/reset-password/request", "/u/reset-password", "/u/verify-email", "/account",
                "/account/passkeys/{id}/rename", "/account/passkeys/{id}/remove", "/admin/switch-account",
                "/account/passkeys/{id}/delete",
                "/account/passkeys/enroll",
                "/account/password", "/account/profile", "/account/email/verify", "/account/password/remove",
                "/account/password/delete", "/account/recovery-code",
                "/account/apps/{id}/revoke", "/account/delete", "/account/mfa/{id}/delete",
                "/account/sessions/{id}/end",
                "/account/sessions/end-all", "/account/logout", "/.well-known/change-password",
                "/u/passkey-enroll", "/u/passkey-enroll/skip", "/admin", "/admin/setup", "/admin/clients",
                "/admin/clients/{id}", "/u/recover", "/u/recover/verify", "/u/recover/password",
                "/passkey/method-hints", "/device-key/challenge", "/u/passkey-enroll/ticket",
                "/u/passkey-enroll/ticket/skip", "/admin/adoption", "/admin/adoption.csv", "/admin/users",
                "/admin/users/{id}", "/admin/users/{id}/factors/reset",
                "/u/upgrade/password",
                "/account/upgrade/passkey", "/account/upgrade/password", "/account/upgrade/apple", "/u/apple/callback",
                "/me/v1/upgrades/authorize",
                "/me/v1/upgrades/strong-password", "/me/v1/upgrades/sign-in-with-apple", "/me/v1/upgrades/passkey",
                "/me/v1/upgrades/passkey/verify",
            ])
    }

    @Test(arguments: try publicPatterns())
    func answers429OnceTheAddressHasSpentItsBudget(pattern: String) throws {
        let sesame = try InProcessSesame(rateLimitPerMinute: 2)
        let probe = sesame.send(.get, pattern)
        let allowed = probe.headers["Allow"] ?? "GET"
        let method: HTTPMethod =
            probe.status != 405
            ? .get : allowed.contains("POST") ? .post : HTTPMethod(String(allowed.prefix { $0 != "," }))
        // The probe above spent one token (405 is answered by the router before any handler, so
        // it spends nothing); spend the budget, then one more.
        var statuses: [Int] = []
        for _ in 0..<3 {
            statuses.append(sesame.send(method, pattern, body: method == .post ? "{}" : nil).status)
        }
        let limited = statuses.filter { $0 == 429 }.count
        #expect(limited >= 1, "\(pattern): \(statuses)")
        #expect(statuses.first != 429, "\(pattern): \(statuses)")
        let response = sesame.send(method, pattern, body: method == .post ? "{}" : nil)
        #expect(response.status == 429)
        if pattern == "/" || pattern.hasPrefix("/u/") || pattern.hasPrefix("/account") || pattern.hasPrefix("/admin")
            || pattern == "/authorize"
            || pattern == "/oidc/logout" || pattern == "/.well-known/change-password"
        {
            // The landing page and the hosted pages are pages: their errors are too.
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(String(decoding: response.body, as: UTF8.self).contains("<code>too_many_requests</code>"))
        } else {
            #expect(InProcessSesame.json(response)["error"] as? String == "too_many_requests")
        }
        #expect(Int(response.headers["Retry-After"] ?? "") ?? 0 >= 1)
    }

    @Test func groupsHaveSeparateBudgets() throws {
        let sesame = try InProcessSesame(rateLimitPerMinute: 1)
        #expect(sesame.send(.post, "/oauth/token", body: "{}").status == 400)
        #expect(sesame.send(.post, "/oauth/token", body: "{}").status == 429)
        // The token budget is spent; discovery and challenges still answer.
        #expect(sesame.send(.get, "/.well-known/openid-configuration").status == 200)
        #expect(sesame.send(.post, "/passkey/challenge", body: "{}").status == 400)
    }

    @Test func authenticatedAPIsAreNotLimitedByThePublicBudgets() throws {
        let sesame = try InProcessSesame(rateLimitPerMinute: 1)
        for _ in 0..<3 {
            #expect(sesame.send(.get, "/api/v2/clients").status == 401)
            #expect(sesame.send(.get, "/me/v1/authentication-methods").status == 401)
        }
    }

    @Test func ipv6ClientsAreCountedByTheirSlash64() {
        #expect(IPAddressRange.clientKey("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(IPAddressRange.clientKey("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64")
        #expect(IPAddressRange.clientKey("2001:db8:1:3::1") == "2001:db8:1:3::/64")
        #expect(IPAddressRange.clientKey("203.0.113.7") == "203.0.113.7")
        #expect(IPAddressRange.clientKey("::ffff:203.0.113.7") == "203.0.113.7")
        #expect(IPAddressRange.clientKey("") == "")
    }
}

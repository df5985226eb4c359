import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Every route of the hosted pages, found in the router (so a new page is covered without being
/// listed): each GET answers with the security headers, and each form POST without this browser's
/// CSRF token is 403 and changes nothing.
@Suite("Hosted pages: every page's headers and every form's CSRF check")
struct HostedEveryPageTests {
    static func hostedPatterns(_ api: APIHarness) -> [String] {
        api.responder.router.patterns.filter {
            $0.hasPrefix("/u/") || $0.hasPrefix("/account") || $0.hasPrefix("/admin") || $0 == "/oidc/logout"
                || $0 == "/authorize" || $0 == "/.well-known/change-password"
        }
    }

    /// A pattern with its `{id}` segments filled in.
    static func path(_ pattern: String) -> String { pattern.replacingOccurrences(of: "{id}", with: "x") }

    @Test("every GET: CSP without unsafe-inline, no framing, nosniff, no referrer, no caching of pages")
    func headers() throws {
        let (api, browser, _) = try AuthorizeFlowTests.world(.memory)
        var checked = 0
        for pattern in Set(Self.hostedPatterns(api)).sorted() {
            browser.send(.get, Self.path(pattern))
            if browser.last.status == 405 { continue }
            checked += 1
            let headers = browser.last.headers
            let policy = headers["Content-Security-Policy"] ?? ""
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("base-uri 'none'"), "\(pattern)")
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(pattern)")
            #expect(headers["X-Content-Type-Options"] == "nosniff", "\(pattern)")
            #expect(headers["Referrer-Policy"] == "no-referrer", "\(pattern)")
            #expect(headers["X-Frame-Options"] == "DENY", "\(pattern)")
            if !pattern.hasPrefix("/u/assets/") { #expect(headers["Cache-Control"] == "no-store", "\(pattern)") }
        }
        #expect(checked >= 12)
    }

    @Test(
        "every form POST but /authorize's and Apple's form post: 403 without this browser's CSRF token, and nothing written"
    )
    func csrf() throws {
        let (api, browser, client) = try AuthorizeFlowTests.world(.memory)
        try AuthorizeFlowTests.passwordSignIn(browser, client)
        let before = try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: nil, page: Page()) }
        var checked = 0
        // Apple's form post comes from Apple's site: its single-use state is its proof (a forged
        // one is 400 `invalid_grant`, HostedUpgradeTests).
        for pattern in Set(Self.hostedPatterns(api)).sorted()
        where pattern != "/authorize" && pattern != "/u/apple/callback" {
            for form in [[("x", "1")], [("csrf", "forged"), ("x", "1")]] {
                browser.send(.post, Self.path(pattern), form: form)
                if browser.last.status == 405 { continue }
                checked += 1
                #expect(browser.last.status == 403, "\(pattern): \(browser.last.status)")
            }
        }
        #expect(checked >= 2 * 15)
        #expect(try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: nil, page: Page()) } == before)
    }
}

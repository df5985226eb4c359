import Foundation
import Testing

@testable import SesameHTTP

/// An error page is never a dead end: the account page, sign-out for a signed-in browser, and its
/// language links when the request can be repeated.
@Suite("Hosted pages: the error page's ways on")
struct HostedErrorPageTests {
    typealias F = AuthorizeFlowTests

    @Test(
        "a bad link's page links the account page and its languages; a session adds sign-out",
        arguments: HarnessStore.allCases)
    func waysOn(_ kind: HarnessStore) throws {
        let (api, browser, client) = try F.world(kind)
        let bad =
            "/authorize?client_id=\(client.clientID)&redirect_uri=https%3A%2F%2Fevil.example%2F&response_type=code"
        browser.send(.get, bad + "&ui_locales=ja")
        #expect(browser.last.status == 400)
        #expect(browser.html.contains("data-page=\"error\""))
        #expect(browser.html.contains("<a href=\"/account\">\(Catalog.raw(.errorAccountLink, .ja))</a>"))
        #expect(!browser.html.contains("action=\"/oidc/logout\""), "no session, no sign-out")
        // The English link repeats the request, with the query as it was sent and no ui_locales.
        let english = bad.replacingOccurrences(of: "&", with: "&amp;") + "&amp;ui_locales=en"
        #expect(browser.html.contains("<a href=\"\(english)\" lang=\"en\""), "\(browser.html)")

        let signedIn = try HostedAccountTests.signedIn(api)
        signedIn.send(.get, bad)
        #expect(signedIn.html.contains("<form method=\"post\" action=\"/oidc/logout\">"))
        signedIn.submit("/oidc/logout", [])
        #expect(signedIn.html.contains("data-page=\"signed-out\""), "\(signedIn.html)")

        // A form's error page has no language links: a POST is not repeated by a link.
        browser.send(.post, "/u/login", form: [("csrf", "wrong"), ("tx", "nope"), ("username", "a")])
        #expect(browser.html.contains("data-page=\"error\""))
        #expect(!browser.html.contains("hreflang="))
    }

    @Test("only a path that stays on this site becomes a language link")
    func sameSitePath() {
        #expect(HostedContext.sameSitePath("/u/login", query: "tx=a&ui_locales=ja") == "/u/login?tx=a")
        #expect(HostedContext.sameSitePath("/u/login", query: "ui_locales=ja") == "/u/login")
        #expect(HostedContext.sameSitePath("/u/x%2F", query: "") == "/u/x%2F")
        for (path, query) in [
            ("//evil.example/", ""), ("/\\evil.example/", ""), ("/u/\tx", ""), ("/u/login", "a=\u{7F}"),
            ("u/login", ""), ("/u/ログイン", ""), ("/" + String(repeating: "a", count: 2_100), ""),
        ] {
            #expect(HostedContext.sameSitePath(path, query: query) == nil, "\(path)")
        }
    }
}

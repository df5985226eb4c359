import Foundation
import SesameService
import Testing

@testable import SesameHTTP

/// The pages' `HTML`: text is escaped on the way in, markup passes, and nothing else gets in.
@Suite("HTML: escaped by construction")
struct HTMLTests {
    static let hostile = "<script>alert(\"x\")</script> & 'quoted'"

    /// JSON in a `<script type="application/json">` block can neither end the element nor open a
    /// comment, and reads back as the same value.
    @Test func scriptJSONCannotLeaveItsElement() throws {
        let json = #"{"name":"</script><!-- & <b>"}"#
        let markup = HTML(scriptJSON: json).markup
        #expect(!markup.contains("<") && !markup.contains(">") && !markup.contains("&"))
        let decoded = try JSONSerialization.jsonObject(with: Data(markup.utf8)) as? [String: String]
        #expect(decoded == ["name": "</script><!-- & <b>"])
    }

    @Test func interpolatedTextIsEscapedAndMarkupIsNot() {
        let text = Self.hostile
        let inner: HTML = "<em>\(text)</em>"
        let page: HTML = "<p title=\"\(text)\">\(inner) \(3)</p>"
        #expect(
            page.markup
                == "<p title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;\">"
                + "<em>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</em> 3</p>")
        #expect(HTML("\("a<b")").markup == "a&lt;b")
        #expect(("<br>" as HTML).markup == "<br>")
        #expect(("<i>" as HTML) + HTML("\("&")") == "<i>&amp;")
        #expect([HTML("\("<")"), "<b>"].joined(separator: " · ").markup == "&lt; · <b>")
        #expect(HTML.empty.isEmpty && !inner.isEmpty)
    }

    @Test func catalogTextsAndTheirArgumentsAreEscaped() {
        let lead = Catalog.text(.verifyLead, .en, Self.hostile)
        #expect(!lead.markup.contains("<script>"))
        #expect(lead.markup.contains("&lt;script&gt;alert(&quot;x&quot;)"))
        // An argument is filled in once: a `%2` inside the first is text, not the second argument.
        let setup = Catalog.text(.adminSetupLead, .en, "%2<b>", "Acme")
        #expect(setup.markup.contains("%2&lt;b&gt;"))
        #expect(setup.markup.components(separatedBy: "Acme").count == 2, "\(setup)")
    }

    @Test func aPageWithAHostileValueCarriesItOnlyAsText() throws {
        let api = try APIHarness(store: .memory)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        browser.send(.get, client.authorizeTarget(extra: [("login_hint", Self.hostile)]))
        browser.follow()
        #expect(browser.html.contains("data-page=\"login\""), "\(browser.html)")
        #expect(!browser.html.contains("<script>alert"))
        #expect(
            browser.html.contains(
                "value=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;\""), "\(browser.html)"
        )
    }

    /// Markup that went through a `String` on its way to a page would show as escaped text: no
    /// page of an ordinary walk (nothing typed holds a `<`) carries an escaped tag.
    @Test(arguments: HarnessStore.allCases)
    func noPageShowsMarkupAsText(_ kind: HarnessStore) throws {
        let (api, browser, client) = try AuthorizeFlowTests.world(kind)
        var pages: [String: String] = [:]
        func visit(_ path: String, _ name: String) {
            browser.send(.get, path)
            if browser.last.status == 303 || browser.last.status == 302 { browser.follow() }
            pages[name] = browser.html
        }
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        pages["login"] = browser.html
        browser.submit("/u/login", [("username", "ada@example.com")])
        pages["password"] = browser.html
        let admin = try HostedAdminTests.admin(api)
        for (path, name) in [
            ("/admin", "admin"), ("/admin/users", "admin-users"), ("/admin/adoption", "admin-adoption"),
            ("/admin/clients/\(api.bootstrap.clientID)", "admin-client"),
            (
                "/admin/users/\(PathSegment.encode(try HostedAdminUsersTests.userID(api, "ada@example.com")))",
                "admin-user"
            ),
            (
                "/admin/users/\(PathSegment.encode(try HostedAdminUsersTests.userID(api, "ada@example.com")))"
                    + "?done=factors-reset", "admin-user-notice"
            ),
            ("/account", "account"), ("/account/password", "account-password"), ("/account/passkeys/enroll", "enroll"),
        ] {
            admin.send(.get, path)
            pages[name] = admin.html
        }
        let fresh = HostedBrowser(api)
        fresh.send(.get, client.authorizeTarget(extra: [("prompt", "create")]))
        fresh.follow()
        pages["signup"] = fresh.html
        for (name, html) in pages {
            #expect(html.contains("<main>"), "\(name)")
            #expect(!html.contains("&lt;"), "\(name) shows markup as text: \(html)")
        }
    }
}

extension String {
    /// Whether the page's text holds this markup.
    func contains(_ html: HTML) -> Bool { contains(html.markup) }
}

extension HTML {
    func hasPrefix(_ prefix: String) -> Bool { markup.hasPrefix(prefix) }
}

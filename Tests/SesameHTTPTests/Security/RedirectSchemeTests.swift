import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// `javascript:`, `data:`, `vbscript:` and `file:` are never redirect targets: refused as
/// callback and logout URLs by the Management API and the admin page, and never followed or put
/// in a page (a `Location`, a link, the CSP's `form-action`) even when an older record holds one.
@Suite("Redirect URLs with schemes that run or read")
struct RedirectSchemeTests {
    typealias F = AuthorizeFlowTests
    static let hostile = [
        "javascript:alert(document.domain)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd", "FILE://host/share",
    ]

    @Test("the scheme is read as a browser reads it")
    func schemes() {
        for url in Self.hostile { #expect(RedirectScheme.refusedScheme(url) != nil, "\(url)") }
        for url in ["https://app.example/cb", "com.example.app://callback", "http://localhost:3000/", "datax:1"] {
            #expect(RedirectScheme.refusedScheme(url) == nil, "\(url)")
        }
        #expect(PageSecurity.source("javascript:alert(1)") == nil)
        #expect(PageSecurity.source("data:text/html,x") == nil)
        #expect(PageSecurity.source("com.example.app://cb") == "com.example.app:")
    }

    @Test("the Management API refuses them as callbacks and logout URLs", arguments: HarnessStore.allCases)
    func managementAPI(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        for url in Self.hostile {
            for field in ["callbacks", "allowed_logout_urls"] {
                let reply = api.send(
                    .patch, "/api/v2/clients/\(api.bootstrap.clientID)", json: APIHarness.encode([field: [url]]),
                    token: token)
                #expect(reply.status == 400, "\(field) \(url)")
                #expect(reply.error == "invalid_request")
            }
            let created = api.send(
                .post, "/api/v2/clients",
                json: APIHarness.encode(["name": "Evil", "app_type": "spa", "callbacks": [url]]), token: token)
            #expect(created.status == 400, "\(url)")
        }
        let stored = try #require(
            try api.store.read { try $0.clients.get(tenantID: api.tenant.id, id: api.bootstrap.clientID) })
        #expect(!stored.callbacks.contains { RedirectScheme.refusedScheme($0) != nil })
    }

    @Test("the admin page refuses them", arguments: HarnessStore.allCases)
    func adminPage(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let browser = try HostedAdminTests.admin(api)
        let path = "/admin/clients/\(api.bootstrap.clientID)"
        browser.send(.get, path)
        browser.submit(
            path,
            [
                ("name", "Native"), ("callbacks", "javascript:alert(1)"), ("allowed_logout_urls", ""),
                ("grant-0", "authorization_code"),
            ])
        #expect(browser.last.status == 400)
        #expect(browser.html.contains("javascript: scheme"))
        browser.send(.get, path)
        browser.submit(
            path,
            [
                ("name", "Native"), ("callbacks", ""), ("allowed_logout_urls", "data:text/html,hi"),
                ("grant-0", "authorization_code"),
            ])
        #expect(browser.last.status == 400)
    }

    @Test("a stored one is never followed by /authorize or the logout", arguments: HarnessStore.allCases)
    func storedOnesAreNotFollowed(_ kind: HarnessStore) throws {
        let (api, browser, _) = try F.world(kind)
        let evil = "javascript:alert(document.cookie)//"
        // As an older release could have stored it.
        try api.store.write(.durable) { transaction in
            var client = try #require(try transaction.clients.get(tenantID: api.tenant.id, id: api.bootstrap.clientID))
            client.callbacks.append(evil)
            client.allowedLogoutURLs.append(evil)
            try transaction.clients.update(client)
        }
        var client = OIDCClient(clientID: api.bootstrap.clientID)
        client.redirectURI = evil
        browser.send(.get, client.authorizeTarget())
        #expect(browser.last.status == 400)
        #expect(browser.location == nil)
        #expect(!browser.html.contains("javascript:alert"))
        #expect(browser.last.headers["Content-Security-Policy"]?.contains("javascript") != true)
        browser.send(
            .get,
            "/oidc/logout?"
                + HostedBrowser.encode([("client_id", api.bootstrap.clientID), ("post_logout_redirect_uri", evil)]))
        #expect(browser.last.status == 400)
        #expect(browser.location == nil)
        #expect(!browser.html.contains("javascript:alert"))
    }
}

import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// The hosted pages' theme through `/api/v2/branding`, on every store: colours, a logo, texts.
@Suite("Hosted pages: branding")
struct HostedBrandingTests {
    typealias F = AuthorizeFlowTests

    @Test(
        "colours, a logo and texts reach every page; null removes; bad values are 400", arguments: HarnessStore.allCases
    )
    func branding(_ kind: HarnessStore) throws {
        let (api, browser, client) = try F.world(kind)
        let token = try api.managementToken()
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        let tx = try #require(browser.field("tx"))
        let plain = browser.html
        #expect(!plain.contains("class=\"logo\""))

        let patched = api.send(
            .patch, "/api/v2/branding",
            json: #"""
                {"colors":{"primary":"#FFCC00","page_background":"#102030"},"logo_url":"https://cdn.example.com/logo.svg",
                 "texts":{"login.title":{"en":"Welcome to Example","ja":"ようこそ"},"footer":{"en":"Example Inc."}}}
                """#, token: token)
        #expect(patched.status == 200, "\(String(decoding: patched.body, as: UTF8.self))")
        #expect((patched.json["colors"] as? [String: Any])?["primary"] as? String == "#ffcc00")
        #expect(
            api.send(.get, "/api/v2/branding", token: token).json["logo_url"] as? String
                == "https://cdn.example.com/logo.svg")

        browser.send(.get, "/u/login?tx=\(tx)")
        #expect(
            browser.html.contains("<img class=\"logo\" src=\"https://cdn.example.com/logo.svg\" alt=\"login.test\">"))
        #expect(browser.html.contains("<h1>Welcome to Example</h1>"))
        #expect(browser.html.contains("Example Inc."))
        #expect(
            browser.last.headers["Content-Security-Policy"]?.contains("img-src 'self' data: https://cdn.example.com;")
                == true)
        let link = try #require(
            browser.html.range(of: "/u/assets/pages.css?v=").map {
                String(browser.html[$0.upperBound...].prefix { $0 != "\"" })
            })
        #expect(!plain.contains(link), "the stylesheet's URL changes with the theme")
        browser.send(.get, "/u/assets/pages.css?v=\(link)")
        #expect(browser.last.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        let css = String(decoding: browser.last.body, as: UTF8.self)
        #expect(
            css.contains(
                "@media (prefers-color-scheme: light) { :root { --accent: #ffcc00; --accent-text: #111827; --page: #102030; } }"
            ))
        #expect(
            css.contains(
                "@media (prefers-color-scheme: dark) { :root { --accent: #ffcc00; --accent-text: #111827; --page: #102030; } }"
            ), "a yellow reads on the dark card, and a page this dark keeps the footer legible")
        browser.send(.get, "/u/assets/favicon.svg?v=\(PageAssets.faviconVersion)")
        #expect(browser.last.status == 200)
        #expect(browser.last.headers["Content-Type"] == "image/svg+xml")
        #expect(browser.last.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        browser.send(.get, "/u/assets/pages.css?v=an-old-version")
        #expect(browser.last.headers["Cache-Control"] == "no-cache", "an old URL never pins the new bytes")
        browser.send(.get, "/u/login?tx=\(tx)&ui_locales=ja")
        #expect(browser.html.contains("<h1>ようこそ</h1>"))
        #expect(browser.html.contains(Catalog.raw(.poweredBy, .ja)), "a text with no Japanese keeps the catalogue's")

        for (body, description) in [
            (#"{"colors":{"primary":"red"}}"#, "colors.primary must be a colour as #rrggbb"),
            (#"{"logo_url":"javascript:alert(1)"}"#, "logo_url must be an https URL"),
            (#"{"logo_url":"https://cdn.example.com/a\"b.svg"}"#, "logo_url must be an https URL"),
            (#"{"texts":{"login.nope":{"en":"x"}}}"#, nil),
            (#"{"texts":{"login.title":{"fr":"x"}}}"#, "texts.login.title.fr must be en or ja"),
            (#"{"colours":{}}"#, "unknown field colours"),
        ] as [(String, String?)] {
            let reply = api.send(.patch, "/api/v2/branding", json: body, token: token)
            #expect(reply.status == 400, "\(body)")
            if let description { #expect(reply.errorDescription == description, "\(body)") }
        }
        let cleared = api.send(
            .patch, "/api/v2/branding",
            json: #"{"colors":{"primary":null,"page_background":null},"logo_url":null,"texts":{}}"#,
            token: token)
        #expect(cleared.status == 200)
        #expect(try api.store.read { try $0.tenants.get(id: api.tenant.id) }?.branding == nil)
        browser.send(.get, "/u/login?tx=\(tx)")
        #expect(!browser.html.contains("class=\"logo\""))
        #expect(
            api.send(
                .patch, "/api/v2/branding", json: "{}", token: try api.managementToken(scope: "read:tenant_settings")
            ).status == 403)
    }
}

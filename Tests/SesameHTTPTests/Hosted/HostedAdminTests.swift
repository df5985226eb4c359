import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// The admin pages on every store: the one-time setup link, who may open `/admin`, and an
/// application's settings, which feed `/authorize` and the well-known files.
@Suite("Hosted pages: the admin pages and the setup link")
struct HostedAdminTests {
    typealias F = AuthorizeFlowTests

    /// A browser signed in as ada, made admin through a fresh setup link.
    /// A browser signed in (with a password) as a new user `email`, who is no administrator.
    static func nonAdmin(_ api: APIHarness, _ client: OIDCClient, email: String = "eve@example.com") -> HostedBrowser {
        #expect(PasswordAccountsTests.signUp(api, email: email).status == 200)
        let browser = HostedBrowser(api)
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        browser.submit("/u/login", [("username", email)])
        browser.submit("/u/login/password", [("password", PasswordAccountsTests.password)])
        return browser
    }

    static func admin(_ api: APIHarness) throws -> HostedBrowser {
        let link = try api.application.adminAccess.newSetupLink(tenant: api.tenant)
        let browser = HostedBrowser(api)
        browser.send(.get, link)
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true, "signs in first")
        #expect(browser.cookies["sesame-admin-setup"] != nil)
        browser.follow()
        browser.submit("/u/login", [("username", "ada@example.com")])
        browser.submit("/u/login/password", [("password", PasswordAccountsTests.password)])
        #expect(browser.location == APIHarness.publicURL + "/admin/setup", "\(browser.html)")
        browser.follow()
        #expect(browser.html.contains("data-page=\"admin-setup\""), "\(browser.html)")
        browser.submit("/admin/setup", [])
        #expect(browser.location == "/admin")
        #expect(browser.cookies["sesame-admin-setup"] == nil)
        browser.follow()
        #expect(browser.html.contains("data-page=\"admin\""), "\(browser.html)")
        return browser
    }

    @Test("the setup link makes the first admin once; nobody else opens /admin", arguments: HarnessStore.allCases)
    func setup(_ kind: HarnessStore) throws {
        let (api, outsider, client) = try F.world(kind)
        outsider.send(.get, "/admin")
        #expect(outsider.location?.hasPrefix("/u/login?tx=") == true)
        let browser = try Self.admin(api)
        #expect(browser.html.contains(api.bootstrap.clientID))
        #expect(browser.html.contains("ada@example.com"))
        #expect(!browser.html.contains(api.bootstrap.managementClientID), "machine clients are not listed")

        // A second user signs in; the spent link and the admin page refuse them.
        let eve = Self.nonAdmin(api, client)
        eve.send(.get, "/admin")
        #expect(eve.last.status == 403)
        eve.send(.get, "/admin/setup?token=forged")
        #expect(eve.last.status == 400)
        eve.send(.post, "/admin/clients", form: [("csrf", "x"), ("name", "Evil"), ("app_type", "spa")])
        #expect(eve.last.status == 403)
    }

    @Test(
        "an application's settings: callbacks, origins and the iOS app, validated, feeding /authorize and the AASA",
        arguments: HarnessStore.allCases)
    func clientSettings(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let browser = try Self.admin(api)
        browser.submit("/admin/clients", [("name", "Sample Web App"), ("app_type", "regular_web")])
        #expect(browser.html.contains("data-page=\"admin-client\""), "\(browser.html)")
        let secret = try #require(
            browser.html.range(of: "shown only now: ").map { browser.html[$0.upperBound...].prefix { $0 != "<" } })
        #expect(secret.count >= 32)
        let clientID = try #require(
            browser.html.range(of: "<p class=\"lead\"><code>").map {
                String(browser.html[$0.upperBound...].prefix { $0 != "<" })
            })
        let path = "/admin/clients/\(clientID)"
        browser.send(.get, path)
        #expect(!browser.html.contains(String(secret)), "the secret is shown once")

        browser.submit(
            path, [("name", "Sample Web App"), ("callbacks", "not a url"), ("grant-0", "authorization_code")])
        #expect(browser.last.status == 400)
        #expect(browser.html.contains("callbacks[0] is not an absolute URL"))

        browser.send(.get, path)
        browser.submit(
            path,
            [
                ("name", "Sample Web App"), ("callbacks", "https://app.example/callback\nhttp://localhost:3000/cb\n"),
                ("allowed_logout_urls", "https://app.example/"), ("allowed_origins", ""),
                ("grant-0", "authorization_code"), ("ios_team_id", "ABCDE12345"),
                ("ios_bundle_id", "com.example.app"), ("android_package", ""), ("android_fingerprints", ""),
            ])
        #expect(browser.location == path + "?done=saved", "\(browser.html)")
        let stored = try #require(try api.store.read { try $0.clients.get(tenantID: api.tenant.id, id: clientID) })
        #expect(stored.callbacks == ["https://app.example/callback", "http://localhost:3000/cb"])
        #expect(stored.allowedLogoutURLs == ["https://app.example/"])
        #expect(stored.grantTypes == [.authorizationCode])
        #expect(stored.ios == IOSAppSettings(teamID: "ABCDE12345", bundleIdentifier: "com.example.app"))
        let aasa = api.send(.get, "/.well-known/apple-app-site-association").json
        #expect(
            ((aasa["webcredentials"] as? [String: Any])?["apps"] as? [String])?.contains("ABCDE12345.com.example.app")
                == true)

        // The new client signs a user in through /authorize with its secret, without PKCE.
        let web = HostedBrowser(api)
        web.send(
            .get,
            "/authorize?"
                + HostedBrowser.encode([
                    ("response_type", "code"), ("client_id", clientID), ("redirect_uri", "http://localhost:3000/cb"),
                    ("scope", "openid email"),
                ]))
        web.follow()
        web.submit("/u/login", [("username", "ada@example.com")])
        web.submit("/u/login/password", [("password", PasswordAccountsTests.password)])
        let code = try #require(web.redirectParameters["code"])
        let tokens = api.send(
            .post, "/oauth/token",
            json: HostedBrowser.encode([
                ("grant_type", "authorization_code"), ("client_id", clientID), ("client_secret", String(secret)),
                ("code", code), ("redirect_uri", "http://localhost:3000/cb"),
            ]), contentType: "application/x-www-form-urlencoded")
        #expect(tokens.status == 200, "\(String(decoding: tokens.body, as: UTF8.self))")
    }

    @Test(
        "the adoption page draws the share as SVG, lists the days, and downloads the same as CSV",
        arguments: HarnessStore.allCases)
    func adoption(_ kind: HarnessStore) throws {
        let (api, outsider, _) = try F.world(kind)
        // Yesterday one passkey sign-in and three device-key re-authentications; today one of each.
        let phone = api.authenticator()
        let session = try api.signUp(phone, email: "mover@example.com")
        let device = try TestDeviceKey()
        let keyID = try #require(try api.registerDeviceKey(device, token: session.accessToken).json["id"] as? String)
        for _ in 0..<3 {
            #expect(try api.reauthenticate(device, keyID: keyID, token: session.accessToken).status == 200)
        }
        let yesterday = AuthDailyCount.day(of: api.clock.now())
        api.clock.advance(by: 86_400)
        _ = try api.logIn(phone)
        #expect(try api.reauthenticate(device, keyID: keyID, token: try api.logIn(phone).accessToken).status == 200)
        api.application.flush()
        let browser = try Self.admin(api)
        #expect(browser.html.contains("href=\"/admin/adoption\""))
        let today = AuthDailyCount.day(of: api.clock.now())
        browser.send(.get, "/admin/adoption?from=\(yesterday)&to=\(today)")
        #expect(browser.last.status == 200, "\(browser.html)")
        #expect(browser.html.contains("<svg class=\"chart\" role=\"img\""))
        #expect(browser.html.contains("<polyline points=") || browser.html.contains("<circle"))
        // Yesterday: 1 passkey (the signup) / (1 + 3) = 25 %.
        #expect(browser.html.contains("<td>\(yesterday)</td><td>4</td><td>1</td><td>3</td>"), "\(browser.html)")
        #expect(browser.html.contains("25.0%"))
        let csvLink = "/admin/adoption.csv?from=\(yesterday)&amp;to=\(today)"
        #expect(browser.html.contains(csvLink))
        browser.send(.get, "/admin/adoption.csv?from=\(yesterday)&to=\(today)")
        #expect(browser.last.headers["Content-Type"] == "text/csv; charset=utf-8")
        #expect(browser.html.hasPrefix(AdoptionCSV.header + "\r\n\(yesterday),4,1,3,"))
        #expect(browser.last.headers["Content-Disposition"]?.contains("adoption-\(yesterday)-\(today).csv") == true)
        // A bad date is the form's error; a stranger is sent to sign in.
        browser.send(.get, "/admin/adoption?from=2024-13-01")
        #expect(browser.last.status == 400)
        outsider.send(.get, "/admin/adoption")
        #expect(outsider.location?.hasPrefix("/u/login?tx=") == true)
    }
}

import Foundation
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameTesting
import Testing

@testable import SesameHTTP

/// The account security upgrades on the hosted pages (docs/account-upgrades.md): the offer right after a sign-in
/// with a breached password, and the account page's buttons, on every store.
@Suite("Hosted pages: account security upgrades")
struct HostedUpgradeTests {
    typealias F = AuthorizeFlowTests
    typealias P = PasswordAccountsTests
    static let breached = "AUTH0-TEST-old horse battery"
    static let strong = "v8#Lq-2mZp!rT4wX"

    /// Ada with a breached password, detection on, the passkey prompts off (the offer is its own).
    static func world(_ kind: HarnessStore) throws -> (APIHarness, OIDCClient) {
        let api = try APIHarness(store: kind)
        #expect(P.signUp(api, email: "ada@example.com", password: breached).status == 200)
        try F.withoutPrompts(api)
        try P.enableBreachDetection(api)
        return (api, OIDCClient(clientID: api.bootstrap.clientID))
    }

    @Test(
        "after a breached password: the offer; a weak choice is refused; a strong one signs in",
        arguments: HarnessStore.allCases)
    func strongPasswordOffer(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind)
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client, password: Self.breached)
        #expect(browser.last.status == 200, "\(browser.html)")
        #expect(browser.html.contains(Catalog.raw(.upgradeBreachedLead, .en)), "\(browser.html)")
        #expect(browser.html.contains("id=\"upgrade-password-form\""))
        #expect(browser.html.contains("passwordrules=\"\(PasswordPolicy.defaultRules)\""))
        #expect(browser.data("passkey-creation") != nil)
        browser.submit("/u/upgrade/password", [("password", "short")])
        #expect(browser.last.status == 400)
        #expect(browser.html.contains("id=\"upgrade-password-form\""), "the offer again, with the error")
        browser.submit("/u/upgrade/password", [("password", Self.strong)])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(browser.redirectParameters["code"] != nil)
        #expect(P.logIn(api, username: "ada@example.com", password: Self.breached).error == "invalid_grant")
        let fresh = P.logIn(api, username: "ada@example.com", password: Self.strong)
        #expect(fresh.status == 200 && fresh.json["password_status"] as? String == "ok")
        // A fine password earns no offer.
        let again = HostedBrowser(api)
        try F.passwordSignIn(again, client, password: Self.strong)
        #expect(again.last.status == 303)
    }

    @Test(
        "after a breached password: a passkey takes its place; Not now just continues", arguments: HarnessStore.allCases
    )
    func passkeyOffer(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind)
        let first = HostedBrowser(api)
        try F.passwordSignIn(first, client, password: Self.breached)
        first.submit("/u/passkey-enroll/skip", [("choice", "later")])
        #expect(first.last.status == 303 && first.redirectParameters["code"] != nil)
        // Offered at every such sign-in, "Not now" or not.
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client, password: Self.breached)
        #expect(browser.html.contains(Catalog.raw(.upgradePasskeyButton, .en)), "\(browser.html)")
        let authenticator = api.authenticator()
        let credential = try authenticator.makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/u/passkey-enroll",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(browser.redirectParameters["code"] != nil)
        let refused = P.logIn(api, username: "ada@example.com", password: Self.breached)
        #expect(refused.status == 403 && refused.errorDescription == "This account signs in with a passkey.")
        #expect(try api.logIn(authenticator).userID.isEmpty == false)
    }

    @Test(
        "the account page: a button for each upgrade, each authorized by the session", arguments: HarnessStore.allCases)
    func accountPage(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind)
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client, password: Self.breached)
        browser.submit("/u/passkey-enroll/skip", [("choice", "later")])
        browser.send(.get, "/account")
        #expect(browser.last.status == 200)
        #expect(browser.html.contains("id=\"upgrades\""), "\(browser.html)")
        #expect(browser.html.contains("href=\"/account/upgrade/passkey\""))
        #expect(browser.html.contains("href=\"/account/upgrade/password\""))
        browser.send(.get, "/account/upgrade/password")
        #expect(browser.html.contains("action=\"/account/upgrade/password\""), "\(browser.html)")
        browser.submit("/account/upgrade/password", [("password", Self.breached)])
        #expect(browser.last.status == 400, "the old password again")
        browser.submit("/account/upgrade/password", [("password", Self.strong)])
        #expect(browser.last.status == 303)
        #expect(browser.location == "/account?done=upgraded")
        // The session that made the change keeps going.
        browser.follow()
        #expect(browser.last.status == 200 && browser.html.contains(Catalog.raw(.doneUpgraded, .en)))
        #expect(P.logIn(api, username: "ada@example.com", password: Self.strong).status == 200)

        // The passkey button, after the sign-in ages: the page signs in again first.
        api.clock.advance(by: 301)
        browser.send(.get, "/account/upgrade/passkey")
        #expect(browser.last.status == 303 && browser.location?.hasPrefix("/u/login?tx=") == true)
    }

    @Test("the account page's passkey replaces the password and ends every session", arguments: HarnessStore.allCases)
    func accountPasskey(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind)
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client, password: Self.breached)
        browser.submit("/u/passkey-enroll/skip", [("choice", "later")])
        browser.send(.get, "/account/upgrade/passkey")
        #expect(browser.last.status == 200, "\(browser.html)")
        let credential = try api.authenticator().makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/account/upgrade/passkey",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        let user = try #require(try P.users(api).first)
        #expect(user.passwordReplacement == .passkey)
        // Every session ended: the account page asks to sign in again.
        browser.send(.get, "/account")
        #expect(browser.last.status == 303 && browser.location?.hasPrefix("/u/login?tx=") == true)
    }

    @Test(
        "the account page's Sign in with Apple: to Apple and back by form post, the Apple ID linked",
        arguments: HarnessStore.allCases)
    func accountApple(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind)
        var configuration = FakeAppleID.Configuration()
        configuration.clock = api.clock
        let fake = try FakeAppleID(configuration)
        defer { fake.stop(gracePeriod: 0) }
        let p8 = try FakeAppleID.makeP8()
        try fake.register(teamID: "TEAM123456", keyID: "KEY1234567", p8: p8)
        let created = api.send(
            .post, "/api/v2/connections",
            json: APIHarness.encode([
                "name": "apple", "strategy": "apple",
                "options": [
                    "team_id": "TEAM123456", "kid": "KEY1234567", "app_id": ["com.example.sesame"],
                    "client_id": "com.example.sesame.web", "app_secret": p8, "jwks_uri": fake.jwksURL,
                    "token_endpoint": fake.tokenURL, "authorization_endpoint": fake.authorizeURL,
                ],
            ]), token: try api.managementToken())
        #expect(created.status == 201 || created.status == 200, "\(String(decoding: created.body, as: UTF8.self))")
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client, password: Self.breached)
        browser.submit("/u/passkey-enroll/skip", [("choice", "later")])
        browser.send(.get, "/account")
        #expect(browser.html.contains("href=\"/account/upgrade/apple\""), "\(browser.html)")
        browser.send(.get, "/account/upgrade/apple")
        #expect(browser.last.status == 303)
        let location = try #require(browser.location)
        #expect(location.hasPrefix(fake.authorizeURL + "?"))
        let query = try #require(URLComponents(string: location)?.queryItems)
        func item(_ name: String) -> String? { query.first { $0.name == name }?.value }
        #expect(item("client_id") == "com.example.sesame.web")
        #expect(item("response_mode") == "form_post")
        #expect(item("redirect_uri") == APIHarness.publicURL + "/u/apple/callback")
        let state = try #require(item("state"))
        let nonce = try #require(item("nonce"))
        // What Apple posts back: an identity token for the Services ID with the request's nonce, and a code.
        var claims = AppleIdentityClaims(audience: "com.example.sesame.web", subject: "001.web.ada")
        claims.rawNonce = nil
        claims.extra["nonce"] = .string(nonce)
        let idToken = try fake.mintIdentityToken(claims)
        let code = try fake.mintAuthorizationCode(claims, redirectURI: APIHarness.publicURL + "/u/apple/callback")
        // A forged state links nothing.
        browser.submit("/u/apple/callback", [("state", "forged"), ("id_token", idToken), ("code", code)])
        #expect(browser.last.status == 400)
        browser.submit("/u/apple/callback", [("state", state), ("id_token", idToken), ("code", code)])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(browser.location == "/account?done=upgraded")
        #expect(try #require(try P.users(api).first).passwordReplacement == .apple)
        #expect(fake.tokenRequests.last?.field("redirect_uri") == APIHarness.publicURL + "/u/apple/callback")
        #expect(fake.tokenRequests.last?.status == 200)
        // The state is single use.
        browser.submit("/u/apple/callback", [("state", state), ("id_token", idToken)])
        #expect(browser.last.status == 400)
        #expect(
            P.logIn(api, username: "ada@example.com", password: Self.breached).errorDescription
                == "This account signs in with Apple.")
    }
}

import Foundation
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import Testing

@testable import SesameHTTP

/// The account pages on every store: sign-in on the way in, passkeys (add, rename, delete),
/// the password, second factors, sessions, the Signal API's arguments, and the well-known URLs.
@Suite("Hosted pages: the account page")
struct HostedAccountTests {
    typealias F = AuthorizeFlowTests
    typealias P = PasswordAccountsTests

    static let iPhoneSafari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/18.1 Mobile/15E148 Safari/604.1"

    /// A browser signed in to the account page with the password.
    static func signedIn(_ api: APIHarness, userAgent: String = "HostedBrowser/1.0") throws -> HostedBrowser {
        let browser = HostedBrowser(api)
        browser.userAgent = userAgent
        browser.send(.get, "/account")
        #expect(browser.last.status == 303)
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        browser.follow()
        browser.submit("/u/login", [("username", "ada@example.com")])
        browser.submit("/u/login/password", [("password", P.password)])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(browser.location == APIHarness.publicURL + "/account")
        browser.follow()
        #expect(browser.html.contains("data-page=\"account\""), "\(browser.html)")
        return browser
    }

    /// A browser that signed `pk@example.com` up with a passkey made by `authenticator`, through
    /// the hosted pages; `language` is its Accept-Language.
    static func passkeySignup(
        _ api: APIHarness, _ authenticator: SoftwareAuthenticator, language: String? = nil
    ) throws -> HostedBrowser {
        let browser = HostedBrowser(api)
        browser.acceptLanguage = language
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "create")]))
        browser.follow()
        browser.submit("/u/signup", [("email", "pk@example.com"), ("method", "passkey")])
        let created = try authenticator.makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/u/signup/passkey",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", created.jsonString)])
        #expect(browser.last.status == 303)
        return browser
    }

    static func accepted(_ browser: HostedBrowser) throws -> [String] {
        let json = try #require(browser.data("signal-accepted-credentials"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["rpId"] as? String == "login.test")
        #expect((object["userId"] as? String)?.isEmpty == false)
        return try #require(object["allAcceptedCredentialIds"] as? [String])
    }

    @Test(
        "passkeys: add, rename, delete, with the accepted-credential signal after each",
        arguments: HarnessStore.allCases)
    func passkeys(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let browser = try Self.signedIn(api)
        #expect(try Self.accepted(browser).isEmpty)
        let details = try #require(browser.data("signal-user-details"))
        #expect(details.contains("\"name\":\"ada@example.com\""))

        let authenticator = api.authenticator()
        browser.send(.get, "/account/passkeys/enroll")
        #expect(browser.html.contains("data-page=\"enroll\""), "\(browser.html)")
        let credential = try authenticator.makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/account/passkeys/enroll",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(browser.location == "/account?done=added")
        browser.follow()
        #expect(browser.html.contains(Catalog.raw(.doneAdded, .en)))
        let ids = try Self.accepted(browser)
        #expect(ids.count == 1)
        let credentialID = try Base64URLForTests.decode(ids[0])
        let stored = try api.store.read { try $0.passkeys.get(tenantID: api.tenant.id, credentialID: credentialID) }
        let passkey = try #require(stored)

        let probe = "<script>alert(1)</script>"
        let path =
            "/account/passkeys/" + (passkey.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        browser.submit(path + "/rename", [("name", probe)])
        #expect(browser.last.status == 303)
        browser.follow()
        #expect(!browser.html.contains(probe))
        #expect(browser.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        browser.submit(path + "/rename", [("name", "")])
        #expect(browser.last.status == 400)

        // The passkey signs in to a client too, then it is deleted: the signal lists nothing.
        browser.send(.get, "/account")
        browser.submit(path + "/delete", [])
        #expect(browser.location == "/account?done=deleted")
        browser.follow()
        #expect(try Self.accepted(browser).isEmpty)
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: passkey.userID) }.isEmpty)
        // Another user's passkey id is not found.
        browser.send(.get, "/account")
        browser.submit("/account/passkeys/passkey%7Cnope/delete", [])
        #expect(browser.last.status == 404)
    }

    @Test(
        "the password: the current one is checked, other sessions end, this one stays", arguments: HarnessStore.allCases
    )
    func password(_ kind: HarnessStore) throws {
        let (api, _, client) = try F.world(kind)
        let browser = try Self.signedIn(api)
        let phone = try Self.signedIn(api, userAgent: Self.iPhoneSafari)
        browser.send(.get, "/account")
        #expect(browser.html.contains("<strong>Safari on iPhone</strong>"), "sessions are named by browser and system")
        #expect(!browser.html.contains("Mobile/15E148"), "never by the raw header")
        browser.send(.get, "/account/password")
        #expect(browser.html.contains("name=\"current\""))
        #expect(browser.html.contains("passwordrules=\"minlength: 12; maxlength: 64; allowed: ascii-printable;\""))
        browser.submit(
            "/account/password", [("current", "wrong password here"), ("password", "a new long passphrase")])
        #expect(browser.last.status == 403)
        browser.submit("/account/password", [("current", P.password), ("password", "short")])
        #expect(browser.last.status == 400)
        browser.submit("/account/password", [("current", P.password), ("password", "a new long passphrase")])
        #expect(browser.location == "/account?done=password", "\(browser.html)")
        browser.follow()
        #expect(browser.html.contains("data-page=\"account\""))
        phone.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(phone.redirectParameters["error"] == "login_required", "the other session ended")
        #expect(P.logIn(api, username: "ada@example.com").status == 403)
        #expect(P.logIn(api, username: "ada@example.com", password: "a new long passphrase").status == 200)
    }

    @Test(
        "adding a passkey with a stale sign-in signs in again and comes back to the enrollment",
        arguments: HarnessStore.allCases)
    func staleSessionSignsInAgainToAddAPasskey(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let browser = try Self.signedIn(api)
        api.clock.advance(by: 301)
        browser.send(.get, "/account/passkeys/enroll")
        #expect(browser.last.status == 303)
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true, "a stale sign-in signs in again first")
        browser.follow()
        browser.submit("/u/login", [("username", "ada@example.com")])
        browser.submit("/u/login/password", [("password", P.password)])
        #expect(browser.location == APIHarness.publicURL + "/account/passkeys/enroll")
        browser.follow()
        #expect(browser.html.contains("data-page=\"enroll\""), "\(browser.html)")
        // A ceremony begun fresh but finished after max_auth_age signs in again too, and adds nothing.
        let credential = try api.authenticator().makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        api.clock.advance(by: 301)
        browser.submit(
            "/account/passkeys/enroll",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString)])
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        let user = try #require(try P.users(api).first)
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: user.id) }.isEmpty)
    }

    @Test("a passkey-only user sets a first password only with a fresh sign-in", arguments: HarnessStore.allCases)
    func firstPassword(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let authenticator = api.authenticator()
        let browser = try Self.passkeySignup(api, authenticator)
        browser.send(.get, "/account/password")
        #expect(!browser.html.contains("name=\"current\""))
        api.clock.advance(by: PasswordService.freshSignIn + 1)
        browser.submit("/account/password", [("password", "my first passphrase")])
        #expect(browser.last.status == 303)
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true, "a stale sign-in signs in again first")
        browser.follow()
        let assertion = try authenticator.getAssertion(
            optionsJSON: Array(try #require(browser.data("passkey-options")).utf8))
        browser.submit(
            "/u/login/passkey",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", assertion.jsonString)])
        #expect(browser.location == APIHarness.publicURL + "/account/password")
        browser.follow()
        browser.submit("/account/password", [("password", "my first passphrase")])
        #expect(browser.location == "/account?done=password", "\(browser.html)")
        #expect(P.logIn(api, username: "pk@example.com", password: "my first passphrase").status == 200)
    }

    @Test(
        "sessions: end one elsewhere, sign out everywhere; forms need this browser's CSRF token",
        arguments: HarnessStore.allCases)
    func sessions(_ kind: HarnessStore) throws {
        let (api, _, client) = try F.world(kind)
        let browser = try Self.signedIn(api)
        let phone = try Self.signedIn(api, userAgent: "Phone/1.0")
        let userID = try #require(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: "ada", page: Page()) }.first?.id)
        let phoneSession = try #require(
            try api.application.sessions.sessions(tenant: api.tenant, userID: userID).first {
                $0.userAgent == "Phone/1.0"
            })

        browser.send(.get, "/account")
        let csrf = try #require(browser.field("csrf"))
        browser.send(.post, "/account/sessions/end-all", form: [])
        #expect(browser.last.status == 403)
        phone.send(.post, "/account/sessions/end-all", form: [("csrf", csrf)])
        #expect(phone.last.status == 403, "another browser's token")

        browser.send(.get, "/account")
        browser.submit("/account/sessions/\(phoneSession.id)/end", [])
        #expect(browser.location == "/account?done=session")
        phone.send(.get, "/account")
        #expect(phone.location?.hasPrefix("/u/login") == true)

        browser.send(.get, "/account")
        browser.submit("/account/sessions/end-all", [])
        #expect(browser.html.contains("data-page=\"signed-out\""))
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["error"] == "login_required")
    }

    @Test("the well-known URLs lead to the real pages")
    func wellKnown() throws {
        let (api, browser, _) = try F.world(.memory)
        browser.send(.get, "/.well-known/change-password")
        #expect(browser.last.status == 302)
        #expect(browser.location == "/account/password")
        let endpoints = api.send(.get, "/.well-known/passkey-endpoints").json
        let issuer = TokenService.issuer(api.tenant)
        #expect(endpoints["enroll"] as? String == issuer + "account/passkeys/enroll")
        #expect(endpoints["manage"] as? String == issuer + "account")
        for path in ["/account/passkeys/enroll", "/account", "/account/password"] {
            browser.send(.get, path)
            #expect(browser.last.status == 303, "\(path) asks to sign in")
            #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        }
        browser.send(.get, "/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200")
        #expect(browser.last.status == 404)
    }
}

enum Base64URLForTests {
    static func decode(_ text: String) throws -> [UInt8] {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        guard let data = Data(base64Encoded: s) else { throw CocoaError(.coderInvalidValue) }
        return [UInt8](data)
    }
}

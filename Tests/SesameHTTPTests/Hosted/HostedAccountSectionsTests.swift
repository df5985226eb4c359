import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// The account page's check-up, connected apps, devices, password removal, recovery code and
/// account deletion, on every store.
@Suite("Hosted pages: the account page's sections")
struct HostedAccountSectionsTests {
    typealias F = AuthorizeFlowTests
    typealias P = PasswordAccountsTests
    typealias A = HostedAccountTests

    static func user(_ api: APIHarness, _ query: String = "ada") throws -> UserRecord? {
        try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: query, page: Page()) }.first
    }

    static func refresh(_ api: APIHarness, _ client: OIDCClient, _ token: String) -> APIReply {
        api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": client.clientID, "refresh_token": token,
            ]))
    }

    /// Ada signed in to the client through the hosted pages (so the browser has a session too),
    /// with the refresh token the code gave the client.
    static func signedInWithRefreshToken(_ kind: HarnessStore) throws -> (
        APIHarness, HostedBrowser, OIDCClient, String
    ) {
        let (api, browser, client) = try F.world(kind)
        try F.passwordSignIn(browser, client)
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        return (api, browser, client, try #require(tokens.json["refresh_token"] as? String))
    }

    @Test(
        "connected apps: an app with a refresh token is listed, and removing its access ends its tokens",
        arguments: HarnessStore.allCases)
    func connectedApps(_ kind: HarnessStore) throws {
        let (api, browser, client, token) = try Self.signedInWithRefreshToken(kind)
        api.clock.advance(by: 60)
        browser.send(.get, "/account")
        #expect(browser.html.contains("id=\"apps-heading\""))
        #expect(browser.html.contains("data-client-id=\"\(client.clientID)\""), "\(browser.html)")
        let name = try #require(
            try api.store.read { try $0.clients.get(tenantID: api.tenant.id, id: client.clientID) }?.name)
        #expect(browser.html.contains("<strong>\(name)</strong>"))
        #expect(
            browser.html.contains(
                "aria-label=\"\(Catalog.raw(.revokeAppNamed, .en).replacingOccurrences(of: "%1", with: name))\""))

        // Another user's app, or one with nothing to revoke: 404, and nothing changes.
        browser.submit("/account/apps/nope/revoke", [])
        #expect(browser.last.status == 404)
        #expect(Self.refresh(api, client, token).status == 200)

        browser.send(.get, "/account")
        browser.submit("/account/apps/\(client.clientID)/revoke", [])
        #expect(browser.location == "/account?done=app")
        browser.follow()
        #expect(browser.html.contains(Catalog.text(.doneAppRevoked, .en)))
        #expect(browser.html.contains(Catalog.raw(.appsNone, .en)))
        #expect(Self.refresh(api, client, token).error == "invalid_grant", "the app's families are revoked")
        // The browser's own session goes on.
        browser.send(.get, "/account")
        #expect(browser.html.contains("data-page=\"account\""))
    }

    @Test(
        "the check-up: a passkey, then a second one and no password; removing the password asks first",
        arguments: HarnessStore.allCases)
    func checkup(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let browser = try A.signedIn(api)
        #expect(browser.html.contains("id=\"checkup-heading\""))
        #expect(browser.html.contains(Catalog.raw(.checkupAddPasskey, .en)))
        #expect(!browser.html.contains("/account/password/remove"), "no removal without a passkey")

        func addPasskey() throws {
            browser.send(.get, "/account/passkeys/enroll")
            let credential = try api.authenticator().makeCredential(
                optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
            browser.submit(
                "/account/passkeys/enroll",
                [("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString)])
            #expect(browser.location == "/account?done=added", "\(browser.html)")
            browser.follow()
        }
        try addPasskey()
        #expect(browser.html.contains(Catalog.raw(.checkupSecondPasskey, .en)))
        #expect(browser.html.contains(Catalog.raw(.checkupRemovePassword, .en)))

        browser.send(.get, "/account/password/remove")
        #expect(browser.html.contains("data-page=\"remove-password\""))
        #expect(browser.html.contains("<a href=\"/account\">\(Catalog.raw(.cancelLink, .en))</a>"))
        #expect(try Self.user(api)?.usablePassword != nil, "the confirmation page removes nothing")
        // A stale sign-in signs in again first (a credential change).
        api.clock.advance(by: 301)
        browser.submit("/account/password/delete", [])
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        browser.follow()
        browser.submit("/u/login", [("username", "ada@example.com")])
        browser.submit("/u/login/password", [("password", P.password)])
        #expect(browser.location == APIHarness.publicURL + "/account/password/remove")
        browser.follow()
        browser.submit("/account/password/delete", [])
        #expect(browser.location == "/account?done=password-removed")
        browser.follow()
        #expect(browser.html.contains(Catalog.raw(.donePasswordRemoved, .en)))
        #expect(try Self.user(api)?.usablePassword == nil)
        #expect(P.logIn(api, username: "ada@example.com").status == 403)

        try addPasskey()
        #expect(browser.html.contains(Catalog.raw(.checkupAllGood, .en)), "\(browser.html)")
        #expect(!browser.html.contains("class=\"checkup\""))
        // Without a password, the removal page goes back to the account.
        browser.send(.get, "/account/password/remove")
        #expect(browser.location == "/account")
    }

    @Test(
        "deleting the account: a fresh sign-in, the identifier typed, then everything goes and the user is told",
        arguments: HarnessStore.allCases)
    func deleteAccount(_ kind: HarnessStore) throws {
        let (api, browser, client, token) = try Self.signedInWithRefreshToken(kind)
        let user = try #require(try Self.user(api))

        // A sign-in older than a credential change allows signs in again, then comes back.
        api.clock.advance(by: 301)
        browser.send(.get, "/account/delete")
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        browser.follow()
        browser.submit("/u/login", [("username", "ada@example.com")])
        browser.submit("/u/login/password", [("password", P.password)])
        #expect(browser.location == APIHarness.publicURL + "/account/delete")
        browser.follow()
        #expect(browser.html.contains("data-page=\"delete-account\""), "\(browser.html)")
        #expect(
            browser.html.contains(
                Catalog.raw(.deleteAccountConfirmLabel, .en).replacingOccurrences(of: "%1", with: "ada@example.com")))

        // A wrong confirmation: 400, the reason tied to the field, and nothing deleted.
        browser.submit("/account/delete", [("confirmation", "ada@example.org")])
        #expect(browser.last.status == 400)
        #expect(browser.html.contains(Catalog.raw(.errorDeleteConfirmation, .en)))
        #expect(browser.html.contains("aria-invalid=\"true\" aria-describedby=\"form-error\""))
        #expect(try Self.user(api) != nil)
        // Without the CSRF token: refused.
        browser.send(.post, "/account/delete", form: [("csrf", "wrong"), ("confirmation", "ada@example.com")])
        #expect(browser.last.status == 403)
        #expect(try Self.user(api) != nil)

        browser.send(.get, "/account/delete")
        browser.submit("/account/delete", [("confirmation", "  ADA@example.com ")])
        #expect(browser.last.status == 200, "\(browser.html)")
        #expect(browser.html.contains("data-page=\"account-deleted\""))
        #expect(try A.accepted(browser).isEmpty, "the passkey manager is told no passkey is accepted")
        #expect(browser.cookies["sesame-session"] == nil)
        #expect(try Self.user(api) == nil)
        #expect(Self.refresh(api, client, token).error == "invalid_grant")
        #expect(try api.outboxText(to: "ada@example.com", template: "account_deleted") != nil)
        api.application.flush()
        let logs = api.send(.get, "/api/v2/logs?q=type:sdu", token: try api.managementToken()).list
        #expect(logs.contains { $0["user_id"] as? String == user.id && $0["client_id"] as? String == AccountClient.id })
        browser.send(.get, "/account")
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true, "signed out")
    }

    @Test(
        "an unsaved recovery code: the check-up asks, the page shows it after a fresh sign-in, once",
        arguments: HarnessStore.allCases)
    func recoveryCode(_ kind: HarnessStore) throws {
        let api = try MFATests.world(kind)
        try F.withoutPrompts(api)
        let enrolling = HostedBrowser(api)
        try F.passwordSignIn(enrolling, OIDCClient(clientID: api.bootstrap.clientID))
        let secret = try #require(F.element(enrolling.html, id: "otp-secret"))
        enrolling.submit("/u/mfa", [("mode", "enroll"), ("otp", try MFATests.otp(secret, api))])
        let code = try #require(F.recoveryCode(enrolling.html))
        // The user leaves before saying it is saved; a session (as after a passkey sign-in) opens the account page.
        let user = try #require(try Self.user(api))
        #expect(user.hasUnsavedRecoveryCode)
        let (cookie, _) = try api.application.sessions.begin(
            tenant: api.tenant, proof: SignInProof(user: user, amr: ["pwd", "mfa", "otp"], authTime: api.clock.now()),
            browser: BrowserContext(userAgent: "HostedBrowser/1.0", address: "127.0.0.1"), replacing: nil)
        let browser = HostedBrowser(api)
        browser.cookies["sesame-session"] = cookie
        browser.send(.get, "/account")
        #expect(browser.html.contains(Catalog.raw(.checkupSaveRecovery, .en)), "\(browser.html)")
        browser.send(.get, "/account/recovery-code")
        #expect(browser.html.contains("data-page=\"account-recovery-code\""), "\(browser.html)")
        #expect(F.recoveryCode(browser.html) == code)
        browser.submit("/account/recovery-code", [])
        #expect(browser.last.status == 303)
        #expect(try Self.user(api)?.hasUnsavedRecoveryCode == true, "not ticked: nothing changes")
        browser.send(.get, "/account/recovery-code")
        browser.submit("/account/recovery-code", [("saved", "yes")])
        #expect(browser.location == "/account?done=recovery-code")
        #expect(try Self.user(api)?.hasUnsavedRecoveryCode == false)
        browser.send(.get, "/account/recovery-code")
        #expect(browser.location == "/account", "never shown again")
    }

    @Test(
        "the profile: the name is saved or cleared, bad text refused; an unconfirmed address can get its link again",
        arguments: HarnessStore.allCases)
    func profile(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let browser = try A.signedIn(api)
        #expect(browser.html.contains("id=\"profile-heading\""))
        #expect(browser.html.contains(Catalog.raw(.emailUnverifiedBadge, .en)))
        browser.submit("/account/profile", [("name", "  Ada Lovelace ")])
        #expect(browser.location == "/account?done=profile")
        browser.follow()
        #expect(browser.html.contains("value=\"Ada Lovelace\""))
        #expect(try Self.user(api)?.profile.name == "Ada Lovelace")
        // A control character is refused with the page's error and nothing saved.
        browser.submit("/account/profile", [("name", "Ada\u{0007}")])
        #expect(browser.last.status == 400)
        #expect(browser.html.contains("class=\"error\""))
        #expect(try Self.user(api)?.profile.name == "Ada Lovelace")
        browser.send(.get, "/account")
        browser.submit("/account/profile", [("name", " ")])
        #expect(try Self.user(api)?.profile.name == nil, "a blank name clears it")

        browser.send(.get, "/account")
        api.clock.advance(by: 1)
        browser.submit("/account/email/verify", [])
        #expect(browser.location == "/account?done=verification")
        let ticket = try #require(try api.outboxTicket(to: "ada@example.com", template: "verify_email"))
        #expect(!ticket.isEmpty)
        browser.follow()
        #expect(browser.html.contains(Catalog.text(.doneVerificationSent, .en)))
    }

    @Test("a session is named by its browser and system, never by the raw header")
    func deviceNames() {
        let chromeMac =
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
        let edgeWindows =
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0"
        let firefoxLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
        let chromeAndroid =
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
        #expect(DeviceName.text(chromeMac, .en) == "Chrome on macOS")
        #expect(DeviceName.text(edgeWindows, .en) == "Edge on Windows")
        #expect(DeviceName.text(firefoxLinux, .en) == "Firefox on Linux")
        #expect(DeviceName.text(chromeAndroid, .en) == "Chrome on Android")
        #expect(DeviceName.text(A.iPhoneSafari, .en) == "Safari on iPhone")
        #expect(DeviceName.text(A.iPhoneSafari, .ja) == "iPhone の Safari")
        #expect(DeviceName.text("curl/8.5.0", .en) == Catalog.raw(.sessionUnknownDevice, .en))
        #expect(DeviceName.text("", .de) == Catalog.raw(.sessionUnknownDevice, .de))
    }
}

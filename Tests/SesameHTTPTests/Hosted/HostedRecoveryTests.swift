import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// Account recovery (`/u/recover`) on every store: the emailed code (single use, 5 tries, 3 an
/// hour), the new passkey or password it ends in, the other sessions ended, the notice, the event.
@Suite("Hosted pages: account recovery")
struct HostedRecoveryTests {
    typealias F = AuthorizeFlowTests

    static func startRecovery(_ browser: HostedBrowser, _ client: OIDCClient, email: String) throws {
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        let tx = try #require(browser.field("tx"))
        #expect(browser.html.contains("/u/recover?tx="))
        browser.send(.get, "/u/recover?tx=\(tx)")
        #expect(browser.html.contains("data-page=\"recover\""))
        browser.submit("/u/recover", [("email", email)])
    }

    /// A new browser through `/u/recover` for `email` and its emailed code: the page after the code.
    static func recoverWithTheEmailedCode(_ api: APIHarness, email: String) throws -> HostedBrowser {
        let browser = HostedBrowser(api)
        try startRecovery(browser, OIDCClient(clientID: api.bootstrap.clientID), email: email)
        let text = try #require(try api.outboxText(to: email, template: "recovery_code"))
        browser.submit(
            "/u/recover/verify", [("handle", try #require(browser.field("handle"))), ("code", String(text.prefix(6)))])
        return browser
    }

    @Test(
        "/u/recover on its own: a recovery that ends on the account page, signed in with the new passkey",
        arguments: HarnessStore.allCases)
    func onItsOwn(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        _ = try api.signUp(api.authenticator(), email: "lin@example.com")
        let browser = HostedBrowser(api)
        browser.send(.get, "/u/recover?ui_locales=ko")
        #expect(browser.last.status == 303)
        let location = try #require(browser.location)
        #expect(location.hasPrefix("/u/recover?tx=") && location.hasSuffix("&ui_locales=ko"), "\(location)")
        browser.follow()
        #expect(browser.html.contains("data-page=\"recover\""), "\(browser.html)")
        #expect(browser.html.contains("<html lang=\"ko\">"))
        browser.submit("/u/recover", [("email", "lin@example.com")])
        let text = try #require(try api.outboxText(to: "lin@example.com", template: "recovery_code"))
        browser.submit(
            "/u/recover/verify", [("handle", try #require(browser.field("handle"))), ("code", String(text.prefix(6)))])
        let created = try api.authenticator().makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/u/passkey-enroll",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", created.jsonString)])
        #expect(browser.location == APIHarness.publicURL + "/account", "\(browser.html)")
        browser.follow()
        #expect(browser.html.contains("data-page=\"account\""))
        // A bad pending sign-in is the page that says the sign-in is over, with a way back.
        browser.send(.get, "/u/recover?tx=nope")
        #expect(browser.last.status == 400)
        #expect(browser.html.contains("data-page=\"error\""))
    }

    @Test(
        "a user who lost every passkey: the emailed code, a new passkey, every other session ended",
        arguments: HarnessStore.allCases)
    func passkey(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let lost = api.authenticator()
        _ = try api.signUp(lost, email: "lin@example.com")
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        let old = HostedBrowser(api)
        old.send(.get, client.authorizeTarget())
        old.follow()
        let assertion = try lost.getAssertion(optionsJSON: Array(try #require(old.data("passkey-options")).utf8))
        old.submit(
            "/u/login/passkey",
            [("ceremony", try #require(old.field("ceremony"))), ("credential", assertion.jsonString)])
        #expect(old.last.status == 303 || old.html.contains("data-page=\"enroll\""))

        let browser = HostedBrowser(api)
        try Self.startRecovery(browser, client, email: "lin@example.com")
        #expect(browser.html.contains("data-page=\"recover-code\""), "\(browser.html)")
        let text = try #require(try api.outboxText(to: "lin@example.com", template: "recovery_code"))
        let code = String(text.prefix(6))
        browser.submit(
            "/u/recover/verify",
            [("handle", try #require(browser.field("handle"))), ("code", code == "000000" ? "111111" : "000000")])
        #expect(browser.last.status == 403)
        #expect(browser.html.contains("data-page=\"recover-code\""))
        browser.submit("/u/recover/verify", [("handle", try #require(browser.field("handle"))), ("code", code)])
        #expect(browser.html.contains("data-page=\"enroll\""), "\(browser.html)")
        #expect(browser.html.contains(Catalog.raw(.recoveryEnrollTitle, .en)))
        #expect(!browser.html.contains("/u/passkey-enroll/skip"), "a recovery cannot be put off")
        browser.send(
            .post, "/u/passkey-enroll/skip",
            form: [
                ("csrf", try #require(browser.field("csrf"))), ("tx", try #require(browser.field("tx"))),
                ("choice", "later"),
            ])
        #expect(browser.last.status == 400)

        // A new recovery (the refused skip spent the pending sign-in), this time to the end.
        let fresh = api.authenticator()
        api.clock.advance(by: 1)  // so the new code is the newest message
        let again = HostedBrowser(api)
        try Self.startRecovery(again, client, email: "lin@example.com")
        let second = try #require(try api.outboxText(to: "lin@example.com", template: "recovery_code"))
        again.submit(
            "/u/recover/verify", [("handle", try #require(again.field("handle"))), ("code", String(second.prefix(6)))])
        let created = try fresh.makeCredential(optionsJSON: Array(try #require(again.data("passkey-creation")).utf8))
        again.submit(
            "/u/passkey-enroll",
            [("ceremony", try #require(again.field("ceremony"))), ("credential", created.jsonString)])
        #expect(again.last.status == 303, "\(again.html)")
        #expect(again.redirectParameters["code"] != nil)

        // The old browser is signed out; the user was told; the recovery is an auth event.
        old.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(old.redirectParameters["error"] == "login_required")
        #expect(
            try api.outboxText(to: "lin@example.com", template: "account_recovered")?.contains("new passkey") == true
        )
        api.application.flush()
        let events = try api.store.read {
            try $0.authEvents.since(tenantID: api.tenant.id, since: .distantPast, limit: 100)
        }
        #expect(events.contains { $0.type == .recovery && $0.method == .passkey && $0.outcome == .success })
    }

    @Test(
        "an unknown address looks the same and gets nothing; codes are capped; a code takes 5 tries",
        arguments: HarnessStore.allCases)
    func limits(_ kind: HarnessStore) throws {
        let (api, browser, client) = try F.world(kind)
        try Self.startRecovery(browser, client, email: "nobody@example.com")
        #expect(browser.html.contains("data-page=\"recover-code\""))
        #expect(try api.outboxText(to: "nobody@example.com", template: "recovery_code") == nil)
        browser.submit("/u/recover/verify", [("handle", try #require(browser.field("handle"))), ("code", "123456")])
        #expect(browser.last.status == 403)

        let other = HostedBrowser(api)
        try Self.startRecovery(other, client, email: "ada@example.com")
        let code = String(
            try #require(try api.outboxText(to: "ada@example.com", template: "recovery_code")).prefix(6))
        let handle = try #require(other.field("handle"))
        for _ in 0..<5 {
            other.submit("/u/recover/verify", [("handle", handle), ("code", code == "999999" ? "888888" : "999999")])
            #expect(other.last.status == 403)
        }
        other.submit("/u/recover/verify", [("handle", handle), ("code", code)])
        #expect(other.last.status == 403, "five wrong tries spend the code")

        for _ in 0..<2 { try Self.startRecovery(other, client, email: "ada@example.com") }
        #expect(other.html.contains("data-page=\"recover-code\""))
        try Self.startRecovery(other, client, email: "ada@example.com")
        #expect(other.last.status == 429, "three codes an hour")
    }

    @Test("where the connection has passwords, a recovery may end in a new password", arguments: HarnessStore.allCases)
    func password(_ kind: HarnessStore) throws {
        let (api, browser, client) = try F.world(kind)
        try Self.startRecovery(browser, client, email: "ada@example.com")
        let code = String(
            try #require(try api.outboxText(to: "ada@example.com", template: "recovery_code")).prefix(6))
        browser.submit("/u/recover/verify", [("handle", try #require(browser.field("handle"))), ("code", code)])
        #expect(browser.html.contains("action=\"/u/recover/password\""))
        browser.submit("/u/recover/password", [("password", "short")])
        #expect(browser.last.status == 400)
        browser.submit("/u/recover/password", [("password", "recovered passphrase 77")])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(
            PasswordAccountsTests.logIn(api, username: "ada@example.com", password: "recovered passphrase 77").status
                == 200)
        #expect(
            try api.outboxText(to: "ada@example.com", template: "account_recovered")?.contains("new password")
                == true)
    }
}

import Foundation
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import Testing

@testable import SesameHTTP

/// `/u/passkey-enroll` on every store: the progressive prompt after a password sign-in, "Not now"
/// and "Don't ask again" on this browser, and the local-enrollment variant after a passkey from
/// another device.
@Suite("Hosted pages: the passkey-enrollment prompt")
struct HostedEnrollmentPromptTests {
    typealias F = AuthorizeFlowTests

    /// `F.world` (prompts off), then the connection's `passkey_options` set to `options`.
    static func world(_ kind: HarnessStore, options: String) throws -> (APIHarness, OIDCClient) {
        let (api, _, client) = try F.world(kind)
        let connection = try #require(api.tenant.defaultConnectionID)
        let patched = api.send(
            .patch, "/api/v2/connections/\(connection)", json: #"{"options":{"passkey_options":\#(options)}}"#,
            token: try api.managementToken())
        #expect(patched.status == 200, "\(String(decoding: patched.body, as: UTF8.self))")
        return (api, client)
    }

    @Test(
        "after a password: the prompt; Not now snoozes it on this browser; a passkey ends it",
        arguments: HarnessStore.allCases)
    func progressive(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind, options: #"{"progressive_enrollment_enabled":true}"#)
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client)
        #expect(browser.html.contains("data-page=\"enroll\""), "\(browser.html)")
        #expect(browser.html.contains(Catalog.raw(.enrollPromptTitle, .en)))
        #expect(browser.data("passkey-creation") != nil)
        browser.submit("/u/passkey-enroll/skip", [("choice", "later")])
        #expect(browser.last.status == 303)
        #expect(browser.redirectParameters["code"] != nil)
        let cookie = try #require(
            browser.last.headers.values(for: "Set-Cookie").first { $0.hasPrefix("sesame-passkey-prompt=") })
        #expect(cookie.contains("sesame-passkey-prompt=later") && cookie.contains("Max-Age=604800"))
        try F.passwordSignIn(browser, client, extra: [("prompt", "login")])
        #expect(browser.last.status == 303, "snoozed on this browser")

        // Another browser gets the prompt, and creates the passkey.
        let other = HostedBrowser(api)
        try F.passwordSignIn(other, client)
        #expect(other.html.contains("data-page=\"enroll\""))
        let authenticator = api.authenticator()
        let credential = try authenticator.makeCredential(
            optionsJSON: Array(try #require(other.data("passkey-creation")).utf8))
        other.submit(
            "/u/passkey-enroll",
            [("ceremony", try #require(other.field("ceremony"))), ("credential", credential.jsonString)])
        #expect(other.last.status == 303, "\(other.html)")
        let tokens = client.exchange(api, code: try #require(other.redirectParameters["code"]))
        #expect(OIDCClient.claims(try #require(tokens.json["id_token"] as? String))["amr"] as? [String] == ["pwd"])
        let userID = try #require(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: "ada", page: Page()) }.first?.id)
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: userID) }.count == 1)

        // With a passkey, a password sign-in asks no more.
        let third = HostedBrowser(api)
        try F.passwordSignIn(third, client)
        #expect(third.last.status == 303)
    }

    @Test("Don't ask again keeps the prompt away on this browser for good", arguments: HarnessStore.allCases)
    func never(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind, options: #"{"progressive_enrollment_enabled":true}"#)
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client)
        browser.submit("/u/passkey-enroll/skip", [("choice", "never")])
        let cookie = try #require(
            browser.last.headers.values(for: "Set-Cookie").first { $0.hasPrefix("sesame-passkey-prompt=") })
        #expect(cookie.contains("sesame-passkey-prompt=never") && cookie.contains("Max-Age=34560000"))
        #expect(browser.redirectParameters["code"] != nil)
        // The held sign-in is spent: the prompt's forms do nothing twice.
        browser.send(.post, "/u/passkey-enroll/skip", form: [("csrf", browser.cookies.isEmpty ? "" : "x")])
        #expect(browser.last.status == 403 || browser.last.status == 400)
    }

    @Test(
        "progressive enrollment is on by default, as Auth0 has it; off, a sign-in goes straight back",
        arguments: HarnessStore.allCases)
    func defaults(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(PasswordAccountsTests.signUp(api, email: "ada@example.com").status == 200)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client)
        #expect(browser.html.contains("data-page=\"enroll\""))
        try F.withoutPrompts(api)
        let other = HostedBrowser(api)
        try F.passwordSignIn(other, client)
        #expect(other.last.status == 303)
    }

    @Test("after a passkey from another device: the local-enrollment prompt", arguments: HarnessStore.allCases)
    func local(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind, options: #"{"local_enrollment_enabled":true}"#)
        let phone = api.authenticator()
        _ = try api.signUp(phone, email: "hybrid@example.com")
        let browser = HostedBrowser(api)
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        let assertion = try phone.getAssertion(optionsJSON: Array(try #require(browser.data("passkey-options")).utf8))
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(assertion.jsonString.utf8)) as? [String: Any])
        json["authenticatorAttachment"] = "cross-platform"
        let hybrid = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        browser.submit(
            "/u/login/passkey", [("ceremony", try #require(browser.field("ceremony"))), ("credential", hybrid)])
        #expect(browser.html.contains("data-page=\"enroll\""), "\(browser.html)")
        #expect(browser.html.contains(Catalog.raw(.localEnrollTitle, .en)))
        // The existing passkey is excluded, so the same authenticator is not asked twice.
        #expect(try #require(browser.data("passkey-creation")).contains("excludeCredentials"))
        let laptop = api.authenticator()
        let created = try laptop.makeCredential(optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/u/passkey-enroll",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", created.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        // A passkey of this device: no prompt.
        let again = HostedBrowser(api)
        again.send(.get, client.authorizeTarget())
        again.follow()
        let local = try laptop.getAssertion(optionsJSON: Array(try #require(again.data("passkey-options")).utf8))
        again.submit(
            "/u/login/passkey", [("ceremony", try #require(again.field("ceremony"))), ("credential", local.jsonString)])
        #expect(again.last.status == 303)
    }

    @Test(
        "the automatic upgrade: a conditional create without UP is accepted for the conditional ceremony only",
        arguments: HarnessStore.allCases)
    func conditionalCreate(_ kind: HarnessStore) throws {
        let (api, client) = try Self.world(kind, options: #"{"progressive_enrollment_enabled":true}"#)
        var silent = AuthenticatorConfiguration()
        silent.origin = .web(APIHarness.webOrigin)
        silent.userPresence = false
        let manager = SoftwareAuthenticator(configuration: silent)
        // The modal ceremony refuses a registration without user presence.
        let first = HostedBrowser(api)
        try F.passwordSignIn(first, client)
        let modal = try manager.makeCredential(optionsJSON: Array(try #require(first.data("passkey-creation")).utf8))
        first.submit(
            "/u/passkey-enroll",
            [("ceremony", try #require(first.field("ceremony"))), ("credential", modal.jsonString)])
        #expect(first.last.status == 400, "\(first.html)")
        // The page's conditional ceremony takes it: the browser's manager made it with no gesture.
        let browser = HostedBrowser(api)
        try F.passwordSignIn(browser, client)
        let options = try #require(browser.data("passkey-conditional"))
        let ceremony = try #require(browser.data("passkey-conditional-ceremony"))
        let credential = try manager.makeCredential(optionsJSON: Array(options.utf8))
        browser.submit(
            "/u/passkey-enroll",
            [("ceremony", String(ceremony.dropFirst().dropLast())), ("credential", credential.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(browser.redirectParameters["code"] != nil)
        api.application.flush()
        let events = try api.store.read { try $0.authEvents.list(tenantID: api.tenant.id, page: Page(limit: 100)) }
        #expect(events.contains { $0.type == .enroll && $0.outcome == .success && $0.conditional == true })
    }
}

import Foundation
import SesameStore
import Testing

@testable import SesameHTTP

/// The account page's passkey rows: a menu per passkey, removal after a confirmation page, and the
/// last way in refused in words, in each language.
@Suite("Hosted pages: removing a passkey")
struct HostedPasskeyRemovalTests {
    /// A passkey-only user signed up through the hosted pages, whose browser speaks `language`.
    static func passkeyUser(_ api: APIHarness, language: String) throws -> (HostedBrowser, PasskeyRecord) {
        let browser = try HostedAccountTests.passkeySignup(api, api.authenticator(), language: language)
        let user = try #require(try PasswordAccountsTests.users(api).first)
        let passkey = try #require(
            try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: user.id) }.first)
        return (browser, passkey)
    }

    @Test(
        "a row names its controls after the passkey; removal asks first; the last one is refused in words",
        arguments: HarnessStore.allCases)
    func removal(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let (browser, passkey) = try Self.passkeyUser(api, language: "ja")
        browser.send(.get, "/account")
        #expect(browser.html.contains("<summary aria-label=\"\(passkey.name) のメニュー\">"), "\(browser.html)")
        #expect(browser.html.contains(">\(passkey.name) の新しい名前</label>"))
        let remove = "/account/passkeys/" + PathSegment.encode(passkey.id) + "/remove"
        #expect(browser.html.contains("href=\"\(remove)\""))
        #expect(
            !browser.html.contains(PathSegment.encode(passkey.id) + "/delete"),
            "the account page itself removes nothing")

        browser.send(.get, remove)
        #expect(browser.last.status == 200)
        #expect(browser.html.contains("data-page=\"remove-passkey\""))
        #expect(browser.html.contains(Catalog.raw(.removePasskeyTitle, .ja)))
        #expect(browser.html.contains("<a href=\"/account\">\(Catalog.raw(.cancelLink, .ja))</a>"))
        // The only way in: the service refuses, and the page says why in Japanese.
        browser.submit("/account/passkeys/" + PathSegment.encode(passkey.id) + "/delete", [])
        #expect(browser.last.status == 409)
        #expect(browser.html.contains(Catalog.raw(.errorLastPasskey, .ja)), "\(browser.html)")
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: passkey.userID) }.count == 1)
        browser.acceptLanguage = "en"
        browser.send(.get, "/account")
        browser.submit("/account/passkeys/" + PathSegment.encode(passkey.id) + "/delete", [])
        #expect(browser.html.contains(Catalog.raw(.errorLastPasskey, .en)))

        // Another user's, or no, passkey: a page with a way back.
        browser.send(.get, "/account/passkeys/passkey%7Cnope/remove")
        #expect(browser.last.status == 404)
        #expect(browser.html.contains("<a href=\"/account\">"))
        // Signed out, the confirmation signs in first.
        let stranger = HostedBrowser(api)
        stranger.send(.get, remove)
        #expect(stranger.last.status == 303)
        #expect(stranger.location?.hasPrefix("/u/login?tx=") == true)
    }
}

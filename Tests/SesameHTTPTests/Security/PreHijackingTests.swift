import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Account pre-hijacking: a squatter signs up with the owner's address (unverified) and adds ways
/// in of their own. When the owner first proves the address (a reset link, a recovery code, or the
/// verification link answered "No, remove them"), every way in added before is removed and every
/// session ends, and the owner is told.
@Suite("Pre-hijacking: the first proof of an address clears what was added before")
struct PreHijackingTests {
    typealias P = PasswordAccountsTests
    typealias R = HostedRecoveryTests

    @Test("the owner's reset removes the squatter's passkey and sessions", arguments: HarnessStore.allCases)
    func reset(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        // The squatter: a password signup with the owner's address, then a passkey of their own.
        #expect(P.signUp(api, email: "owner@example.com").status == 200)
        let squatterKey = api.authenticator()
        let login = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "owner@example.com",
                "password": P.password, "audience": TokenService.myAccountAudience(api.tenant),
                "scope": "openid offline_access",
            ]))
        let access = try #require(login.json["access_token"] as? String)
        let refresh = try #require(login.json["refresh_token"] as? String)
        _ = try api.enroll(squatterKey, accessToken: access)
        #expect(try P.users(api).first?.profile.emailVerified == false)

        // The owner resets the password from their mailbox.
        #expect(P.requestReset(api, email: "owner@example.com").status == 200)
        let ticket = try #require(try P.resetTicket(api, email: "owner@example.com"))
        let reset = api.send(
            .post, "/dbconnections/reset_password",
            json: APIHarness.encode(["ticket": ticket, "password": "the owner's own passphrase"]))
        #expect(reset.status == 200)
        let owner = try #require(try P.users(api).first)
        #expect(owner.profile.emailVerified)
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: owner.id) }.isEmpty)
        #expect(api.refresh(refresh).status == 400)
        #expect(throws: (any Error).self) { try api.logIn(squatterKey) }
        #expect(P.logIn(api, username: "owner@example.com", password: "the owner's own passphrase").status == 200)
        let notice = try #require(try api.outboxText(to: "owner@example.com", template: "credentials_removed"))
        #expect(notice.contains("1 passkey"))

        // A second reset, of a verified address, removes nothing and sends no such notice.
        api.clock.advance(by: 1)  // so the new mail is the newest
        #expect(P.requestReset(api, email: "owner@example.com").status == 200)
        let second = try #require(try P.resetTicket(api, email: "owner@example.com"))
        #expect(
            api.send(
                .post, "/dbconnections/reset_password",
                json: APIHarness.encode(["ticket": second, "password": "another passphrase of hers"])
            ).status == 200)
        let notices = api.send(.get, "/api/v2/outbox", token: try api.managementToken()).list
            .filter { $0["template"] as? String == "credentials_removed" }
        #expect(notices.count == 1)
    }

    @Test(
        "the owner's recovery removes the squatter's passkey, password and second factor",
        arguments: HarnessStore.allCases)
    func recovery(_ kind: HarnessStore) throws {
        let api = try MFATests.world(kind, policy: [])
        try AuthorizeFlowTests.withoutPrompts(api)
        // The squatter signed up with a password as ada (unverified) and added TOTP and a passkey.
        let token = try #require(
            api.send(
                .post, "/oauth/token",
                json: APIHarness.encode([
                    "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "ada@example.com",
                    "password": P.password, "audience": MFAService.audience(api.tenant), "scope": "enroll",
                ])
            ).json["access_token"] as? String)
        let associated = api.send(.post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, token: token)
        let secret = try #require(associated.json["secret"] as? String)
        #expect(
            MFATests.grant(
                api,
                [
                    "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": token,
                    "otp": try MFATests.otp(secret, api),
                ]
            ).status == 200)
        #expect(try P.users(api).first?.mfa.contains { $0.active && $0.factor == .otp } == true)

        // The owner recovers by email: no second factor is asked (it was the squatter's), and the
        // new passkey is the only way in.
        let browser = try R.recoverWithTheEmailedCode(api, email: "ada@example.com")
        #expect(browser.html.contains("data-page=\"enroll\""), "\(browser.html)")
        let owner = try #require(try P.users(api).first)
        #expect(owner.profile.emailVerified)
        #expect(owner.mfa.isEmpty && owner.password == nil)
        #expect(P.logIn(api, username: "ada@example.com").status == 403, "the squatter's password is gone")
        let notice = try #require(try api.outboxText(to: "ada@example.com", template: "credentials_removed"))
        #expect(notice.contains("a password") && notice.contains("1 second factor"))
    }

    /// A hosted password signup with `email` in its own browser (which keeps the session), a
    /// passkey added with the password's token, and the refresh token that sign-in got.
    static func squat(_ api: APIHarness, email: String) throws -> (browser: HostedBrowser, refresh: String) {
        let browser = HostedBrowser(api)
        browser.send(.get, OIDCClient(clientID: api.bootstrap.clientID).authorizeTarget(extra: [("prompt", "create")]))
        browser.follow()
        browser.submit("/u/signup", [("email", email), ("method", "password"), ("password", P.password)])
        #expect(browser.last.status == 303, "\(browser.html)")
        let login = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "password", "client_id": api.bootstrap.clientID, "username": email,
                "password": P.password, "audience": TokenService.myAccountAudience(api.tenant),
                "scope": "openid offline_access",
            ]))
        _ = try api.enroll(api.authenticator(), accessToken: try #require(login.json["access_token"] as? String))
        return (browser, try #require(login.json["refresh_token"] as? String))
    }

    /// A squatted account (`squat`) and its verification link's ticket, with the squatter's browser
    /// and refresh token.
    static func squattedLink(_ api: APIHarness, _ email: String) throws -> (
        ticket: String, squatter: HostedBrowser, refresh: String
    ) {
        let (browser, refresh) = try squat(api, email: email)
        let ticket = try #require(try api.outboxTicket(to: email, template: "verify_email"))
        return (ticket, browser, refresh)
    }

    static func passkeys(_ api: APIHarness) throws -> Int {
        let user = try #require(try P.users(api).first)
        return try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: user.id) }.count
    }

    @Test(
        "the verification link, opened elsewhere, lists what was added before; 'No' removes it all and says so",
        arguments: HarnessStore.allCases)
    func verifyRemoves(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let (ticket, _, refresh) = try Self.squattedLink(api, "owner@example.com")
        let owner = HostedBrowser(api)
        owner.send(.get, "/u/verify-email?ticket=\(ticket)")
        #expect(owner.html.contains("data-page=\"verify-email-prior\""), "\(owner.html)")
        #expect(owner.html.contains("<li>Passkeys: 1</li><li>A password</li>"), "\(owner.html)")
        #expect(try P.users(api).first?.profile.emailVerified == false, "opening the link changes nothing")
        // An answer outside the vocabulary is a clear refusal, and the link stays good.
        owner.submit("/u/verify-email", [("ticket", ticket), ("prior", "maybe")])
        #expect(owner.last.status == 400)
        #expect(try Self.passkeys(api) == 1)
        #expect(owner.html.contains("data-page=\"verify-email-prior\""), "the question again")

        owner.submit("/u/verify-email", [("ticket", ticket), ("prior", "remove")])
        #expect(owner.html.contains("data-page=\"verified-cleared\""), "\(owner.html)")
        #expect(owner.html.contains("href=\"/account\""))
        let user = try #require(try P.users(api).first)
        #expect(user.profile.emailVerified && user.password == nil)
        #expect(try Self.passkeys(api) == 0)
        #expect(api.refresh(refresh).status == 400, "the squatter's sessions ended")
        #expect(P.logIn(api, username: "owner@example.com").status == 403)
        let notice = try #require(try api.outboxText(to: "owner@example.com", template: "credentials_removed"))
        #expect(notice.contains("1 passkey") && notice.contains("a password"))
        // Spent: the link works once.
        owner.send(.get, "/u/verify-email?ticket=\(ticket)")
        #expect(owner.last.status == 400)
    }

    @Test(
        "the verification link answered 'Yes, I added them', or opened where the account is signed in, keeps them",
        arguments: HarnessStore.allCases)
    func verifyKeeps(_ kind: HarnessStore) throws {
        // On another device, the person who signed up says the ways in are theirs.
        let api = try APIHarness(store: kind)
        let (ticket, _, refresh) = try Self.squattedLink(api, "ada@example.com")
        let phone = HostedBrowser(api)
        phone.send(.get, "/u/verify-email?ticket=\(ticket)")
        #expect(phone.html.contains("data-page=\"verify-email-prior\""))
        phone.submit("/u/verify-email", [("ticket", ticket), ("prior", "keep")])
        #expect(phone.html.contains("data-page=\"verified\""), "\(phone.html)")
        #expect(try P.users(api).first?.profile.emailVerified == true)
        #expect(try Self.passkeys(api) == 1)
        #expect(api.refresh(refresh).status == 200)
        #expect(P.logIn(api, username: "ada@example.com", password: P.password).status == 200)
        #expect(try api.outboxText(to: "ada@example.com", template: "credentials_removed") == nil)

        // In the browser that signed up (signed in to the account), nothing is asked and nothing goes,
        // even without an answer.
        let other = try APIHarness(store: kind)
        let (second, browser, _) = try Self.squattedLink(other, "grace@example.com")
        browser.send(.get, "/u/verify-email?ticket=\(second)")
        #expect(browser.html.contains("data-page=\"verify-email\""), "\(browser.html)")
        browser.submit("/u/verify-email", [("ticket", second)])
        #expect(browser.html.contains("data-page=\"verified\""), "\(browser.html)")
        #expect(try P.users(other).first?.profile.emailVerified == true)
        #expect(try Self.passkeys(other) == 1)
    }

    @Test("a verification link posted without an answer, from elsewhere, removes what was added before")
    func verifyWithoutAnAnswer() throws {
        let api = try APIHarness(store: .memory)
        let (ticket, _, _) = try Self.squattedLink(api, "owner@example.com")
        let scanner = HostedBrowser(api)
        scanner.send(.get, "/u/verify-email?ticket=\(ticket)")
        scanner.submit("/u/verify-email", [("ticket", ticket)])
        #expect(scanner.html.contains("data-page=\"verified-cleared\""))
        #expect(try Self.passkeys(api) == 0)
    }
}

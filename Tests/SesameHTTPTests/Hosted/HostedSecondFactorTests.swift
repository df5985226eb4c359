import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// The hosted second-factor step's ways out (a recovery code, another factor, a passkey, a way
/// back), and the account recovery that asks for the factor before a new way in.
@Suite("Hosted pages: the second factor's ways out, and recovery past a second factor")
struct HostedSecondFactorTests {
    typealias F = AuthorizeFlowTests
    typealias M = MFATests
    typealias R = HostedRecoveryTests

    /// A password user with TOTP and a recovery code (and SMS on the tenant), prompts off.
    static func world(_ kind: HarnessStore) throws -> (APIHarness, secret: String, recovery: String) {
        let api = try M.world(kind, factors: ["otp", "sms", "recovery-code"], policy: [])
        try F.withoutPrompts(api)
        let login = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "ada@example.com",
                "password": P.password, "audience": MFAService.audience(api.tenant), "scope": "enroll",
            ]))
        let token = try #require(login.json["access_token"] as? String)
        let associated = api.send(.post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, token: token)
        let secret = try #require(associated.json["secret"] as? String)
        let recovery = try #require((associated.json["recovery_codes"] as? [String])?.first)
        #expect(
            M.grant(
                api,
                [
                    "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": token,
                    "otp": try M.otp(secret, api),
                ]
            ).status == 200)
        // An address the owner proved (an unverified one's factors go at its first proof).
        try api.store.write(.durable) { transaction in
            var user = try #require(
                try transaction.users.search(tenantID: api.tenant.id, query: "ada", page: Page()).first)
            user.profile.emailVerified = true
            try transaction.users.update(user)
        }
        api.clock.advance(by: 30)
        return (api, secret, recovery)
    }
    typealias P = PasswordAccountsTests

    static func links(_ html: String) -> [String] {
        html.components(separatedBy: "name=\"method\" value=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test("recovery by email asks for the user's second factor before a new passkey", arguments: HarnessStore.allCases)
    func recoveryAsksForTheFactor(_ kind: HarnessStore) throws {
        let (api, _, _) = try Self.world(kind)
        let browser = try R.recoverWithTheEmailedCode(api, email: "ada@example.com")
        // Not the new way in: the TOTP step, with its ways out and the support path.
        #expect(browser.html.contains("data-page=\"mfa\""), "\(browser.html)")
        #expect(!browser.html.contains("passkey-creation"))
        #expect(browser.html.contains(Catalog.text(.recoverySecondFactorLead, .en)))
        #expect(browser.html.contains("reset your"))
        #expect(Self.links(browser.html) == ["recovery-code"])
        #expect(!browser.html.contains(Catalog.raw(.usePasskeyInstead, .en)), "the user lost their passkeys")
        // Skipping to the new way in is refused: nothing is held yet.
        browser.send(
            .post, "/u/recover/password",
            form: [
                ("csrf", try #require(browser.field("csrf"))), ("tx", try #require(browser.field("tx"))),
                ("password", "a brand new passphrase"),
            ])
        #expect(browser.last.status == 400)
        #expect(P.logIn(api, username: "ada@example.com", password: "a brand new passphrase").status == 403)
    }

    @Test(
        "the recovery's factor answered, the new way in; the mailbox alone is not enough",
        arguments: HarnessStore.allCases)
    func recoveryCompletesAfterTheFactor(_ kind: HarnessStore) throws {
        let (api, secret, _) = try Self.world(kind)
        let browser = try R.recoverWithTheEmailedCode(api, email: "ada@example.com")
        browser.submit("/u/mfa", [("mode", "otp"), ("otp", "000000")])
        #expect(browser.last.status == 403)
        #expect(browser.html.contains(Catalog.text(.recoverySecondFactorLead, .en)), "still the recovery")
        browser.submit("/u/mfa", [("mode", "otp"), ("otp", try M.otp(secret, api))])
        #expect(browser.html.contains("data-page=\"enroll\""), "\(browser.html)")
        #expect(browser.html.contains(Catalog.raw(.recoveryEnrollTitle, .en)))
        let created = try api.authenticator().makeCredential(
            optionsJSON: Array(try #require(browser.data("passkey-creation")).utf8))
        browser.submit(
            "/u/passkey-enroll",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", created.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(browser.redirectParameters["code"] != nil)
        #expect(try api.outboxText(to: "ada@example.com", template: "account_recovered") != nil)
    }

    @Test(
        "the TOTP step takes a recovery code and shows the new one until saved, with a way back",
        arguments: HarnessStore.allCases)
    func waysOut(_ kind: HarnessStore) throws {
        let (api, _, recovery) = try Self.world(kind)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        try F.passwordSignIn(browser, client)
        #expect(browser.html.contains("data-page=\"mfa\""), "\(browser.html)")
        #expect(browser.html.contains("pattern=\"[0-9]{6}\""))
        #expect(Self.links(browser.html) == ["recovery-code"])
        let transaction = try #require(browser.field("tx"))
        #expect(browser.html.contains("/u/login?tx=\(transaction)"), "a way back")
        // The recovery-code step takes 24 characters.
        browser.submit("/u/mfa/method", [("method", "recovery-code")])
        #expect(browser.html.contains("value=\"recovery-code\""))
        #expect(!browser.html.contains("pattern=\"[0-9]{6}\""))
        #expect(Self.links(browser.html) == ["otp"])
        // A method the user lacks is refused.
        browser.submit("/u/mfa/method", [("method", "sms")])
        #expect(browser.last.status == 400)
        browser.send(.get, "/u/login?tx=\(transaction)")
        #expect(browser.html.contains("data-page=\"login\""), "\(browser.html)")
        browser.submit("/u/login", [("username", "ada@example.com")])
        #expect(browser.html.contains("data-page=\"password\""), "\(browser.html)")
        browser.submit("/u/login/password", [("password", P.password)])
        #expect(browser.html.contains("data-page=\"mfa\""), "\(browser.html)")
        browser.submit("/u/mfa/method", [("method", "recovery-code")])
        #expect(browser.html.contains("data-page=\"mfa\""), "\(browser.html)")
        browser.submit("/u/mfa", [("mode", "recovery-code"), ("otp", "AAAA-BBBB")])
        #expect(browser.last.status == 403, "\(browser.html)")
        browser.submit("/u/mfa", [("mode", "recovery-code"), ("otp", recovery.lowercased())])
        #expect(browser.html.contains("data-page=\"save-recovery-code\""), "\(browser.html)")
        let fresh = try #require(F.recoveryCode(browser.html))
        #expect(fresh != recovery && fresh.count == 24)
        browser.submit("/u/mfa/recovery-code/saved", [("saved", "yes")])
        #expect(browser.last.status == 303, "\(browser.html)")
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        #expect(
            OIDCClient.claims(try #require(tokens.json["id_token"] as? String))["amr"] as? [String] == ["pwd", "mfa"])
        // The old code is spent; the new one works.
        api.clock.advance(by: 30)
        let grant = "http://auth0.com/oauth/grant-type/mfa-recovery-code"
        #expect(
            M.grant(api, ["grant_type": grant, "mfa_token": try M.mfaToken(api), "recovery_code": recovery]).status
                == 403)
        #expect(
            M.grant(api, ["grant_type": grant, "mfa_token": try M.mfaToken(api), "recovery_code": fresh]).status == 200)
    }
}

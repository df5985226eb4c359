import Foundation
import SesameService
import SesameStore
import Testing

/// Every token response and id token says how the user signed in (docs/migration.md): `auth_method`
/// `passkey` or `password` (device keys and Apple arrive with their issues); a refresh answers
/// `refresh` and its id token keeps the original method; a machine token has none.
@Suite("auth_method in every token response and id token")
struct AuthMethodTests {
    static func claims(_ reply: [String: Any]) -> [String: Any] {
        OIDCClient.claims(reply["id_token"] as? String ?? "")
    }

    @Test("passkey signup, passkey login, and refreshes of it", arguments: HarnessStore.allCases)
    func passkey(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let authenticator = api.authenticator()
        let signup = try api.signUpForTokens(authenticator, email: "pk@example.com")
        #expect(signup["auth_method"] as? String == "passkey")
        #expect(Self.claims(signup)["auth_method"] as? String == "passkey")
        let login = try api.logInForTokens(authenticator, scope: "openid offline_access")
        #expect(login["auth_method"] as? String == "passkey")
        let renewed = api.refresh(try #require(login["refresh_token"] as? String))
        #expect(renewed.status == 200)
        #expect(renewed.json["auth_method"] as? String == "refresh")
        #expect(Self.claims(renewed.json)["auth_method"] as? String == "passkey", "the id token keeps the method")
    }

    @Test(
        "password, password with a second factor, the code flow, and a machine token", arguments: HarnessStore.allCases)
    func password(_ kind: HarnessStore) throws {
        let (api, browser, client) = try AuthorizeFlowTests.world(kind)
        let grant = PasswordAccountsTests.logIn(api, username: "ada@example.com")
        #expect(grant.status == 200, "\(String(decoding: grant.body, as: UTF8.self))")
        #expect(grant.json["auth_method"] as? String == "password")
        #expect(Self.claims(grant.json)["auth_method"] as? String == "password")
        try AuthorizeFlowTests.passwordSignIn(browser, client)
        let code = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        #expect(code.json["auth_method"] as? String == "password")
        #expect(Self.claims(code.json)["auth_method"] as? String == "password")

        let guarded = try MFATests.world(kind)
        let (secret, _) = try MFATests.enrollOTP(guarded)
        guarded.clock.advance(by: 30)
        let token = try MFATests.mfaToken(guarded)
        let second = MFATests.grant(
            guarded,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": token,
                "otp": try MFATests.otp(secret, guarded),
            ])
        #expect(second.json["auth_method"] as? String == "password")

        let machine = try api.application.tokens.token(
            tenant: api.tenant,
            request: TokenCall(
                grantType: "client_credentials",
                credentials: ClientCredentials(
                    clientID: api.bootstrap.managementClientID, clientSecret: api.bootstrap.managementClientSecret),
                fields: ["audience": TokenService.managementAudience(api.tenant)]))
        #expect(machine.authMethod == nil)
    }
}

import Foundation
import SesameClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The wire answers of `/me/v1/upgrades/*` (docs/account-upgrades.md) the tests replay.
enum UpgradeFixture {
    static func authorized(_ type: AccountUpgradeType = .strongPassword, token: String = "ut-1") -> String {
        #"{"upgrade_token":"\#(token)","token_type":"upgrade","expires_in":300,"type":"\#(type.rawValue)","password_rules":"minlength: 20; required: lower; required: upper; required: digit;"}"#
    }

    static let stepUp = #"""
        {"error":"step_up_required","error_description":"a second factor is needed for this upgrade",
         "challenge_types":["otp","oob"],"mfa_token":"mfa-1","mfa_requirements":{"challenge":[{"type":"otp"}]}}
        """#

    static let stepUpPasswordOnly = #"""
        {"error":"step_up_required","error_description":"sign in again","challenge_types":["password"]}
        """#

    static let notAllowed = #"""
        {"error":"upgrade_not_allowed","error_description":"this account signs in with Apple already",
         "reason":"already_upgraded"}
        """#

    static let wrongPassword = #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#

    static func committed(_ type: AccountUpgradeType) -> String { #"{"type":"\#(type.rawValue)","upgraded":true}"# }

    static let weakPassword = #"""
        {"error":"invalid_password","error_description":"Password is too weak","name":"PasswordStrengthError",
         "message":"Password is too weak","description":{"rules":[]},"policy":"* At least 20 characters"}
        """#

    static let reusedPassword = #"""
        {"error":"invalid_password","error_description":"The new password must differ from the current one.",
         "name":"PasswordHistoryError"}
        """#

    static let leakedPassword = #"{"error":"password_leaked","error_description":"This password has been leaked."}"#

    static let alreadyLinked = #"""
        {"error":"identity_already_linked","error_description":"that Apple ID belongs to another user"}
        """#

    static let stepUpTokens = #"""
        {"access_token":"me-fresh","token_type":"Bearer","expires_in":600,"scope":"openid"}
        """#

    static let wrongOTP = #"{"error":"invalid_grant","error_description":"Invalid otp_code."}"#

    static let smsChallenge = #"{"challenge_type":"oob","oob_code":"oob-1","binding_method":"prompt"}"#

    static func upgrade(_ transport: StubTransport, accessToken: String? = nil) -> AccountUpgrade {
        AccountUpgrade(
            configuration: Fixture.configuration, accessToken: accessToken, transport: transport,
            now: { Fixture.start })
    }
}

@Suite("AccountUpgrade over a stubbed transport")
struct AccountUpgradeTests {
    @Test func authorizeWithTheAccessTokenSendsOnlyTheType() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized())])
        let authorization = try await UpgradeFixture.upgrade(transport, accessToken: "me-1").authorize(
            type: .strongPassword)
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "https://login.example.com/me/v1/upgrades/authorize")
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer me-1")
        #expect(try transport.body(0) as NSDictionary == ["type": "strong_password"])
        #expect(authorization.upgradeToken == "ut-1")
        #expect(authorization.type == .strongPassword)
        #expect(authorization.expiresAt == Fixture.start.addingTimeInterval(300))
        #expect(authorization.passwordRules == "minlength: 20; required: lower; required: upper; required: digit;")
    }

    @Test func authorizeWithoutATokenIsLoginRequiredAndSendsNothing() async throws {
        let transport = StubTransport()
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport).authorize(type: .passkey)
        }
        #expect(error?.code == "login_required")
        #expect(error?.isUnauthorized == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func thePasswordFormSendsTheClientAndNoBearer() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized(.signInWithApple))])
        _ = try await UpgradeFixture.upgrade(transport).authorize(
            type: .signInWithApple, username: "ada@example.com", password: "old-pw", realm: "Users")
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(
            try transport.body(0) as NSDictionary == [
                "type": "sign_in_with_apple", "client_id": "client-1", "username": "ada@example.com",
                "password": "old-pw", "realm": "Users",
            ])
    }

    @Test func anAuthorizationForAnotherTypeIsAnInvalidResponse() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized(.passkey))])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport, accessToken: "me-1").authorize(type: .strongPassword)
        }
        #expect(error?.kind == .invalidResponse)
    }

    @Test func aStepUpCarriesTheMFATokenAndTheChallengeTypes() async throws {
        let transport = StubTransport([.http(403, UpgradeFixture.stepUp)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport, accessToken: "me-1").authorize(type: .strongPassword)
        }
        #expect(error?.isStepUpRequired == true)
        #expect(
            error?.upgradeStepUp
                == UpgradeStepUp(
                    mfaToken: "mfa-1", challengeTypes: [.otp, .oob],
                    description: "a second factor is needed for this upgrade"))
        #expect(error?.upgradeStepUp?.acceptsSecondFactor == true)
    }

    @Test func aPasswordOnlyStepUpHasNoMFAToken() async throws {
        let transport = StubTransport([.http(403, UpgradeFixture.stepUpPasswordOnly)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport, accessToken: "me-1").authorize(type: .passkey)
        }
        let stepUp = try #require(error?.upgradeStepUp)
        #expect(stepUp.mfaToken == nil)
        #expect(stepUp.challengeTypes == [.password])
        #expect(!stepUp.acceptsSecondFactor)
        let answer = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport).completeStepUp(stepUp, with: .otp("123456"))
        }
        #expect(answer?.code == "login_required")
        #expect(transport.requests.count == 1)
    }

    @Test func notAllowedSaysWhy() async throws {
        let transport = StubTransport([.http(403, UpgradeFixture.notAllowed)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport, accessToken: "me-1").authorize(type: .signInWithApple)
        }
        #expect(error?.isUpgradeNotAllowed == true)
        #expect(error?.upgradeNotAllowedReason == .alreadyUpgraded)
        #expect(error?.upgradeStepUp == nil)
    }

    @Test func theStepUpCompletesWithTheOTPGrant() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.stepUpTokens)])
        let stepUp = UpgradeStepUp(mfaToken: "mfa-1", challengeTypes: [.otp], description: "")
        let credentials = try await UpgradeFixture.upgrade(transport).completeStepUp(stepUp, with: .otp("123456"))
        #expect(credentials.accessToken == "me-fresh")
        #expect(transport.requests.first?.url?.path == "/oauth/token")
        #expect(
            try transport.body(0) as NSDictionary == [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "client_id": "client-1",
                "mfa_token": "mfa-1", "otp": "123456",
            ])
    }

    @Test func theSMSStepUpSendsACodeThenTheOOBGrant() async throws {
        let transport = StubTransport([
            .http(200, UpgradeFixture.smsChallenge), .http(200, UpgradeFixture.stepUpTokens),
        ])
        let upgrade = UpgradeFixture.upgrade(transport)
        let stepUp = UpgradeStepUp(mfaToken: "mfa-1", challengeTypes: [.oob], description: "")
        let challenge = try await upgrade.sendStepUpSMS(stepUp)
        let oobCode = try #require(challenge.oobCode)
        _ = try await upgrade.completeStepUp(stepUp, with: .oob(oobCode: oobCode, bindingCode: "654321"))
        #expect(transport.requests.map { $0.url?.path } == ["/mfa/challenge", "/oauth/token"])
        #expect(
            try transport.body(0) as NSDictionary == [
                "client_id": "client-1", "mfa_token": "mfa-1", "challenge_type": "oob",
            ])
        #expect(
            try transport.body(1) as NSDictionary == [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-oob", "client_id": "client-1",
                "mfa_token": "mfa-1", "oob_code": "oob-1", "binding_code": "654321",
            ])
    }

    @Test func aWrongStepUpCodeIsRecognised() async throws {
        let transport = StubTransport([
            .http(403, UpgradeFixture.wrongOTP),
            .http(403, #"{"error":"invalid_grant","error_description":"Invalid binding_code."}"#),
        ])
        let upgrade = UpgradeFixture.upgrade(transport)
        let stepUp = UpgradeStepUp(mfaToken: "mfa-1", challengeTypes: [.otp, .oob], description: "")
        let otp = await #expect(throws: AuthenticationError.self) {
            try await upgrade.completeStepUp(stepUp, with: .otp("000000"))
        }
        let sms = await #expect(throws: AuthenticationError.self) {
            try await upgrade.completeStepUp(stepUp, with: .oob(oobCode: "oob-1", bindingCode: "000000"))
        }
        #expect(otp?.isStepUpCodeInvalid == true)
        #expect(sms?.isStepUpCodeInvalid == true)
    }

    @Test func theStrongPasswordIsSentWithTheTokenAndNoBearer() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.committed(.strongPassword))])
        try await UpgradeFixture.upgrade(transport, accessToken: "me-1").upgradeToStrongPassword(
            "N3w-Strong-Passw0rd-xyz", authorization: UpgradeAuthorization(upgradeToken: "ut-1", type: .strongPassword))
        let request = try #require(transport.requests.first)
        #expect(request.url?.path == "/me/v1/upgrades/strong-password")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(
            try transport.body(0) as NSDictionary == [
                "upgrade_token": "ut-1", "new_password": "N3w-Strong-Passw0rd-xyz",
            ])
    }

    @Test func aCommitThatDoesNotSayUpgradedIsAnInvalidResponse() async throws {
        let transport = StubTransport([.http(200, #"{"type":"strong_password","upgraded":false}"#)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport).upgradeToStrongPassword(
                "pw", authorization: UpgradeAuthorization(upgradeToken: "ut-1", type: .strongPassword))
        }
        #expect(error?.kind == .invalidResponse)
    }

    @Test(arguments: [
        (UpgradeFixture.weakPassword, "weak"), (UpgradeFixture.reusedPassword, "reused"),
        (UpgradeFixture.leakedPassword, "leaked"),
    ])
    func refusedPasswordsAreTold(body: String, kind: String) async throws {
        let transport = StubTransport([.http(400, body)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport).upgradeToStrongPassword(
                "password", authorization: UpgradeAuthorization(upgradeToken: "ut-1", type: .strongPassword))
        }
        #expect(error?.isPasswordNotStrongEnough == (kind == "weak"))
        #expect(error?.isPasswordReused == (kind == "reused"))
        #expect(error?.isPasswordLeaked == (kind == "leaked"))
    }

    @Test func aTokenOfAnotherTypeIsRefusedBeforeAnyRequest() async throws {
        let transport = StubTransport()
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport).upgradeToStrongPassword(
                "pw", authorization: UpgradeAuthorization(upgradeToken: "ut-1", type: .passkey))
        }
        #expect(error?.code == "wrong_upgrade_type")
        #expect(transport.requests.isEmpty)
    }

    @Test func signInWithAppleSendsTheIdentityTokenAndTheRawNonce() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.committed(.signInWithApple))])
        try await UpgradeFixture.upgrade(transport).upgradeToSignInWithApple(
            identityToken: "apple.id.token", rawNonce: "raw-nonce", authorizationCode: "code-1",
            authorization: UpgradeAuthorization(upgradeToken: "ut-2", type: .signInWithApple))
        #expect(transport.requests.first?.url?.path == "/me/v1/upgrades/sign-in-with-apple")
        #expect(
            try transport.body(0) as NSDictionary == [
                "upgrade_token": "ut-2", "identity_token": "apple.id.token", "nonce": "raw-nonce",
                "authorization_code": "code-1",
            ])
    }

    @Test func anAppleIDOfAnotherAccountIsAConflict() async throws {
        let transport = StubTransport([.http(409, UpgradeFixture.alreadyLinked)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport).upgradeToSignInWithApple(
                identityToken: "t", rawNonce: nil,
                authorization: UpgradeAuthorization(upgradeToken: "ut-2", type: .signInWithApple))
        }
        #expect(error?.statusCode == 409)
        #expect(error?.isIdentityAlreadyLinked == true)
        #expect((try transport.body(0))["nonce"] == nil)
    }

    @Test func thePasskeyUpgradeRunsTheProviderAndVerifies() async throws {
        let method = #"""
            {"id":"passkey|up","type":"passkey","name":"iPhone","key_id":"Y3JlZC0x","credential_backed_up":true,
             "created_at":"2027-01-15T08:00:00.000Z"}
            """#
        let flags = InMemoryPreferPasskeyStore()
        let transport = StubTransport([.http(202, Fixture.signupChallenge), .http(201, method)])
        let upgrade = AccountUpgrade(
            configuration: Fixture.configuration, accessToken: Fixture.jwt(sub: "auth0|ada"), transport: transport,
            preferPasskeyStore: flags)
        let added = try await upgrade.upgradeToPasskey(
            provider: StubProvider(), authorization: UpgradeAuthorization(upgradeToken: "ut-3", type: .passkey))
        #expect(added.id == "passkey|up")
        #expect(
            transport.requests.map { $0.url?.path } == ["/me/v1/upgrades/passkey", "/me/v1/upgrades/passkey/verify"])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == nil })
        #expect(try transport.body(0) as NSDictionary == ["upgrade_token": "ut-3"])
        let verify = try transport.body(1)
        #expect(verify["auth_session"] as? String == "session-1")
        #expect((verify["authn_response"] as? [String: Any])?["id"] as? String == "Y3JlZC0x")
        #expect(flags.prefersPasskey(Fixture.user("auth0|ada")))
    }

    @Test func aCancelledPasskeySheetSendsNoVerify() async throws {
        let transport = StubTransport([.http(202, Fixture.signupChallenge)])
        let error = await #expect(throws: AuthenticationError.self) {
            try await UpgradeFixture.upgrade(transport).upgradeToPasskey(
                provider: StubProvider(error: AuthenticationError.cancelled()),
                authorization: UpgradeAuthorization(upgradeToken: "ut-3", type: .passkey))
        }
        #expect(error?.isCancelled == true)
        #expect(transport.requests.count == 1)
    }

    @Test func thePasswordRulesComeFromTheConnection() async throws {
        let transport = StubTransport([.http(200, #"{"rules":"minlength: 12;"}"#)])
        let rules = try await UpgradeFixture.upgrade(transport).passwordRules(connection: "Users")
        #expect(rules == "minlength: 12;")
        #expect(
            transport.requests.first?.url?.absoluteString
                == "https://login.example.com/password-rules?client_id=client-1&connection=Users")
    }
}

@Suite("Sign in with Apple token exchange")
struct AppleLoginTests {
    @Test func anAuthorizationCodeIsAuth0sFormWithTheName() async throws {
        let transport = StubTransport([.http(200, Fixture.tokens)])
        var name = PersonNameComponents()
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        let credentials = try await Fixture.authentication(transport).login(
            appleAuthorizationCode: "code-1", fullName: name)
        #expect(credentials.accessToken == "at-1")
        let body = try transport.body(0)
        #expect(body["grant_type"] as? String == "urn:ietf:params:oauth:grant-type:token-exchange")
        #expect(body["subject_token"] as? String == "code-1")
        #expect(body["subject_token_type"] as? String == "http://auth0.com/oauth/token-type/apple-authz-code")
        #expect(body["client_id"] as? String == "client-1")
        #expect(body["scope"] as? String == SesameAuthentication.defaultScope)
        let profile = try #require(body["user_profile"] as? String)
        #expect(profile == #"{"name":{"firstName":"Ada","lastName":"Lovelace"}}"#)
    }

    @Test func withoutANameThereIsNoProfile() async throws {
        let transport = StubTransport([.http(200, Fixture.tokens)])
        _ = try await Fixture.authentication(transport).login(appleAuthorizationCode: "code-1", audience: "api")
        let body = try transport.body(0)
        #expect(body["user_profile"] == nil)
        #expect(body["audience"] as? String == "api")
    }

    @Test func anIdentityTokenIsSesamesFormWithTheRawNonce() async throws {
        let transport = StubTransport([
            .http(200, #"{"access_token":"at-9","token_type":"Bearer","expires_in":60,"auth_method":"apple"}"#)
        ])
        let credentials = try await Fixture.authentication(transport).login(
            appleIdentityToken: "apple.id.token", rawNonce: "raw-1")
        #expect(credentials.authMethod == .apple)
        #expect(
            try transport.body(0) as NSDictionary == [
                "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": "client-1",
                "subject_token": "apple.id.token", "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
                "nonce": "raw-1", "scope": SesameAuthentication.defaultScope,
            ])
    }
}

import Foundation
import SesameClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("SesameAuthentication over a stubbed transport")
struct SesameAuthenticationTests {
    @Test func signupChallengeSendsTheProfileAndReadsTheOptions() async throws {
        let transport = StubTransport([.http(200, Fixture.signupChallenge)])
        let challenge = try await Fixture.authentication(transport).passkeySignupChallenge(
            email: "ada@example.com", name: "Ada", userMetadata: ["plan": "pro"], connection: "Members")
        let request = try #require(transport.requests.first)
        #expect(request.url?.absoluteString == "https://login.example.com/passkey/register")
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.timeoutInterval == 7)
        let body = try transport.body(0)
        #expect(body["client_id"] as? String == "client-1")
        #expect(body["realm"] as? String == "Members")
        #expect(body["user_profile"] as? [String: String] == ["email": "ada@example.com", "name": "Ada"])
        #expect(body["user_metadata"] as? [String: String] == ["plan": "pro"])
        #expect(Set(body.keys) == ["client_id", "realm", "user_profile", "user_metadata"])

        #expect(challenge.authSession == "session-1")
        #expect(challenge.options.rp.id == "login.example.com")
        #expect(challenge.options.excludeCredentials?.first?.id == "Y3JlZC0x")
        let options = try #require(try JSONSerialization.jsonObject(with: challenge.optionsJSON) as? [String: Any])
        #expect(options["challenge"] as? String == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(options["auth_session"] == nil)
    }

    @Test func loginSendsTheCredentialVerbatimAndComputesExpiry() async throws {
        let transport = StubTransport([.http(200, Fixture.loginChallenge), .http(200, Fixture.tokens)])
        let authentication = Fixture.authentication(transport)
        let challenge = try await authentication.passkeyLoginChallenge()
        #expect(try transport.body(0) as NSDictionary == ["client_id": "client-1"])
        let credentials = try await authentication.login(
            passkey: Fixture.passkey, challenge: challenge, audience: "https://login.example.com/me/", scope: "openid")
        let body = try transport.body(1)
        #expect(body["grant_type"] as? String == "urn:okta:params:oauth:grant-type:webauthn")
        #expect(body["auth_session"] as? String == "session-2")
        #expect(body["audience"] as? String == "https://login.example.com/me/")
        #expect(body["scope"] as? String == "openid")
        let sent = try #require(body["authn_response"] as? [String: Any])
        #expect(sent["id"] as? String == "Y3JlZC0x")
        #expect((sent["response"] as? [String: String])?["clientDataJSON"] == "e30")

        #expect(credentials.accessToken == "at-1")
        #expect(credentials.refreshToken == "rt-1")
        #expect(credentials.idToken == "id-1")
        #expect(credentials.expiresAt == Fixture.start.addingTimeInterval(3600))
    }

    @Test func aServerErrorCarriesCodeDescriptionAndStatus() async throws {
        let transport = StubTransport([
            .http(400, #"{"error":"invalid_grant","error_description":"auth_session has expired"}"#)
        ])
        await #expect(
            throws: AuthenticationError(
                kind: .server, code: "invalid_grant", errorDescription: "auth_session has expired", statusCode: 400,
                body: Data(#"{"error":"invalid_grant","error_description":"auth_session has expired"}"#.utf8))
        ) {
            _ = try await Fixture.authentication(transport).login(
                passkey: Fixture.passkey,
                challenge: try PasskeyLoginChallenge(responseBody: Data(Fixture.loginChallenge.utf8)))
        }
    }

    @Test func anUnknownClientIsAServerErrorThatIsUnauthorized() async throws {
        let transport = StubTransport([
            .http(401, #"{"error":"invalid_client","error_description":"unknown client_id"}"#)
        ])
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await Fixture.authentication(transport).passkeyLoginChallenge()
        }
        #expect(error?.kind == .server)
        #expect(error?.code == "invalid_client")
        #expect(error?.statusCode == 401)
        #expect(error?.isUnauthorized == true)
        #expect(error?.isRetryable == false)
    }

    @Test func rateLimitAndUnavailableAreRetryable() async throws {
        let transport = StubTransport([
            .http(
                429, #"{"error":"too_many_requests","error_description":"slow down"}"#, headers: ["Retry-After": "12"]),
            .http(502, "<html>bad gateway</html>"),
        ])
        let authentication = Fixture.authentication(transport)
        let limited = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.passkeyLoginChallenge()
        }
        #expect(limited?.isRetryable == true)
        #expect(limited?.retryAfter == 12)
        let gateway = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.passkeyLoginChallenge()
        }
        #expect(gateway?.code == "http_502")
        #expect(gateway?.errorDescription == "<html>bad gateway</html>")
        #expect(gateway?.isRetryable == true)
    }

    @Test(arguments: [
        (URLError.Code.cannotConnectToHost, AuthenticationError.Kind.network),
        (URLError.Code.networkConnectionLost, .network),
        (URLError.Code.timedOut, .timeout),
        (URLError.Code.cancelled, .cancelled),
    ])
    func transportFailuresAreTyped(code: URLError.Code, kind: AuthenticationError.Kind) async throws {
        let transport = StubTransport([.failure(URLError(code))])
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await Fixture.authentication(transport).passkeyLoginChallenge()
        }
        #expect(error?.kind == kind)
        #expect(error?.statusCode == nil)
        #expect(error?.isNetworkError == (kind == .network || kind == .timeout))
        #expect(error?.isRetryable == (kind == .network || kind == .timeout))
        #expect(error?.isCancelled == (kind == .cancelled))
    }

    @Test func aBodyThatIsNotTheDocumentedShapeIsAnInvalidResponse() async throws {
        let transport = StubTransport([.http(200, #"{"auth_session":"s"}"#)])
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await Fixture.authentication(transport).passkeyLoginChallenge()
        }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.errorDescription.contains("authn_params_public_key") == true)
    }

    @Test func renewSendsTheRefreshGrantAndARefusedTokenIsUnauthorized() async throws {
        let transport = StubTransport([
            .http(200, #"{"access_token":"at-2","refresh_token":"rt-2","token_type":"Bearer","expires_in":60}"#),
            .http(400, #"{"error":"invalid_grant","error_description":"refresh token was already used"}"#),
        ])
        let authentication = Fixture.authentication(transport)
        let renewed = try await authentication.renew(withRefreshToken: "rt-1")
        #expect(
            try transport.body(0) as NSDictionary == [
                "grant_type": "refresh_token", "client_id": "client-1", "refresh_token": "rt-1",
            ])
        #expect(renewed.refreshToken == "rt-2")
        #expect(renewed.expiresAt == Fixture.start.addingTimeInterval(60))
        await #expect(
            throws: AuthenticationError(
                kind: .unauthorized, code: "invalid_grant", errorDescription: "refresh token was already used",
                statusCode: 400,
                body: Data(#"{"error":"invalid_grant","error_description":"refresh token was already used"}"#.utf8))
        ) {
            _ = try await authentication.renew(withRefreshToken: "rt-1")
        }
    }

    @Test func renewKeepsTheRefreshTokenWhenTheServerDoesNotRotate() async throws {
        let transport = StubTransport([.http(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":60}"#)])
        let renewed = try await Fixture.authentication(transport).renew(withRefreshToken: "rt-1")
        #expect(renewed.refreshToken == "rt-1")
    }

    @Test func renewWithoutRotationKeepsHowTheUserSignedIn() async throws {
        let transport = StubTransport([
            .http(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":60,"auth_method":"refresh"}"#)
        ])
        let renewed = try await Fixture.authentication(transport).renew(withRefreshToken: "rt-1")
        #expect(renewed.authMethod == .refresh)
    }

    @Test func aPasswordLoginSendsTheGrantAndNoRedirectUnlessGiven() async throws {
        let transport = StubTransport([.http(200, Fixture.tokens)])
        _ = try await Fixture.authentication(transport).login(
            usernameOrEmail: "ada", password: "pw", realmOrConnection: "db", audience: "https://api.example.com/")
        #expect(
            try transport.body(0) as NSDictionary == [
                "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": "client-1",
                "username": "ada", "password": "pw", "realm": "db", "scope": SesameAuthentication.defaultScope,
                "audience": "https://api.example.com/",
            ])
    }

    @Test func theEnrollmentPromptOfATokenResponseIsRead() async throws {
        let transport = StubTransport([
            .http(
                200,
                #"{"access_token":"at-2","token_type":"Bearer","expires_in":60,"auth_method":"password","#
                    + #""passkey_enrollment":{"recommended":true,"reason":"progressive","#
                    + #""enroll_url":"https://login.example.com/u/passkey-enroll?ticket=t1"}}"#)
        ])
        let callback = try #require(URL(string: "com.example.notes://login.example.com/ios/callback"))
        let credentials = try await Fixture.authentication(transport).login(
            usernameOrEmail: "ada", password: "pw", realmOrConnection: "db", enrollmentRedirectURL: callback)
        // The hosted enrollment page returns there.
        #expect(try transport.body(0)["redirect_uri"] as? String == callback.absoluteString)
        #expect(credentials.passkeyEnrollment?.reason == .progressive)
        #expect(credentials.passkeyEnrollment?.enrollURL == "https://login.example.com/u/passkey-enroll?ticket=t1")
        // Not stored: the stored form has no such member.
        let stored = String(decoding: try JSONEncoder().encode(credentials), as: UTF8.self)
        #expect(!stored.contains("enroll"))
    }

    @Test func revokeSendsTheTokenAndUserInfoSendsTheBearer() async throws {
        let transport = StubTransport([
            .http(200, "{}"),
            .http(
                200,
                #"{"sub":"sesame|1","email":"ada@example.com","email_verified":false,"updated_at":1700000000,"amr":["pop"]}"#
            ),
            .http(401, #"{"error":"invalid_token","error_description":"the access token has expired"}"#),
        ])
        let authentication = Fixture.authentication(transport)
        try await authentication.revoke(refreshToken: "rt-1")
        #expect(transport.requests[0].url?.path == "/oauth/revoke")
        #expect(
            try transport.body(0) as NSDictionary == [
                "client_id": "client-1", "token": "rt-1", "token_type_hint": "refresh_token",
            ])
        let info = try await authentication.userInfo(withAccessToken: "at-1")
        #expect(transport.requests[1].value(forHTTPHeaderField: "Authorization") == "Bearer at-1")
        #expect(transport.requests[1].httpMethod == "GET")
        #expect(info.sub == "sesame|1")
        #expect(info.email == "ada@example.com")
        #expect(info.emailVerified == false)
        #expect(info.raw["updated_at"] == "1700000000")
        #expect(info.raw["amr"] == #"["pop"]"#)
        let expired = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.userInfo(withAccessToken: "at-1")
        }
        #expect(expired?.kind == .unauthorized)
        #expect(expired?.isUnauthorized == true)
    }

    @Test func signUpRunsChallengeProviderAndToken() async throws {
        let transport = StubTransport([.http(200, Fixture.signupChallenge), .http(200, Fixture.tokens)])
        let credentials = try await Fixture.authentication(transport).signUp(
            email: "ada@example.com", provider: StubProvider())
        #expect(credentials.accessToken == "at-1")
        #expect(transport.requests.map { $0.url?.path } == ["/passkey/register", "/oauth/token"])
        #expect(try transport.body(1)["scope"] as? String == "openid profile email offline_access")
    }

    @Test func aCancelledCeremonyIsCancelledAndStopsTheFlow() async throws {
        let transport = StubTransport([.http(200, Fixture.loginChallenge)])
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await Fixture.authentication(transport).logIn(provider: StubProvider(error: CancellationError()))
        }
        #expect(error?.isCancelled == true)
        #expect(transport.requests.count == 1)
    }

    @Test func aFailedCeremonyIsAPasskeyError() async throws {
        let transport = StubTransport([.http(200, Fixture.loginChallenge)])
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await Fixture.authentication(transport).logIn(provider: StubProvider(error: StubError.noReply))
        }
        #expect(error?.kind == .passkey)
    }
}

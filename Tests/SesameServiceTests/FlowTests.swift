import Foundation
import SesameCrypto
import SesameSoftwareAuthenticator
import SesameStore
import SesameWire
import Testing
import WebAuthn

@testable import SesameService

/// The services wired as the server wires them (`SesameServices`), over the in-memory store, with a manual clock
/// and a seeded random source: no HTTP, no JSON body parsing, no transport.
final class ServiceWorld: @unchecked Sendable {
    static let publicURL = "https://login.example.com"
    let store = InMemoryStore()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let random = DeterministicRandom(seed: 9)
    let passkeys: PasskeyService
    let passwords: PasswordService
    let tokens: TokenService
    let management: ManagementService
    let bootstrap: BootstrapResult
    let tenant: TenantRecord

    init() throws {
        // Built as the server builds them (`SesameServices`), with batches written by the caller.
        let services = SesameServices(
            store: store, masterKey: try MasterKey(bytes: Array(repeating: 3, count: 32)), clock: clock,
            random: random, authSessions: InMemoryAuthSessions(random: random), background: false)
        passkeys = services.passkeys
        passwords = services.passwords
        tokens = services.tokens
        management = services.management
        (bootstrap, tenant) = try Bootstrap.initialize(
            store: store, publicURL: Self.publicURL, random: random, now: clock.now())
    }

    func authenticator() -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = .web(Self.publicURL)
        return SoftwareAuthenticator(configuration: configuration)
    }

    var native: ClientCredentials { ClientCredentials(clientID: bootstrap.clientID, clientSecret: nil) }

    static func json<T: Encodable>(_ value: T) throws -> [UInt8] { Array(try JSONEncoder().encode(value)) }

    /// Signup through the services: challenge, the authenticator, the webauthn grant.
    func signUp(_ authenticator: SoftwareAuthenticator, email: String, scope: String = "openid offline_access")
        throws -> TokenResponse
    {
        let challenge = try passkeys.beginSignup(
            tenant: tenant, credentials: native, realm: nil, profile: SignupProfileInput(email: email), metadata: [:],
            requester: "203.0.113.1")
        let credential = try authenticator.makeCredential(optionsJSON: try Self.json(challenge))
        return try tokens.token(
            tenant: tenant,
            request: TokenCall(
                grantType: OAuthGrantType.webAuthn.rawValue, credentials: native,
                fields: [
                    "auth_session": challenge.authSession,
                    "authn_response": String(decoding: credential.json, as: UTF8.self),
                    "scope": scope,
                ]))
    }

    func logIn(_ authenticator: SoftwareAuthenticator, scope: String = "openid") throws -> TokenResponse {
        let challenge = try passkeys.beginLogin(
            tenant: tenant, credentials: native, realm: nil, requester: "203.0.113.1")
        let assertion = try authenticator.getAssertion(optionsJSON: try Self.json(challenge))
        return try tokens.token(
            tenant: tenant,
            request: TokenCall(
                grantType: OAuthGrantType.webAuthn.rawValue, credentials: native,
                fields: [
                    "auth_session": challenge.authSession,
                    "authn_response": String(decoding: assertion.json, as: UTF8.self),
                    "scope": scope,
                ]))
    }

    var managementCaller: ManagementCaller {
        ManagementCaller(
            tenant: tenant, clientID: bootstrap.managementClientID, scopes: Set(Bootstrap.managementScopes))
    }
}

/// Service-level tests of the main flows (issue 9): each calls the services as the handlers do.
@Suite("Service flows: signup, login, enrollment, the grants, Management validation")
struct FlowTests {
    @Test func signupCreatesTheUserAndItsPasskeyAndIssuesTokens() throws {
        let world = try ServiceWorld()
        let tokens = try world.signUp(world.authenticator(), email: "ada@example.com")
        #expect(tokens.idToken != nil)
        #expect(tokens.refreshToken != nil)
        #expect(tokens.scope == "openid offline_access")
        let users = try world.store.read { try $0.users.search(tenantID: world.tenant.id, query: nil, page: Page()) }
        #expect(users.map(\.profile.email) == ["ada@example.com"])
        let passkeys = try world.store.read { try $0.passkeys.list(tenantID: world.tenant.id, userID: users[0].id) }
        #expect(passkeys.count == 1)
        #expect(passkeys.first?.attestationFormat == AttestationFormat.none)
    }

    @Test func aTakenIdentifierIsRefusedAtTheChallenge() throws {
        let world = try ServiceWorld()
        _ = try world.signUp(world.authenticator(), email: "taken@example.com")
        #expect(throws: ServiceError.invalidRequest("a user with this identifier already exists")) {
            _ = try world.passkeys.beginSignup(
                tenant: world.tenant, credentials: world.native, realm: nil,
                profile: SignupProfileInput(email: "taken@example.com"), metadata: [:], requester: "203.0.113.1")
        }
    }

    @Test func loginFindsTheUserByTheirPasskeyAndTheSessionIsSingleUse() throws {
        let world = try ServiceWorld()
        let authenticator = world.authenticator()
        let signup = try world.signUp(authenticator, email: "bo@example.com")
        let login = try world.logIn(authenticator)
        #expect(try APITokens.subject(of: login.accessToken) == APITokens.subject(of: signup.accessToken))
        let challenge = try world.passkeys.beginLogin(
            tenant: world.tenant, credentials: world.native, realm: nil, requester: "203.0.113.1")
        let assertion = try authenticator.getAssertion(optionsJSON: try ServiceWorld.json(challenge))
        let request = TokenCall(
            grantType: OAuthGrantType.webAuthn.rawValue, credentials: world.native,
            fields: [
                "auth_session": challenge.authSession,
                "authn_response": String(decoding: assertion.json, as: UTF8.self),
                "scope": "openid",
            ])
        _ = try world.tokens.token(tenant: world.tenant, request: request)
        #expect(throws: ServiceError.invalidGrant("the auth_session is unknown, expired or already used")) {
            _ = try world.tokens.token(tenant: world.tenant, request: request)
        }
    }

    @Test func enrollmentAddsAPasskeyForTheSameUser() throws {
        let world = try ServiceWorld()
        let laptop = world.authenticator()
        let signup = try world.signUp(laptop, email: "cy@example.com")
        let userID = try APITokens.subject(of: signup.accessToken)
        let challenge = try world.passkeys.beginEnrollment(
            tenant: world.tenant, clientID: world.bootstrap.clientID, userID: userID, connection: nil,
            requester: "203.0.113.1")
        let phone = world.authenticator()
        let credential = try phone.makeCredential(optionsJSON: try ServiceWorld.json(challenge))
        let (passkey, user) = try world.passkeys.finishEnrollment(
            tenant: world.tenant, clientID: world.bootstrap.clientID, userID: userID,
            authSession: challenge.authSession, response: credential.json)
        #expect(user.id == userID)
        #expect(passkey.userID == userID)
        #expect(try APITokens.subject(of: try world.logIn(phone).accessToken) == userID)
    }

    @Test func theRefreshGrantRotatesAndDetectsReuse() throws {
        let world = try ServiceWorld()
        let signup = try world.signUp(world.authenticator(), email: "di@example.com")
        let first = try #require(signup.refreshToken)
        func renew(_ token: String) throws -> TokenResponse {
            try world.tokens.token(
                tenant: world.tenant,
                request: TokenCall(
                    grantType: OAuthGrantType.refreshToken.rawValue, credentials: world.native,
                    fields: ["refresh_token": token]))
        }
        let second = try #require(try renew(first).refreshToken)
        #expect(second != first)
        #expect(throws: ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription)) { _ = try renew(first) }
        #expect(throws: ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription)) { _ = try renew(second) }
    }

    @Test func theClientCredentialsGrantNeedsAGrantForTheAudience() throws {
        let world = try ServiceWorld()
        let credentials = ClientCredentials(
            clientID: world.bootstrap.managementClientID, clientSecret: world.bootstrap.managementClientSecret)
        let issued = try world.tokens.token(
            tenant: world.tenant,
            request: TokenCall(
                grantType: OAuthGrantType.clientCredentials.rawValue, credentials: credentials,
                fields: ["audience": TokenService.managementAudience(world.tenant)]))
        #expect(issued.scope?.split(separator: " ").count == Bootstrap.managementScopes.count)
        #expect(throws: ServiceError.unauthorizedClient("this client has no grant for that audience")) {
            _ = try world.tokens.token(
                tenant: world.tenant,
                request: TokenCall(
                    grantType: OAuthGrantType.clientCredentials.rawValue, credentials: credentials,
                    fields: ["audience": "https://elsewhere.example/"]))
        }
        #expect(throws: ServiceError.unsupportedGrantType("grant_type implicit is not supported")) {
            _ = try world.tokens.token(
                tenant: world.tenant,
                request: TokenCall(grantType: "implicit", credentials: credentials, fields: TokenFieldValues([:])))
        }
    }

    @Test func aPrincipalIsGoodOnlyForTheAudienceItWasEstablishedFor() throws {
        let world = try ServiceWorld()
        let credentials = ClientCredentials(
            clientID: world.bootstrap.managementClientID, clientSecret: world.bootstrap.managementClientSecret)
        let managementAudience = TokenService.managementAudience(world.tenant)
        let issued = try world.tokens.token(
            tenant: world.tenant,
            request: TokenCall(
                grantType: OAuthGrantType.clientCredentials.rawValue, credentials: credentials,
                fields: ["audience": managementAudience]))
        let principal = try world.tokens.principal(
            .bearer(issued.accessToken), tenant: world.tenant, audience: managementAudience)
        #expect(principal.credential == .accessToken)
        #expect(principal.clientID == world.bootstrap.managementClientID)
        #expect(!principal.isUser)
        let caller = try world.management.authorize(principal, tenant: world.tenant, scope: .readUsers)
        #expect(caller.scopes.contains("read:users"))
        // The same token is no principal for My Account or userinfo.
        #expect(throws: ServiceError.self) {
            _ = try world.tokens.principal(
                .bearer(issued.accessToken), tenant: world.tenant,
                audience: TokenService.myAccountAudience(world.tenant))
        }
        // A user's principal for userinfo cannot call the Management API.
        let login = try world.signUp(world.authenticator(), email: "ed@example.com")
        let user = try world.tokens.principal(
            .bearer(login.accessToken), tenant: world.tenant, audience: TokenService.userInfoAudience(world.tenant))
        #expect(user.isUser)
        #expect(
            try world.tokens.userInfo(tenant: world.tenant, principal: user)["sub"]
                == .string(try APITokens.subject(of: login.accessToken)))
        #expect(throws: ServiceError.invalidToken("the access token is not for this API")) {
            _ = try world.management.authorize(user, tenant: world.tenant, scope: .readUsers)
        }
        #expect(throws: ServiceError.invalidToken("an Authorization: Bearer (or DPoP) access token is required")) {
            _ = try world.tokens.principal(nil, tenant: world.tenant, audience: managementAudience)
        }
    }

    @Test(arguments: [
        (ClientInput(name: "A", appType: "tv"), "app_type must be one of native, spa, regular_web, non_interactive"),
        (
            ClientInput(name: "A", tokenEndpointAuthMethod: "private_key_jwt"),
            "token_endpoint_auth_method must be one of none, client_secret_post, client_secret_basic"
        ),
        (ClientInput(name: "A", jwtAlgorithm: "HS256"), "jwt_configuration.alg must be one of RS256, ES256, EdDSA"),
        (ClientInput(appType: "native"), "name is required"),
    ])
    func managementValidationNamesTheField(input: ClientInput, message: String) throws {
        let world = try ServiceWorld()
        #expect(throws: ServiceError.invalidRequest(message)) {
            _ = try world.management.createClient(world.managementCaller, input)
        }
        #expect(try world.store.read { try $0.clients.list(tenantID: world.tenant.id, page: Page()) }.count == 2)
    }
}

/// Reads a JWT's claims without verifying it (the service just signed it).
enum APITokens {
    static func subject(of token: String) throws -> String {
        let parts = token.split(separator: ".")
        var base64 = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let data = try #require(Data(base64Encoded: base64))
        let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(claims["sub"] as? String)
    }
}

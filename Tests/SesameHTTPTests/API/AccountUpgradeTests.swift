import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameTesting
import Synchronization
import Testing
import WebAuthn

/// A tenant with a breached-password user and, on demand, a Sign in with Apple connection whose
/// endpoints are a local fake (docs/account-upgrades.md).
final class UpgradeWorld: @unchecked Sendable {  // immutable after init
    typealias P = PasswordAccountsTests
    static let email = "ada@example.com"
    /// Breached by Auth0's test prefix, so every path works offline.
    static let oldPassword = "AUTH0-TEST-old horse battery"
    static let strongPassword = "v8#Lq-2mZp!rT4wX"
    static let bundleID = "com.example.sesame"
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"

    let api: APIHarness
    private(set) var apple: FakeAppleID?
    private(set) var appleConnectionID: String?

    init(_ kind: HarnessStore, email: String = UpgradeWorld.email) throws {
        api = try APIHarness(store: kind)
        let signup = P.signUp(api, email: email, password: Self.oldPassword)
        guard signup.status == 200 else { throw APIHarnessError.unexpected("signup", signup) }
        try P.enableBreachDetection(api)
    }

    /// Ada as the store has her.
    func storedUser() throws -> UserRecord {
        try #require(try P.users(api).first { $0.profile.email == Self.email })
    }

    /// A password login for My Account tokens (audience `/me/`), refresh token included.
    func logIn(password: String = UpgradeWorld.oldPassword, email: String = UpgradeWorld.email) -> APIReply {
        api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": api.bootstrap.clientID,
                "username": email, "password": password, "realm": Bootstrap.defaultConnectionName,
                "scope": "openid offline_access", "audience": TokenService.myAccountAudience(api.tenant),
            ]))
    }

    func accessToken(password: String = UpgradeWorld.oldPassword) throws -> (access: String, refresh: String?) {
        let reply = logIn(password: password)
        guard reply.status == 200, let token = reply.json["access_token"] as? String else {
            throw APIHarnessError.unexpected("password login", reply)
        }
        return (token, reply.json["refresh_token"] as? String)
    }

    func authorize(_ type: String, token: String) -> APIReply {
        api.send(.post, "/me/v1/upgrades/authorize", json: APIHarness.encode(["type": type]), token: token)
    }

    /// The system-initiated form: the stored username and password, no token.
    func authorize(_ type: String, username: String = UpgradeWorld.email, password: String, clientIP: String? = nil)
        -> APIReply
    {
        api.send(
            .post, "/me/v1/upgrades/authorize",
            json: APIHarness.encode([
                "type": type, "client_id": api.bootstrap.clientID, "username": username, "password": password,
                "realm": Bootstrap.defaultConnectionName,
            ]), clientIP: clientIP)
    }

    func upgradeToken(_ type: String) throws -> String {
        let reply = authorize(type, token: try accessToken().access)
        guard reply.status == 200, let token = reply.json["upgrade_token"] as? String else {
            throw APIHarnessError.unexpected("authorize", reply)
        }
        return token
    }

    func strongPassword(_ token: String, _ password: String) -> APIReply {
        api.send(
            .post, "/me/v1/upgrades/strong-password",
            json: APIHarness.encode(["upgrade_token": token, "new_password": password]))
    }

    func patchConnection(_ options: [String: Any]) throws {
        let token = try api.managementToken()
        let reply = api.send(
            .patch, "/api/v2/connections/\(api.tenant.defaultConnectionID ?? "")",
            json: APIHarness.encode(["options": options]),
            token: token)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
    }

    /// Starts the fake and makes the tenant's `apple` connection point at it.
    @discardableResult func addApple() throws -> FakeAppleID {
        var configuration = FakeAppleID.Configuration()
        configuration.clock = api.clock
        let fake = try FakeAppleID(configuration)
        let p8 = try FakeAppleID.makeP8()
        try fake.register(teamID: Self.teamID, keyID: Self.keyID, p8: p8)
        let reply = api.send(
            .post, "/api/v2/connections",
            json: APIHarness.encode([
                "name": "apple", "strategy": "apple",
                "options": [
                    "team_id": Self.teamID, "kid": Self.keyID, "app_id": [Self.bundleID], "app_secret": p8,
                    "client_id": "com.example.sesame.web", "issuer": fake.issuer, "jwks_uri": fake.jwksURL,
                    "token_endpoint": fake.tokenURL,
                ],
            ]), token: try api.managementToken())
        guard reply.status == 201 || reply.status == 200, let id = reply.json["id"] as? String else {
            throw APIHarnessError.unexpected("apple connection", reply)
        }
        apple = fake
        appleConnectionID = id
        return fake
    }

    func identityToken(
        subject: String = "001234.apple.ada", nonce: String? = "raw-nonce-1",
        _ change: (inout AppleIdentityClaims) -> Void = { _ in }
    )
        throws -> String
    {
        var claims = AppleIdentityClaims(
            audience: Self.bundleID, subject: subject, rawNonce: nonce, email: "ada@privaterelay.appleid.com")
        change(&claims)
        return try #require(apple).mintIdentityToken(claims)
    }

    func appleUpgrade(_ token: String, identityToken: String, nonce: String? = "raw-nonce-1") -> APIReply {
        var body: [String: Any] = ["upgrade_token": token, "identity_token": identityToken]
        if let nonce { body["nonce"] = nonce }
        return api.send(.post, "/me/v1/upgrades/sign-in-with-apple", json: APIHarness.encode(body))
    }

    func appleLogin(_ subjectToken: String, type: String, nonce: String? = nil) -> APIReply {
        var body: [String: Any] = [
            "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": api.bootstrap.clientID,
            "subject_token": subjectToken, "subject_token_type": type, "scope": "openid offline_access",
        ]
        if let nonce { body["nonce"] = nonce }
        return api.send(.post, "/oauth/token", json: APIHarness.encode(body))
    }

    deinit { apple?.stop(gracePeriod: 0) }
}

@Suite("Account security upgrades: authorize, strong password, Sign in with Apple, passkey")
struct AccountUpgradeTests {
    typealias P = PasswordAccountsTests
    typealias W = UpgradeWorld

    @Test("a breached password's login says so and recommends the upgrades", arguments: HarnessStore.allCases)
    func signals(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let reply = world.logIn()
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.json["password_status"] as? String == "breached")
        #expect(reply.json["recommended_upgrades"] as? [String] == ["passkey", "strong_password"])
        try world.addApple()
        #expect(
            world.logIn().json["recommended_upgrades"] as? [String]
                == ["passkey", "sign_in_with_apple", "strong_password"])
        // The connection decides what is offered.
        try world.patchConnection(["upgrades": ["allowed": ["strong_password"]]])
        #expect(world.logIn().json["recommended_upgrades"] as? [String] == ["strong_password"])
    }

    @Test("authorize: a fresh sign-in gets a single-use token bound to its type", arguments: HarnessStore.allCases)
    func authorize(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let reply = world.authorize("strong_password", token: try world.accessToken().access)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.json["expires_in"] as? Int == 300)
        #expect(reply.json["type"] as? String == "strong_password")
        #expect(reply.json["token_type"] as? String == "upgrade")
        #expect(reply.json["password_rules"] as? String == PasswordPolicy.defaultRules)
        #expect(reply.headers["Cache-Control"] == "no-store")
        let token = try #require(reply.json["upgrade_token"] as? String)
        // Another type's endpoint does not take it, and it lives five minutes.
        let passkey = world.api.send(
            .post, "/me/v1/upgrades/passkey", json: APIHarness.encode(["upgrade_token": token]))
        #expect(passkey.status == 400 && passkey.error == "invalid_grant")
        world.api.clock.advance(by: 301)
        let late = world.strongPassword(token, W.strongPassword)
        #expect(late.status == 400 && late.errorDescription == "the upgrade_token is unknown, expired or already used")
        // Bad input: the documented error shape, nothing else.
        let fresh = try world.accessToken().access
        #expect(world.authorize("face_id", token: fresh).error == "invalid_request")
        let extra = world.api.send(
            .post, "/me/v1/upgrades/authorize", json: #"{"type":"passkey","admin":true}"#, token: fresh)
        #expect(extra.status == 400 && extra.error == "invalid_request")
        let notJSON = world.api.send(.post, "/me/v1/upgrades/authorize", json: "type=passkey", token: fresh)
        #expect(notJSON.status == 400)
        let badBearer = world.authorize("passkey", token: "not.a.token")
        #expect(badBearer.status == 401 && badBearer.error == "invalid_token")
    }

    @Test(
        "strong password: rules, breach and reuse refused without spending the token; then the commit",
        arguments: HarnessStore.allCases)
    func strongPassword(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let (access, refresh) = try world.accessToken()
        let other = try world.accessToken()
        let token = try #require(world.authorize("strong_password", token: access).json["upgrade_token"] as? String)
        let weak = world.strongPassword(token, "short")
        #expect(weak.status == 400 && weak.error == "invalid_password")
        #expect(weak.json["name"] as? String == "PasswordStrengthError")
        let leaked = world.strongPassword(token, "AUTH0-TEST-another long one")
        #expect(leaked.status == 400 && leaked.error == "password_leaked")
        // The old password is breached: refused as such, before any comparison with it.
        let reused = world.strongPassword(token, W.oldPassword)
        #expect(reused.status == 400 && reused.error == "password_leaked")
        let done = world.strongPassword(token, W.strongPassword)
        #expect(done.status == 200, "\(String(decoding: done.body, as: UTF8.self))")
        #expect(done.json["type"] as? String == "strong_password" && done.json["upgraded"] as? Bool == true)
        // Single use.
        #expect(world.strongPassword(token, W.strongPassword + "x").error == "invalid_grant")
        // The old password is gone, the new one signs in and is fine.
        #expect(world.logIn().errorDescription == "Wrong email or password.")
        let login = world.logIn(password: W.strongPassword)
        #expect(login.status == 200 && login.json["password_status"] as? String == "ok")
        // The session that upgraded keeps its refresh token; the other is revoked.
        #expect(world.api.refresh(try #require(refresh)).status == 200)
        #expect(world.api.refresh(try #require(other.refresh)).status == 400)
        world.api.application.flush()
        let stats = world.api.send(
            .get, "/api/v2/stats/authentications?from=2027-01-15&to=2027-01-15", token: try world.api.managementToken())
        let day = try #require((stats.json["days"] as? [[String: Any]])?.first)
        #expect((day["upgrades"] as? [String: Int])?["strong_password"] == 1)
    }

    @Test(
        "strong password: the current password is compared last, spends the token and counts as a failed password",
        arguments: HarnessStore.allCases)
    func reuseIsNoOracle(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let email = "grace@example.com"
        #expect(P.signUp(world.api, email: email, password: W.strongPassword).status == 200)
        var tokens: [String] = []
        for _ in 0..<10 {
            let login = world.logIn(password: W.strongPassword, email: email)
            let access = try #require(login.json["access_token"] as? String)
            tokens.append(
                try #require(world.authorize("strong_password", token: access).json["upgrade_token"] as? String))
        }
        // A guess of the current password that meets the rules: the history answer, and the token is spent.
        let reused = world.strongPassword(tokens[0], W.strongPassword)
        #expect(reused.status == 400 && reused.json["name"] as? String == "PasswordHistoryError")
        #expect(world.strongPassword(tokens[0], W.strongPassword + "-2").error == "invalid_grant")
        // Ten such answers use up the account's failed-password limit from this address.
        for token in tokens.dropFirst() {
            #expect(world.strongPassword(token, W.strongPassword).json["name"] as? String == "PasswordHistoryError")
        }
        let blocked = world.logIn(password: W.strongPassword, email: email)
        #expect(blocked.status == 429, "\(String(decoding: blocked.body, as: UTF8.self))")
    }

    @Test("two upgrades racing with one token: exactly one commits", arguments: HarnessStore.allCases)
    func race(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let token = try world.upgradeToken("strong_password")
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            let reply = world.strongPassword(token, W.strongPassword + String(index))
            statuses.withLock { $0.append(reply.status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 200 }.count == 1, "\(all)")
        #expect(all.filter { $0 == 400 }.count == 5, "\(all)")
    }

    @Test("step-up: an old session asks for the enrolled TOTP; the MFA grant's token authorizes")
    func stepUpTOTP() throws {
        for kind in HarnessStore.allCases { try stepUpTOTP(kind) }
    }

    func stepUpTOTP(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let api = world.api
        let management = try api.managementToken()
        #expect(
            api.send(.put, "/api/v2/guardian/factors/otp", json: #"{"enabled":true}"#, token: management).status == 200)
        #expect(api.send(.put, "/api/v2/guardian/policies", json: "[]", token: management).status == 200)
        // A pwd-only session, then TOTP enrolled with an MFA API token.
        let (access, _) = try world.accessToken()
        let enrollToken = try Self.mfaAPIToken(api, password: W.oldPassword)
        let associated = api.send(
            .post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, authorization: "Bearer \(enrollToken)")
        #expect(associated.status == 200, "\(String(decoding: associated.body, as: UTF8.self))")
        let secret = try #require(associated.json["secret"] as? String)
        let confirm = MFATests.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": enrollToken,
                "otp": try MFATests.otp(secret, api),
            ])
        #expect(confirm.status == 200, "\(String(decoding: confirm.body, as: UTF8.self))")
        // The first session is pwd only and the user now has a factor: when_enrolled asks for it.
        let asked = world.authorize("strong_password", token: access)
        #expect(
            asked.status == 403 && asked.error == "step_up_required", "\(String(decoding: asked.body, as: UTF8.self))")
        #expect(asked.json["challenge_types"] as? [String] == ["otp"])
        let stepUp = try #require(asked.json["mfa_token"] as? String)
        api.clock.advance(by: 31)
        let answered = MFATests.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": stepUp,
                "otp": try MFATests.otp(secret, api),
            ])
        #expect(answered.status == 200, "\(String(decoding: answered.body, as: UTF8.self))")
        let stepped = try #require(answered.json["access_token"] as? String)
        #expect((try P.claims(stepped))["aud"] as? String == TokenService.myAccountAudience(api.tenant))
        let allowed = world.authorize("strong_password", token: stepped)
        #expect(allowed.status == 200, "\(String(decoding: allowed.body, as: UTF8.self))")
        // The same generated password after the step-up commits.
        let token = try #require(allowed.json["upgrade_token"] as? String)
        #expect(world.strongPassword(token, W.strongPassword).status == 200)
        // Later than max_auth_age, even an MFA session steps up again.
        api.clock.advance(by: 301)
        let stale = world.authorize("passkey", token: stepped)
        #expect(stale.status == 403 && stale.error == "step_up_required")
        #expect(stale.json["mfa_token"] is String)
    }

    /// An MFA API access token (audience `/mfa/`, scope enroll) from a password login.
    static func mfaAPIToken(_ api: APIHarness, password: String) throws -> String {
        let reply = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": api.bootstrap.clientID,
                "username": UpgradeWorld.email, "password": password, "realm": Bootstrap.defaultConnectionName,
                "scope": "enroll", "audience": MFAService.audience(api.tenant),
            ]))
        guard reply.status == 200, let token = reply.json["access_token"] as? String else {
            throw APIHarnessError.unexpected("MFA API token", reply)
        }
        return token
    }

    @Test("step-up by SMS through the outbox, from the system-initiated form", arguments: HarnessStore.allCases)
    func stepUpSMS(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let api = world.api
        let management = try api.managementToken()
        #expect(
            api.send(.put, "/api/v2/guardian/factors/sms", json: #"{"enabled":true}"#, token: management).status == 200)
        try world.patchConnection(["upgrades": ["step_up": "always"]])
        // always: a password alone never authorizes; a user with no factor enrolls one first.
        let asked = world.authorize("strong_password", password: W.oldPassword)
        #expect(
            asked.status == 403 && asked.error == "step_up_required", "\(String(decoding: asked.body, as: UTF8.self))")
        let enroll = try #require(asked.json["mfa_token"] as? String)
        #expect((asked.json["mfa_requirements"] as? [String: Any])?["enroll"] != nil)
        let associated = MFATests.associateSMS(api, token: enroll)
        #expect(associated.status == 200, "\(String(decoding: associated.body, as: UTF8.self))")
        let oob = try #require(associated.json["oob_code"] as? String)
        let code = String(try #require(try api.outboxText(to: "+15550101")).prefix(6))
        let answered = MFATests.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-oob", "mfa_token": enroll, "oob_code": oob,
                "binding_code": code,
            ])
        #expect(answered.status == 200, "\(String(decoding: answered.body, as: UTF8.self))")
        let stepped = try #require(answered.json["access_token"] as? String)
        #expect((try P.claims(stepped))["amr"] as? [String] == ["pwd", "mfa", "sms"])
        let allowed = world.authorize("strong_password", token: stepped)
        #expect(allowed.status == 200, "\(String(decoding: allowed.body, as: UTF8.self))")
        // Next time the enrolled SMS is asked for by challenge.
        api.clock.advance(by: 1)
        let again = world.authorize("strong_password", password: W.oldPassword)
        #expect(again.json["challenge_types"] as? [String] == ["oob"])
    }

    @Test("an old session without a factor is told to sign in again", arguments: HarnessStore.allCases)
    func staleWithoutFactor(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let (access, _) = try world.accessToken()
        world.api.clock.advance(by: 301)
        let reply = world.authorize("passkey", token: access)
        #expect(reply.status == 403 && reply.error == "step_up_required")
        #expect(reply.json["challenge_types"] as? [String] == ["password"])
        #expect(reply.json["mfa_token"] == nil)
        // never: the age alone still counts.
        try world.patchConnection(["upgrades": ["step_up": "never", "max_auth_age": 600]])
        #expect(world.authorize("passkey", token: access).status == 200)
    }

    @Test("not allowed: type off, blocked, no password; the reason says which", arguments: HarnessStore.allCases)
    func notAllowed(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let api = world.api
        let (access, _) = try world.accessToken()
        let apple = world.authorize("sign_in_with_apple", token: access)
        #expect(apple.status == 403 && apple.error == "upgrade_not_allowed")
        #expect(apple.json["reason"] as? String == "type_disabled")
        try world.patchConnection(["upgrades": ["allowed": ["passkey"]]])
        #expect(world.authorize("strong_password", token: access).json["reason"] as? String == "type_disabled")
        let user = try world.storedUser()
        let blocked = api.send(
            .patch, "/api/v2/users/\(user.id)", json: #"{"blocked":true}"#, token: try api.managementToken())
        #expect(blocked.status == 200)
        #expect(world.authorize("passkey", token: access).json["reason"] as? String == "user_blocked")
        // A passkey-only user has no password to upgrade.
        let session = try api.signUp(api.authenticator(), email: "bob@example.com")
        let none = world.authorize("passkey", token: session.accessToken)
        #expect(none.status == 403 && none.json["reason"] as? String == "no_password")
        // A patch of the policy is validated.
        let bad = api.send(
            .patch, "/api/v2/connections/\(api.tenant.defaultConnectionID ?? "")",
            json: #"{"options":{"upgrades":{"step_up":"sometimes"}}}"#, token: try api.managementToken())
        #expect(bad.status == 400 && bad.error == "invalid_request")
    }

    @Test("the system-initiated form: a wrong password, then the brute-force limit", arguments: HarnessStore.allCases)
    func systemInitiated(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let wrong = world.authorize("strong_password", password: "not it", clientIP: "203.0.113.9")
        #expect(wrong.status == 403 && wrong.errorDescription == "Wrong email or password.")
        for _ in 0..<9 { _ = world.authorize("strong_password", password: "not it", clientIP: "203.0.113.9") }
        let limited = world.authorize("strong_password", password: W.oldPassword, clientIP: "203.0.113.9")
        #expect(limited.status == 429 && limited.headers["Retry-After"] != nil)
        // From another address the right password authorizes (a breached one too, even where login blocks it).
        try P.enableBreachDetection(world.api, ["shields": ["block"]])
        #expect(world.logIn().error == "password_leaked")
        let allowed = world.authorize("strong_password", password: W.oldPassword, clientIP: "203.0.113.10")
        #expect(allowed.status == 200, "\(String(decoding: allowed.body, as: UTF8.self))")
        let token = try #require(allowed.json["upgrade_token"] as? String)
        #expect(world.strongPassword(token, W.strongPassword).status == 200)
        #expect(world.logIn(password: W.strongPassword).status == 200)
    }

    @Test("passkey: the enrollment's verify step replaces the password", arguments: HarnessStore.allCases)
    func passkey(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let api = world.api
        let token = try world.upgradeToken("passkey")
        let challenge = api.send(.post, "/me/v1/upgrades/passkey", json: APIHarness.encode(["upgrade_token": token]))
        #expect(challenge.status == 202, "\(String(decoding: challenge.body, as: UTF8.self))")
        // The token is spent by the challenge.
        #expect(
            api.send(.post, "/me/v1/upgrades/passkey", json: APIHarness.encode(["upgrade_token": token])).error
                == "invalid_grant")
        let authenticator = api.authenticator()
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        let session = try #require(challenge.json["auth_session"] as? String)
        let body = #"{"auth_session":"\#(session)","authn_response":"# + credential.jsonString + "}"
        let created = api.send(.post, "/me/v1/upgrades/passkey/verify", json: body)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        #expect(created.json["type"] as? String == "passkey")
        #expect(try world.storedUser().passwordReplacement == .passkey)
        // The old password: the documented text; any other: the usual one.
        let old = world.logIn()
        #expect(old.status == 403 && old.errorDescription == "This account signs in with a passkey.")
        #expect(world.logIn(password: "guess").errorDescription == "Wrong email or password.")
        // The passkey signs in.
        #expect(try api.logIn(authenticator).userID == (try world.storedUser()).id)
        // An auth session of a plain enrollment is not an upgrade's.
        let again = api.send(.post, "/me/v1/upgrades/passkey/verify", json: body)
        #expect(again.status == 400 && again.error == "invalid_grant")
        #expect(
            world.authorize("passkey", password: W.oldPassword).errorDescription
                == "This account signs in with a passkey.")
    }

    @Test("Sign in with Apple: link, the password stops, Apple signs in", arguments: HarnessStore.allCases)
    func signInWithApple(_ kind: HarnessStore) throws {
        let world = try W(kind)
        let api = world.api
        let fake = try world.addApple()
        let token = try world.upgradeToken("sign_in_with_apple")
        let identity = try world.identityToken()
        let linked = world.appleUpgrade(token, identityToken: identity)
        #expect(linked.status == 200, "\(String(decoding: linked.body, as: UTF8.self))")
        #expect(try world.storedUser().passwordReplacement == .apple)
        let old = world.logIn()
        #expect(old.status == 403 && old.error == "invalid_grant")
        #expect(old.errorDescription == "This account signs in with Apple.")
        // The Management API shows the identity, and never the key.
        let management = try api.managementToken()
        let user = api.send(.get, "/api/v2/users/\(try world.storedUser().id)", token: management)
        let identities = try #require(user.json["identities"] as? [[String: Any]])
        #expect(identities.count == 2)
        #expect(identities.last?["provider"] as? String == "apple")
        #expect(identities.last?["user_id"] as? String == "001234.apple.ada")
        #expect(identities.last?["isSocial"] as? Bool == true)
        let connection = api.send(
            .get, "/api/v2/connections/\(try #require(world.appleConnectionID))", token: management)
        #expect(connection.json["strategy"] as? String == "apple")
        let options = try #require(connection.json["options"] as? [String: Any])
        #expect(options["app_secret"] == nil && options["app_secret_set"] as? Bool == true)
        #expect(!String(decoding: connection.body, as: UTF8.self).contains("PRIVATE KEY"))
        // Sesame's id_token form: the raw nonce goes with a token that carries one.
        let byToken = world.appleLogin(
            try world.identityToken(nonce: "n-2"), type: "urn:ietf:params:oauth:token-type:id_token", nonce: "n-2")
        #expect(byToken.status == 200, "\(String(decoding: byToken.body, as: UTF8.self))")
        #expect(byToken.json["auth_method"] as? String == "apple")
        let idToken = try #require(byToken.json["id_token"] as? String)
        #expect((try P.claims(idToken))["auth_method"] as? String == "apple")
        #expect((try P.claims(idToken))["sub"] as? String == (try world.storedUser()).id)
        // Auth0's authorization-code form: redeemed at the fake with a client secret Sesame signed.
        let code = try fake.mintAuthorizationCode(
            AppleIdentityClaims(audience: W.bundleID, subject: "001234.apple.ada"))
        let byCode = world.appleLogin(code, type: "http://auth0.com/oauth/token-type/apple-authz-code")
        #expect(byCode.status == 200, "\(String(decoding: byCode.body, as: UTF8.self))")
        let redeemed = try #require(fake.tokenRequests.last)
        #expect(redeemed.status == 200)
        #expect(redeemed.clientID == W.bundleID)
        #expect(redeemed.clientSecretHeader?["kid"]?.stringValue == W.keyID)
        #expect(redeemed.clientSecretHeader?["alg"]?.stringValue == "ES256")
        #expect(redeemed.clientSecretClaims?["iss"]?.stringValue == W.teamID)
        #expect(redeemed.clientSecretClaims?["sub"]?.stringValue == W.bundleID)
        #expect(redeemed.clientSecretClaims?["aud"]?.stringValue == "https://appleid.apple.com")
        // The same code again: Apple refuses it.
        #expect(world.appleLogin(code, type: "http://auth0.com/oauth/token-type/apple-authz-code").status == 400)
        // An Apple ID linked to nobody signs no one in.
        let stranger = world.appleLogin(
            try world.identityToken(subject: "999.apple.nobody", nonce: nil),
            type: "urn:ietf:params:oauth:token-type:id_token")
        #expect(stranger.status == 400 && stranger.errorDescription == "no account is linked to this Apple ID")
        world.api.application.flush()
        let stats = api.send(
            .get, "/api/v2/stats/authentications?from=2027-01-15&to=2027-01-15", token: management)
        let day = try #require((stats.json["days"] as? [[String: Any]])?.first)
        #expect((day["upgrades"] as? [String: Int])?["sign_in_with_apple"] == 1)
        #expect((day["by_method"] as? [String: Int])?["apple"] == 2)
    }

    @Test("an Apple ID already linked to another account: 409", arguments: HarnessStore.allCases)
    func alreadyLinked(_ kind: HarnessStore) throws {
        let world = try W(kind)
        try world.addApple()
        // app_id as Auth0 holds it (one string) or as a list; anything else is a 400.
        let management = try world.api.managementToken()
        let path = "/api/v2/connections/\(try #require(world.appleConnectionID))"
        let one = world.api.send(.patch, path, json: #"{"options":{"app_id":"\#(W.bundleID)"}}"#, token: management)
        #expect(one.status == 200 && (one.json["options"] as? [String: Any])?["app_id"] as? [String] == [W.bundleID])
        let number = world.api.send(.patch, path, json: #"{"options":{"app_id":7}}"#, token: management)
        #expect(number.status == 400 && number.error == "invalid_request")
        #expect(
            world.appleUpgrade(try world.upgradeToken("sign_in_with_apple"), identityToken: try world.identityToken())
                .status == 200)
        // Bob signs up with a password and tries to link Ada's Apple ID.
        #expect(P.signUp(world.api, email: "bob@example.com", password: P.password).status == 200)
        let bob = try #require(
            world.logIn(password: P.password, email: "bob@example.com").json["access_token"] as? String)
        let token = try #require(world.authorize("sign_in_with_apple", token: bob).json["upgrade_token"] as? String)
        let taken = world.appleUpgrade(token, identityToken: try world.identityToken())
        #expect(taken.status == 409 && taken.error == "identity_already_linked")
        // Bob's password still works: nothing was written.
        #expect(world.logIn(password: P.password, email: "bob@example.com").status == 200)
    }

    @Test("Apple identity tokens: every wrong one is refused, and the upgrade token survives")
    func appleNegatives() throws {
        let world = try W(.memory)
        let fake = try world.addApple()
        let token = try world.upgradeToken("sign_in_with_apple")
        let base = AppleIdentityClaims(audience: W.bundleID, subject: "001234.apple.ada", rawNonce: "raw-nonce-1")
        func refused(_ identityToken: String, nonce: String? = "raw-nonce-1", _ expected: String) {
            let reply = world.appleUpgrade(token, identityToken: identityToken, nonce: nonce)
            #expect(reply.status == 400 && reply.error == "invalid_grant", "\(expected)")
            #expect(reply.errorDescription?.contains(expected) == true, "\(reply.errorDescription ?? "") \(expected)")
        }
        var wrongIssuer = base
        wrongIssuer.issuer = "https://appleid.example.com"
        refused(try fake.mintIdentityToken(wrongIssuer), "another issuer")
        var wrongAudience = base
        wrongAudience.audience = "com.attacker.app"
        refused(try fake.mintIdentityToken(wrongAudience), "audience")
        var expired = base
        expired.issuedAt = world.api.clock.now().addingTimeInterval(-900)
        expired.lifetime = 300
        refused(try fake.mintIdentityToken(expired), "expired")
        refused(try fake.mintIdentityToken(base), nonce: "another nonce", "nonce does not match")
        refused(try fake.mintIdentityToken(base), nonce: nil, "nonce is required")
        var noNonce = base
        noNonce.rawNonce = nil
        refused(try fake.mintIdentityToken(noNonce), "carries no nonce")
        refused(try fake.mintIdentityToken(base, signing: .unknownKeyID("kid-nobody-has")), "kid")
        refused(try fake.mintUnsecuredIdentityToken(base), "not signed with RS256")
        refused(try fake.mintHS256IdentityToken(base), "RS256")
        refused(try fake.mintIdentityToken(base, signing: .unpublishedKey), "signature")
        // A header that is no JSON, and a token of garbage.
        refused("eyJub3QganNvbg.e30.c2ln", "malformed")
        let empty = world.appleUpgrade(token, identityToken: "")
        #expect(empty.status == 400)
        // After all that, the right token still links.
        #expect(world.appleUpgrade(token, identityToken: try fake.mintIdentityToken(base)).status == 200)
    }
}

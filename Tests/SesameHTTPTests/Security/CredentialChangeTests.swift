import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Every credential change needs a recent sign-in that used the user's second factor
/// (`CredentialChange`, docs/security.md): the MFA API's enrollment and removal, and passkeys
/// added or removed through My Account. The first test is the audit's account takeover: a refresh
/// token turned into a fresh multi-factor sign-in through the MFA API.
@Suite("Credential changes: a fresh sign-in at the user's assurance level")
struct CredentialChangeTests {
    typealias P = PasswordAccountsTests
    typealias M = MFATests
    static let otpGrant = "http://auth0.com/oauth/grant-type/mfa-otp"

    /// A password login answered with TOTP, asking for `scope` at `audience`: the token response.
    static func logInWithOTP(
        _ api: APIHarness, secret: String, offset: Int64, scope: String, audience: String? = nil
    ) throws -> [String: Any] {
        var body: [String: Any] = [
            "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "ada@example.com",
            "password": P.password, "scope": scope,
        ]
        if let audience { body["audience"] = audience }
        let asked = api.send(.post, "/oauth/token", json: APIHarness.encode(body))
        let mfaToken = try #require(asked.json["mfa_token"] as? String)
        let reply = M.grant(
            api, ["grant_type": otpGrant, "mfa_token": mfaToken, "otp": try M.otp(secret, api, offset: offset)])
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return reply.json
    }

    static func associateOTP(_ api: APIHarness, _ token: String) -> APIReply {
        api.send(.post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, token: token)
    }

    @Test("a refresh token never reaches enroll or remove:authenticators", arguments: HarnessStore.allCases)
    func refreshCannotEnroll(_ kind: HarnessStore) throws {
        let api = try M.world(kind, factors: ["otp", "sms", "recovery-code"])
        let (secret, _) = try M.enrollOTP(api)
        api.clock.advance(by: 30)
        // The victim's ordinary sign-in, with a refresh token; the attacker holds that token.
        let login = try Self.logInWithOTP(api, secret: secret, offset: 0, scope: "openid offline_access")
        let refreshToken = try #require(login["refresh_token"] as? String)
        let mfaAudience = MFAService.audience(api.tenant)
        for scope in ["enroll", "remove:authenticators", "openid enroll"] {
            let asked = api.send(
                .post, "/oauth/token",
                json: APIHarness.encode([
                    "grant_type": "refresh_token", "client_id": api.bootstrap.clientID,
                    "refresh_token": refreshToken, "audience": mfaAudience, "scope": scope,
                ]))
            #expect(asked.status == 400)
            #expect(asked.error == "invalid_scope")
        }
        // Without a scope the MFA API token may only list.
        let plain = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": api.bootstrap.clientID, "refresh_token": refreshToken,
                "audience": mfaAudience,
            ]))
        #expect(plain.status == 200, "\(String(decoding: plain.body, as: UTF8.self))")
        let access = try #require(plain.json["access_token"] as? String)
        let scopes = try #require(try P.claims(access)["scope"] as? String).split(separator: " ")
        #expect(scopes.contains("read:authenticators"))
        #expect(!scopes.contains("enroll") && !scopes.contains("remove:authenticators"))
        let associated = api.send(
            .post, "/mfa/associate",
            json: #"{"authenticator_types":["oob"],"oob_channels":["sms"],"phone_number":"+15550199"}"#,
            token: access)
        #expect(associated.status == 403)
        #expect(associated.error == "insufficient_scope")
        #expect(try api.outboxText(to: "+15550199") == nil)
        #expect(try P.users(api).first?.mfa.count == 2)

        // A family granted for the MFA API at the sign-in loses those scopes at its first refresh.
        api.clock.advance(by: 30)
        let granted = try Self.logInWithOTP(
            api, secret: secret, offset: 0, scope: "enroll remove:authenticators offline_access",
            audience: mfaAudience)
        let familyToken = try #require(granted["refresh_token"] as? String)
        let refreshed = api.refresh(familyToken)
        #expect(refreshed.status == 200)
        let renewed = try P.claims(try #require(refreshed.json["access_token"] as? String))
        #expect((renewed["scope"] as? String)?.contains("enroll") == false)
        #expect((renewed["scope"] as? String)?.contains("remove:authenticators") == false)
    }

    @Test(
        "the MFA API enrolls and removes only with a recent sign-in that used the factor",
        arguments: HarnessStore.allCases)
    func mfaAPIFreshness(_ kind: HarnessStore) throws {
        let api = try M.world(kind, factors: ["otp", "sms", "recovery-code"], policy: [])
        let mfaAudience = MFAService.audience(api.tenant)
        // A password-only sign-in of a user with no factor may add the first one, while it is fresh.
        let login = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "ada@example.com",
                "password": P.password, "audience": mfaAudience, "scope": "enroll remove:authenticators",
            ]))
        let access = try #require(login.json["access_token"] as? String)
        let signedInAt = try #require(try P.claims(access)["auth_time"] as? Int)
        api.clock.advance(by: 240)
        let associated = Self.associateOTP(api, access)
        #expect(associated.status == 200)
        let secret = try #require(associated.json["secret"] as? String)
        let confirmed = M.grant(
            api, ["grant_type": Self.otpGrant, "mfa_token": access, "otp": try M.otp(secret, api)])
        #expect(confirmed.status == 200)
        // Confirming what the caller just enrolled is not a second factor of its sign-in.
        let confirmedToken = try P.claims(try #require(confirmed.json["access_token"] as? String))
        #expect(confirmedToken["amr"] as? [String] == ["pwd"])
        #expect(confirmedToken["auth_time"] as? Int == signedInAt)
        // The user now has TOTP: the same password-only sign-in may neither add nor remove a factor.
        let second = api.send(
            .post, "/mfa/associate",
            json: #"{"authenticator_types":["oob"],"oob_channels":["sms"],"phone_number":"+15550199"}"#,
            token: access)
        #expect(second.status == 401)
        #expect(second.error == "insufficient_user_authentication")
        #expect(
            second.headers["WWW-Authenticate"]
                == #"Bearer error="insufficient_user_authentication", acr_values="\#(AuthenticationContext.multiFactor)", max_age=300"#
        )
        let factorID = try #require(try P.users(api).first?.mfa.first { $0.factor == .otp }?.id)
        let path = "/mfa/authenticators/" + factorID.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, path, token: access).error == "insufficient_user_authentication")
        #expect(try P.users(api).first?.mfa.count == 2)

        // A sign-in with the factor may, until it is older than max_auth_age.
        api.clock.advance(by: 30)
        let strong = try Self.logInWithOTP(
            api, secret: secret, offset: 0, scope: "enroll remove:authenticators", audience: mfaAudience)
        let strongToken = try #require(strong["access_token"] as? String)
        api.clock.advance(by: 301)
        let stale = api.send(.delete, path, token: strongToken)
        #expect(stale.status == 401)
        #expect(stale.headers["WWW-Authenticate"] == #"Bearer error="insufficient_user_authentication", max_age=300"#)
        let fresh = try Self.logInWithOTP(
            api, secret: secret, offset: 0, scope: "enroll remove:authenticators", audience: mfaAudience)
        #expect(api.send(.delete, path, token: try #require(fresh["access_token"] as? String)).status == 204)
        #expect(try P.users(api).first?.mfa.isEmpty == true)
    }

    @Test("a confirmed factor is told to the user by email", arguments: HarnessStore.allCases)
    func factorNotice(_ kind: HarnessStore) throws {
        let api = try M.world(kind)
        #expect(try api.outboxText(to: "ada@example.com", template: "credential_added") == nil)
        _ = try M.enrollOTP(api)
        let text = try #require(try api.outboxText(to: "ada@example.com", template: "credential_added"))
        #expect(text.hasPrefix("An authenticator app was added as a second factor to your"))
        #expect(!text.contains("otpauth"))
    }

    @Test("My Account adds and removes passkeys only with a recent sign-in", arguments: HarnessStore.allCases)
    func myAccountFreshness(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let laptop = api.authenticator()
        let session = try api.signUp(laptop, email: "grace@example.com")
        api.clock.advance(by: 301)
        let begun = api.send(
            .post, "/me/v1/authentication-methods", json: #"{"type":"passkey"}"#, token: session.accessToken)
        #expect(begun.status == 401)
        #expect(begun.error == "insufficient_user_authentication")
        #expect(begun.headers["WWW-Authenticate"] == #"Bearer error="insufficient_user_authentication", max_age=300"#)
        // A new sign-in adds one, and the user is told.
        let fresh = try api.logIn(laptop)
        let phone = api.authenticator()
        let added = try api.enroll(phone, accessToken: fresh.accessToken)
        let notice = try #require(try api.outboxText(to: "grace@example.com", template: "credential_added"))
        #expect(notice.contains("A passkey"))
        // Removing needs a fresh sign-in too.
        api.clock.advance(by: 301)
        let path = "/me/v1/authentication-methods/" + added.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, path, token: fresh.accessToken).error == "insufficient_user_authentication")
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: fresh.userID) }.count == 2)
        #expect(api.send(.delete, path, token: try api.logIn(phone).accessToken).status == 204)
    }

    @Test("a sign-in is judged by its age and its methods", arguments: HarnessStore.allCases)
    func judgedByAgeAndMethods(_ kind: HarnessStore) throws {
        let api = try M.world(kind)
        let (secret, _) = try M.enrollOTP(api)
        // A password login with TOTP gets a My Account token: it may add a passkey.
        api.clock.advance(by: 30)
        let strong = try Self.logInWithOTP(
            api, secret: secret, offset: 0, scope: "openid", audience: TokenService.myAccountAudience(api.tenant))
        let token = try #require(strong["access_token"] as? String)
        #expect(
            api.send(.post, "/me/v1/authentication-methods", json: #"{"type":"passkey"}"#, token: token).status == 202)
        // The service judges a sign-in by its methods: a password alone is not enough for this user.
        let user = try #require(try P.users(api).first)
        // The tenant as stored now, with the factors the world turned on.
        let tenant = try #require(try api.store.read { try $0.tenants.get(id: api.tenant.id) })
        let connection = try api.store.read { try $0.connections.get(tenantID: api.tenant.id, id: user.connectionID) }
        let now = api.clock.now()
        #expect(
            CredentialChange.shortfall(
                tenant: tenant, user: user, connection: connection, authTime: now, amr: ["pwd"], now: now)
                == .secondFactor(maxAge: 300))
        #expect(
            CredentialChange.shortfall(
                tenant: tenant, user: user, connection: connection, authTime: now, amr: ["pop", "user"], now: now)
                == nil)
        #expect(
            CredentialChange.shortfall(
                tenant: tenant, user: user, connection: connection, authTime: now, amr: ["pop"], now: now)
                == .secondFactor(maxAge: 300))
        #expect(
            CredentialChange.shortfall(
                tenant: tenant, user: user, connection: connection, authTime: now - 301, amr: ["pwd", "mfa"],
                now: now) == .stale(maxAge: 300))
        #expect(
            CredentialChange.shortfall(
                tenant: tenant, user: user, connection: connection, authTime: nil, amr: ["pwd", "mfa"], now: now)
                == .stale(maxAge: 300))
    }

    @Test("a new device key is told to the user by email", arguments: HarnessStore.allCases)
    func deviceKeyNotice(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let session = try api.signUp(api.authenticator(), email: "dee@example.com")
        #expect(try api.outboxText(to: "dee@example.com", template: "credential_added") == nil)
        #expect(try api.registerDeviceKey(TestDeviceKey(), token: session.accessToken).status == 201)
        let notice = try #require(try api.outboxText(to: "dee@example.com", template: "credential_added"))
        #expect(notice.hasPrefix("A device key for "))
    }
}

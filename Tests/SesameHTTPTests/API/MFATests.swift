import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Synchronization
import Testing

/// Auth0's MFA API (docs/mfa.md) through the routed API, on every store: Guardian settings,
/// `mfa_required`, enrollment by mfa token, the three MFA grants, their limits and errors.
@Suite("MFA: Guardian settings, mfa_required, TOTP, SMS and recovery codes")
struct MFATests {
    typealias P = PasswordAccountsTests

    /// A harness with a password user and the given factors on.
    static func world(
        _ kind: HarnessStore, factors: [String] = ["otp", "recovery-code"], policy: [String] = ["all-applications"],
        auditSinks: [any AuditSink] = [], smsLimits: SMSLimits = SMSLimits()
    ) throws -> APIHarness {
        let api = try APIHarness(store: kind, auditSinks: auditSinks, smsLimits: smsLimits)
        let token = try api.managementToken()
        for factor in factors {
            let reply = api.send(.put, "/api/v2/guardian/factors/\(factor)", json: #"{"enabled":true}"#, token: token)
            #expect(reply.status == 200)
        }
        #expect(
            api.send(.put, "/api/v2/guardian/policies", json: APIHarness.encode(policy), token: token).status == 200)
        #expect(P.signUp(api, email: "ada@example.com").status == 200)
        return api
    }

    static func grant(_ api: APIHarness, _ fields: [String: String], from clientIP: String? = nil) -> APIReply {
        var body = fields
        body["client_id"] = api.bootstrap.clientID
        return api.send(.post, "/oauth/token", json: APIHarness.encode(body), clientIP: clientIP)
    }

    /// A password login that must answer `mfa_required`: its mfa token.
    static func mfaToken(_ api: APIHarness) throws -> String {
        let reply = P.logIn(api, username: "ada@example.com")
        #expect(reply.status == 403, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.error == "mfa_required")
        #expect(reply.errorDescription == "Multifactor authentication required")
        return try #require(reply.json["mfa_token"] as? String)
    }

    static func otp(_ secret: String, _ api: APIHarness, offset: Int64 = 0) throws -> String {
        let key = try #require(Base32.decode(secret))
        return TOTP.code(secret: key, counter: TOTP.step(at: api.clock.now()) + offset)
    }

    /// Enrolls SMS to +15550101 with an mfa token.
    static func associateSMS(_ api: APIHarness, token: String) -> APIReply {
        api.send(
            .post, "/mfa/associate",
            json: #"{"authenticator_types":["oob"],"oob_channels":["sms"],"phone_number":"+15550101"}"#,
            authorization: "Bearer \(token)")
    }

    /// Enrolls TOTP with an mfa token and confirms it with a first code: the secret and the recovery code.
    static func enrollOTP(_ api: APIHarness) throws -> (secret: String, recovery: String) {
        let token = try mfaToken(api)
        let associated = api.send(
            .post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, authorization: "Bearer \(token)")
        #expect(associated.status == 200, "\(String(decoding: associated.body, as: UTF8.self))")
        #expect(associated.json["authenticator_type"] as? String == "otp")
        let secret = try #require(associated.json["secret"] as? String)
        let uri = try #require(associated.json["barcode_uri"] as? String)
        #expect(uri.hasPrefix("otpauth://totp/login.test:ada@example.com?secret=\(secret)&issuer=login.test"))
        let recovery = try #require((associated.json["recovery_codes"] as? [String])?.first)
        let confirmed = grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": token,
                "otp": try otp(secret, api),
            ])
        #expect(confirmed.status == 200, "\(String(decoding: confirmed.body, as: UTF8.self))")
        return (secret, recovery)
    }

    @Test("Guardian settings in Auth0's shape", arguments: HarnessStore.allCases)
    func guardian(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        #expect(
            api.send(.get, "/api/v2/guardian/factors", token: token).list.map { $0["enabled"] as? Bool }
                == [false, false, false])
        #expect(
            api.send(.put, "/api/v2/guardian/factors/otp", json: #"{"enabled":true}"#, token: token).json["enabled"]
                as? Bool == true)
        #expect(api.send(.put, "/api/v2/guardian/factors/duo", json: #"{"enabled":true}"#, token: token).status == 404)
        #expect(api.send(.put, "/api/v2/guardian/factors/otp", json: #"{}"#, token: token).status == 400)
        let factors = api.send(.get, "/api/v2/guardian/factors", token: token).list
        #expect(factors.first { $0["name"] as? String == "otp" }?["enabled"] as? Bool == true)
        #expect(String(decoding: api.send(.get, "/api/v2/guardian/policies", token: token).body, as: UTF8.self) == "[]")
        #expect(api.send(.put, "/api/v2/guardian/policies", json: #"["all-applications"]"#, token: token).status == 200)
        #expect(api.send(.get, "/api/v2/guardian/policies", token: token).body == Array(#"["all-applications"]"#.utf8))
        #expect(api.send(.put, "/api/v2/guardian/policies", json: #"["confidence-score"]"#, token: token).status == 400)
        #expect(api.send(.put, "/api/v2/guardian/policies", json: #"{"a":1}"#, token: token).status == 400)
        let stored = try #require(try api.store.read { try $0.tenants.get(id: api.tenant.id) })
        #expect(stored.mfa == MFASettings(factors: [.otp], policy: .allApplications))
        let readOnly = try api.managementToken(scope: "read:guardian_factors")
        #expect(
            api.send(.put, "/api/v2/guardian/factors/sms", json: #"{"enabled":true}"#, token: readOnly).status == 403)
    }

    /// The document's count for `authenticator_types` (exactly one) is the body reader's too.
    @Test("an enrollment names exactly one type", arguments: HarnessStore.allCases)
    func oneType(_ kind: HarnessStore) throws {
        let api = try Self.world(kind)
        let token = try Self.mfaToken(api)
        for (body, message) in [
            (#"{"authenticator_types":[]}"#, "authenticator_types must hold at least 1 value"),
            (#"{"authenticator_types":["otp","oob"]}"#, "authenticator_types holds at most 1"),
        ] {
            let refused = api.send(.post, "/mfa/associate", json: body, authorization: "Bearer \(token)")
            #expect(refused.status == 400)
            let description = refused.json["error_description"] as? String ?? ""
            #expect(description.hasPrefix(message), "\(description)")
        }
        #expect(try P.users(api).first?.mfa.isEmpty == true)
    }

    @Test("enroll TOTP at the first login, then log in through mfa_required", arguments: HarnessStore.allCases)
    func totp(_ kind: HarnessStore) throws {
        let api = try Self.world(kind)
        let (secret, recovery) = try Self.enrollOTP(api)
        let stored = try #require(try P.users(api).first)
        #expect(stored.mfa.map(\.factor) == [.otp, .recoveryCode])
        #expect(stored.mfa.allSatisfy { $0.active })
        // The secret is sealed at rest.
        #expect(stored.mfa[0].sealedSecret.count == 12 + 20 + 16)
        #expect(stored.mfa[0].sealedSecret != Base32.decode(secret))

        api.clock.advance(by: 30)
        let token = try Self.mfaToken(api)
        let login = P.logIn(api, username: "ada@example.com")
        let requirements = try #require(login.json["mfa_requirements"] as? [String: [[String: String]]])
        #expect(requirements["challenge"]?.map { $0["type"] } == ["otp", "recovery-code"])
        let code = try Self.otp(secret, api)
        let reply = Self.grant(
            api, ["grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": token, "otp": code])
        #expect(reply.status == 200)
        let idToken = try P.claims(try #require(reply.json["id_token"] as? String))
        #expect(idToken["amr"] as? [String] == ["pwd", "mfa", "otp"])
        #expect(reply.json["refresh_token"] is String)
        // The same code again, with another mfa token: refused (used once).
        let again = Self.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": try Self.mfaToken(api),
                "otp": code,
            ])
        #expect(again.status == 403)
        #expect(
            String(decoding: again.body, as: UTF8.self)
                == #"{"error":"invalid_grant","error_description":"Invalid otp_code."}"#)
        // A used mfa token is spent.
        let spent = Self.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": token,
                "otp": try Self.otp(secret, api, offset: 1),
            ])
        #expect(spent.errorDescription == "Malformed mfa_token")

        // A recovery code works once, and a new one comes back.
        let recovered = Self.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-recovery-code",
                "mfa_token": try Self.mfaToken(api),
                "recovery_code": recovery,
            ])
        #expect(recovered.status == 200)
        let next = try #require(recovered.json["recovery_code"] as? String)
        #expect(next != recovery && next.count == 24)
        let reused = Self.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-recovery-code",
                "mfa_token": try Self.mfaToken(api),
                "recovery_code": recovery,
            ])
        #expect(reused.errorDescription == "Invalid recovery_code.")
    }

    @Test("mfa_token errors in Auth0's words, and a limit on wrong codes", arguments: HarnessStore.allCases)
    func tokenErrors(_ kind: HarnessStore) throws {
        let api = try Self.world(kind)
        let (secret, _) = try Self.enrollOTP(api)
        let otpGrant = "http://auth0.com/oauth/grant-type/mfa-otp"
        for malformed in ["", "garbage", "eyJhbGciOiJFUzI1NiJ9.e30.sig", String(repeating: "A", count: 300)] {
            let reply = Self.grant(api, ["grant_type": otpGrant, "mfa_token": malformed, "otp": "123456"])
            #expect(reply.status == 403 || reply.status == 400)
            if reply.status == 403 { #expect(reply.errorDescription == "Malformed mfa_token") }
        }
        // A reset ticket is not an mfa token.
        #expect(P.requestReset(api, email: "ada@example.com").status == 200)
        let ticket = try #require(try P.resetTicket(api, email: "ada@example.com"))
        #expect(
            Self.grant(api, ["grant_type": otpGrant, "mfa_token": ticket, "otp": "123456"]).errorDescription
                == "Malformed mfa_token")
        // Ten minutes, then expired.
        let token = try Self.mfaToken(api)
        api.clock.advance(by: 601)
        let expired = Self.grant(api, ["grant_type": otpGrant, "mfa_token": token, "otp": try Self.otp(secret, api)])
        #expect(expired.error == "expired_token")
        #expect(expired.errorDescription == "mfa_token is expired")
        // Five wrong codes end the token.
        let fresh = try Self.mfaToken(api)
        for _ in 0..<5 {
            #expect(
                Self.grant(api, ["grant_type": otpGrant, "mfa_token": fresh, "otp": "000000"]).errorDescription
                    == "Invalid otp_code.")
        }
        let limited = Self.grant(api, ["grant_type": otpGrant, "mfa_token": fresh, "otp": try Self.otp(secret, api)])
        #expect(limited.status == 429)
        #expect(limited.error == "too_many_attempts")
        // The client that got the token must redeem it.
        let foreign = try Self.mfaToken(api)
        let token2 = try api.managementToken()
        let other = api.send(
            .post, "/api/v2/clients",
            json: #"{"name":"Other","app_type":"native","grant_types":["http://auth0.com/oauth/grant-type/mfa-otp"]}"#,
            token: token2)
        let otherID = try #require(other.json["client_id"] as? String)
        let wrongClient = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": otpGrant, "client_id": otherID, "mfa_token": foreign, "otp": try Self.otp(secret, api),
            ]))
        #expect(wrongClient.errorDescription == "Malformed mfa_token")
    }

    @Test("SMS: enroll, the code by the outbox, challenge again", arguments: HarnessStore.allCases)
    func sms(_ kind: HarnessStore) throws {
        let api = try Self.world(kind, factors: ["sms"])
        let token = try Self.mfaToken(api)
        let associated = Self.associateSMS(api, token: token)
        #expect(associated.status == 200, "\(String(decoding: associated.body, as: UTF8.self))")
        #expect(associated.json["oob_channel"] as? String == "sms")
        #expect(associated.json["binding_method"] as? String == "prompt")
        #expect(associated.json["recovery_codes"] == nil)
        let oob = try #require(associated.json["oob_code"] as? String)
        func lastCode() throws -> String { String(try #require(try api.outboxText(to: "+15550101")).prefix(6)) }
        let code = try lastCode()
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        let oobGrant = "http://auth0.com/oauth/grant-type/mfa-oob"
        let wrong = Self.grant(
            api,
            [
                "grant_type": oobGrant, "mfa_token": token, "oob_code": oob,
                "binding_code": "000000" == code ? "111111" : "000000",
            ])
        #expect(
            String(decoding: wrong.body, as: UTF8.self)
                == #"{"error":"invalid_grant","error_description":"Invalid binding_code."}"#)
        let done = Self.grant(api, ["grant_type": oobGrant, "mfa_token": token, "oob_code": oob, "binding_code": code])
        #expect(done.status == 200, "\(String(decoding: done.body, as: UTF8.self))")
        #expect(
            try P.claims(try #require(done.json["id_token"] as? String))["amr"] as? [String] == ["pwd", "mfa", "sms"])

        // The next login: challenge, a new code, the grant (a second later, so the outbox's newest is it).
        api.clock.advance(by: 1)
        let next = try Self.mfaToken(api)
        let challenged = api.send(
            .post, "/mfa/challenge",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "mfa_token": next, "challenge_type": "oob"]))
        #expect(challenged.json["challenge_type"] as? String == "oob")
        let nextOOB = try #require(challenged.json["oob_code"] as? String)
        #expect(
            Self.grant(
                api, ["grant_type": oobGrant, "mfa_token": next, "oob_code": nextOOB, "binding_code": try lastCode()]
            ).status == 200)
        // An oob code belongs to its mfa token.
        let third = try Self.mfaToken(api)
        #expect(
            Self.grant(
                api, ["grant_type": oobGrant, "mfa_token": third, "oob_code": nextOOB, "binding_code": "123456"]
            ).errorDescription == "Invalid oob_code.")
        // otp was not enrolled: challenge says so.
        let otpOnly = api.send(
            .post, "/mfa/challenge",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "mfa_token": third, "challenge_type": "otp"]))
        #expect(otpOnly.error == "unsupported_challenge_type")
        #expect(try P.users(api).first?.mfa.first?.phoneNumber == "+15550101")
    }

    @Test("authenticators are listed and removed; a passkey login never asks", arguments: HarnessStore.allCases)
    func authenticators(_ kind: HarnessStore) throws {
        let api = try Self.world(kind)
        let (secret, _) = try Self.enrollOTP(api)
        let token = try Self.mfaToken(api)
        let listed = api.send(.get, "/mfa/authenticators", authorization: "Bearer \(token)").list
        #expect(listed.map { $0["authenticator_type"] as? String } == ["otp", "recovery-code"])
        #expect(listed.allSatisfy { $0["active"] as? Bool == true })
        #expect((listed.first?["id"] as? String)?.hasPrefix("totp|dev_") == true)
        // Enrolling again with an mfa token is refused once a factor is active.
        let again = api.send(
            .post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, authorization: "Bearer \(token)")
        #expect(again.status == 400)
        #expect(again.errorDescription == "User is already enrolled")
        // An mfa token cannot remove a factor; an MFA API token with remove:authenticators can.
        let id = try #require(listed.first?["id"] as? String).replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, "/mfa/authenticators/\(id)", authorization: "Bearer \(token)").status == 403)
        let asked = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "ada@example.com",
                "password": P.password, "audience": MFAService.audience(api.tenant),
                "scope": "read:authenticators remove:authenticators",
            ]))
        let mfaToken = try #require(asked.json["mfa_token"] as? String)
        let mfaAPI = Self.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": mfaToken,
                "otp": try Self.otp(secret, api, offset: 1),
            ])
        let access = try #require(mfaAPI.json["access_token"] as? String)
        #expect(try P.claims(access)["scope"] as? String == "read:authenticators remove:authenticators")
        #expect(api.send(.get, "/mfa/authenticators", token: access).list.count == 2)
        #expect(api.send(.delete, "/mfa/authenticators/nope", token: access).status == 404)
        #expect(api.send(.delete, "/mfa/authenticators/\(id)", token: access).status == 204)
        // The recovery code went with the last factor; the policy asks for enrollment again.
        #expect(api.send(.get, "/mfa/authenticators", token: access).list.isEmpty)
        let login = P.logIn(api, username: "ada@example.com")
        let requirements = try #require(login.json["mfa_requirements"] as? [String: [[String: String]]])
        #expect(requirements["enroll"]?.map { $0["type"] } == ["otp"])
        // A My Account token is not an MFA API token.
        #expect(api.send(.get, "/mfa/authenticators", authorization: "Bearer not-a-token").status == 401)
        #expect(api.send(.get, "/mfa/authenticators").status == 401)

        // A passkey login with UV never asks for a second factor.
        let authenticator = api.authenticator()
        let session = try api.signUp(authenticator, email: "pat@example.com")
        #expect(api.send(.get, "/mfa/authenticators", token: session.accessToken).status == 401)
        #expect(try api.logInForTokens(authenticator)["access_token"] is String)
    }

    @Test("the enrolled-users policy asks only users with a factor", arguments: HarnessStore.allCases)
    func enrolledUsersPolicy(_ kind: HarnessStore) throws {
        let api = try Self.world(kind, policy: [])
        #expect(P.logIn(api, username: "ada@example.com").status == 200)
        // Factors off: nobody is asked, whatever the policy.
        let plain = try APIHarness(store: kind)
        #expect(P.signUp(plain, email: "ada@example.com").status == 200)
        let token = try plain.managementToken()
        #expect(
            plain.send(.put, "/api/v2/guardian/policies", json: #"["all-applications"]"#, token: token).status == 200)
        #expect(P.logIn(plain, username: "ada@example.com").status == 200)
    }

    @Test("a signed-in user enrolls with an MFA API token and confirms with it", arguments: HarnessStore.allCases)
    func enrollWithAccessToken(_ kind: HarnessStore) throws {
        let api = try Self.world(kind, policy: [])
        let login = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "ada@example.com",
                "password": P.password, "audience": MFAService.audience(api.tenant), "scope": "enroll",
            ]))
        let access = try #require(login.json["access_token"] as? String)
        let associated = api.send(.post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, token: access)
        #expect(associated.status == 200)
        let secret = try #require(associated.json["secret"] as? String)
        // Not active yet: a login does not ask for it.
        #expect(P.logIn(api, username: "ada@example.com").status == 200)
        let wrong = Self.grant(
            api, ["grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": access, "otp": "000000"])
        #expect(wrong.errorDescription == "Invalid otp_code.")
        let confirmed = Self.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": access,
                "otp": try Self.otp(secret, api),
            ])
        #expect(confirmed.status == 200, "\(String(decoding: confirmed.body, as: UTF8.self))")
        #expect(try P.users(api).first?.mfa.allSatisfy { $0.active } == true)
        // Now every password login asks for it; an access token without enroll confirms nothing.
        #expect(P.logIn(api, username: "ada@example.com").error == "mfa_required")
        let myAccount = try #require(
            api.send(
                .post, "/oauth/token",
                json: APIHarness.encode([
                    "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "client_id": api.bootstrap.clientID,
                    "mfa_token": try Self.mfaToken(api), "otp": try Self.otp(secret, api, offset: 1),
                ])
            ).json["access_token"] as? String)
        let refused = Self.grant(
            api, ["grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": myAccount, "otp": "123456"])
        #expect(refused.errorDescription == "Malformed mfa_token")
    }

    @Test("ten SMS codes an hour per user, then 429", arguments: HarnessStore.allCases)
    func smsSendsAreCapped(_ kind: HarnessStore) throws {
        let api = try Self.world(kind, factors: ["sms"])
        let token = try Self.mfaToken(api)
        let associated = Self.associateSMS(api, token: token)
        #expect(associated.status == 200)
        let challenge = APIHarness.encode([
            "client_id": api.bootstrap.clientID, "mfa_token": token, "challenge_type": "oob",
        ])
        for _ in 0..<9 { #expect(api.send(.post, "/mfa/challenge", json: challenge).status == 200) }
        let capped = api.send(.post, "/mfa/challenge", json: challenge)
        #expect(capped.status == 429)
        #expect(capped.error == "too_many_attempts")
        let sent = api.send(.get, "/api/v2/outbox?to=%2B15550101", token: try api.managementToken())
        #expect(sent.list.count == 10)
        // An hour later (a new sign-in, the first token has expired) codes go out again.
        api.clock.advance(by: 3_601)
        let later = APIHarness.encode([
            "client_id": api.bootstrap.clientID, "mfa_token": try Self.mfaToken(api), "challenge_type": "oob",
        ])
        #expect(api.send(.post, "/mfa/challenge", json: later).status == 200)
    }

    @Test(
        "forty wrong codes at once, in two processes sharing the store, are checked at most five times",
        arguments: HarnessStore.allCases.filter { $0 != .memory })
    func concurrentWrongCodesStopAtTheLimit(_ kind: HarnessStore) throws {
        let api = try Self.world(kind)
        let (secret, _) = try Self.enrollOTP(api)
        api.clock.advance(by: 30)
        let token = try Self.mfaToken(api)
        let peer = try api.peer()
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            var body = [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "client_id": api.bootstrap.clientID,
                "mfa_token": token, "otp": String(format: "%06d", index),
            ]
            if let right = try? Self.otp(secret, api), body["otp"] == right { body["otp"] = "999999" }
            let reply = api.send(
                .post, "/oauth/token", json: APIHarness.encode(body), via: index.isMultiple(of: 2) ? peer : nil)
            statuses.withLock { $0.append(reply.status) }
        }
        let all = statuses.withLock { $0 }
        #expect(all.filter { $0 == 403 }.count == MFAService.maxTokenFailures, "\(all)")
        #expect(all.filter { $0 == 429 }.count == 40 - MFAService.maxTokenFailures, "\(all)")
        // The token is spent: even the right code is refused now.
        let right = Self.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": token,
                "otp": try Self.otp(secret, api),
            ])
        #expect(right.status == 429)
    }

    @Test(
        "SMS pumping: caps per address, number, number block and tenant, each with Retry-After and an audit entry",
        arguments: HarnessStore.allCases)
    func smsPumpingCaps(_ kind: HarnessStore) throws {
        var limits = SMSLimits()
        limits.perAddress = 2
        limits.perNumber = 2
        limits.perPrefix = 3
        limits.perTenant = 5
        let api = try Self.world(kind, factors: ["sms"], smsLimits: limits)
        for email in ["bob@example.com", "cy@example.com", "di@example.com"] {
            #expect(P.signUp(api, email: email).status == 200)
        }
        /// Enrolls SMS for `email` at `number` from `ip`: the answer.
        func enroll(_ email: String, _ number: String, from ip: String) throws -> APIReply {
            let login = P.logIn(api, username: email, from: ip)
            let token = try #require(login.json["mfa_token"] as? String)
            return api.send(
                .post, "/mfa/associate",
                json: APIHarness.encode([
                    "authenticator_types": ["oob"], "oob_channels": ["sms"], "phone_number": number,
                ]), authorization: "Bearer \(token)", clientIP: ip)
        }
        // The same number for two accounts: the third code to it is refused.
        #expect(try enroll("ada@example.com", "+15550100001", from: "198.51.100.1").status == 200)
        #expect(try enroll("bob@example.com", "+15550100001", from: "198.51.100.2").status == 200)
        let number = try enroll("cy@example.com", "+15550100001", from: "198.51.100.3")
        #expect(number.status == 429 && number.error == "too_many_attempts")
        #expect(Int(number.headers["Retry-After"] ?? "") == 3_600)
        // Another number in the same block of 10,000 goes out; then the block's cap (3) is reached.
        #expect(try enroll("cy@example.com", "+15550100002", from: "198.51.100.3").status == 200)
        #expect(try enroll("di@example.com", "+15550109999", from: "198.51.100.4").status == 429)
        // Half an hour on, the address that sent one already sends its second, then no more.
        api.clock.advance(by: 1_800)
        #expect(try enroll("di@example.com", "+15550200000", from: "198.51.100.3").status == 200)
        #expect(try enroll("di@example.com", "+15550200001", from: "198.51.100.3").status == 429)
        // The tenant's cap: five sent this hour, whatever the address and number.
        #expect(try enroll("di@example.com", "+15550300000", from: "198.51.100.9").status == 200)
        let tenant = try enroll("di@example.com", "+15550400000", from: "198.51.100.8")
        #expect(tenant.status == 429)
        #expect(Int(tenant.headers["Retry-After"] ?? "") == 1_800)
        // Nothing was sent past a cap; each refusal is in the audit log with the cap it met.
        let sent = api.send(.get, "/api/v2/outbox", token: try api.managementToken()).list
        #expect(sent.filter { $0["template"] as? String == "mfa_code" }.count == 5)
        api.application.flush()
        let logs = api.send(.get, "/api/v2/logs?q=type:sesame_sms_limited", token: try api.managementToken()).list
        #expect(
            Set(logs.compactMap { ($0["details"] as? [String: Any])?["target"] as? String })
                == ["number", "prefix", "address", "tenant"])
        #expect(api.application.mfa.smsLimited.all.map(\.count).reduce(0, +) == 4)
        // An hour after the first sends, codes go out again.
        api.clock.advance(by: 1_801)
        #expect(try enroll("di@example.com", "+15550400000", from: "198.51.100.8").status == 200)
    }
}

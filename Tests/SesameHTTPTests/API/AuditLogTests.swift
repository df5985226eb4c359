import Foundation
import SesameHTTP
import SesameService
import SesameStore
import SesameTesting
import Testing

/// The audit log (docs/audit-log.md): real flows leave Auth0-coded entries, served at
/// /api/v2/logs and shipped as JSON lines, with no secret any flow produced.
@Suite("Audit log")
struct AuditLogTests {
    typealias P = PasswordAccountsTests
    static let email = UpgradeWorld.email
    static let password = "correct horse battery staple 42"

    /// A temporary JSON-lines file and its sink.
    final class TempFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).jsonl")
            .path
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    }

    static func logs(_ api: APIHarness, _ query: String = "per_page=100", token: String? = nil) throws -> APIReply {
        api.application.flush()
        return api.send(.get, "/api/v2/logs?\(query)", token: try token ?? api.managementToken())
    }

    @Test("real flows are logged with Auth0's codes and no secret appears", arguments: HarnessStore.allCases)
    func flowsWithoutSecrets(_ kind: HarnessStore) throws {
        let file = TempFile()
        let api = try APIHarness(store: kind, auditSinks: [try AuditFileSink(path: file.path)])
        var secrets: [String] = [Self.password, "wrong horse battery staple 1", "another wrong password 77"]
        // Password signup, wrong password, unknown user, then a good login and a refresh.
        #expect(P.signUp(api, email: Self.email, password: Self.password).status == 200)
        let wrong = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": api.bootstrap.clientID,
                "username": Self.email, "password": secrets[1], "realm": Bootstrap.defaultConnectionName,
            ]), headers: [("User-Agent", "AuditTest/1.0 (\u{1}x)")], clientIP: "198.51.100.7")
        #expect(wrong.status == 403)
        #expect(P.logIn(api, username: "nobody@example.com", password: secrets[2]).status == 403)
        let login = P.logIn(api, username: Self.email, password: Self.password)
        #expect(login.status == 200)
        let refresh = try #require(login.json["refresh_token"] as? String)
        let refreshed = api.refresh(refresh)
        #expect(refreshed.status == 200)
        secrets += [refresh, try #require(login.json["access_token"] as? String)]
        secrets += [try #require(refreshed.json["refresh_token"] as? String)]
        secrets += [try #require(refreshed.json["access_token"] as? String)]
        // Passkey signup and login.
        let authenticator = api.authenticator()
        let passkeySignup = try api.signUpForTokens(authenticator, email: "grace@example.com")
        let passkeyLogin = try api.logInForTokens(authenticator)
        for reply in [passkeySignup, passkeyLogin] {
            for key in ["access_token", "id_token", "refresh_token"] {
                if let value = reply[key] as? String { secrets.append(value) }
            }
        }
        // A second passkey enrolled through My Account.
        let session = try api.logIn(authenticator)
        secrets.append(session.accessToken)
        _ = try api.enroll(api.authenticator(), accessToken: session.accessToken)
        // MFA OTP enrollment.
        let management = try api.managementToken()
        secrets.append(management)
        #expect(
            api.send(.put, "/api/v2/guardian/factors/otp", json: #"{"enabled":true}"#, token: management).status == 200)
        #expect(api.send(.put, "/api/v2/guardian/policies", json: "[]", token: management).status == 200)
        let enrollToken = try AccountUpgradeTests.mfaAPIToken(api, password: Self.password)
        let associated = api.send(
            .post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, authorization: "Bearer \(enrollToken)")
        let otpSecret = try #require(associated.json["secret"] as? String)
        let code = try MFATests.otp(otpSecret, api)
        let confirm = MFATests.grant(
            api, ["grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": enrollToken, "otp": code])
        #expect(confirm.status == 200)
        secrets += [enrollToken, otpSecret, code, try #require(confirm.json["access_token"] as? String)]
        if let recovery = associated.json["recovery_codes"] as? [String] { secrets += recovery }
        // A Management client with its secret.
        let created = api.send(
            .post, "/api/v2/clients", json: #"{"name":"Audit M2M","app_type":"non_interactive"}"#, token: management)
        #expect(created.status == 201)
        secrets.append(try #require(created.json["client_secret"] as? String))
        // A password reset code.
        #expect(P.requestReset(api, email: Self.email).status == 200)
        secrets.append(try #require(try P.resetTicket(api, email: Self.email)))
        // An upgrade token, spent on a strong password: the user has OTP now, so the login asks for it.
        let first = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": api.bootstrap.clientID,
                "username": Self.email, "password": Self.password, "realm": Bootstrap.defaultConnectionName,
                "scope": "openid", "audience": TokenService.myAccountAudience(api.tenant),
            ]))
        let mfaToken = try #require(
            first.json["mfa_token"] as? String, "\(String(decoding: first.body, as: UTF8.self))")
        api.clock.advance(by: 31)
        let second = MFATests.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": mfaToken,
                "otp": try MFATests.otp(otpSecret, api),
            ])
        let myAccountToken = try #require(second.json["access_token"] as? String)
        let authorized = api.send(
            .post, "/me/v1/upgrades/authorize", json: #"{"type":"strong_password"}"#, token: myAccountToken)
        let upgradeToken = try #require(
            authorized.json["upgrade_token"] as? String, "\(String(decoding: authorized.body, as: UTF8.self))")
        let strong = "v8#Lq-2mZp!rT4wX-audit"
        let upgraded = api.send(
            .post, "/me/v1/upgrades/strong-password",
            json: APIHarness.encode(["upgrade_token": upgradeToken, "new_password": strong]))
        #expect(upgraded.status == 200)
        secrets += [mfaToken, myAccountToken, upgradeToken, strong]

        let reply = try Self.logs(api)
        #expect(reply.status == 200)
        let entries = reply.list
        let types = Set(entries.compactMap { $0["type"] as? String })
        for code in [
            "ss", "fp", "fu", "sepft", "sertft", "s", "seccft", "seotpft", "sapi", "scpr", "sesame_account_upgraded",
            "mfar", "sesame_passkey_enrolled",
        ] {
            #expect(types.contains(code), "no \(code) entry in \(types.sorted())")
        }
        // Auth0's shape, with the request's origin.
        let failed = try #require(entries.first { $0["type"] as? String == "fp" })
        #expect(failed["ip"] as? String == "198.51.100.7")
        #expect(failed["user_agent"] as? String == "AuditTest/1.0 (x)")
        #expect(failed["user_name"] as? String == Self.email)
        #expect(failed["client_id"] as? String == api.bootstrap.clientID)
        #expect(failed["client_name"] is String)
        #expect(failed["connection"] as? String == Bootstrap.defaultConnectionName)
        #expect(failed["strategy"] as? String == "auth0")
        #expect((failed["details"] as? [String: Any])?["reason"] as? String == "wrong_password")
        #expect(failed["description"] as? String == "Wrong email or password.")
        let unknown = try #require(entries.first { $0["type"] as? String == "fu" })
        #expect(unknown["user_name"] == nil && unknown["user_id"] == nil)
        let operation = try #require(entries.first { $0["type"] as? String == "sapi" })
        #expect(operation["client_id"] as? String == api.bootstrap.managementClientID)
        // Newest first; each entry is also served by id.
        let ids = entries.compactMap { $0["log_id"] as? String }
        #expect(ids == ids.sorted(by: >))
        let one = api.send(.get, "/api/v2/logs/\(ids[0])", token: management)
        #expect(one.status == 200 && one.json["log_id"] as? String == ids[0])

        // Shipped: the same entries as JSON lines, each with its tenant.
        let lines = file.text.split(separator: "\n")
        #expect(lines.count == entries.count)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["tenant_id"] as? String == api.tenant.id)
        }
        // No secret anywhere.
        let served = String(decoding: reply.body, as: UTF8.self) + String(decoding: one.body, as: UTF8.self)
        for secret in secrets where secret.count >= 6 {
            #expect(!served.contains(secret), "a secret reached GET /api/v2/logs")
            #expect(!file.text.contains(secret), "a secret reached the audit file")
        }
    }

    @Test(
        "enrollments, SMS, deletions, rotations, revocations and logouts have entries of their own",
        arguments: HarnessStore.allCases)
    func changesOfTheirOwn(_ kind: HarnessStore) throws {
        let file = TempFile()
        let api = try MFATests.world(
            kind, factors: ["otp", "sms", "recovery-code"], auditSinks: [try AuditFileSink(path: file.path)])
        var secrets: [String] = []
        // TOTP enrolled and confirmed with its first code (ada), then SMS for bob.
        let (otpSecret, recovery) = try MFATests.enrollOTP(api)
        secrets += [otpSecret, recovery]
        #expect(P.signUp(api, email: "bob@example.com").status == 200)
        let bobLogin = P.logIn(api, username: "bob@example.com")
        let bobMFA = try #require(bobLogin.json["mfa_token"] as? String)
        let associated = MFATests.associateSMS(api, token: bobMFA)
        let oob = try #require(associated.json["oob_code"] as? String)
        let code = String(try #require(try api.outboxText(to: "+15550101")).prefix(6))
        let confirmed = MFATests.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-oob", "mfa_token": bobMFA, "oob_code": oob,
                "binding_code": code,
            ])
        #expect(confirmed.status == 200)
        secrets += [bobMFA, oob, code, try #require(confirmed.json["access_token"] as? String)]
        // A passkey user: a second passkey, the first deleted, a device key registered and deleted.
        let authenticator = api.authenticator()
        let tokens = try api.signUpForTokens(authenticator, email: "grace@example.com")
        let refresh = try #require(tokens["refresh_token"] as? String)
        let session = try api.logIn(authenticator)
        secrets += [refresh, session.accessToken]
        _ = try api.enroll(api.authenticator(), accessToken: session.accessToken)
        let methods =
            api.send(.get, "/me/v1/authentication-methods", token: session.accessToken).json["authentication_methods"]
            as? [[String: Any]] ?? []
        let passkeyID = try #require(methods.first?["id"] as? String)
        let path = "/me/v1/authentication-methods/" + passkeyID.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, path, token: session.accessToken).status == 204)
        let device = try api.registerDeviceKey(TestDeviceKey(), token: session.accessToken)
        #expect(device.status == 201)
        let keyID = try #require(device.json["id"] as? String)
        #expect(api.send(.delete, "/me/v1/device-keys/\(keyID)", token: session.accessToken).status == 204)
        // The refresh token revoked (RFC 7009), and a hosted-page session signed out.
        let revoked = api.send(
            .post, "/oauth/revoke", json: APIHarness.encode(["client_id": api.bootstrap.clientID, "token": refresh]))
        #expect(revoked.status == 200)
        let grace = try #require(try api.store.read { try $0.users.get(tenantID: api.tenant.id, id: session.userID) })
        let sso = try api.application.sessions.begin(
            tenant: api.tenant, proof: SignInProof(user: grace, amr: ["pop"], authTime: api.clock.now()),
            browser: BrowserContext(userAgent: "AuditTest", address: "198.51.100.9"), replacing: nil)
        secrets.append(sso.cookie)
        try api.application.sessions.end(tenant: api.tenant, cookie: sso.cookie, clientID: api.bootstrap.clientID)
        // Management: the signing keys rotated, bob deleted.
        let management = try api.managementToken()
        secrets.append(management)
        let rotated = api.send(.post, "/api/v2/keys/signing/rotate", token: management)
        #expect(rotated.status == 201 || rotated.status == 200)
        let kids = Set((rotated.json["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String })
        let bob = try #require(try P.users(api).first { $0.profile.email == "bob@example.com" })
        #expect(api.send(.delete, "/api/v2/users/\(bob.id)", token: management).status == 204)

        let reply = try Self.logs(api)
        let all = reply.list
        func entries(_ type: String) -> [[String: Any]] { all.filter { $0["type"] as? String == type } }
        func details(_ entry: [String: Any]?) -> [String: Any] { entry?["details"] as? [String: Any] ?? [:] }
        let enrolled = entries("gd_enrollment_complete")
        #expect(Set(enrolled.compactMap { details($0)["method"] as? String }) == ["otp", "sms"])
        #expect(enrolled.allSatisfy { $0["client_id"] as? String == api.bootstrap.clientID })
        let sms = try #require(entries("gd_send_sms").first)
        #expect(sms["user_id"] as? String == bob.id && sms["user_name"] as? String == "bob@example.com")
        let deletedPasskey = try #require(entries("sesame_passkey_deleted").first)
        #expect(
            details(deletedPasskey)["target"] as? String == passkeyID.split(separator: "|").last.map(String.init)
                || details(deletedPasskey)["target"] as? String == passkeyID)
        #expect(deletedPasskey["user_id"] as? String == session.userID)
        #expect(deletedPasskey["client_id"] as? String == api.bootstrap.clientID)
        #expect(details(entries("sesame_device_key_enrolled").first)["target"] as? String == keyID)
        #expect(details(entries("sesame_device_key_deleted").first)["target"] as? String == keyID)
        let revocation = try #require(entries("srrt").first)
        #expect(revocation["user_id"] as? String == session.userID)
        #expect(revocation["client_id"] as? String == api.bootstrap.clientID)
        let logout = try #require(entries("slo").first)
        #expect(logout["user_id"] as? String == session.userID)
        #expect(logout["client_id"] as? String == api.bootstrap.clientID)
        #expect(Set(entries("sesame_signing_key_rotated").compactMap { details($0)["target"] as? String }) == kids)
        #expect(
            entries("sesame_signing_key_rotated").allSatisfy {
                $0["client_id"] as? String == api.bootstrap.managementClientID
            })
        let deletion = try #require(entries("sdu").first)
        #expect(deletion["user_id"] as? String == bob.id && deletion["user_name"] as? String == "bob@example.com")
        #expect(deletion["client_id"] as? String == api.bootstrap.managementClientID)
        // A deleted user's entries are still theirs.
        #expect(
            api.send(.get, "/api/v2/users/\(bob.id)/logs", token: management).list.contains {
                $0["type"] as? String == "sdu"
            })
        // No secret anywhere: the API's answer, and the same entries in the file.
        try Self.expectNoSecret(secrets, served: reply, file: file, entries: all)
    }

    /// The file holds the entries the API served (one line each, with the tenant), and neither
    /// holds any of `secrets`.
    static func expectNoSecret(
        _ secrets: [String], served reply: APIReply, file: TempFile, entries: [[String: Any]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let lines = file.text.split(separator: "\n")
        var logged: Set<String> = []
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                sourceLocation: sourceLocation)
            logged.insert(object["log_id"] as? String ?? "")
        }
        #expect(logged == Set(entries.compactMap { $0["log_id"] as? String }), sourceLocation: sourceLocation)
        #expect(lines.count == entries.count, sourceLocation: sourceLocation)
        let served = String(decoding: reply.body, as: UTF8.self)
        let text = file.text
        #expect(!secrets.isEmpty, sourceLocation: sourceLocation)
        for secret in secrets where secret.count >= 6 {
            #expect(!served.contains(secret), "a secret reached GET /api/v2/logs", sourceLocation: sourceLocation)
            #expect(!text.contains(secret), "a secret reached the audit file", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "removing a password or a second factor has an entry of its own on every path, in the API and the file",
        arguments: HarnessStore.allCases)
    func removalsOfTheirOwn(_ kind: HarnessStore) throws {
        let file = TempFile()
        let api = try MFATests.world(kind, auditSinks: [try AuditFileSink(path: file.path)])
        try AuthorizeFlowTests.withoutPrompts(api)
        let management = try api.managementToken()
        var secrets = [P.password, management]
        func user(_ email: String) throws -> UserRecord {
            try #require(try P.users(api).first { $0.profile.email == email })
        }

        // Ada: TOTP and its recovery code, removed on the account page after a sign-in with both factors.
        let (adaSecret, adaRecovery) = try MFATests.enrollOTP(api)
        secrets += [adaSecret, adaRecovery]
        let adaFactors = try user("ada@example.com").mfa
        let adaTOTP = try #require(adaFactors.first { $0.factor == .otp }?.id)
        api.clock.advance(by: 30)
        let browser = HostedBrowser(api)
        browser.send(.get, "/account")
        browser.follow()
        browser.submit("/u/login", [("username", "ada@example.com")])
        browser.submit("/u/login/password", [("password", P.password)])
        #expect(browser.html.contains("data-page=\"mfa\""), "\(browser.html)")
        let adaCode = try MFATests.otp(adaSecret, api)
        secrets.append(adaCode)
        browser.submit("/u/mfa", [("otp", adaCode)])
        #expect(browser.last.status == 303, "\(browser.html)")
        browser.follow()
        #expect(browser.html.contains("data-page=\"account\""), "\(browser.html)")
        secrets += browser.cookies.values.filter { $0.count >= 16 }
        let factorPath = "/account/mfa/" + (adaTOTP.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        browser.submit(factorPath + "/delete", [])
        #expect(browser.location == "/account?done=factor", "\(browser.html)")
        #expect(try user("ada@example.com").mfa.isEmpty)

        // Bob: TOTP enrolled at his first login, then a My Account token and an MFA API token.
        #expect(P.signUp(api, email: "bob@example.com").status == 200)
        let bobFirst = try #require(P.logIn(api, username: "bob@example.com").json["mfa_token"] as? String)
        let associated = api.send(
            .post, "/mfa/associate", json: #"{"authenticator_types":["otp"]}"#, authorization: "Bearer \(bobFirst)")
        let bobSecret = try #require(associated.json["secret"] as? String)
        let bobConfirm = try MFATests.otp(bobSecret, api)
        let confirmed = MFATests.grant(
            api, ["grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": bobFirst, "otp": bobConfirm])
        #expect(confirmed.status == 200, "\(String(decoding: confirmed.body, as: UTF8.self))")
        secrets += [bobFirst, bobSecret, bobConfirm] + (associated.json["recovery_codes"] as? [String] ?? [])
        secrets += [try #require(confirmed.json["access_token"] as? String)]
        /// Bob's password login for `audience`, finished with a fresh TOTP code: its access token.
        func bobToken(audience: String, scope: String) throws -> String {
            api.clock.advance(by: 30)
            let first = api.send(
                .post, "/oauth/token",
                json: APIHarness.encode([
                    "grant_type": "http://auth0.com/oauth/grant-type/password-realm",
                    "client_id": api.bootstrap.clientID, "username": "bob@example.com", "password": P.password,
                    "realm": Bootstrap.defaultConnectionName, "audience": audience, "scope": scope,
                ]))
            let mfaToken = try #require(first.json["mfa_token"] as? String)
            let code = try MFATests.otp(bobSecret, api)
            let second = MFATests.grant(
                api, ["grant_type": "http://auth0.com/oauth/grant-type/mfa-otp", "mfa_token": mfaToken, "otp": code])
            let token = try #require(
                second.json["access_token"] as? String, "\(String(decoding: second.body, as: UTF8.self))")
            secrets += [mfaToken, code, token]
            return token
        }
        let myAccount = try bobToken(audience: TokenService.myAccountAudience(api.tenant), scope: "openid")
        let mfaAPI = try bobToken(
            audience: MFAService.audience(api.tenant), scope: "read:authenticators remove:authenticators")
        let bob = try user("bob@example.com")
        let bobPassword = try #require(bob.password?.id)
        let bobTOTP = try #require(bob.mfa.first { $0.factor == .otp }?.id)
        let bobRecoveryID = try #require(bob.mfa.first { $0.factor == .recoveryCode }?.id)
        // My Account: refused while the password is the only way in (no entry), removed beside a passkey.
        let passwordPath = "/me/v1/authentication-methods/" + bobPassword.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, passwordPath, token: myAccount).status == 409)
        _ = try api.enroll(api.authenticator(), accessToken: myAccount)
        #expect(api.send(.delete, passwordPath, token: myAccount).status == 204)
        // The MFA API: an unknown id is 404 (no entry); the factor goes, and its recovery code with it.
        #expect(api.send(.delete, "/mfa/authenticators/totp%7Cdev_nope", token: mfaAPI).status == 404)
        let totpPath = "/mfa/authenticators/" + bobTOTP.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, totpPath, token: mfaAPI).status == 204)
        #expect(try user("bob@example.com").mfa.isEmpty && user("bob@example.com").password == nil)

        // Carol: an operator removes her password through the Management API.
        #expect(P.signUp(api, email: "carol@example.com").status == 200)
        let carol = try user("carol@example.com")
        let carolPassword = try #require(carol.password?.id)
        let managementPath =
            "/api/v2/users/\(carol.id.replacingOccurrences(of: "|", with: "%7C"))/authentication-methods/"
            + carolPassword.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, managementPath, token: management).status == 204)

        let reply = try Self.logs(api)
        let all = reply.list
        func entries(_ type: String) -> [[String: Any]] { all.filter { $0["type"] as? String == type } }
        func details(_ entry: [String: Any]) -> [String: Any] { entry["details"] as? [String: Any] ?? [:] }
        func removal(_ entry: [String: Any]) -> [String] {
            [
                entry["user_id"] as? String ?? "", entry["client_id"] as? String ?? "",
                details(entry)["method"] as? String ?? "", details(entry)["target"] as? String ?? "",
            ]
        }
        let ada = try user("ada@example.com")
        let adaRecoveryID = try #require(adaFactors.first { $0.factor == .recoveryCode }?.id)
        // One gd_unenroll per enrollment removed, with the client the caller came through.
        let unenrolled = entries("gd_unenroll")
        #expect(
            Set(unenrolled.map(removal)) == [
                [ada.id, AccountClient.id, "otp", adaTOTP], [ada.id, AccountClient.id, "recovery_code", adaRecoveryID],
                [bob.id, api.bootstrap.clientID, "otp", bobTOTP],
                [bob.id, api.bootstrap.clientID, "recovery_code", bobRecoveryID],
            ])
        #expect(unenrolled.count == 4)
        #expect(unenrolled.allSatisfy { $0["description"] as? String == "Second factor removed" })
        #expect(unenrolled.allSatisfy { $0["connection"] as? String == Bootstrap.defaultConnectionName })
        // One sesame_password_deleted per password removed: My Account (the token's app) and Management.
        let passwords = entries("sesame_password_deleted")
        #expect(
            Set(passwords.map(removal)) == [
                [bob.id, api.bootstrap.clientID, "password", bobPassword],
                [carol.id, api.bootstrap.managementClientID, "password", carolPassword],
            ])
        #expect(passwords.count == 2)
        #expect(Set(passwords.compactMap { $0["user_name"] as? String }) == ["bob@example.com", "carol@example.com"])
        #expect(passwords.allSatisfy { $0["description"] as? String == "Password removed" })
        // The Management removal keeps its sapi entry beside its own.
        #expect(
            entries("sapi").contains {
                let request = details($0)["request"] as? [String: Any]
                return request?["method"] as? String == "DELETE" && details($0)["status"] as? Int == 204
                    && (request?["path"] as? String)?.hasSuffix(String(carolPassword.split(separator: "|")[1])) == true
            })
        // The entries are the user's: GET /api/v2/users/{id}/logs finds them.
        let bobLogs = api.send(
            .get, "/api/v2/users/\(bob.id.replacingOccurrences(of: "|", with: "%7C"))/logs", token: management
        ).list.compactMap { $0["type"] as? String }
        #expect(bobLogs.filter { $0 == "gd_unenroll" }.count == 2 && bobLogs.contains("sesame_password_deleted"))
        try Self.expectNoSecret(secrets, served: reply, file: file, entries: all)
    }

    @Test(
        "a hosted password step before a second factor is mfar, and s is written when the sign-in completes",
        arguments: HarnessStore.allCases)
    func hostedSignInCompletes(_ kind: HarnessStore) throws {
        let api = try MFATests.world(kind)
        let (secret, _) = try MFATests.enrollOTP(api)
        try AuthorizeFlowTests.withoutPrompts(api)
        api.clock.advance(by: 30)
        api.application.flush()
        let before = Set(try Self.logs(api).list.compactMap { $0["log_id"] as? String })
        func newTypes() throws -> [String] {
            api.application.flush()
            // The Management API tokens this test reads the log with have entries of their own.
            return try Self.logs(api).list.filter { !before.contains($0["log_id"] as? String ?? "") }
                .compactMap { $0["type"] as? String }.filter { $0 != "seccft" }
        }
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        try AuthorizeFlowTests.passwordSignIn(browser, client)
        #expect(browser.html.contains("data-page=\"mfa\""))
        // The password alone: the first step's entry, no successful login.
        #expect(try newTypes() == ["mfar"])
        browser.submit("/u/mfa", [("otp", try MFATests.otp(secret, api))])
        #expect(browser.last.status == 303)
        let types = try newTypes()
        #expect(types.filter { $0 == "s" }.count == 1, "\(types)")
        #expect(types.contains("gd_auth_succeed"))
        #expect(types.filter { $0 == "mfar" }.count == 1, "\(types)")
    }

    @Test("q, paging, checkpoints, scopes and bad parameters", arguments: HarnessStore.allCases)
    func queries(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(P.signUp(api, email: Self.email, password: Self.password).status == 200)
        for _ in 0..<3 { #expect(P.logIn(api, username: Self.email, password: "not it at all 123").status == 403) }
        #expect(P.logIn(api, username: Self.email, password: Self.password).status == 200)
        let token = try api.managementToken()
        func logs(_ query: String) throws -> APIReply { try Self.logs(api, query, token: token) }
        let all = try logs("per_page=100").list
        let userID = try #require(all.first { $0["type"] as? String == "fp" }?["user_id"] as? String)
        #expect(try logs("q=type:fp").list.count == 3)
        #expect(try logs("q=type:fp%20type:sepft").list.count == 4)
        #expect(try logs("q=type:fp%20AND%20user_id:%22\(userID)%22").list.count == 3)
        #expect(try logs("q=date:%5B2000-01-01%20TO%202000-01-02%5D").list.isEmpty)
        #expect(try logs("q=date:%5B2000-01-01%20TO%20*%5D").list.count == all.count)
        let totals = try logs("include_totals=true&per_page=2&page=1&q=type:fp").json
        #expect(totals["total"] as? Int == 3 && totals["start"] as? Int == 2)
        #expect((totals["logs"] as? [[String: Any]])?.count == 1)
        // Checkpoint paging: oldest first after `from`.
        let first = try logs("take=2&from=log_0").list
        #expect(first.count == 2)
        let after = try logs("take=100&from=\(first[1]["log_id"] as? String ?? "")").list
        #expect(after.count == all.count - 2)
        let userLogs = api.send(.get, "/api/v2/users/\(userID)/logs", token: token)
        #expect(userLogs.list.count == 5)  // ss, three fp, sepft
        // Refusals in the Management error shape.
        for bad in [
            "q=ip:1.2.3.4", "q=type:nope", "q=type:fp%20OR%20type:s", "q=date:2020", "take=0", "take=2&page=1",
            "per_page=101", "sort=date:1", "fields=type", "from=evt_1",
        ] {
            let reply = try logs(bad)
            #expect(reply.status == 400 && reply.error == "invalid_request", "\(bad) gave \(reply.status)")
        }
        #expect(api.send(.get, "/api/v2/logs/log_missing", token: token).status == 404)
        let narrow = try api.managementToken(scope: "read:users")
        #expect(api.send(.get, "/api/v2/logs", token: narrow).status == 403)
        #expect(api.send(.get, "/api/v2/logs", token: try api.managementToken(scope: "read:logs")).status == 200)
    }

    @Test("retention is a tenant setting; pruning follows the clock", arguments: HarnessStore.allCases)
    func retention(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        let settings = api.send(.get, "/api/v2/tenant/settings", token: token)
        #expect(settings.json["audit_log_retention_days"] as? Int == 30)
        for bad in [0, 3_651] {
            let reply = api.send(
                .patch, "/api/v2/tenant/settings", json: #"{"audit_log_retention_days":\#(bad)}"#, token: token)
            #expect(reply.status == 400)
        }
        let set = api.send(.patch, "/api/v2/tenant/settings", json: #"{"audit_log_retention_days":2}"#, token: token)
        #expect(set.status == 200 && set.json["audit_log_retention_days"] as? Int == 2)
        #expect(P.logIn(api, username: "nobody@example.com", password: "whatever 12345").status == 403)
        api.application.flush()
        let audit = api.application.audit
        func count() throws -> Int {
            try api.store.read { try $0.auditEvents.count(tenantID: api.tenant.id, query: AuditQuery()) }
        }
        let before = try count()
        #expect(before >= 3)  // the settings PATCHes (one failed) and the login
        api.clock.advance(by: 86_400)
        #expect(try audit.prune() == 0)
        api.clock.advance(by: 86_401)
        #expect(try audit.prune() == before)
        #expect(try count() == 0)
    }
}

import Foundation
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import Testing

/// `/authorize` through the hosted pages to the code exchange, on every store: password and
/// passkey sign-in, signup, the TOTP step, SSO from the session, `prompt`, `max_age`, the code's
/// single use and reuse detection, and RP-initiated logout.
@Suite("OIDC: /authorize, hosted sign-in, codes with PKCE, sessions and logout")
struct AuthorizeFlowTests {
    typealias P = PasswordAccountsTests

    static func world(_ kind: HarnessStore) throws -> (APIHarness, HostedBrowser, OIDCClient) {
        let api = try APIHarness(store: kind)
        #expect(P.signUp(api, email: "ada@example.com").status == 200)
        try withoutPrompts(api)
        return (api, HostedBrowser(api), OIDCClient(clientID: api.bootstrap.clientID))
    }

    /// Turns the passkey-enrollment prompts off (on by default, as Auth0 has them), so a sign-in
    /// goes straight back to the client; `HostedEnrollmentPromptTests` covers them.
    static func withoutPrompts(_ api: APIHarness) throws {
        let connection = try #require(api.tenant.defaultConnectionID)
        let patched = api.send(
            .patch, "/api/v2/connections/\(connection)",
            json:
                #"{"options":{"passkey_options":{"progressive_enrollment_enabled":false,"local_enrollment_enabled":false}}}"#,
            token: try api.managementToken())
        #expect(patched.status == 200, "\(String(decoding: patched.body, as: UTF8.self))")
    }

    /// Authorize, then identifier and password: the redirect to the client.
    static func passwordSignIn(
        _ browser: HostedBrowser, _ client: OIDCClient, extra: [(String, String)] = [],
        password: String = P.password
    ) throws {
        browser.send(.get, client.authorizeTarget(extra: extra))
        #expect(browser.last.status == 302)
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        browser.follow()
        #expect(browser.last.status == 200)
        browser.submit("/u/login", [("username", "ada@example.com")])
        #expect(browser.html.contains("data-page=\"password\""), "\(browser.html)")
        browser.submit("/u/login/password", [("password", password)])
    }

    @Test(
        "password sign-in: a code at the redirect URI with state and iss, then tokens with nonce, sid, acr and amr",
        arguments: HarnessStore.allCases)
    func passwordCode(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        try Self.passwordSignIn(browser, client)
        #expect(browser.last.status == 303)
        let location = try #require(browser.location)
        #expect(location.hasPrefix(OIDCClient.redirectURI + "?code="))
        let parameters = browser.redirectParameters
        #expect(parameters["state"] == "st-1")
        #expect(parameters["iss"] == TokenService.issuer(api.tenant))
        #expect(browser.cookies["sesame-session"] != nil)
        let tokens = client.exchange(api, code: try #require(parameters["code"]))
        #expect(tokens.status == 200, "\(String(decoding: tokens.body, as: UTF8.self))")
        #expect(tokens.json["refresh_token"] is String)
        let claims = OIDCClient.claims(try #require(tokens.json["id_token"] as? String))
        #expect(claims["nonce"] as? String == "nonce-1")
        #expect(claims["aud"] as? String == client.clientID)
        #expect(claims["amr"] as? [String] == ["pwd"])
        #expect(claims["acr"] as? String == AuthenticationContext.singleFactor)
        #expect((claims["sid"] as? String)?.hasPrefix("ses_") == true)
        #expect(claims["auth_time"] as? Int == Int(api.clock.now().timeIntervalSince1970))
        #expect(claims["email"] as? String == "ada@example.com")
    }

    @Test(
        "a code is single use, and presenting it again revokes the refresh tokens it issued",
        arguments: HarnessStore.allCases)
    func codeReuse(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        try Self.passwordSignIn(browser, client)
        let code = try #require(browser.redirectParameters["code"])
        let first = client.exchange(api, code: code)
        #expect(first.status == 200)
        let refresh = try #require(first.json["refresh_token"] as? String)
        let again = client.exchange(api, code: code)
        #expect(again.status == 400)
        #expect(again.error == "invalid_grant")
        let renewed = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": client.clientID, "refresh_token": refresh,
            ]))
        #expect(renewed.status == 400, "the family the reused code started must be revoked")
        #expect(renewed.error == "invalid_grant")
    }

    @Test("a code lives 60 seconds, and needs the right verifier and redirect URI", arguments: HarnessStore.allCases)
    func codeChecks(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        try Self.passwordSignIn(browser, client)
        var wrong = client
        wrong.verifier = "another-verifier-that-is-long-enough-for-pkce-rules-1234"
        #expect(wrong.exchange(api, code: try #require(browser.redirectParameters["code"])).error == "invalid_grant")

        // Without a verifier, and with another redirect URI: each a fresh code, refused.
        for attempt in 0..<2 {
            browser.send(.get, client.authorizeTarget())
            #expect(browser.location?.hasPrefix(OIDCClient.redirectURI) == true, "SSO gives a code at once")
            let code = try #require(browser.redirectParameters["code"])
            let reply =
                attempt == 0
                ? api.send(
                    .post, "/oauth/token",
                    json: HostedBrowser.encode([
                        ("grant_type", "authorization_code"), ("client_id", client.clientID), ("code", code),
                        ("redirect_uri", client.redirectURI),
                    ]), contentType: "application/x-www-form-urlencoded")
                : client.exchange(api, code: code, redirectURI: APIHarness.publicURL + "/other")
            #expect(reply.status == 400)
            #expect(reply.error == "invalid_grant")
        }

        browser.send(.get, client.authorizeTarget())
        let late = try #require(browser.redirectParameters["code"])
        api.clock.advance(by: 61)
        #expect(client.exchange(api, code: late).error == "invalid_grant")
    }

    @Test(
        "the session answers a second /authorize at once; prompt=login and max_age ask again",
        arguments: HarnessStore.allCases)
    func sessionReuse(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        try Self.passwordSignIn(browser, client)
        let firstCookie = try #require(browser.cookies["sesame-session"])
        api.clock.advance(by: 30)

        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["code"] != nil)
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        let claims = OIDCClient.claims(try #require(tokens.json["id_token"] as? String))
        #expect(
            claims["auth_time"] as? Int == Int(api.clock.now().timeIntervalSince1970) - 30, "auth_time is the sign-in's"
        )

        browser.send(.get, client.authorizeTarget(extra: [("prompt", "login")]))
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        browser.send(.get, client.authorizeTarget(extra: [("max_age", "10")]))
        #expect(browser.location?.hasPrefix("/u/login?tx=") == true)
        browser.send(.get, client.authorizeTarget(extra: [("max_age", "3600")]))
        #expect(browser.redirectParameters["code"] != nil)

        // Signing in again (a step-up) rotates the cookie: the old one opens nothing.
        try Self.passwordSignIn(browser, client, extra: [("prompt", "login")])
        let secondCookie = try #require(browser.cookies["sesame-session"])
        #expect(secondCookie != firstCookie)
        let stale = HostedBrowser(api)
        stale.cookies = browser.cookies
        stale.cookies["sesame-session"] = firstCookie
        stale.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(stale.redirectParameters["error"] == "login_required")
    }

    @Test(
        "prompt=none without a session is login_required at the client; sessions end when idle or old",
        arguments: HarnessStore.allCases)
    func promptNoneAndLifetimes(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.last.status == 302)
        #expect(browser.redirectParameters["error"] == "login_required")
        #expect(browser.redirectParameters["state"] == "st-1")
        #expect(browser.redirectParameters["iss"] == TokenService.issuer(api.tenant))

        try Self.passwordSignIn(browser, client)
        // Used within the idle lifetime (3 days), it lives on; unused for longer, it ends.
        for _ in 0..<3 {
            api.clock.advance(by: 2 * 86_400)
            browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
            #expect(browser.redirectParameters["code"] != nil)
        }
        api.clock.advance(by: 3 * 86_400 + 1)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["error"] == "login_required")

        // The absolute lifetime (7 days) ends a session in use.
        try Self.passwordSignIn(browser, client)
        for _ in 0..<4 {
            api.clock.advance(by: 2 * 86_400)
            browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        }
        #expect(browser.redirectParameters["error"] == "login_required")
    }

    @Test("passkey signup on /u/signup, then sign-in with the passkey button", arguments: HarnessStore.allCases)
    func passkeySignupAndLogin(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        let authenticator = api.authenticator()
        browser.send(.get, client.authorizeTarget(extra: [("screen_hint", "signup")]))
        #expect(browser.location?.hasPrefix("/u/signup?tx=") == true)
        browser.follow()
        #expect(browser.html.contains("passwordrules=\"minlength: 12; maxlength: 64; allowed: ascii-printable;\""))
        browser.submit("/u/signup", [("email", "grace@example.com"), ("name", "Grace"), ("method", "passkey")])
        #expect(browser.html.contains("data-page=\"signup-passkey\""), "\(browser.html)")
        let creation = try #require(browser.data("passkey-creation"))
        let credential = try authenticator.makeCredential(optionsJSON: Array(creation.utf8))
        browser.submit(
            "/u/signup/passkey",
            [("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString)])
        #expect(browser.last.status == 303, "\(browser.html)")
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        let claims = OIDCClient.claims(try #require(tokens.json["id_token"] as? String))
        #expect(claims["email"] as? String == "grace@example.com")
        #expect((claims["amr"] as? [String])?.contains("pop") == true)

        // A new browser: the login page offers the passkey; the assertion signs in.
        let other = HostedBrowser(api)
        other.send(.get, client.authorizeTarget(nonce: "nonce-2"))
        other.follow()
        let options = try #require(other.data("passkey-options"))
        let assertion = try authenticator.getAssertion(optionsJSON: Array(options.utf8))
        other.submit(
            "/u/login/passkey",
            [("ceremony", try #require(other.field("ceremony"))), ("credential", assertion.jsonString)])
        #expect(other.last.status == 303, "\(other.html)")
        let second = client.exchange(api, code: try #require(other.redirectParameters["code"]))
        let secondClaims = OIDCClient.claims(try #require(second.json["id_token"] as? String))
        #expect(secondClaims["sub"] as? String == claims["sub"] as? String)
        #expect(secondClaims["nonce"] as? String == "nonce-2")
    }

    @Test(
        "a passkey this tenant deleted is signalled unknown; one it never held gets the neutral error",
        arguments: HarnessStore.allCases)
    func unknownCredential(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let authenticator = api.authenticator()
        let session = try api.signUp(authenticator, email: "lin@example.com")
        let passkeys = try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: session.userID) }
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        /// A sign-in with the authenticator's passkey: the page's unknown-credential signal, if any.
        func signIn() throws -> [String: String]? {
            let browser = HostedBrowser(api)
            browser.send(.get, client.authorizeTarget())
            browser.follow()
            let assertion = try authenticator.getAssertion(
                optionsJSON: Array(try #require(browser.data("passkey-options")).utf8))
            browser.submit(
                "/u/login/passkey",
                [("ceremony", try #require(browser.field("ceremony"))), ("credential", assertion.jsonString)])
            #expect(browser.last.status == 400)
            // Autofill waits for the user after a refusal, or it would send the same passkey again.
            #expect(browser.data("passkey-refused") == "true")
            if browser.data("signal-unknown-credential") == nil {
                #expect(browser.html.contains("That passkey is not registered here."))
            }
            return try browser.data("signal-unknown-credential").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String])
            }
        }
        // Gone from the store without this tenant deleting it (another deployment's, a restored
        // backup's): the neutral error, and no signal that would make the manager delete it.
        try api.store.write(.durable) { try $0.passkeys.delete(tenantID: api.tenant.id, id: passkeys[0].id) }
        #expect(try signIn() == nil)
        try api.store.write(.durable) { try $0.passkeys.insert(passkeys[0]) }
        // Deleted by the tenant: signalled, for the retention's days.
        let token = try api.managementToken()
        let path =
            "/api/v2/users/" + session.userID.replacingOccurrences(of: "|", with: "%7C") + "/authentication-methods/"
            + passkeys[0].id.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, path, token: token).status == 204)
        let signal = try #require(try signIn())
        #expect(signal["rpId"] == "login.test")
        #expect(signal["credentialId"] == passkeys[0].credentialID.base64URLForTests)
        api.clock.advance(by: 90 * 86_400 + 1)
        #expect(try signIn() == nil, "forgotten after 90 days")
        // With a retention of 0 nothing is remembered.
        let token2 = try api.managementToken()
        let settings = api.send(
            .patch, "/api/v2/tenant/settings", json: #"{"deleted_passkey_retention_days":0}"#, token: token2)
        #expect(settings.json["deleted_passkey_retention_days"] as? Int == 0)
        #expect(
            api.send(.patch, "/api/v2/tenant/settings", json: #"{"deleted_passkey_retention_days":-1}"#, token: token2)
                .status == 400)
    }

    @Test(
        "password sign-in with a TOTP step: amr pwd, mfa, otp and the multi-factor acr",
        arguments: HarnessStore.allCases)
    func totpStep(_ kind: HarnessStore) throws {
        let api = try MFATests.world(kind)
        try Self.withoutPrompts(api)
        let (secret, _) = try MFATests.enrollOTP(api)
        api.clock.advance(by: 30)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        try Self.passwordSignIn(browser, client)
        #expect(browser.html.contains("data-page=\"mfa\""), "\(browser.html)")
        #expect(!browser.html.contains("mfa_token"), "the mfa token stays on the server")
        browser.submit("/u/mfa", [("otp", "000000")])
        #expect(browser.html.contains("data-page=\"mfa\""))
        #expect(browser.html.contains("class=\"error\""))
        browser.submit("/u/mfa", [("otp", try MFATests.otp(secret, api))])
        #expect(browser.last.status == 303, "\(browser.html)")
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        let claims = OIDCClient.claims(try #require(tokens.json["id_token"] as? String))
        #expect(claims["amr"] as? [String] == ["pwd", "mfa", "otp"])
        #expect(claims["acr"] as? String == AuthenticationContext.multiFactor)
    }

    @Test(
        "a tenant that asks everyone for a second factor: TOTP set up on the page, with its QR code",
        arguments: HarnessStore.allCases)
    func totpEnrollment(_ kind: HarnessStore) throws {
        let api = try MFATests.world(kind)
        try Self.withoutPrompts(api)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        try Self.passwordSignIn(browser, client)
        #expect(browser.html.contains("data-page=\"mfa\""), "\(browser.html)")
        #expect(browser.html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let secret = try #require(Self.element(browser.html, id: "otp-secret"))
        // The recovery code comes after the first code, on a page of its own.
        #expect(Self.recoveryCode(browser.html) == nil)
        // A wrong code shows the same secret again.
        browser.submit("/u/mfa", [("mode", "enroll"), ("otp", "000000")])
        #expect(browser.last.status == 403)
        #expect(Self.element(browser.html, id: "otp-secret") == secret)
        browser.submit("/u/mfa", [("mode", "enroll"), ("otp", try MFATests.otp(secret, api))])
        #expect(browser.html.contains("data-page=\"save-recovery-code\""), "\(browser.html)")
        let recovery = try #require(Self.recoveryCode(browser.html))
        #expect(recovery.count == 24)
        func stored() throws -> UserRecord {
            try #require(
                try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: "ada", page: Page()) }.first)
        }
        // Not saved yet: the code does not count, and is kept sealed, never in the clear.
        #expect(try stored().mfa.filter(\.active).map(\.factor) == [.otp])
        let sealed = try #require(try stored().mfa.first { $0.factor == .recoveryCode }?.sealedSecret)
        #expect(!sealed.isEmpty && !String(decoding: sealed, as: UTF8.self).contains(recovery))
        // A reload shows the same code; "Continue" without the box ticked stays.
        let transaction = try #require(browser.field("tx"))
        browser.send(.get, "/u/mfa/recovery-code?tx=" + transaction)
        #expect(Self.recoveryCode(browser.html) == recovery)
        browser.submit("/u/mfa/recovery-code/saved", [])
        #expect(Self.recoveryCode(browser.html) == recovery)
        browser.submit("/u/mfa/recovery-code/saved", [("saved", "yes")])
        #expect(browser.last.status == 303, "\(browser.html)")
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        #expect(
            OIDCClient.claims(try #require(tokens.json["id_token"] as? String))["amr"] as? [String] == [
                "pwd", "mfa", "otp",
            ])
        let user = try stored()
        #expect(user.mfa.filter(\.active).map(\.factor).sorted { $0.rawValue < $1.rawValue } == [.otp, .recoveryCode])
        #expect(user.mfa.allSatisfy { $0.factor != .recoveryCode || $0.sealedSecret.isEmpty })
        browser.send(.get, "/u/mfa/recovery-code?tx=" + transaction)
        #expect(Self.recoveryCode(browser.html) == nil, "never shown again")
        // The recovery code shown once works as the second factor of the next sign-in.
        api.clock.advance(by: 60)
        let mfaToken = try MFATests.mfaToken(api)
        let recovered = MFATests.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-recovery-code", "mfa_token": mfaToken,
                "recovery_code": recovery,
            ])
        #expect(recovered.status == 200, "\(String(decoding: recovered.body, as: UTF8.self))")
    }

    @Test("a user whose factor is SMS gets a code by the message sender on the page", arguments: HarnessStore.allCases)
    func smsStep(_ kind: HarnessStore) throws {
        let api = try MFATests.world(kind, factors: ["sms"])
        try Self.withoutPrompts(api)
        let token = try MFATests.mfaToken(api)
        let associated = MFATests.associateSMS(api, token: token)
        func lastCode() throws -> String { String(try #require(try api.outboxText(to: "+15550101")).prefix(6)) }
        let oob = try #require(associated.json["oob_code"] as? String)
        let confirmed = MFATests.grant(
            api,
            [
                "grant_type": "http://auth0.com/oauth/grant-type/mfa-oob", "mfa_token": token, "oob_code": oob,
                "binding_code": try lastCode(),
            ])
        #expect(confirmed.status == 200)
        // The next code is the newest message only when it is sent later (the outbox lists by time).
        api.clock.advance(by: 1)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        try Self.passwordSignIn(browser, client)
        #expect(browser.html.contains("name=\"oob_code\""), "\(browser.html)")
        let handle = try #require(browser.field("oob_code"))
        browser.submit("/u/mfa", [("mode", "sms"), ("oob_code", handle), ("otp", try lastCode())])
        #expect(browser.last.status == 303, "\(browser.html)")
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        #expect(
            OIDCClient.claims(try #require(tokens.json["id_token"] as? String))["amr"] as? [String] == [
                "pwd", "mfa", "sms",
            ])
    }

    @Test(
        "a third-party client gets consent_required, never a silent sign-in or a code", arguments: HarnessStore.allCases
    )
    func thirdPartyClientsNeedConsent(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        // Signed in through the first-party client: the session exists.
        try Self.passwordSignIn(browser, client)
        #expect(browser.redirectParameters["code"] != nil)
        let patched = api.send(
            .patch, "/api/v2/clients/\(api.bootstrap.clientID)", json: #"{"is_first_party":false}"#,
            token: try api.managementToken())
        #expect(patched.status == 200)
        for extra in [[("prompt", "none")], []] {
            browser.send(.get, client.authorizeTarget(extra: extra))
            #expect(browser.last.status == 302)
            #expect(browser.location?.hasPrefix(OIDCClient.redirectURI) == true)
            #expect(browser.redirectParameters["error"] == "consent_required", "\(extra)")
            #expect(browser.redirectParameters["code"] == nil)
            #expect(browser.redirectParameters["state"] == "st-1")
        }
    }

    /// The recovery code the save page shows (its `data-code`), or nil.
    static func recoveryCode(_ html: String) -> String? {
        guard let start = html.range(of: "id=\"recovery-code\" data-code=\"") else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The text of the element with `id` (a `<code>`), or nil.
    static func element(_ html: String, id: String) -> String? {
        guard let start = html.range(of: "id=\"\(id)\">") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "<") else { return nil }
        return String(rest[..<end])
    }

    @Test(
        "RP-initiated logout: with a hint it signs out and returns with state; without, it asks",
        arguments: HarnessStore.allCases)
    func logout(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        try Self.passwordSignIn(browser, client)
        let tokens = client.exchange(api, code: try #require(browser.redirectParameters["code"]))
        let idToken = try #require(tokens.json["id_token"] as? String)
        let back = APIHarness.publicURL + "/"

        // Without a hint: a page that asks, whose form signs out.
        browser.send(
            .get,
            "/oidc/logout?"
                + HostedBrowser.encode([("client_id", client.clientID), ("post_logout_redirect_uri", back)]))
        #expect(browser.last.status == 200)
        #expect(browser.html.contains("data-page=\"logout\""))
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["code"] != nil, "asking signs nobody out")
        browser.send(
            .get,
            "/oidc/logout?"
                + HostedBrowser.encode([("client_id", client.clientID), ("post_logout_redirect_uri", back)]))
        browser.submit("/oidc/logout", [("client_id", client.clientID), ("post_logout_redirect_uri", back)])
        #expect(browser.last.status == 303)
        #expect(browser.location == back)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["error"] == "login_required")

        // With the id token as the hint: at once, with state.
        try Self.passwordSignIn(browser, client)
        browser.send(
            .get,
            "/oidc/logout?"
                + HostedBrowser.encode([
                    ("id_token_hint", idToken), ("post_logout_redirect_uri", back), ("state", "bye"),
                ]))
        #expect(browser.last.status == 302)
        #expect(browser.location == back + "?state=bye")
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["error"] == "login_required")
    }

    @Test(
        "a user sees their sessions, ends one, or signs out everywhere, which revokes refresh tokens too",
        arguments: HarnessStore.allCases)
    func sessionsOfAUser(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        let phone = HostedBrowser(api)
        phone.userAgent = "Phone/1.0"
        try Self.passwordSignIn(browser, client)
        let code = try #require(browser.redirectParameters["code"])
        let refresh = try #require(client.exchange(api, code: code).json["refresh_token"] as? String)
        api.clock.advance(by: 5)
        try Self.passwordSignIn(phone, client)
        let sessions = api.application.sessions
        let userID = try #require(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: "ada", page: Page()) }.first?.id)
        let listed = try sessions.sessions(tenant: api.tenant, userID: userID)
        #expect(listed.map(\.userAgent) == ["Phone/1.0", "HostedBrowser/1.0"])
        #expect(listed.allSatisfy { $0.amr == ["pwd"] && $0.clientIDs == [client.clientID] })

        try sessions.end(tenant: api.tenant, userID: userID, sessionID: listed[0].id)
        phone.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(phone.redirectParameters["error"] == "login_required")
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["code"] != nil)
        #expect(throws: ServiceError.self) {
            try sessions.end(tenant: api.tenant, userID: "someone-else", sessionID: listed[1].id)
        }

        #expect(try sessions.endAll(tenant: api.tenant, userID: userID) == 1)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["error"] == "login_required")
        let renewed = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": client.clientID, "refresh_token": refresh,
            ]))
        #expect(renewed.error == "invalid_grant")
    }

    @Test("blocking or deleting a user ends their sessions", arguments: HarnessStore.allCases)
    func blockedUsers(_ kind: HarnessStore) throws {
        let (api, browser, client) = try Self.world(kind)
        try Self.passwordSignIn(browser, client)
        let userID = try #require(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: "ada", page: Page()) }.first?.id)
        let token = try api.managementToken()
        let path = "/api/v2/users/" + (userID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        #expect(api.send(.patch, path, json: #"{"blocked":true}"#, token: token).status == 200)
        #expect(try api.application.sessions.sessions(tenant: api.tenant, userID: userID).isEmpty)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["error"] == "login_required")
    }

    @Test(
        "response_mode=form_post: a page whose form posts the code to the redirect URI",
        arguments: HarnessStore.allCases)
    func formPost(_ kind: HarnessStore) throws {
        let (_, browser, client) = try Self.world(kind)
        try Self.passwordSignIn(browser, client, extra: [("response_mode", "form_post")])
        #expect(browser.last.status == 200)
        #expect(
            browser.html.contains("<form method=\"post\" action=\"\(OIDCClient.redirectURI)\" id=\"response-form\">"))
        #expect(browser.field("code") != nil)
        #expect(browser.field("state") == "st-1")
        let policy = try #require(browser.last.headers["Content-Security-Policy"])
        #expect(policy.contains("form-action 'self' http://login.test:8080"))
    }
}

extension Array where Element == UInt8 {
    var base64URLForTests: String {
        Data(self).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }
}

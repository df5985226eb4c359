import Foundation
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameWire
import Testing

@testable import SesameHTTP

/// The token responses' `passkey_enrollment` prompt and the hosted page its link opens
/// (docs/migration.md): after a device-key re-authentication on a device that can do passkeys, and after a password
/// login with progressive enrollment; "Not now", the snooze, and "already registered".
@Suite("The passkey-enrollment prompt in token responses and its page")
struct EnrollmentTicketTests {
    typealias P = PasswordAccountsTests

    /// A password user with a My Account token (fresh) and the token response of that login.
    static func passwordUser(_ api: APIHarness, email: String) throws -> (token: String, login: [String: Any]) {
        #expect(P.signUp(api, email: email).status == 200)
        let login = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": api.bootstrap.clientID,
                "username": email, "password": P.password, "realm": Bootstrap.defaultConnectionName,
                "audience": TokenService.myAccountAudience(api.tenant),
                "scope": "openid create:me:authentication_methods read:me:authentication_methods",
            ]))
        #expect(login.status == 200, "\(login.json)")
        return (try #require(login.json["access_token"] as? String), login.json)
    }

    /// The path and query of an `enroll_url` on the harness's server.
    static func path(_ url: String) -> String { String(url.dropFirst(APIHarness.publicURL.count)) }

    @Test(
        "a device-key re-auth on iOS 17 carries the prompt; its page creates the passkey and migrates the key",
        arguments: HarnessStore.allCases)
    func afterDeviceKey(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let (token, _) = try Self.passwordUser(api, email: "legacy@example.com")
        let device = try TestDeviceKey()
        let keyID = try #require(
            try api.registerDeviceKey(device, token: token, osVersion: "16.3").json["id"] as? String)
        // On iOS 16.3 the device cannot make a passkey: no prompt.
        let old = try api.reauthenticate(device, keyID: keyID, token: token)
        #expect(old.status == 200 && old.json["passkey_enrollment"] == nil)
        // After an update to 17.2, it can; the app says where to come back to.
        let challenge = api.send(
            .post, "/device-key/challenge",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "key_id": keyID]), token: token)
        let reauth = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": GrantType.deviceKey, "client_id": api.bootstrap.clientID,
                "auth_session": challenge.json["auth_session"] as? String ?? "", "key_id": keyID,
                "signature": try device.sign(
                    .reauth, challenge: challenge.json["challenge"] as? String ?? "", clientID: api.bootstrap.clientID,
                    keyID: keyID),
                "os_version": "17.2", "redirect_uri": OIDCClient.redirectURI,
            ]))
        #expect(reauth.status == 200, "\(reauth.json)")
        let prompt = try #require(reauth.json["passkey_enrollment"] as? [String: Any])
        #expect(prompt["recommended"] as? Bool == true && prompt["reason"] as? String == "device_key_reauth")
        let url = try #require(prompt["enroll_url"] as? String)
        #expect(url.hasPrefix(APIHarness.publicURL + "/u/passkey-enroll?ticket="))
        #expect(try api.store.read { try $0.deviceKeys.get(tenantID: api.tenant.id, id: keyID) }?.osVersion == "17.2")

        // The app opens it in a web view: the page, with creation options for this user.
        let browser = HostedBrowser(api)
        browser.send(.get, Self.path(url))
        #expect(browser.last.status == 200, "\(browser.html)")
        #expect(browser.html.contains("data-page=\"enroll\""))
        #expect(browser.html.contains(Catalog.raw(.deviceKeyEnrollTitle, .en)))
        let options = try #require(browser.data("passkey-creation"))
        let credential = try api.authenticator().makeCredential(optionsJSON: Array(options.utf8))
        browser.submit(
            "/u/passkey-enroll/ticket",
            [
                ("enrollment", try #require(browser.field("enrollment"))),
                ("ceremony", try #require(browser.field("ceremony"))), ("credential", credential.jsonString),
            ])
        #expect(browser.last.status == 200, "\(browser.html)")
        #expect(browser.html.contains(Catalog.raw(.enrollDoneTitle, .en)))
        #expect(browser.html.contains("href=\"\(OIDCClient.redirectURI)?passkey_enrollment=created\""))
        let user = try APIHarness.subject(of: token)
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: user) }.count == 1)
        #expect(try api.store.read { try $0.deviceKeys.get(tenantID: api.tenant.id, id: keyID) }?.state == .migrated)
        // The ticket and the page's enrollment are single use.
        browser.send(.get, Self.path(url))
        #expect(browser.last.status == 400 && browser.html.contains(Catalog.raw(.errorExpired, .en)))
        // With a passkey, the next re-auth carries no prompt.
        #expect(try api.reauthenticate(device, keyID: keyID, token: token).json["passkey_enrollment"] == nil)
    }

    @Test("a password login carries the progressive prompt; Not now snoozes it", arguments: HarnessStore.allCases)
    func progressive(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let (_, login) = try Self.passwordUser(api, email: "pw-prompt@example.com")
        let prompt = try #require(login["passkey_enrollment"] as? [String: Any])
        #expect(prompt["reason"] as? String == "progressive")
        let browser = HostedBrowser(api)
        browser.send(.get, Self.path(try #require(prompt["enroll_url"] as? String)))
        #expect(browser.html.contains(Catalog.raw(.enrollPromptTitle, .en)))
        browser.submit("/u/passkey-enroll/ticket/skip", [("enrollment", try #require(browser.field("enrollment")))])
        #expect(browser.last.status == 200 && browser.html.contains(Catalog.raw(.enrollSkippedTitle, .en)))
        // Snoozed for the connection's 30 days.
        #expect(P.logIn(api, username: "pw-prompt@example.com").json["passkey_enrollment"] == nil)
        api.clock.advance(by: 31 * 86_400)
        #expect(P.logIn(api, username: "pw-prompt@example.com").json["passkey_enrollment"] != nil)
        // My Account's snooze does the same.
        let token = try Self.passwordUserToken(api, email: "pw-prompt@example.com")
        let snoozed = api.send(.post, "/me/v1/passkey-enrollment/snooze", token: token)
        #expect(snoozed.status == 200 && snoozed.json["snoozed_until"] != nil)
        #expect(P.logIn(api, username: "pw-prompt@example.com").json["passkey_enrollment"] == nil)
        // A connection with progressive enrollment off has no prompt.
        try AuthorizeFlowTests.withoutPrompts(api)
        api.clock.advance(by: 31 * 86_400)
        #expect(P.logIn(api, username: "pw-prompt@example.com").json["passkey_enrollment"] == nil)
    }

    @Test("a user holding the most waiting prompts still logs in, without a new one", arguments: HarnessStore.allCases)
    func promptsOverTheCap(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        #expect(P.signUp(api, email: "many-logins@example.com").status == 200)
        var prompted = 0
        let cap = 20  // PasskeyEnrollmentTickets.maxPerUser
        for _ in 0..<(cap + 5) {
            let login = P.logIn(api, username: "many-logins@example.com")
            #expect(login.status == 200, "\(login.json)")
            #expect(login.json["access_token"] != nil)
            if login.json["passkey_enrollment"] != nil { prompted += 1 }
        }
        #expect(prompted == cap)
    }

    /// A fresh My Account token (with the update scope) for a password user.
    static func passwordUserToken(_ api: APIHarness, email: String) throws -> String {
        let login = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "http://auth0.com/oauth/grant-type/password-realm", "client_id": api.bootstrap.clientID,
                "username": email, "password": P.password, "realm": Bootstrap.defaultConnectionName,
                "audience": TokenService.myAccountAudience(api.tenant),
                "scope": "update:me:authentication_methods read:me:authentication_methods",
            ]))
        return try #require(login.json["access_token"] as? String)
    }

    @Test(
        "a second passkey from the same provider is accepted by default (two Apple IDs share an AAGUID); where the connection asks for one per provider it is 409 already_registered"
    )
    func alreadyRegistered() throws {
        let api = try APIHarness()
        let (token, _) = try Self.passwordUser(api, email: "dup@example.com")
        var configuration = AuthenticatorConfiguration()
        configuration.origin = .web(APIHarness.webOrigin)
        configuration.aaguid = [
            0xfb, 0xfc, 0x30, 0x07, 0x15, 0x4e, 0x4e, 0xcc, 0x8c, 0x0b, 0x6e, 0x02, 0x05, 0x57, 0xd7, 0xbd,
        ]
        func enroll(_ authenticator: SoftwareAuthenticator) throws -> APIReply {
            let challenge = api.send(.post, "/me/v1/authentication-methods", json: #"{"type":"passkey"}"#, token: token)
            let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
            return api.send(
                .post, "/me/v1/authentication-methods/passkey%7Cnew/verify",
                json: #"{"auth_session":"\#(challenge.json["auth_session"] as? String ?? "")","authn_response":"#
                    + credential.jsonString + "}", token: token)
        }
        // The first iCloud Keychain passkey is fine; the user has not signed in with a passkey yet.
        #expect(try enroll(SoftwareAuthenticator(configuration: configuration)).status == 201)
        // By default a second one is too: another Apple ID's keychain has the same AAGUID, and the
        // platform refuses a true duplicate itself (excludeCredentials lists every passkey).
        let second = try enroll(SoftwareAuthenticator(configuration: configuration))
        #expect(second.status == 201, "\(second.json)")
        let patched = api.send(
            .patch, "/api/v2/connections/\(api.tenant.defaultConnectionID ?? "")",
            json: #"{"options":{"passkey_options":{"one_passkey_per_provider":true}}}"#,
            token: try api.managementToken())
        #expect(patched.status == 200)
        #expect(
            ((patched.json["options"] as? [String: Any])?["passkey_options"] as? [String: Any])?[
                "one_passkey_per_provider"]
                as? Bool == true)
        let excluded = api.send(.post, "/me/v1/authentication-methods", json: #"{"type":"passkey"}"#, token: token)
        #expect(
            ((excluded.json["authn_params_public_key"] as? [String: Any])?["excludeCredentials"] as? [Any])?.count == 2)
        let hints = { api.send(.get, "/me/v1/method-hints?platform=web", token: token).json }
        #expect(hints()["prefer_passkey"] as? Bool == false)
        // Another one from the same provider (another device's store of it) would be a duplicate.
        let reply = try enroll(SoftwareAuthenticator(configuration: configuration))
        #expect(reply.status == 409 && reply.error == "already_registered", "\(reply.json)")
        #expect(reply.json["provider"] as? String == "iCloud Keychain")
        let user = try APIHarness.subject(of: token)
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: user) }.count == 2)
        #expect(hints()["prefer_passkey"] as? Bool == true)
        // A passkey from a provider the table does not name (a security key, Sesame's software
        // authenticator) is not a duplicate.
        #expect(try enroll(api.authenticator()).status == 201)
    }
}

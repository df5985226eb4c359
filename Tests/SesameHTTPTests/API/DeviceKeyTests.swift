import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameWire
import Testing
import WebAuthn

/// A legacy device key the way an app holds one: a P-256 key and the install id beside it.
struct TestDeviceKey {
    let key: PrivateKey
    let installID: String

    init(installID: String = "install-\(UUID().uuidString)") throws {
        self.key = try PrivateKey.generate(.ec(.p256))
        self.installID = installID
    }

    var jwk: [String: Any] {
        guard case .ec(_, let x, let y) = key.publicKey.components else { return [:] }
        return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(x), "y": Base64URL.encode(y)]
    }

    /// The signature of docs/migration.md's message, DER (as `SecKeyCreateSignature` gives) or raw r ‖ s.
    func sign(
        _ purpose: DeviceKeySignedBytes.Purpose, challenge: String, clientID: String, keyID: String,
        format: ECDSASignatureFormat = .der
    ) throws -> String {
        let message = DeviceKeySignedBytes.message(
            purpose: purpose, challenge: try Base64URL.decode(challenge),
            clientIDDigest: Digest.sha256(Array(clientID.utf8)),
            keyID: try Base64URL.decode(keyID))
        return Base64URL.encode(try key.signature(for: message, algorithm: .ecdsa(.sha256), format: format))
    }
}

/// The device-key steps over HTTP, for the API suites.
extension APIHarness {
    /// Registers `device` for the token's user; the reply of `POST /me/v1/device-keys`.
    func registerDeviceKey(
        _ device: TestDeviceKey, token: String, platform: String = "ios", osVersion: String = "16.3",
        format: ECDSASignatureFormat = .der
    ) throws -> APIReply {
        let challenge = send(.post, "/me/v1/device-keys/challenge", token: token)
        guard challenge.status == 200, let session = challenge.json["auth_session"] as? String,
            let nonce = challenge.json["challenge"] as? String, let keyID = challenge.json["key_id"] as? String
        else { throw APIHarnessError.unexpected("device-key challenge", challenge) }
        let signature = try device.sign(
            .register, challenge: nonce, clientID: bootstrap.clientID, keyID: keyID, format: format)
        return send(
            .post, "/me/v1/device-keys",
            json: Self.encode([
                "auth_session": session, "public_key": device.jwk, "signature": signature,
                "device": [
                    "id": device.installID, "name": "Taro's iPhone", "platform": platform, "os_version": osVersion,
                    "model": "iPhone10,1",
                ],
            ]), token: token)
    }

    /// A re-authentication: the challenge with `token`, then the device-key grant.
    func reauthenticate(
        _ device: TestDeviceKey, keyID: String, token: String, scope: String = "openid",
        format: ECDSASignatureFormat = .der, audience: String? = nil
    ) throws -> APIReply {
        let challenge = send(
            .post, "/device-key/challenge",
            json: Self.encode(["client_id": bootstrap.clientID, "key_id": keyID]), token: token)
        guard challenge.status == 200, let session = challenge.json["auth_session"] as? String,
            let nonce = challenge.json["challenge"] as? String
        else { throw APIHarnessError.unexpected("re-auth challenge", challenge) }
        var body: [String: Any] = [
            "grant_type": GrantType.deviceKey, "client_id": bootstrap.clientID, "auth_session": session,
            "key_id": keyID,
            "signature": try device.sign(
                .reauth, challenge: nonce, clientID: bootstrap.clientID, keyID: keyID, format: format),
            "scope": scope,
        ]
        if let audience { body["audience"] = audience }
        return send(.post, "/oauth/token", json: Self.encode(body))
    }
}

@Suite("Legacy device keys (docs/migration.md)")
struct DeviceKeyTests {
    @Test(
        "register with proof of possession, list, re-authenticate (DER and raw), delete",
        arguments: HarnessStore.allCases)
    func lifecycle(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let session = try api.signUp(api.authenticator(), email: "dk@example.com")
        let device = try TestDeviceKey()
        let created = try api.registerDeviceKey(device, token: session.accessToken)
        #expect(created.status == 201, "\(created.json)")
        let keyID = try #require(created.json["id"] as? String)
        #expect(created.json["status"] as? String == "active")
        #expect((created.json["device"] as? [String: Any])?["os_version"] as? String == "16.3")
        #expect(created.json["user_id"] == nil)
        let stored = try #require(try api.store.read { try $0.deviceKeys.get(tenantID: api.tenant.id, id: keyID) })
        #expect(stored.userID == session.userID && stored.platform == .ios && stored.clientID == api.bootstrap.clientID)

        let listed = api.send(.get, "/me/v1/device-keys", token: session.accessToken)
        let keys = listed.json["device_keys"] as? [[String: Any]] ?? []
        #expect(listed.status == 200 && keys.map { $0["id"] as? String } == [keyID])

        // A day later the user re-authenticates with the key: a fresh auth_time, hwk + user.
        api.clock.advance(by: 86_400)
        for format in [ECDSASignatureFormat.der, .raw] {
            let reply = try api.reauthenticate(device, keyID: keyID, token: session.accessToken, format: format)
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply.json["auth_method"] as? String == "device_key")
            let id = OIDCClient.claims(reply.json["id_token"] as? String ?? "")
            #expect(id["amr"] as? [String] == ["hwk", "user"])
            #expect(id["auth_method"] as? String == "device_key")
            #expect(id["auth_time"] as? Int == Int(api.clock.now().timeIntervalSince1970))
            let access = OIDCClient.claims(reply.json["access_token"] as? String ?? "")
            #expect(access["device_key_id"] as? String == keyID)
        }
        #expect(
            try api.store.read { try $0.deviceKeys.get(tenantID: api.tenant.id, id: keyID) }?.lastUsedAt
                == api.clock.now())

        #expect(api.send(.delete, "/me/v1/device-keys/\(keyID)", token: session.accessToken).status == 204)
        #expect(api.send(.delete, "/me/v1/device-keys/\(keyID)", token: session.accessToken).status == 404)
        let gone = api.send(
            .post, "/device-key/challenge",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "key_id": keyID]),
            token: session.accessToken)
        #expect(gone.status == 400 && gone.error == "invalid_grant")
    }

    @Test("registration needs a sign-in at most five minutes old, and a signature of this challenge")
    func registrationChecks() throws {
        let api = try APIHarness()
        let session = try api.signUp(api.authenticator(), email: "fresh@example.com")
        let device = try TestDeviceKey()
        // A signature by another key: refused, and the challenge is spent.
        let challenge = api.send(.post, "/me/v1/device-keys/challenge", token: session.accessToken)
        let session0 = try #require(challenge.json["auth_session"] as? String)
        let wrong = try TestDeviceKey()
        let forged = try wrong.sign(
            .register, challenge: challenge.json["challenge"] as? String ?? "", clientID: api.bootstrap.clientID,
            keyID: challenge.json["key_id"] as? String ?? "")
        let body = APIHarness.encode([
            "auth_session": session0, "public_key": device.jwk, "signature": forged,
            "device": ["id": device.installID, "name": "Phone", "platform": "ios", "os_version": "15.7"],
        ])
        let refused = api.send(.post, "/me/v1/device-keys", json: body, token: session.accessToken)
        #expect(refused.status == 400 && refused.error == "invalid_grant")
        let again = api.send(.post, "/me/v1/device-keys", json: body, token: session.accessToken)
        #expect(again.status == 400 && again.errorDescription?.contains("already used") == true)
        // A re-auth signature over the registration challenge is the wrong purpose.
        let challenge2 = api.send(.post, "/me/v1/device-keys/challenge", token: session.accessToken)
        let crossPurpose = try device.sign(
            .reauth, challenge: challenge2.json["challenge"] as? String ?? "", clientID: api.bootstrap.clientID,
            keyID: challenge2.json["key_id"] as? String ?? "")
        let crossed = api.send(
            .post, "/me/v1/device-keys",
            json: APIHarness.encode([
                "auth_session": challenge2.json["auth_session"] as? String ?? "", "public_key": device.jwk,
                "signature": crossPurpose,
                "device": ["id": device.installID, "name": "Phone", "platform": "ios", "os_version": "15.7"],
            ]), token: session.accessToken)
        #expect(crossed.status == 400 && crossed.error == "invalid_grant")
        // Six minutes after the sign-in, registration asks for a new one.
        api.clock.advance(by: 360)
        let stale = api.send(.post, "/me/v1/device-keys/challenge", token: session.accessToken)
        #expect(stale.status == 401 && stale.error == "reauthentication_required")
        #expect(try api.store.read { try $0.deviceKeys.list(tenantID: api.tenant.id, userID: session.userID) }.isEmpty)
    }

    @Test("one key per device install (the new one replaces it), at most ten per user")
    func limits() throws {
        let api = try APIHarness()
        let session = try api.signUp(api.authenticator(), email: "limits@example.com")
        let first = try TestDeviceKey(installID: "install-a")
        let firstID = try #require(try api.registerDeviceKey(first, token: session.accessToken).json["id"] as? String)
        let replacement = try TestDeviceKey(installID: "install-a")
        let secondID = try #require(
            try api.registerDeviceKey(replacement, token: session.accessToken).json["id"] as? String)
        let keys = try api.store.read { try $0.deviceKeys.list(tenantID: api.tenant.id, userID: session.userID) }
        #expect(keys.map(\.id) == [secondID] && firstID != secondID)
        for index in 1..<10 {
            let reply = try api.registerDeviceKey(
                TestDeviceKey(installID: "install-\(index)"), token: session.accessToken)
            #expect(reply.status == 201)
        }
        let full = try api.registerDeviceKey(TestDeviceKey(installID: "install-11"), token: session.accessToken)
        #expect(full.status == 409 && full.errorDescription?.contains("10 device keys") == true)
    }

    @Test("a device key is never a first factor: the challenge needs the same user's token, the grant its own session")
    func neverAFirstFactor() throws {
        let api = try APIHarness()
        let owner = try api.signUp(api.authenticator(), email: "owner@example.com")
        let other = try api.signUp(api.authenticator(), email: "other@example.com")
        let device = try TestDeviceKey()
        let keyID = try #require(try api.registerDeviceKey(device, token: owner.accessToken).json["id"] as? String)
        let body = APIHarness.encode(["client_id": api.bootstrap.clientID, "key_id": keyID])
        #expect(api.send(.post, "/device-key/challenge", json: body).status == 401)
        #expect(api.send(.post, "/device-key/challenge", json: body, token: "not.a.token").status == 401)
        let foreign = api.send(.post, "/device-key/challenge", json: body, token: other.accessToken)
        #expect(foreign.status == 400 && foreign.error == "invalid_grant")
        // The grant with a made-up session, or with a session for another key, is refused.
        let made = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": GrantType.deviceKey, "client_id": api.bootstrap.clientID, "auth_session": "nope",
                "key_id": keyID, "signature": "AAAAAAAAAAA",
            ]))
        #expect(made.status == 400 && made.error == "invalid_grant")
        // Malformed members are the caller's error, never a 500.
        for (name, value) in [("key_id", "!!"), ("signature", String(repeating: "A", count: 300))] {
            var fields: [String: Any] = [
                "grant_type": GrantType.deviceKey, "client_id": api.bootstrap.clientID, "auth_session": "x",
                "key_id": keyID, "signature": "AAAAAAAAAAA",
            ]
            fields[name] = value
            let reply = api.send(.post, "/oauth/token", json: APIHarness.encode(fields))
            #expect(reply.status == 400 && reply.error == "invalid_request", "\(name)")
        }
        // A signature by another key is refused, and spends the challenge.
        let forgedChallenge = api.send(.post, "/device-key/challenge", json: body, token: owner.accessToken)
        let forged = APIHarness.encode([
            "grant_type": GrantType.deviceKey, "client_id": api.bootstrap.clientID,
            "auth_session": forgedChallenge.json["auth_session"] as? String ?? "", "key_id": keyID,
            "signature": try TestDeviceKey().sign(
                .reauth, challenge: forgedChallenge.json["challenge"] as? String ?? "",
                clientID: api.bootstrap.clientID, keyID: keyID),
        ])
        let refused = api.send(.post, "/oauth/token", json: forged)
        #expect(refused.status == 400 && refused.errorDescription == "the device key signature is not valid")
        // A challenge is single use.
        let challenge = api.send(.post, "/device-key/challenge", json: body, token: owner.accessToken)
        let session = try #require(challenge.json["auth_session"] as? String)
        let signature = try device.sign(
            .reauth, challenge: challenge.json["challenge"] as? String ?? "", clientID: api.bootstrap.clientID,
            keyID: keyID)
        let grant = APIHarness.encode([
            "grant_type": GrantType.deviceKey, "client_id": api.bootstrap.clientID, "auth_session": session,
            "key_id": keyID, "signature": signature,
        ])
        #expect(api.send(.post, "/oauth/token", json: grant).status == 200)
        #expect(api.send(.post, "/oauth/token", json: grant).status == 400)
        // And it lives five minutes.
        let late = api.send(.post, "/device-key/challenge", json: body, token: owner.accessToken)
        api.clock.advance(by: 301)
        let lateGrant = APIHarness.encode([
            "grant_type": GrantType.deviceKey, "client_id": api.bootstrap.clientID,
            "auth_session": late.json["auth_session"] as? String ?? "", "key_id": keyID,
            "signature": try device.sign(
                .reauth, challenge: late.json["challenge"] as? String ?? "", clientID: api.bootstrap.clientID,
                keyID: keyID),
        ])
        #expect(api.send(.post, "/oauth/token", json: lateGrant).status == 400)
    }

    @Test(
        "method hints follow the connection's minimum OS versions and what the user has",
        arguments: HarnessStore.allCases)
    func methodHints(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let client = api.bootstrap.clientID
        func register(_ query: String) -> String? {
            api.send(.get, "/passkey/method-hints?client_id=\(client)&\(query)").json["register"] as? String
        }
        #expect(register("platform=ios&os_version=16.3") == "device_key")
        #expect(register("platform=ios&os_version=16.4") == "passkey")
        #expect(register("platform=ios&os_version=16.10") == "passkey")
        #expect(register("platform=ios&os_version=16.3.1&webview=true") == "device_key")
        #expect(register("platform=android&os_version=8.1") == "device_key")
        #expect(register("platform=android&os_version=9") == "passkey")
        #expect(register("platform=web") == "passkey")
        for bad in ["platform=windows&os_version=11", "platform=ios&os_version=sixteen", "platform=ios"] {
            let reply = api.send(.get, "/passkey/method-hints?client_id=\(client)&\(bad)")
            #expect(reply.status == 400 && reply.error == "invalid_request", "\(bad)")
        }
        #expect(api.send(.get, "/passkey/method-hints?platform=web").status == 400)

        // A user who signed up with a passkey on the web, then registers a device key on an old iPhone.
        let session = try api.signUp(api.authenticator(), email: "hints@example.com")
        let device = try TestDeviceKey()
        _ = try api.registerDeviceKey(device, token: session.accessToken)
        let hints = api.send(.get, "/me/v1/method-hints?platform=ios&os_version=17.2", token: session.accessToken)
        #expect(hints.status == 200)
        #expect(hints.json["register"] as? String == "passkey")
        #expect(hints.json["has_passkey"] as? Bool == true && hints.json["has_device_key"] as? Bool == true)
        // No passkey sign-in on iOS yet: the device key first.
        #expect(hints.json["reauth"] as? [String] == ["device_key", "passkey"])
        #expect(hints.json["prefer_passkey"] as? Bool == false)
        #expect(hints.json["prompt_passkey_enrollment"] as? Bool == false)

        // The connection's own minimums decide.
        let token = try api.managementToken()
        let connections = api.send(.get, "/api/v2/connections", token: token).list
        let id = try #require(connections.first?["id"] as? String)
        let patched = api.send(
            .patch, "/api/v2/connections/\(id)",
            json: #"{"options":{"passkey_options":{"min_os_versions":{"ios":"17.0"}}}}"#, token: token)
        #expect(patched.status == 200, "\(patched.json)")
        let options = (patched.json["options"] as? [String: Any])?["passkey_options"] as? [String: Any]
        #expect((options?["min_os_versions"] as? [String: Any])?["ios"] as? String == "17.0")
        #expect((options?["min_os_versions"] as? [String: Any])?["android"] as? String == "9")
        #expect(register("platform=ios&os_version=16.4") == "device_key")
    }

    @Test("a passkey enrolled after a device-key re-auth migrates that key; it stops after the grace period")
    func migration() throws {
        let api = try APIHarness()
        let laptop = api.authenticator()
        let session = try api.signUp(laptop, email: "migrate@example.com")
        let device = try TestDeviceKey()
        let keyID = try #require(try api.registerDeviceKey(device, token: session.accessToken).json["id"] as? String)
        api.clock.advance(by: 3_600)
        let reauth = try api.reauthenticate(
            device, keyID: keyID, token: session.accessToken, scope: "openid",
            audience: TokenService.myAccountAudience(api.tenant))
        let token = try #require(reauth.json["access_token"] as? String)
        _ = try api.enroll(api.authenticator(), accessToken: token)
        let migrated = try #require(try api.store.read { try $0.deviceKeys.get(tenantID: api.tenant.id, id: keyID) })
        #expect(migrated.state == .migrated && migrated.migratedAt == api.clock.now())
        #expect(migrated.expiresAt == api.clock.now().addingTimeInterval(30 * 86_400))
        let listed = (api.send(.get, "/me/v1/device-keys", token: token).json["device_keys"] as? [[String: Any]])?.first
        #expect(listed?["status"] as? String == "migrated" && listed?["expires_at"] != nil)
        // Inside the grace period it still works; after it, no more.
        api.clock.advance(by: 29 * 86_400)
        let signedIn = try api.logIn(laptop).accessToken
        #expect(try api.reauthenticate(device, keyID: keyID, token: signedIn).status == 200)
        api.clock.advance(by: 2 * 86_400)
        let challenge = api.send(
            .post, "/device-key/challenge",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "key_id": keyID]),
            token: try api.logIn(laptop).accessToken)
        #expect(challenge.status == 400 && challenge.errorDescription == "this device key no longer works")
    }
}

import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameWire
import Testing
import WebAuthn

@Suite("Adoption statistics and the Management API's device keys (docs/migration.md)")
struct AdoptionStatsTests {
    /// An `Auth0-Client` header naming `os` (as Auth0.swift and Auth0.Android send it).
    static func client(_ os: String) -> [(String, String)] {
        let json = #"{"name":"Sesame.swift","version":"1.0.0","env":{"\#(os)":"17.4"}}"#
        return [("Auth0-Client", Base64URL.encode(Array(json.utf8)))]
    }

    @Test(
        "a day's authentications by method, kind, provider and platform, the share, the users",
        arguments: HarnessStore.allCases)
    func report(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let today = AuthDailyCount.day(of: api.clock.now())
        // 1. A passkey signup (a passkey authentication) on iCloud Keychain, then a login from an iOS app.
        var icloud = AuthenticatorConfiguration()
        icloud.origin = .web(APIHarness.webOrigin)
        icloud.aaguid = [
            0xfb, 0xfc, 0x30, 0x07, 0x15, 0x4e, 0x4e, 0xcc, 0x8c, 0x0b, 0x6e, 0x02, 0x05, 0x57, 0xd7, 0xbd,
        ]
        let phone = SoftwareAuthenticator(configuration: icloud)
        let session = try api.signUp(phone, email: "stats@example.com")
        let challenge = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]))
        let assertion = try phone.getAssertion(optionsJSON: challenge.body)
        let body =
            String(
                APIHarness.encode([
                    "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": api.bootstrap.clientID,
                    "auth_session": challenge.json["auth_session"] as? String ?? "", "scope": "openid offline_access",
                ]).dropLast()) + #","authn_response":"# + assertion.jsonString + "}"
        let login = api.send(.post, "/oauth/token", json: body, headers: Self.client("iOS"))
        #expect(login.status == 200)
        // 2. Two device-key re-authentications from an old iPhone.
        let device = try TestDeviceKey()
        let keyID = try #require(try api.registerDeviceKey(device, token: session.accessToken).json["id"] as? String)
        for _ in 0..<2 {
            #expect(try api.reauthenticate(device, keyID: keyID, token: session.accessToken).status == 200)
        }
        // 3. A password user's login, and a refresh.
        #expect(PasswordAccountsTests.signUp(api, email: "pw@example.com").status == 200)
        let password = PasswordAccountsTests.logIn(api, username: "pw@example.com")
        #expect(password.status == 200)
        #expect(api.refresh(password.json["refresh_token"] as? String ?? "").status == 200)
        // A failed login and an enrollment count for nothing.
        #expect(PasswordAccountsTests.logIn(api, username: "pw@example.com", password: "wrong").status == 403)
        api.application.flush()

        let token = try api.managementToken()
        let reply = api.send(.get, "/api/v2/stats/authentications?from=\(today)&to=\(today)", token: token)
        #expect(reply.status == 200, "\(reply.json)")
        let day = try #require((reply.json["days"] as? [[String: Any]])?.first)
        #expect(day["date"] as? String == today)
        let methods = try #require(day["by_method"] as? [String: Int])
        #expect(methods == ["passkey": 2, "device_key": 2, "password": 1, "apple": 0, "refresh": 1])
        #expect(day["total"] as? Int == 6)
        #expect(day["passkey"] as? [String: Int] == ["synced": 2, "device_bound": 0])
        #expect(day["providers"] as? [String: Int] == ["iCloud Keychain": 2])
        // The signup came from a web origin (the test's http://login.test:8080, not the site's own
        // https origin); the login said iOS in its Auth0-Client header; the device key is iOS's.
        #expect(day["platforms"] as? [String: Int] == ["ios": 3, "android": 0, "web": 1])
        #expect(day["device_auth_passkey_share"] as? Double == 0.5)
        let users = try #require(reply.json["users"] as? [String: Int])
        #expect(users == ["total": 2, "with_passkey": 1, "with_device_key_only": 0, "password_only": 1])

        // Filters: another client has none; the connection by name has them all.
        let other = api.send(
            .get, "/api/v2/stats/authentications?from=\(today)&to=\(today)&client_id=nobody", token: token)
        #expect((other.json["days"] as? [[String: Any]])?.first?["total"] as? Int == 0)
        #expect(
            ((other.json["days"] as? [[String: Any]])?.first?["device_auth_passkey_share"]) is NSNull)
        let connection = api.send(
            .get,
            "/api/v2/stats/authentications?from=\(today)&to=\(today)&connection=\(Bootstrap.defaultConnectionName)",
            token: token)
        #expect((connection.json["days"] as? [[String: Any]])?.first?["total"] as? Int == 6)

        // CSV, one row per day.
        let csv = api.send(.get, "/api/v2/stats/authentications?from=\(today)&to=\(today)&format=csv", token: token)
        #expect(csv.status == 200 && csv.headers["Content-Type"] == "text/csv; charset=utf-8")
        let lines = String(decoding: csv.body, as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("date,total,passkey,device_key"))
        #expect(lines[1] == "\(today),6,2,2,1,0,1,2,0,3,0,1,0.5000,0,0,0")
    }

    @Test("the range: 30 days by default, at most 366, dates checked, the scope required")
    func range() throws {
        let api = try APIHarness()
        let token = try api.managementToken()
        let recent = api.send(.get, "/api/v2/stats/authentications", token: token)
        #expect(recent.status == 200 && (recent.json["days"] as? [[String: Any]])?.count == 30)
        #expect(
            (recent.json["days"] as? [[String: Any]])?.last?["date"] as? String
                == AuthDailyCount.day(of: api.clock.now()))
        let year = api.send(.get, "/api/v2/stats/authentications?from=2024-01-01&to=2024-12-31", token: token)
        #expect((year.json["days"] as? [[String: Any]])?.count == 366)
        for bad in [
            "from=2024-01-01&to=2025-01-01", "from=2024-02-30", "from=2024-1-1", "from=2024-03-02&to=2024-03-01",
            "to=yesterday", "connection=nope", "client_id=",
        ] {
            let reply = api.send(.get, "/api/v2/stats/authentications?\(bad)", token: token)
            #expect(reply.status == 400 && reply.error == "invalid_request", "\(bad)")
        }
        let narrow = try api.managementToken(scope: "read:users")
        #expect(api.send(.get, "/api/v2/stats/authentications", token: narrow).status == 403)
    }

    @Test(
        "import an app's own device keys (JWK, PEM, raw point), list, revoke, delete", arguments: HarnessStore.allCases)
    func managementDeviceKeys(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let session = try api.signUp(api.authenticator(), email: "import@example.com")
        let token = try api.managementToken()
        let user = session.userID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? session.userID
        func importKey(_ publicKey: Any, install: String, created: String? = "2023-04-01T09:30:00Z") -> APIReply {
            var body: [String: Any] = [
                "public_key": publicKey, "client_id": api.bootstrap.clientID,
                "device": ["id": install, "name": "Old phone", "platform": "android", "os_version": "8.1"],
            ]
            if let created { body["created_at"] = created }
            return api.send(.post, "/api/v2/users/\(user)/device-keys", json: APIHarness.encode(body), token: token)
        }
        let jwkKey = try TestDeviceKey()
        let fromJWK = importKey(jwkKey.jwk, install: "a")
        #expect(fromJWK.status == 201, "\(fromJWK.json)")
        #expect(fromJWK.json["created_at"] as? String == "2023-04-01T09:30:00.000Z")
        #expect(fromJWK.json["user_id"] as? String == session.userID)
        let pemKey = try TestDeviceKey()
        #expect(importKey(pemKey.key.publicKey.pem, install: "b").status == 201)
        let rawKey = try TestDeviceKey()
        guard case .ec(_, let x, let y) = rawKey.key.publicKey.components else { return }
        #expect(importKey(Data([4] + x + y).base64EncodedString(), install: "c", created: nil).status == 201)
        // The same install id twice is a conflict (an import never replaces); bad keys are the caller's.
        #expect(importKey(jwkKey.jwk, install: "a").status == 409)
        for bad: Any in [
            "not a key", ["kty": "EC", "crv": "P-384", "x": "AA", "y": "AA"], Data([4, 1, 2]).base64EncodedString(),
        ] {
            let reply = importKey(bad, install: "z")
            #expect(reply.status == 400 && reply.error == "invalid_request")
        }
        #expect(importKey(jwkKey.jwk, install: "d", created: "2999-01-01T00:00:00Z").status == 400)
        #expect(importKey(jwkKey.jwk, install: "d", created: "yesterday").status == 400)

        let listed = api.send(.get, "/api/v2/users/\(user)/device-keys", token: token)
        #expect(listed.status == 200 && listed.list.count == 3)
        // The app signs with the key id the import chose: the re-authentication works at once.
        let keyID = try #require(fromJWK.json["id"] as? String)
        #expect(try api.reauthenticate(jwkKey, keyID: keyID, token: session.accessToken).status == 200)

        let revoked = api.send(
            .patch, "/api/v2/users/\(user)/device-keys/\(keyID)", json: #"{"status":"revoked"}"#, token: token)
        #expect(revoked.status == 200 && revoked.json["status"] as? String == "revoked")
        #expect(
            api.send(.patch, "/api/v2/users/\(user)/device-keys/\(keyID)", json: #"{"status":"active"}"#, token: token)
                .status == 400)
        let after = api.send(
            .post, "/device-key/challenge",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "key_id": keyID]), token: session.accessToken)
        #expect(after.status == 400)
        #expect(api.send(.delete, "/api/v2/users/\(user)/device-keys/\(keyID)", token: token).status == 204)
        #expect(api.send(.delete, "/api/v2/users/\(user)/device-keys/\(keyID)", token: token).status == 404)
        #expect(api.send(.get, "/api/v2/users/nobody/device-keys", token: token).status == 404)
    }
}

import Foundation
import SesameClient
import SesameCrypto
import SesameSoftwarePasskey
import SesameWire
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Device-key fixtures: a challenge of bytes 0…31 and a key id of sixteen 0xAA bytes.
enum DeviceKeyFixture {
    static let challengeBytes = Array(UInt8(0)..<32)
    static let keyIDBytes = [UInt8](repeating: 0xAA, count: 16)
    static let challenge = base64url(challengeBytes)
    static let keyID = base64url(keyIDBytes)
    static let device = DeviceKeyDevice(
        id: "install-1", name: "Ada's phone", platform: .ios, osVersion: "16.3", model: "iPhone12,1")

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func bytes(_ text: String) throws -> [UInt8] {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Array(try #require(Data(base64Encoded: standard)))
    }

    static let registrationChallenge =
        #"{"auth_session":"dk-session-1","challenge":"\#(challenge)","key_id":"\#(keyID)"}"#
    static let registered = #"""
        {"id":"\#(keyID)","created_at":"2027-01-15T08:00:00.000Z","status":"active",
         "device":{"id":"install-1","name":"Ada's phone","platform":"ios","os_version":"16.3","model":"iPhone12,1"}}
        """#
    static let reauthChallenge = #"{"auth_session":"dk-session-2","challenge":"\#(challenge)"}"#

    /// The SesameCrypto key for a JWK the SDK sent.
    static func publicKey(_ jwk: [String: Any]) throws -> PublicKey {
        try PublicKey(
            jwk: JWK(
                kty: try #require(jwk["kty"] as? String), crv: jwk["crv"] as? String, x: jwk["x"] as? String,
                y: jwk["y"] as? String))
    }

    static func message(_ purpose: DeviceKeySignedBytes.Purpose) -> [UInt8] {
        DeviceKeySignedBytes.message(
            purpose: purpose, challenge: challengeBytes, clientIDDigest: Digest.sha256(Array("client-1".utf8)),
            keyID: keyIDBytes)
    }
}

@Suite("Device keys over a stubbed transport")
struct DeviceKeyAPITests {
    func account(_ transport: StubTransport) -> MyAccount {
        MyAccount(configuration: Fixture.configuration, accessToken: "me-token", transport: transport)
    }

    func line(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "") \(request.url?.absoluteString ?? "")"
    }

    @Test func registerSignsTheRegisterMessageAndSendsTheKey() async throws {
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.registrationChallenge), .http(201, DeviceKeyFixture.registered),
        ])
        let provider = SoftwareDeviceKeyProvider()
        let registered = try await account(transport).registerDeviceKey(
            provider: provider, device: DeviceKeyFixture.device, digest: SesameCryptoDigest())

        #expect(
            transport.requests.map(line) == [
                "POST https://login.example.com/me/v1/device-keys/challenge",
                "POST https://login.example.com/me/v1/device-keys",
            ])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer me-token" })
        #expect(try transport.body(0).isEmpty)

        let body = try transport.body(1)
        #expect(Set(body.keys) == ["auth_session", "public_key", "signature", "device"])
        #expect(body["auth_session"] as? String == "dk-session-1")
        #expect(
            body["device"] as? [String: String] == [
                "id": "install-1", "name": "Ada's phone", "platform": "ios", "os_version": "16.3",
                "model": "iPhone12,1",
            ])
        let jwk = try #require(body["public_key"] as? [String: String])
        #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256")
        let signature = try DeviceKeyFixture.bytes(try #require(body["signature"] as? String))
        let verifier = try DeviceKeyFixture.publicKey(jwk)
        #expect(
            try verifier.isValidSignature(
                signature, for: DeviceKeyFixture.message(.register), algorithm: .ecdsa(.sha256), format: .der))
        #expect(
            try !verifier.isValidSignature(
                signature, for: DeviceKeyFixture.message(.reauth), algorithm: .ecdsa(.sha256), format: .der))

        #expect(registered.keyID == DeviceKeyFixture.keyID)
        #expect(try provider.handles() == [registered.handle])
        #expect(registered.device == DeviceKeyFixture.device)
        // What the app keeps: snake_case, no secret.
        let kept = String(decoding: try JSONEncoder().encode(registered), as: UTF8.self)
        #expect(kept.contains(#""key_id""#))
        #expect(try JSONDecoder().decode(RegisteredDeviceKey.self, from: Data(kept.utf8)) == registered)
    }

    @Test func aRefusedRegistrationDeletesTheNewKey() async throws {
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.registrationChallenge),
            .http(
                401, #"{"error":"reauthentication_required","error_description":"sign in again to make this change"}"#),
        ])
        let provider = SoftwareDeviceKeyProvider()
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await account(transport).registerDeviceKey(
                provider: provider, device: DeviceKeyFixture.device, digest: SesameCryptoDigest())
        }
        #expect(error?.code == "reauthentication_required")
        #expect(try provider.handles().isEmpty)
    }

    @Test func aChallengeThatIsNotBase64URLMakesNoKey() async throws {
        let transport = StubTransport([
            .http(200, #"{"auth_session":"s","challenge":"not base64!","key_id":"\#(DeviceKeyFixture.keyID)"}"#)
        ])
        let provider = SoftwareDeviceKeyProvider()
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await account(transport).registerDeviceKey(
                provider: provider, device: DeviceKeyFixture.device, digest: SesameCryptoDigest())
        }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.errorDescription.contains("challenge") == true)
        #expect(try provider.handles().isEmpty)
        #expect(transport.requests.count == 1)
    }

    #if !canImport(CryptoKit)
        @Test func withoutADigestNothingIsSent() async throws {
            let transport = StubTransport()
            let error = await #expect(throws: AuthenticationError.self) {
                _ = try await account(transport).registerDeviceKey(
                    provider: SoftwareDeviceKeyProvider(), device: DeviceKeyFixture.device)
            }
            #expect(error?.code == "no_digest")
            #expect(transport.requests.isEmpty)
        }
    #endif

    @Test(arguments: [
        #"{"device_keys":[\#(DeviceKeyFixture.registered)]}"#, #"[\#(DeviceKeyFixture.registered)]"#,
    ])
    func listsKeysInEitherShape(body: String) async throws {
        let transport = StubTransport([.http(200, body)])
        let keys = try await account(transport).deviceKeys()
        #expect(transport.requests.map(line) == ["GET https://login.example.com/me/v1/device-keys"])
        #expect(keys.map(\.id) == [DeviceKeyFixture.keyID])
        #expect(keys.first?.status == .active)
    }

    @Test(arguments: [
        // An object is read as the documented form, and its errors say so.
        (#"{"keys":[]}"#, "device_keys"), (#"{"device_keys":[{"id":"x"}]}"#, "device_keys"),
        (#"[{"id":"x"}]"#, #""device""#), (#""device_keys""#, "DeviceKeyListAnswer"),
    ])
    func aListInNeitherShapeSaysWhatIsWrong(body: String, mentions: String) async throws {
        let transport = StubTransport([.http(200, body)])
        let error = await #expect(throws: AuthenticationError.self) { _ = try await account(transport).deviceKeys() }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.errorDescription.contains(mentions) == true, "\(error?.errorDescription ?? "")")
    }

    @Test func deleteAndSnoozeGoWhereTheyShould() async throws {
        let transport = StubTransport([.http(204, ""), .http(204, "")])
        try await account(transport).deleteDeviceKey(id: "qqqq|1")
        try await account(transport).snoozePasskeyEnrollment()
        #expect(
            transport.requests.map(line) == [
                "DELETE https://login.example.com/me/v1/device-keys/qqqq%7C1",
                "POST https://login.example.com/me/v1/passkey-enrollment/snooze",
            ])
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer me-token" })
    }

    @Test func myAccountHintsNameThePlatformVersionAndWebView() async throws {
        let transport = StubTransport([
            .http(
                200,
                #"{"register":"passkey","reauth":["device_key","passkey"],"has_passkey":true,"has_device_key":true,"#
                    + #""prompt_passkey_enrollment":false,"prefer_passkey":false,"#
                    + #""min_os_versions":{"android":"9","android_webview":"9","ios":"16.4","ios_webview":"17"}}"#)
        ])
        let hints = try await account(transport).methodHints(
            device: DeviceContext(platform: .iOS, osVersion: "16.4+beta", webView: .linkedToApp))
        #expect(
            transport.requests.map(line) == [
                "GET https://login.example.com/me/v1/method-hints?platform=ios&os_version=16.4%2Bbeta&webview=true"
            ])
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer me-token")
        #expect(
            hints
                == MethodHints(
                    register: .passkey, reauth: [.deviceKey, .passkey], hasPasskey: true, hasDeviceKey: true,
                    promptPasskeyEnrollment: false, preferPasskey: false,
                    minOSVersions: ["android": "9", "android_webview": "9", "ios": "16.4", "ios_webview": "17"]))
        #expect(MinimumOSVersions(hints: hints)?.iOSWebView == OSVersion(major: 17))
    }

    @Test func publicHintsNeedNoTokenAndAnswerRegisterOnly() async throws {
        let transport = StubTransport([
            .http(
                200,
                #"{"register":"device_key","min_os_versions":{"android":"9","android_webview":"10","#
                    + #""ios":"16.4","ios_webview":"16.4"}}"#)
        ])
        let hints = try await Fixture.authentication(transport).methodHints(
            device: DeviceContext(platform: .android, osVersion: "8.1"))
        #expect(
            transport.requests.map(line) == [
                "GET https://login.example.com/passkey/method-hints?client_id=client-1&platform=android&os_version=8.1"
                    + "&webview=false"
            ])
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(hints.register == .deviceKey && hints.reauth == nil && hints.hasPasskey == nil)
        #expect(
            MinimumOSVersions(hints: hints)
                == MinimumOSVersions(
                    iOS: OSVersion(major: 16, minor: 4), android: OSVersion(major: 9),
                    androidWebView: OSVersion(major: 10)))
    }

    @Test func publicHintsSayWhenTheyAreAskedFromAWebView() async throws {
        let transport = StubTransport([.http(200, #"{"register":"passkey"}"#)])
        _ = try await Fixture.authentication(transport).methodHints(
            device: DeviceContext(platform: .iOS, osVersion: "17.4", webView: .linkedToApp))
        #expect(transport.requests.first?.url?.query == "client_id=client-1&platform=ios&os_version=17.4&webview=true")
    }

    @Test func platformsTheServerDoesNotKnowAreNotAskedAbout() async throws {
        let transport = StubTransport()
        let mac = DeviceContext(platform: .other("macOS"), osVersion: "15.0")
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await Fixture.authentication(transport).methodHints(device: mac)
        }
        #expect(error?.code == "unsupported_platform")
        await #expect(throws: AuthenticationError.self) { _ = try await account(transport).methodHints(device: mac) }
        #expect(transport.requests.isEmpty)
    }

    @Test func reauthenticationSignsTheReauthMessageWithTheUsersToken() async throws {
        let provider = SoftwareDeviceKeyProvider(signatureFormat: .raw)
        let key = try await provider.createKey()
        let registered = RegisteredDeviceKey(
            keyID: DeviceKeyFixture.keyID, handle: key.handle, device: DeviceKeyFixture.device)
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.reauthChallenge),
            .http(
                200,
                #"{"access_token":"at-2","token_type":"Bearer","expires_in":600,"auth_method":"device_key","#
                    + #""passkey_enrollment":{"recommended":true,"reason":"device_key_reauth","#
                    + #""enroll_url":"https://login.example.com/u/passkey-enroll?ticket=t"}}"#),
        ])
        let credentials = try await Fixture.authentication(transport).reauthenticate(
            deviceKey: registered, accessToken: "at-1", provider: provider, digest: SesameCryptoDigest(),
            audience: "https://api.example.com/", scope: "openid")

        #expect(
            transport.requests.map(line) == [
                "POST https://login.example.com/device-key/challenge", "POST https://login.example.com/oauth/token",
            ])
        #expect(transport.requests[0].value(forHTTPHeaderField: "Authorization") == "Bearer at-1")
        #expect(try transport.body(0) as NSDictionary == ["client_id": "client-1", "key_id": DeviceKeyFixture.keyID])
        // The auth session binds the user: the grant carries no bearer.
        #expect(transport.requests[1].value(forHTTPHeaderField: "Authorization") == nil)
        let grant = try transport.body(1)
        #expect(
            Set(grant.keys) == ["grant_type", "client_id", "auth_session", "key_id", "signature", "scope", "audience"])
        #expect(grant["grant_type"] as? String == "urn:sesame:params:oauth:grant-type:device-key")
        #expect(grant["client_id"] as? String == "client-1")
        #expect(grant["auth_session"] as? String == "dk-session-2")
        #expect(grant["key_id"] as? String == DeviceKeyFixture.keyID)
        #expect(grant["scope"] as? String == "openid")
        #expect(grant["audience"] as? String == "https://api.example.com/")
        let signature = try DeviceKeyFixture.bytes(try #require(grant["signature"] as? String))
        #expect(signature.count == 64)
        let verifier = try PublicKey(jwk: JWK(kty: "EC", crv: "P-256", x: key.publicKey.x, y: key.publicKey.y))
        #expect(
            try verifier.isValidSignature(
                signature, for: DeviceKeyFixture.message(.reauth), algorithm: .ecdsa(.sha256), format: .raw))

        #expect(credentials.accessToken == "at-2")
        #expect(credentials.authMethod == .deviceKey)
        #expect(credentials.passkeyEnrollment?.reason == .deviceKeyReauth)
    }

    /// One device a grant is sent from, and the `os_version` it should carry.
    struct GrantDevice: Sendable, CustomTestStringConvertible {
        var device: DeviceContext?
        var osVersion: String?
        var testDescription: String {
            "\(device.map { "\($0.platform) \($0.osVersion.debugDescription)" } ?? "nil") → \(osVersion ?? "none")"
        }
    }

    static let grantDevices: [GrantDevice] = [
        // The key's platform (iOS): today's version goes, as the server reads it.
        GrantDevice(device: DeviceContext(platform: .iOS, osVersion: "17.4"), osVersion: "17.4"),
        GrantDevice(
            device: DeviceContext(platform: .iOS, osVersion: "18.0.1", webView: .linkedToApp), osVersion: "18.0.1"),
        GrantDevice(device: DeviceContext(platform: .iOS, osVersion: "016.04"), osVersion: "16.4"),
        // What the server would refuse is left out, so the sign-in still works.
        GrantDevice(device: DeviceContext(platform: .iOS, osVersion: "17.4 beta"), osVersion: nil),
        GrantDevice(device: DeviceContext(platform: .iOS, osVersion: ""), osVersion: nil),
        GrantDevice(device: DeviceContext(platform: .iOS, osVersion: "1.2.3.4.5"), osVersion: nil),
        GrantDevice(device: DeviceContext(platform: .iOS, osVersion: "123456"), osVersion: nil),
        // Another platform says nothing about the phone the key is on.
        GrantDevice(device: DeviceContext(platform: .android, osVersion: "14"), osVersion: nil),
        GrantDevice(device: DeviceContext(platform: .other("linux"), osVersion: "6.8"), osVersion: nil),
        GrantDevice(device: nil, osVersion: nil),
    ]

    @Test(arguments: grantDevices)
    func theGrantCarriesTheDevicesOSVersionWhenItIsTheKeys(row: GrantDevice) async throws {
        let provider = SoftwareDeviceKeyProvider()
        let key = try await provider.createKey()
        let registered = RegisteredDeviceKey(
            keyID: DeviceKeyFixture.keyID, handle: key.handle, device: DeviceKeyFixture.device)
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.reauthChallenge),
            .http(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":600,"auth_method":"device_key"}"#),
        ])
        _ = try await Fixture.authentication(transport).reauthenticate(
            deviceKey: registered, accessToken: "at-1", provider: provider, digest: SesameCryptoDigest(),
            device: row.device)
        let grant = try transport.body(1)
        #expect(grant["os_version"] as? String == row.osVersion)
        #expect(grant["redirect_uri"] == nil)
    }

    @Test func theGrantNamesWhereTheEnrollmentPageReturns() async throws {
        let provider = SoftwareDeviceKeyProvider()
        let key = try await provider.createKey()
        let registered = RegisteredDeviceKey(
            keyID: DeviceKeyFixture.keyID, handle: key.handle, device: DeviceKeyFixture.device)
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.reauthChallenge),
            .http(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":600,"auth_method":"device_key"}"#),
        ])
        let callback = try #require(URL(string: "com.example.notes://login.example.com/ios/callback"))
        _ = try await Fixture.authentication(transport).reauthenticate(
            deviceKey: registered, accessToken: "at-1", provider: provider, digest: SesameCryptoDigest(),
            device: DeviceContext(platform: .iOS, osVersion: "16.3"), enrollmentRedirectURL: callback)
        let grant = try transport.body(1)
        #expect(
            Set(grant.keys) == [
                "grant_type", "client_id", "auth_session", "key_id", "signature", "scope", "os_version", "redirect_uri",
            ])
        #expect(grant["os_version"] as? String == "16.3")
        #expect(grant["redirect_uri"] as? String == "com.example.notes://login.example.com/ios/callback")
    }

    @Test func aKeyMissingOnTheDeviceFailsBeforeTheGrant() async throws {
        let transport = StubTransport([.http(200, DeviceKeyFixture.reauthChallenge)])
        let registered = RegisteredDeviceKey(
            keyID: DeviceKeyFixture.keyID, handle: "gone", device: DeviceKeyFixture.device)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await Fixture.authentication(transport).reauthenticate(
                deviceKey: registered, accessToken: "at-1", provider: SoftwareDeviceKeyProvider(),
                digest: SesameCryptoDigest())
        }
        #expect(error?.code == "device_key_not_found")
        #expect(transport.requests.count == 1)
    }
}

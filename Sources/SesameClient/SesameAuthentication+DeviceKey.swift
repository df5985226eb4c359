import Foundation
import SesameWire

/// Device-key re-authentication and the unauthenticated method hints (docs/migration.md).
extension SesameAuthentication {
    /// Asks for a re-authentication challenge for a device key (`POST /device-key/challenge`),
    /// with the signed-in user's current access token: a device key only re-authenticates a user
    /// who is already signed in on this device.
    public func deviceKeyChallenge(keyID: String, accessToken: String) async throws(AuthenticationError)
        -> DeviceKeyChallenge
    {
        let body = DeviceKeyChallengeRequest(clientID: configuration.clientID, keyID: keyID)
        let (data, response) = try await api.send(
            "POST", "/device-key/challenge", body: try WireValue.encoded(body, what: "the challenge request"),
            bearer: accessToken)
        return try APIClient.decode(DeviceKeyChallenge.self, from: data, status: response.statusCode)
    }

    /// Completes a re-authentication: signs the `reauth` message (docs/migration.md) with the device key
    /// and sends it to `/oauth/token` (device-key grant). The answer may carry
    /// `Credentials.passkeyEnrollment`, the server's advice to create a passkey now.
    ///
    /// `device` is the device this runs on (this one by default): its OS version goes as
    /// `os_version` when it runs the platform the key was registered on, so the server keeps the
    /// key's version current and offers the passkey as soon as the device can have one. A version
    /// the server would not read (not dotted numbers) is left out rather than failing the sign-in.
    /// `enrollmentRedirectURL`, one of the client's callbacks exactly, is where the hosted
    /// enrollment page of the answer's prompt returns (`openPasskeyEnrollment`); without it the
    /// page has no way back to the app.
    public func login(
        deviceKey: RegisteredDeviceKey, challenge: DeviceKeyChallenge, provider: any DeviceKeyProvider,
        digest: (any PKCEDigest)? = nil, device: DeviceContext? = DeviceContext.current, audience: String? = nil,
        scope: String = SesameAuthentication.defaultScope, enrollmentRedirectURL: URL? = nil
    ) async throws(AuthenticationError) -> Credentials {
        let digest = try PlatformDigest.resolve(digest)
        let message = DeviceKeySignedBytes.message(
            purpose: .reauth, challenge: try DeviceKeyBytes.decode(challenge.challenge, "challenge"),
            clientIDDigest: digest.sha256(Array(configuration.clientID.utf8)),
            keyID: try DeviceKeyBytes.decode(deviceKey.keyID, "key_id"))
        let signature: [UInt8]
        do {
            signature = try await provider.sign(message, handle: deviceKey.handle)
        } catch {
            throw AuthenticationError.deviceKeyProvider(error)
        }
        return try await token([
            TokenFields.grantType: .string(GrantType.deviceKey), ClientFields.clientID: .string(configuration.clientID),
            TokenFields.authSession: .string(challenge.authSession), TokenFields.keyID: .string(deviceKey.keyID),
            TokenFields.signature: .string(Base64URL.encode(Data(signature))), TokenFields.scope: .string(scope),
            TokenFields.audience: .text(audience),
            TokenFields.osVersion: .text(Self.osVersion(of: device, for: deviceKey)),
            TokenFields.redirectURI: .text(enrollmentRedirectURL?.absoluteString),
        ])
    }

    /// Re-authenticates the signed-in user with a device key in one call: challenge (with
    /// `accessToken`, the user's current one), signature, token. `device` and
    /// `enrollmentRedirectURL` as for `login(deviceKey:challenge:provider:…)`.
    public func reauthenticate(
        deviceKey: RegisteredDeviceKey, accessToken: String, provider: any DeviceKeyProvider,
        digest: (any PKCEDigest)? = nil, device: DeviceContext? = DeviceContext.current, audience: String? = nil,
        scope: String = SesameAuthentication.defaultScope, enrollmentRedirectURL: URL? = nil
    ) async throws(AuthenticationError) -> Credentials {
        let challenge = try await deviceKeyChallenge(keyID: deviceKey.keyID, accessToken: accessToken)
        return try await login(
            deviceKey: deviceKey, challenge: challenge, provider: provider, digest: digest, device: device,
            audience: audience, scope: scope, enrollmentRedirectURL: enrollmentRedirectURL)
    }

    /// The grant's `os_version`: `device`'s, when it runs the platform `key` was registered on
    /// (an iOS key re-authenticated from a Linux test says nothing about the phone) and the server
    /// reads it (1 to 4 dotted numbers of at most 5 digits); nil otherwise.
    static func osVersion(of device: DeviceContext?, for key: RegisteredDeviceKey) -> String? {
        guard let device, device.platform.devicePlatform == key.device.platform,
            let version = OSVersion(device.osVersion), (1...4).contains(version.components.count),
            version.components.allSatisfy({ $0 <= 99_999 })
        else { return nil }
        return version.description
    }

    /// The method the server advises registering on `device` before anyone signs in
    /// (`GET /passkey/method-hints`): `register` and the connection's `min_os_versions` are
    /// answered. Only the platforms the server knows (iOS, Android, web) can be asked about.
    public func methodHints(device: DeviceContext) async throws(AuthenticationError) -> MethodHints {
        let platform = try DeviceKeyBytes.platform(device)
        let query = APIClient.query([
            ("client_id", configuration.clientID), ("platform", platform.rawValue), ("os_version", device.osVersion),
            ("webview", device.isWebView ? "true" : "false"),
        ])
        return try await api.send(MethodHints.self, "GET", "/passkey/method-hints" + query)
    }
}

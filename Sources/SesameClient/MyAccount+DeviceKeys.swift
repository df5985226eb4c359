import Foundation
import SesameWire

/// Device keys, method hints and the enrollment prompt's snooze in the My Account API (docs/migration.md).
extension MyAccount {
    /// Asks for a registration challenge (`POST /me/v1/device-keys/challenge`): the challenge and
    /// the key id the server chose. The session must be fresh (signed in at most 5 minutes ago).
    public func deviceKeyRegistrationChallenge() async throws(AuthenticationError) -> DeviceKeyRegistrationChallenge {
        try await api.send(
            DeviceKeyRegistrationChallenge.self, "POST", "/me/v1/device-keys/challenge", json: WireBody(),
            bearer: accessToken)
    }

    /// Registers a new device key in one call: a challenge, `provider.createKey`, a signature of
    /// the `register` message (docs/migration.md) and `POST /me/v1/device-keys`. `digest` is the SHA-256
    /// of the client id (CryptoKit's by default on Apple platforms; pass `SesameCryptoDigest` on
    /// Linux). When the signature or the server fails, the new key is deleted again.
    public func registerDeviceKey(
        provider: any DeviceKeyProvider, device: DeviceKeyDevice, digest: (any PKCEDigest)? = nil
    ) async throws(AuthenticationError) -> RegisteredDeviceKey {
        let digest = try PlatformDigest.resolve(digest)
        let challenge = try await deviceKeyRegistrationChallenge()
        let message = DeviceKeySignedBytes.message(
            purpose: .register, challenge: try DeviceKeyBytes.decode(challenge.challenge, "challenge"),
            clientIDDigest: digest.sha256(Array(configuration.clientID.utf8)),
            keyID: try DeviceKeyBytes.decode(challenge.keyID, "key_id"))
        let key: DeviceKey
        do {
            key = try await provider.createKey()
        } catch {
            throw AuthenticationError.deviceKeyProvider(error)
        }
        do {
            return try await register(key, message: message, challenge: challenge, provider: provider, device: device)
        } catch {
            // Best effort: a key the server never accepted would only take room on the device.
            try? await provider.deleteKey(handle: key.handle)
            throw error
        }
    }

    /// Signs the registration message with the new key and sends it with its public key.
    private func register(
        _ key: DeviceKey, message: [UInt8], challenge: DeviceKeyRegistrationChallenge,
        provider: any DeviceKeyProvider, device: DeviceKeyDevice
    ) async throws(AuthenticationError) -> RegisteredDeviceKey {
        let signature: [UInt8]
        do {
            signature = try await provider.sign(message, handle: key.handle)
        } catch {
            throw AuthenticationError.deviceKeyProvider(error)
        }
        let registration = DeviceKeyRegistration(
            authSession: challenge.authSession, publicKey: key.publicKey,
            signature: Base64URL.encode(Data(signature)), device: device)
        let (data, response) = try await api.send(
            "POST", "/me/v1/device-keys", body: try WireValue.encoded(registration, what: "the device key"),
            bearer: accessToken)
        let registered = try APIClient.decode(DeviceKeyResponse.self, from: data, status: response.statusCode)
        return RegisteredDeviceKey(keyID: registered.id, handle: key.handle, device: registered.device)
    }

    /// The user's device keys (`GET /me/v1/device-keys`, `{"device_keys": [...]}`), on every
    /// device, oldest first.
    public func deviceKeys() async throws(AuthenticationError) -> [DeviceKeyResponse] {
        try await api.send(DeviceKeyListAnswer.self, "GET", "/me/v1/device-keys", bearer: accessToken).keys
    }

    /// Revokes a device key (`DELETE /me/v1/device-keys/{id}`). The private key stays on its
    /// device: delete it there with the provider.
    public func deleteDeviceKey(id: String) async throws(AuthenticationError) {
        _ = try await api.send("DELETE", "/me/v1/device-keys/" + APIClient.segment(id), bearer: accessToken)
    }

    /// What the server advises for this user on `device` (`GET /me/v1/method-hints`): the method
    /// to register, the re-authentication order, the user's credentials, `prefer_passkey` and the
    /// connection's `min_os_versions` (`MinimumOSVersions(hints:)`).
    /// Only the platforms the server knows (iOS, Android, web) can be asked about.
    public func methodHints(device: DeviceContext) async throws(AuthenticationError) -> MethodHints {
        let platform = try DeviceKeyBytes.platform(device)
        let query = APIClient.query([
            ("platform", platform.rawValue), ("os_version", device.osVersion),
            ("webview", device.isWebView ? "true" : "false"),
        ])
        return try await api.send(MethodHints.self, "GET", "/me/v1/method-hints" + query, bearer: accessToken)
    }

    /// Hides the passkey-enrollment prompt for the connection's snooze period
    /// (`POST /me/v1/passkey-enrollment/snooze`): the user chose "Not now".
    public func snoozePasskeyEnrollment() async throws(AuthenticationError) {
        _ = try await api.send("POST", "/me/v1/passkey-enrollment/snooze", json: WireBody(), bearer: accessToken)
    }
}

/// The answer of `GET /me/v1/device-keys`: the documented `{"device_keys": [...]}` (docs/migration.md),
/// or the bare array servers before it answered.
struct DeviceKeyListAnswer: Decodable {
    var keys: [DeviceKeyResponse]

    private enum CodingKeys: String, CodingKey {
        case deviceKeys = "device_keys"
    }

    init(from decoder: any Decoder) throws {
        if (try? decoder.container(keyedBy: CodingKeys.self)) != nil {
            // An object: the documented form, whose decoding errors are the ones worth reporting.
            keys = try DeviceKeyList(from: decoder).deviceKeys
        } else {
            keys = try [DeviceKeyResponse](from: decoder)
        }
    }
}

/// Decoding shared by the device-key calls.
enum DeviceKeyBytes {
    /// A base64url member of a device-key answer as bytes; `.invalidResponse` naming it otherwise.
    static func decode(_ text: String, _ member: String) throws(AuthenticationError) -> [UInt8] {
        guard let data = Base64URL.decode(text), !data.isEmpty else {
            throw AuthenticationError.invalidResponse("\(member) in the device-key challenge is not base64url")
        }
        return Array(data)
    }

    /// The wire platform of `device`; `invalid_request` for a platform the server does not know.
    static func platform(_ device: DeviceContext) throws(AuthenticationError) -> DevicePlatform {
        guard let platform = device.platform.devicePlatform else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "unsupported_platform",
                errorDescription: "the method hints know ios, android and web, not \(device.platform)")
        }
        return platform
    }
}

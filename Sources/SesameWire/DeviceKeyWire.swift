// Legacy device keys and the migration to passkeys (docs/migration.md): the bodies the server and the SDK
// exchange. A device key is a P-256 key that lives on one device and only re-authenticates a user
// who is already signed in there.

/// What a device key signs (docs/migration.md): `"sesame-device-key-v1" ‖ 0x00 ‖ purpose ‖ 0x00 ‖
/// challenge ‖ SHA-256(client_id) ‖ key_id`, the challenge and the key id as decoded bytes.
public enum DeviceKeySignedBytes {
    /// The fixed prefix of every signed message.
    public static let domain = Array("sesame-device-key-v1".utf8)

    /// Why the key signs.
    public enum Purpose: String, Sendable, Hashable, Codable, CaseIterable {
        /// Proof of possession when the key is registered.
        case register
        /// A re-authentication of the signed-in user.
        case reauth
    }

    /// The message for `purpose`; `clientIDDigest` is SHA-256 of the client id's UTF-8 bytes.
    public static func message(
        purpose: Purpose, challenge: [UInt8], clientIDDigest: [UInt8], keyID: [UInt8]
    ) -> [UInt8] {
        domain + [0] + Array(purpose.rawValue.utf8) + [0] + challenge + clientIDDigest + keyID
    }
}

/// The platform a device (or a request) runs on, as the migration rules name it.
public enum DevicePlatform: String, Sendable, Hashable, Codable, CaseIterable {
    case ios
    case android
    case web
}

/// A P-256 public key as a JWK (RFC 7517, RFC 7518 §6.2.1): `x` and `y` are 32 bytes, base64url.
public struct ECPublicKeyJWK: Codable, Sendable, Hashable {
    public var kty: String
    public var crv: String
    public var x: String
    public var y: String

    public init(x: String, y: String) {
        self.kty = "EC"
        self.crv = "P-256"
        self.x = x
        self.y = y
    }
}

/// The device a key lives on, as the app describes it.
public struct DeviceKeyDevice: Codable, Sendable, Hashable {
    /// A random install id the app keeps in a this-device-only Keychain item (1–128 characters).
    public var id: String
    /// A name the user recognises ("Taro's iPhone").
    public var name: String
    public var platform: DevicePlatform
    /// "16.3", "13".
    public var osVersion: String
    public var model: String?

    enum CodingKeys: String, CodingKey {
        case id, name, platform, model
        case osVersion = "os_version"
    }

    public init(id: String, name: String, platform: DevicePlatform, osVersion: String, model: String? = nil) {
        self.id = id
        self.name = name
        self.platform = platform
        self.osVersion = osVersion
        self.model = model
    }
}

/// The answer of `POST /me/v1/device-keys/challenge` (registration): the challenge and the key id
/// the server chose, both base64url.
public struct DeviceKeyRegistrationChallenge: Codable, Sendable, Hashable {
    public var authSession: String
    public var challenge: String
    public var keyID: String

    enum CodingKeys: String, CodingKey {
        case challenge
        case authSession = "auth_session"
        case keyID = "key_id"
    }

    public init(authSession: String, challenge: String, keyID: String) {
        self.authSession = authSession
        self.challenge = challenge
        self.keyID = keyID
    }
}

/// The body of `POST /me/v1/device-keys`: the new key, its proof of possession (the signature of
/// the `register` message, ES256 as DER or raw r ‖ s, base64url) and the device.
public struct DeviceKeyRegistration: Codable, Sendable, Hashable {
    public var authSession: String
    public var publicKey: ECPublicKeyJWK
    public var signature: String
    public var device: DeviceKeyDevice

    enum CodingKeys: String, CodingKey {
        case signature, device
        case authSession = "auth_session"
        case publicKey = "public_key"
    }

    public init(authSession: String, publicKey: ECPublicKeyJWK, signature: String, device: DeviceKeyDevice) {
        self.authSession = authSession
        self.publicKey = publicKey
        self.signature = signature
        self.device = device
    }
}

/// A device key's state.
public enum DeviceKeyStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case active
    /// The user enrolled a passkey after re-authenticating with it: it keeps working until the
    /// connection's grace period ends.
    case migrated
    case revoked
}

/// A device key as My Account and the Management API show it.
public struct DeviceKeyResponse: Codable, Sendable, Hashable {
    /// The key id, base64url (16 bytes).
    public var id: String
    /// ISO 8601 with milliseconds, UTC.
    public var createdAt: String
    public var device: DeviceKeyDevice
    public var status: DeviceKeyStatus
    public var lastUsedAt: String?
    /// When it became `migrated`.
    public var migratedAt: String?
    /// When a migrated key stops working.
    public var expiresAt: String?
    /// The Management API only: the owner.
    public var userID: String?

    enum CodingKeys: String, CodingKey {
        case id, device, status
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case migratedAt = "migrated_at"
        case expiresAt = "expires_at"
        case userID = "user_id"
    }

    public init(
        id: String, createdAt: String, device: DeviceKeyDevice, status: DeviceKeyStatus, lastUsedAt: String? = nil,
        migratedAt: String? = nil, expiresAt: String? = nil, userID: String? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.device = device
        self.status = status
        self.lastUsedAt = lastUsedAt
        self.migratedAt = migratedAt
        self.expiresAt = expiresAt
        self.userID = userID
    }
}

/// The body of `POST /device-key/challenge` (re-authentication; sent with the user's access token).
public struct DeviceKeyChallengeRequest: Codable, Sendable, Hashable {
    public var clientID: String
    public var keyID: String

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case keyID = "key_id"
    }

    public init(clientID: String, keyID: String) {
        self.clientID = clientID
        self.keyID = keyID
    }
}

/// The answer of `POST /device-key/challenge`.
public struct DeviceKeyChallenge: Codable, Sendable, Hashable {
    public var authSession: String
    /// 32 bytes, base64url.
    public var challenge: String

    enum CodingKeys: String, CodingKey {
        case challenge
        case authSession = "auth_session"
    }

    public init(authSession: String, challenge: String) {
        self.authSession = authSession
        self.challenge = challenge
    }
}

/// Which method registers a new credential.
public enum RegistrationMethod: String, Sendable, Hashable, Codable, CaseIterable {
    case passkey
    case deviceKey = "device_key"
}

/// The answer of `GET /me/v1/method-hints` (every member) and `GET /passkey/method-hints`
/// (`register` and `min_os_versions`).
public struct MethodHints: Codable, Sendable, Hashable {
    public var register: RegistrationMethod
    /// Re-authentication methods, the preferred first.
    public var reauth: [RegistrationMethod]?
    public var hasPasskey: Bool?
    public var hasDeviceKey: Bool?
    public var promptPasskeyEnrollment: Bool?
    public var preferPasskey: Bool?
    /// The connection's minimum OS versions (`ios`, `android`, `ios_webview`, `android_webview`),
    /// so an app can run the same rule offline.
    public var minOSVersions: [String: String]?

    enum CodingKeys: String, CodingKey {
        case register, reauth
        case minOSVersions = "min_os_versions"
        case hasPasskey = "has_passkey"
        case hasDeviceKey = "has_device_key"
        case promptPasskeyEnrollment = "prompt_passkey_enrollment"
        case preferPasskey = "prefer_passkey"
    }

    public init(
        register: RegistrationMethod, reauth: [RegistrationMethod]? = nil, hasPasskey: Bool? = nil,
        hasDeviceKey: Bool? = nil, promptPasskeyEnrollment: Bool? = nil, preferPasskey: Bool? = nil,
        minOSVersions: [String: String]? = nil
    ) {
        self.minOSVersions = minOSVersions
        self.register = register
        self.reauth = reauth
        self.hasPasskey = hasPasskey
        self.hasDeviceKey = hasDeviceKey
        self.promptPasskeyEnrollment = promptPasskeyEnrollment
        self.preferPasskey = preferPasskey
    }
}

/// Why a token response recommends creating a passkey.
public enum PasskeyEnrollmentReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user re-authenticated with a legacy device key on a platform that can do passkeys.
    case deviceKeyReauth = "device_key_reauth"
    /// A password login with progressive enrollment on.
    case progressive
}

/// The token response's `passkey_enrollment` member.
public struct PasskeyEnrollmentPrompt: Codable, Sendable, Hashable {
    public var recommended: Bool
    public var reason: PasskeyEnrollmentReason
    /// The hosted enrollment page with a one-time login ticket (single use, 5 minutes).
    public var enrollURL: String

    enum CodingKeys: String, CodingKey {
        case recommended, reason
        case enrollURL = "enroll_url"
    }

    public init(reason: PasskeyEnrollmentReason, enrollURL: String) {
        self.recommended = true
        self.reason = reason
        self.enrollURL = enrollURL
    }
}

/// The grant type of a device-key re-authentication.
extension GrantType {
    public static let deviceKey = "urn:sesame:params:oauth:grant-type:device-key"
}

/// The answer of `GET /me/v1/device-keys`.
public struct DeviceKeyList: Codable, Sendable, Hashable {
    public var deviceKeys: [DeviceKeyResponse]

    enum CodingKeys: String, CodingKey {
        case deviceKeys = "device_keys"
    }

    public init(deviceKeys: [DeviceKeyResponse]) {
        self.deviceKeys = deviceKeys
    }
}

import Foundation
import SesameWire

/// The tokens of a signed-in user, with the moment the access token expires computed from
/// `expires_in` when they were received.
public struct Credentials: Codable, Sendable, Equatable {
    /// The access token (a JWT) to send as `Authorization: Bearer`.
    public let accessToken: String
    /// "Bearer".
    public let tokenType: String
    /// The OIDC id token, when `openid` was asked for.
    public let idToken: String?
    /// The refresh token, when `offline_access` was asked for. It rotates on every use.
    public let refreshToken: String?
    /// When the access token expires.
    public let expiresAt: Date
    /// The scopes granted.
    public let scope: String?
    /// After a login with a recovery code: the new recovery code, to show the user once. Never
    /// stored with the credentials.
    public var recoveryCode: String?
    /// After a password login: `ok`, `weak` or `breached` (Sesame's `password_status`). Not stored.
    public var passwordStatus: PasswordStatus?
    /// After a login with a weak or breached password: what the app may offer instead. Not stored.
    public var recommendedUpgrades: [RecommendedUpgrade]?
    /// How the user signed in (`passkey`, `device_key`, `password`, `apple`; `refresh` after a
    /// renewal), Sesame's `auth_method`. Not stored.
    public var authMethod: SignInMethod?
    /// After a device-key re-authentication or a password login: the server recommends creating a
    /// passkey now (`passkey_enrollment`, with the hosted page to do it). Not stored.
    public var passkeyEnrollment: PasskeyEnrollmentPrompt?

    /// Seconds before `expiresAt` from which the access token counts as expired (clock skew and
    /// time in flight).
    public static let expiryLeeway: TimeInterval = 60

    /// Credentials from their parts.
    public init(
        accessToken: String, tokenType: String = "Bearer", idToken: String? = nil, refreshToken: String? = nil,
        expiresAt: Date, scope: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
    }

    /// Credentials from a token response received at `receivedAt`: `expiresAt` is
    /// `receivedAt + expires_in`.
    public init(tokenResponse: TokenResponse, receivedAt: Date) {
        self.init(
            accessToken: tokenResponse.accessToken, tokenType: tokenResponse.tokenType,
            idToken: tokenResponse.idToken, refreshToken: tokenResponse.refreshToken,
            expiresAt: receivedAt.addingTimeInterval(TimeInterval(tokenResponse.expiresIn)),
            scope: tokenResponse.scope)
        recoveryCode = tokenResponse.recoveryCode
        passwordStatus = tokenResponse.passwordStatus
        recommendedUpgrades = tokenResponse.recommendedUpgrades
        authMethod = tokenResponse.authMethod
        passkeyEnrollment = tokenResponse.passkeyEnrollment
    }

    /// Whether the access token has expired, or will within `expiryLeeway`, now.
    public var isExpired: Bool { isExpired(now: Date()) }

    /// Whether the access token has expired, or will within `leeway` seconds, at `now`.
    public func isExpired(now: Date, leeway: TimeInterval = Credentials.expiryLeeway) -> Bool {
        expiresAt.timeIntervalSince(now) <= leeway
    }

    /// The credentials after a refresh: the new tokens, keeping the old refresh token and id token
    /// when the server sent none (a server that does not rotate).
    public func renewed(with response: TokenResponse, receivedAt: Date) -> Credentials {
        let fresh = Credentials(tokenResponse: response, receivedAt: receivedAt)
        var renewed = Credentials(
            accessToken: fresh.accessToken, tokenType: fresh.tokenType, idToken: fresh.idToken ?? idToken,
            refreshToken: fresh.refreshToken ?? refreshToken, expiresAt: fresh.expiresAt, scope: fresh.scope ?? scope)
        renewed.authMethod = fresh.authMethod
        renewed.passkeyEnrollment = fresh.passkeyEnrollment
        return renewed
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case scope
    }

    /// Reads the stored form: `expires_at` in seconds since 1970.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        let seconds = try container.decode(Double.self, forKey: .expiresAt)
        guard seconds.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .expiresAt, in: container, debugDescription: "expires_at is not a finite number")
        }
        expiresAt = Date(timeIntervalSince1970: seconds)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
    }

    /// Writes the stored form: snake_case keys, `expires_at` in seconds since 1970.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encode(expiresAt.timeIntervalSince1970, forKey: .expiresAt)
        try container.encodeIfPresent(scope, forKey: .scope)
    }
}

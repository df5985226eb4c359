import Foundation
import SesameWire

/// What an account can be upgraded to (`/me/v1/upgrades/*`, docs/account-upgrades.md): the server's closed
/// vocabulary.
public enum AccountUpgradeType: String, Sendable, Hashable, CaseIterable {
    /// A new, strong password (the one the system generated) replaces the weak one.
    case strongPassword = "strong_password"
    /// The account signs in with Apple from now on; the password stops working.
    case signInWithApple = "sign_in_with_apple"
    /// The account signs in with a passkey from now on; the password stops working.
    case passkey
}

/// The permission to upgrade one account once (`POST /me/v1/upgrades/authorize`): a single-use
/// token bound to the user, the type and the client, that lives five minutes.
public struct UpgradeAuthorization: Sendable, Equatable {
    /// The opaque `upgrade_token` the upgrade calls send.
    public let upgradeToken: String
    /// The upgrade it allows.
    public let type: AccountUpgradeType
    /// When the token stops working; nil when not known (a token handed over in `userInfo`).
    public let expiresAt: Date?
    /// The Apple password-rules string of the user's connection, which a new password must meet.
    public let passwordRules: String?

    /// An authorization from its parts, e.g. an upgrade token the app passed to its extension.
    public init(upgradeToken: String, type: AccountUpgradeType, expiresAt: Date? = nil, passwordRules: String? = nil) {
        self.upgradeToken = upgradeToken
        self.type = type
        self.expiresAt = expiresAt
        self.passwordRules = passwordRules
    }
}

/// Account security upgrades (WWDC20 "one-tap account security upgrades"): authorize, then move
/// the account to a strong password, Sign in with Apple or a passkey. An app's settings page and
/// its Account Authentication Modification extension (`AccountUpgradeExtensionFlow`) both use it.
///
/// Authorizing takes either a My Account access token (`accessToken`, an app the user is signed
/// in to) or the user's current password (the extension the system starts with the saved
/// password). The server may ask for a step-up first: the error's `upgradeStepUp` says how, and
/// `completeStepUp(_:with:)` returns the token to authorize again with.
public final class AccountUpgrade: Sendable {
    /// The tenant and client this talks to.
    public let configuration: SesameConfiguration
    /// The My Account access token `authorize(type:)` sends, when the user is signed in.
    public let accessToken: String?
    /// Where the prefer-passkey flag is set after a passkey upgrade.
    public let preferPasskeyStore: (any PreferPasskeyStore)?
    let api: APIClient
    /// The MFA grants of a step-up go through the Authentication API's calls.
    let authentication: SesameAuthentication
    let now: @Sendable () -> Date

    /// A client for `configuration`; `accessToken` is a My Account token (audience
    /// `<domain>/me/`), nil for the password form. `now` is the clock of `expiresAt`.
    public init(
        configuration: SesameConfiguration, accessToken: String? = nil,
        transport: any HTTPTransport = URLSessionTransport(), now: @escaping @Sendable () -> Date = { Date() },
        preferPasskeyStore: (any PreferPasskeyStore)? = nil
    ) {
        self.configuration = configuration
        self.accessToken = accessToken
        self.preferPasskeyStore = preferPasskeyStore
        self.now = now
        api = APIClient(configuration: configuration, transport: transport)
        authentication = SesameAuthentication(configuration: configuration, transport: transport, now: now)
    }

    /// The key of the upgrade token in the `userInfo` an app gives an app-initiated request
    /// (`SesameAccountModificationController`), which its extension reads.
    public static let userInfoUpgradeTokenKey = "com.sesame.upgradeToken"

    // MARK: Authorize

    /// Authorizes an upgrade of the signed-in user with the `accessToken` this was made with.
    /// A step-up is an error whose `upgradeStepUp` is set; `upgrade_not_allowed` says why in
    /// `upgradeNotAllowedReason`.
    public func authorize(type: AccountUpgradeType) async throws(AuthenticationError) -> UpgradeAuthorization {
        guard let accessToken else {
            throw AuthenticationError(
                kind: .unauthorized, code: "login_required",
                errorDescription: "authorize(type:) needs the My Account access token this AccountUpgrade was made with"
            )
        }
        return try await authorize(type: type, accessToken: accessToken)
    }

    /// Authorizes an upgrade with a My Account access token, e.g. the one a step-up returned.
    public func authorize(type: AccountUpgradeType, accessToken: String) async throws(AuthenticationError)
        -> UpgradeAuthorization
    {
        try await authorize(type: type, body: [UpgradeFields.type: .string(type.rawValue)], bearer: accessToken)
    }

    /// Authorizes an upgrade with the user's current password (the system-initiated path: the
    /// extension has the saved password and no token). The brute-force limits of the password
    /// login apply (`isTooManyAttempts`); a wrong password is `isInvalidCredentials`.
    public func authorize(type: AccountUpgradeType, username: String, password: String, realm: String? = nil)
        async throws(AuthenticationError) -> UpgradeAuthorization
    {
        let body: WireBody = [
            UpgradeFields.type: .string(type.rawValue), ClientFields.clientID: .string(configuration.clientID),
            TokenFields.username: .string(username), TokenFields.password: .string(password),
            TokenFields.realm: .text(realm),
        ]
        return try await authorize(type: type, body: body, bearer: nil)
    }

    private func authorize(type: AccountUpgradeType, body: WireBody, bearer: String?)
        async throws(AuthenticationError) -> UpgradeAuthorization
    {
        let answer = try await api.send(
            AuthorizeAnswer.self, "POST", "/me/v1/upgrades/authorize", json: body, bearer: bearer)
        guard answer.type == nil || answer.type == type.rawValue else {
            throw AuthenticationError.invalidResponse(
                "the upgrade authorization is for \(answer.type ?? "") where \(type.rawValue) was asked for",
                statusCode: 200)
        }
        return UpgradeAuthorization(
            upgradeToken: answer.upgradeToken, type: type,
            expiresAt: answer.expiresIn.map { now().addingTimeInterval(TimeInterval($0)) },
            passwordRules: answer.passwordRules)
    }

    /// The password-rules string of the client's connection (`GET /password-rules`), the value
    /// of the extension's `ASAccountAuthenticationModificationPasswordGenerationRequirements`.
    public func passwordRules(connection: String? = nil) async throws(AuthenticationError) -> String {
        var items = [("client_id", configuration.clientID)]
        if let connection { items.append(("connection", connection)) }
        return try await api.send(RulesAnswer.self, "GET", "/password-rules" + APIClient.query(items)).rules
    }

    // MARK: Upgrade

    /// Replaces the password with `newPassword` (`POST /me/v1/upgrades/strong-password`); returns
    /// once the server has committed it. A password the rules refuse (`isPasswordNotStrongEnough`,
    /// `isPasswordReused`) or a breached one (`isPasswordLeaked`) leaves the token unspent: try
    /// another password with the same authorization.
    public func upgradeToStrongPassword(_ newPassword: String, authorization: UpgradeAuthorization)
        async throws(AuthenticationError)
    {
        try Self.require(.strongPassword, authorization)
        try await commit(
            "/me/v1/upgrades/strong-password", .strongPassword,
            [
                UpgradeFields.upgradeToken: .string(authorization.upgradeToken),
                UpgradeFields.newPassword: .string(newPassword),
            ]
        )
    }

    /// Links the Apple ID of `identityToken` (an `ASAuthorizationAppleIDCredential`'s, as text) to
    /// the account and turns its password off (`POST /me/v1/upgrades/sign-in-with-apple`).
    /// `rawNonce` is the nonce before hashing (the request carried its hex SHA-256). An Apple ID
    /// that belongs to another account is `isIdentityAlreadyLinked` (409).
    public func upgradeToSignInWithApple(
        identityToken: String, rawNonce: String?, authorizationCode: String? = nil, authorization: UpgradeAuthorization
    ) async throws(AuthenticationError) {
        try Self.require(.signInWithApple, authorization)
        let body: WireBody = [
            UpgradeFields.upgradeToken: .string(authorization.upgradeToken),
            UpgradeFields.identityToken: .string(identityToken), TokenFields.nonce: .text(rawNonce),
            UpgradeFields.authorizationCode: .text(authorizationCode),
        ]
        try await commit("/me/v1/upgrades/sign-in-with-apple", .signInWithApple, body)
    }

    /// Asks for the creation options of the passkey that replaces the password
    /// (`POST /me/v1/upgrades/passkey`, 202).
    public func passkeyUpgradeChallenge(authorization: UpgradeAuthorization) async throws(AuthenticationError)
        -> PasskeySignupChallenge
    {
        try Self.require(.passkey, authorization)
        let (data, _) = try await api.send(
            "POST", "/me/v1/upgrades/passkey", json: [UpgradeFields.upgradeToken: .string(authorization.upgradeToken)])
        return try PasskeySignupChallenge(responseBody: data)
    }

    /// Sends the new passkey (`POST /me/v1/upgrades/passkey/verify`, 201) and returns it; the
    /// password is off from then on.
    public func verifyPasskeyUpgrade(passkey: PasskeyCredential, challenge: PasskeySignupChallenge)
        async throws(AuthenticationError) -> PasskeyAuthenticationMethod
    {
        let body: WireBody = [
            TokenFields.authSession: .string(challenge.authSession),
            TokenFields.authnResponse: try WireValue.raw(passkey.json, what: "the passkey credential"),
        ]
        let method = try await api.send(
            AuthenticationMethodResponse.self, "POST", "/me/v1/upgrades/passkey/verify", json: body)
        if let preferPasskeyStore, let userID = accessToken.flatMap(JWTSubject.of) {
            // Best effort, as everywhere: the passkey exists whatever the flag says.
            try? preferPasskeyStore.setPrefersPasskey(PreferPasskeyKey(configuration: configuration, userID: userID))
        }
        return try PasskeyAuthenticationMethod(method)
    }

    /// Replaces the password with a passkey in one call: the challenge, `provider.register`
    /// (the system passkey sheet, or the software provider), verify.
    public func upgradeToPasskey(provider: any PasskeyProvider, authorization: UpgradeAuthorization)
        async throws(AuthenticationError) -> PasskeyAuthenticationMethod
    {
        let challenge = try await passkeyUpgradeChallenge(authorization: authorization)
        let passkey: PasskeyCredential
        do {
            passkey = try await provider.register(challenge)
        } catch {
            throw AuthenticationError.provider(error)
        }
        return try await verifyPasskeyUpgrade(passkey: passkey, challenge: challenge)
    }

    /// Sends a commit and checks that the server says it upgraded.
    private func commit(_ path: String, _ type: AccountUpgradeType, _ body: WireBody)
        async throws(AuthenticationError)
    {
        let (data, response) = try await api.send("POST", path, json: body)
        let answer = try APIClient.decode(CommitAnswer.self, from: data, status: response.statusCode)
        guard answer.upgraded, answer.type == nil || answer.type == type.rawValue else {
            throw AuthenticationError.invalidResponse(
                "the server answered \(response.statusCode) without saying the account was upgraded to \(type.rawValue)",
                statusCode: response.statusCode)
        }
    }

    /// An authorization for another type is refused here rather than spent at the server.
    private static func require(_ type: AccountUpgradeType, _ authorization: UpgradeAuthorization)
        throws(AuthenticationError)
    {
        guard authorization.type == type else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "wrong_upgrade_type",
                errorDescription: "the upgrade token is for \(authorization.type.rawValue), not \(type.rawValue)")
        }
    }
}

/// The 200 of `/me/v1/upgrades/authorize`.
private struct AuthorizeAnswer: Decodable {
    var upgradeToken: String
    var expiresIn: Int?
    var type: String?
    var passwordRules: String?

    enum CodingKeys: String, CodingKey {
        case type
        case upgradeToken = "upgrade_token"
        case expiresIn = "expires_in"
        case passwordRules = "password_rules"
    }
}

/// The 200 of a commit: `{"type", "upgraded": true}`.
private struct CommitAnswer: Decodable {
    var type: String?
    var upgraded: Bool
}

/// The answer of `GET /password-rules`.
private struct RulesAnswer: Decodable {
    var rules: String
}

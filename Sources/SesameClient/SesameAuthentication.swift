import Foundation
import SesameWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Authentication API of a Sesame tenant: passkey signup and login, token refresh and
/// revocation, userinfo. Method names follow Auth0.swift, so code written for it ports by
/// changing the type and the domain.
public final class SesameAuthentication: Sendable {
    /// The tenant and client this talks to.
    public let configuration: SesameConfiguration
    /// The clock `Credentials.expiresAt` is computed with.
    let now: @Sendable () -> Date
    let api: APIClient
    /// Where the prefer-passkey flag is set when a token response says `auth_method: passkey`.
    public let preferPasskeyStore: (any PreferPasskeyStore)?

    /// The scope asked for when none is given: an id token with the profile and a refresh token.
    public static let defaultScope = "openid profile email offline_access"

    /// A client for `configuration`, sending through `transport` (URLSession by default), with
    /// `now` as the clock for token expiry. With a `preferPasskeyStore`, every token response that
    /// says `auth_method: passkey` sets the signed-in user's prefer-passkey flag there.
    public init(
        configuration: SesameConfiguration, transport: any HTTPTransport = URLSessionTransport(),
        now: @escaping @Sendable () -> Date = { Date() }, preferPasskeyStore: (any PreferPasskeyStore)? = nil
    ) {
        self.configuration = configuration
        self.now = now
        self.preferPasskeyStore = preferPasskeyStore
        api = APIClient(configuration: configuration, transport: transport)
    }

    // MARK: Native passkey API

    /// Asks for a signup challenge (`POST /passkey/register`) for a new user with this profile.
    /// Send at least the identifiers the connection requires (usually `email`).
    public func passkeySignupChallenge(
        email: String? = nil, phoneNumber: String? = nil, username: String? = nil, name: String? = nil,
        givenName: String? = nil, familyName: String? = nil, nickname: String? = nil, picture: String? = nil,
        userMetadata: [String: String]? = nil, connection: String? = nil
    ) async throws(AuthenticationError) -> PasskeySignupChallenge {
        let profile: WireBody = [
            SignupFields.email: .text(email), SignupFields.phoneNumber: .text(phoneNumber),
            SignupFields.username: .text(username), ProfileAttribute.name.field: .text(name),
            ProfileAttribute.givenName.field: .text(givenName), ProfileAttribute.familyName.field: .text(familyName),
            ProfileAttribute.nickname.field: .text(nickname), ProfileAttribute.picture.field: .text(picture),
        ]
        let body: WireBody = [
            ClientFields.clientID: .string(configuration.clientID), SignupFields.userProfile: .object(profile),
            SignupFields.userMetadata: .strings(userMetadata), TokenFields.realm: .text(connection),
        ]
        let (data, _) = try await api.send("POST", "/passkey/register", json: body)
        return try PasskeySignupChallenge(responseBody: data)
    }

    /// Asks for a login challenge (`POST /passkey/challenge`) for any of the user's passkeys
    /// (discoverable credentials: no identifier is sent).
    public func passkeyLoginChallenge(connection: String? = nil) async throws(AuthenticationError)
        -> PasskeyLoginChallenge
    {
        let body: WireBody = [
            ClientFields.clientID: .string(configuration.clientID), TokenFields.realm: .text(connection),
        ]
        let (data, _) = try await api.send("POST", "/passkey/challenge", json: body)
        return try PasskeyLoginChallenge(responseBody: data)
    }

    /// Completes a signup: sends the new passkey with the challenge's auth session to
    /// `/oauth/token` (webauthn grant). The server creates the user and returns tokens.
    public func login(
        passkey: PasskeyCredential, challenge: PasskeySignupChallenge, connection: String? = nil,
        audience: String? = nil, scope: String = SesameAuthentication.defaultScope
    ) async throws(AuthenticationError) -> Credentials {
        try await webAuthnGrant(
            passkey: passkey, authSession: challenge.authSession, connection: connection, audience: audience,
            scope: scope)
    }

    /// Completes a login: sends the assertion with the challenge's auth session to `/oauth/token`.
    public func login(
        passkey: PasskeyCredential, challenge: PasskeyLoginChallenge, connection: String? = nil,
        audience: String? = nil, scope: String = SesameAuthentication.defaultScope
    ) async throws(AuthenticationError) -> Credentials {
        try await webAuthnGrant(
            passkey: passkey, authSession: challenge.authSession, connection: connection, audience: audience,
            scope: scope)
    }

    private func webAuthnGrant(
        passkey: PasskeyCredential, authSession: String, connection: String?, audience: String?, scope: String
    ) async throws(AuthenticationError) -> Credentials {
        return try await token([
            TokenFields.grantType: .string(GrantType.webAuthn), ClientFields.clientID: .string(configuration.clientID),
            TokenFields.authSession: .string(authSession),
            TokenFields.authnResponse: try WireValue.raw(passkey.json, what: "the passkey credential"),
            TokenFields.scope: .string(scope), TokenFields.realm: .text(connection),
            TokenFields.audience: .text(audience),
        ])
    }

    // MARK: Tokens

    /// Exchanges a refresh token for new credentials (`refresh_token` grant). Sesame rotates
    /// refresh tokens: the returned credentials carry a new one and the old one is spent; presenting
    /// it again revokes the whole family. A refused refresh token is `.unauthorized`.
    public func renew(withRefreshToken refreshToken: String, scope: String? = nil) async throws(AuthenticationError)
        -> Credentials
    {
        let body: WireBody = [
            TokenFields.grantType: .string(GrantType.refreshToken),
            ClientFields.clientID: .string(configuration.clientID),
            TokenFields.refreshToken: .string(refreshToken), TokenFields.scope: .text(scope),
        ]
        do {
            let credentials = try await token(body)
            // Keep the refresh token when a server does not rotate.
            guard credentials.refreshToken == nil else { return credentials }
            var kept = Credentials(
                accessToken: credentials.accessToken, tokenType: credentials.tokenType, idToken: credentials.idToken,
                refreshToken: refreshToken, expiresAt: credentials.expiresAt, scope: credentials.scope)
            kept.authMethod = credentials.authMethod
            kept.passkeyEnrollment = credentials.passkeyEnrollment
            return kept
        } catch  where error.kind == .server && error.code == "invalid_grant" {
            var unauthorized = error
            unauthorized.kind = .unauthorized
            throw unauthorized
        }
    }

    /// Revokes a refresh token (RFC 7009 `POST /oauth/revoke`), ending that session.
    public func revoke(refreshToken: String) async throws(AuthenticationError) {
        _ = try await api.send(
            "POST", "/oauth/revoke",
            json: [
                ClientFields.clientID: .string(configuration.clientID), TokenFields.token: .string(refreshToken),
                TokenFields.tokenTypeHint: "refresh_token",
            ])
    }

    /// The user's claims (`GET /userinfo`) for an access token. A rejected token is `.unauthorized`.
    public func userInfo(withAccessToken accessToken: String) async throws(AuthenticationError) -> UserInfo {
        let (data, _) = try await api.send("GET", "/userinfo", bearer: accessToken)
        return try UserInfo(json: data)
    }

    /// Every grant goes through here: the credentials of a token response, after noting a passkey
    /// sign-in in the prefer-passkey store.
    func token(_ body: WireBody) async throws(AuthenticationError) -> Credentials {
        let (data, response) = try await api.send("POST", "/oauth/token", json: body)
        let tokens = try APIClient.decode(TokenResponse.self, from: data, status: response.statusCode)
        let credentials = Credentials(tokenResponse: tokens, receivedAt: now())
        if credentials.authMethod == .passkey { notePasskey(credentials: credentials) }
        return credentials
    }

    /// Sets the prefer-passkey flag of the user `credentials` belong to. Best effort: the flag is
    /// a hint, and a sign-in that succeeded is not failed because it could not be written.
    func notePasskey(credentials: Credentials, in store: (any PreferPasskeyStore)? = nil) {
        guard let store = store ?? preferPasskeyStore, let userID = credentials.userID else { return }
        try? store.setPrefersPasskey(PreferPasskeyKey(configuration: configuration, userID: userID))
    }

    // MARK: Convenience flows

    /// Signs a new user up in one call: signup challenge, `provider.register`, token.
    public func signUp(
        email: String, name: String? = nil, provider: any PasskeyProvider, connection: String? = nil,
        audience: String? = nil, scope: String = SesameAuthentication.defaultScope
    ) async throws(AuthenticationError) -> Credentials {
        let challenge = try await passkeySignupChallenge(email: email, name: name, connection: connection)
        let passkey: PasskeyCredential
        do {
            passkey = try await provider.register(challenge)
        } catch {
            throw AuthenticationError.provider(error)
        }
        return try await login(
            passkey: passkey, challenge: challenge, connection: connection, audience: audience, scope: scope)
    }

    /// Signs a user in with any of their passkeys in one call: login challenge, `provider.assert`, token.
    public func logIn(
        provider: any PasskeyProvider, connection: String? = nil, audience: String? = nil,
        scope: String = SesameAuthentication.defaultScope
    ) async throws(AuthenticationError) -> Credentials {
        let challenge = try await passkeyLoginChallenge(connection: connection)
        let passkey: PasskeyCredential
        do {
            passkey = try await provider.assert(challenge)
        } catch {
            throw AuthenticationError.provider(error)
        }
        return try await login(
            passkey: passkey, challenge: challenge, connection: connection, audience: audience, scope: scope)
    }
}

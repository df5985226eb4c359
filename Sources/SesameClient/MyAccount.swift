import Foundation
import SesameWire

/// The My Account API (`/me/v1`): the signed-in user lists, renames, deletes and adds their own
/// passkeys. Needs an access token for the audience `<domain>/me/` (ask for it with
/// `login(…, audience: configuration.myAccountAudience)`).
public final class MyAccount: Sendable {
    /// The tenant this talks to.
    public let configuration: SesameConfiguration
    let accessToken: String
    let api: APIClient
    /// Where the prefer-passkey flag is set when a passkey enrollment succeeds.
    public let preferPasskeyStore: (any PreferPasskeyStore)?

    /// The My Account audience for a tenant domain: `<domain>/me/`.
    public static func myAccountAudience(_ domain: URL) -> String {
        SesameConfiguration(domain: domain, clientID: "").myAccountAudience
    }

    /// A client acting with `accessToken` (audience `<domain>/me/`). With a `preferPasskeyStore`,
    /// a passkey enrollment that succeeds sets the user's prefer-passkey flag there.
    public init(
        configuration: SesameConfiguration, accessToken: String, transport: any HTTPTransport = URLSessionTransport(),
        preferPasskeyStore: (any PreferPasskeyStore)? = nil
    ) {
        self.configuration = configuration
        self.accessToken = accessToken
        self.preferPasskeyStore = preferPasskeyStore
        api = APIClient(configuration: configuration, transport: transport)
    }

    /// The user this client acts for: its access token's `sub`.
    public var userID: String? { JWTSubject.of(accessToken) }

    /// The user's passkeys (`GET /me/v1/authentication-methods`, passkeys only).
    public func passkeys() async throws(AuthenticationError) -> [PasskeyAuthenticationMethod] {
        let list = try await api.send(
            AuthenticationMethodsResponse.self, "GET", "/me/v1/authentication-methods", bearer: accessToken)
        var methods: [PasskeyAuthenticationMethod] = []
        for method in list.authenticationMethods where method.type == "passkey" {
            methods.append(try PasskeyAuthenticationMethod(method))
        }
        return methods
    }

    /// Renames a passkey (1–100 characters) and returns it.
    public func renamePasskey(id: String, name: String) async throws(AuthenticationError)
        -> PasskeyAuthenticationMethod
    {
        let method = try await api.send(
            AuthenticationMethodResponse.self, "PATCH", "/me/v1/authentication-methods/" + APIClient.segment(id),
            json: [MyAccountFields.name: .string(name)], bearer: accessToken)
        return try PasskeyAuthenticationMethod(method)
    }

    /// Deletes a passkey. Deleting the user's last one is refused (409 `conflict`).
    public func deletePasskey(id: String) async throws(AuthenticationError) {
        _ = try await api.send(
            "DELETE", "/me/v1/authentication-methods/" + APIClient.segment(id), bearer: accessToken)
    }

    /// The user's passkey with this id (`GET /me/v1/authentication-methods/{id}`).
    public func passkey(id: String) async throws(AuthenticationError) -> PasskeyAuthenticationMethod {
        let method = try await api.send(
            AuthenticationMethodResponse.self, "GET", "/me/v1/authentication-methods/" + APIClient.segment(id),
            bearer: accessToken)
        return try PasskeyAuthenticationMethod(method)
    }

    /// Asks for an enrollment challenge (`POST /me/v1/authentication-methods`): creation options
    /// for the user's existing user handle, with `excludeCredentials` listing their passkeys. The
    /// method id to verify comes from the answer's `Location` header, as Auth0's SDKs read it.
    public func passkeyEnrollmentChallenge(connection: String? = nil) async throws(AuthenticationError)
        -> PasskeyEnrollmentChallenge
    {
        let body: WireBody = [MyAccountFields.type: "passkey", MyAccountFields.connection: .text(connection)]
        let (data, response) = try await api.send(
            "POST", "/me/v1/authentication-methods", json: body, bearer: accessToken)
        guard let methodID = Self.methodID(location: response.value(forHTTPHeaderField: "Location")) else {
            throw AuthenticationError.invalidResponse(
                "the enrollment answer has no Location naming the new method", statusCode: response.statusCode)
        }
        return PasskeyEnrollmentChallenge(methodID: methodID, challenge: try PasskeySignupChallenge(responseBody: data))
    }

    /// The method id in an enrollment `Location`: its last path segment, percent-decoded.
    static func methodID(location: String?) -> String? {
        guard let location else { return nil }
        let target = location.prefix { $0 != "?" && $0 != "#" }
        guard let slash = target.lastIndex(of: "/"),
            let id = String(target[target.index(after: slash)...]).removingPercentEncoding, !id.isEmpty
        else { return nil }
        return id
    }

    /// Completes an enrollment with the new passkey (`POST <Location>/verify`) and returns the new
    /// method. A synced passkey from a provider the user already has one in is refused
    /// (`isAlreadyRegistered`, with `alreadyRegisteredProvider`) and sets the prefer-passkey flag.
    public func verifyPasskeyEnrollment(passkey: PasskeyCredential, challenge: PasskeyEnrollmentChallenge)
        async throws(AuthenticationError) -> PasskeyAuthenticationMethod
    {
        let body: WireBody = [
            TokenFields.authSession: .string(challenge.challenge.authSession),
            TokenFields.authnResponse: try WireValue.raw(passkey.json, what: "the passkey credential"),
        ]
        let method: AuthenticationMethodResponse
        do {
            method = try await api.send(
                AuthenticationMethodResponse.self, "POST",
                "/me/v1/authentication-methods/" + APIClient.segment(challenge.methodID) + "/verify", json: body,
                bearer: accessToken)
        } catch  where error.isAlreadyRegistered {
            // The user has a passkey from this provider already: that one is worth offering first.
            notePasskey()
            throw error
        }
        notePasskey()
        return try PasskeyAuthenticationMethod(method)
    }

    /// Sets the user's prefer-passkey flag. Best effort, as for token responses: the passkey
    /// exists whatever the flag says.
    private func notePasskey() {
        guard let preferPasskeyStore, let userID else { return }
        try? preferPasskeyStore.setPrefersPasskey(PreferPasskeyKey(configuration: configuration, userID: userID))
    }

    /// Adds a passkey in one call: enrollment challenge, `provider.register`, verify.
    public func enrollPasskey(provider: any PasskeyProvider, connection: String? = nil)
        async throws(AuthenticationError) -> PasskeyAuthenticationMethod
    {
        let challenge = try await passkeyEnrollmentChallenge(connection: connection)
        let passkey: PasskeyCredential
        do {
            passkey = try await provider.register(challenge.challenge)
        } catch {
            throw AuthenticationError.provider(error)
        }
        return try await verifyPasskeyEnrollment(passkey: passkey, challenge: challenge)
    }
}

/// An enrollment challenge: the creation options and auth session, and the id of the method
/// being enrolled (from the `Location` header) that the verify call goes to.
public struct PasskeyEnrollmentChallenge: Sendable {
    /// The method id to verify, e.g. `passkey|new`.
    public let methodID: String
    /// The options and auth session.
    public let challenge: PasskeySignupChallenge

    /// A challenge from its parts.
    public init(methodID: String, challenge: PasskeySignupChallenge) {
        self.methodID = methodID
        self.challenge = challenge
    }
}

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

    /// The My Account audience for a tenant domain: `<domain>/me/`.
    public static func myAccountAudience(_ domain: URL) -> String {
        SesameConfiguration(domain: domain, clientID: "").myAccountAudience
    }

    /// A client acting with `accessToken` (audience `<domain>/me/`).
    public init(
        configuration: SesameConfiguration, accessToken: String, transport: any HTTPTransport = URLSessionTransport()
    ) {
        self.configuration = configuration
        self.accessToken = accessToken
        api = APIClient(configuration: configuration, transport: transport)
    }

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
            json: ["name": .string(name)], bearer: accessToken)
        return try PasskeyAuthenticationMethod(method)
    }

    /// Deletes a passkey. Deleting the user's last one is refused (409 `conflict`).
    public func deletePasskey(id: String) async throws(AuthenticationError) {
        _ = try await api.send(
            "DELETE", "/me/v1/authentication-methods/" + APIClient.segment(id), bearer: accessToken)
    }

    /// Asks for an enrollment challenge (`POST /me/v1/authentication-methods`): creation options
    /// for the user's existing user handle, with `excludeCredentials` listing their passkeys.
    public func passkeyEnrollmentChallenge(connection: String? = nil) async throws(AuthenticationError)
        -> PasskeySignupChallenge
    {
        var body: APIClient.JSONObject = ["type": "passkey"]
        if let connection { body["connection"] = .string(connection) }
        let (data, _) = try await api.send("POST", "/me/v1/authentication-methods", json: body, bearer: accessToken)
        return try PasskeySignupChallenge(responseBody: data)
    }

    /// Completes an enrollment with the new passkey and returns the new method.
    public func verifyPasskeyEnrollment(passkey: PasskeyCredential, challenge: PasskeySignupChallenge)
        async throws(AuthenticationError) -> PasskeyAuthenticationMethod
    {
        let body: APIClient.JSONObject = [
            "auth_session": .string(challenge.authSession),
            "authn_response": try JSONBody.raw(passkey.json, what: "the passkey credential"),
        ]
        let method = try await api.send(
            AuthenticationMethodResponse.self, "POST", "/me/v1/authentication-methods/passkey%7Cnew/verify",
            json: body, bearer: accessToken)
        return try PasskeyAuthenticationMethod(method)
    }

    /// Adds a passkey in one call: enrollment challenge, `provider.register`, verify.
    public func enrollPasskey(provider: any PasskeyProvider, connection: String? = nil)
        async throws(AuthenticationError) -> PasskeyAuthenticationMethod
    {
        let challenge = try await passkeyEnrollmentChallenge(connection: connection)
        let passkey: PasskeyCredential
        do {
            passkey = try await provider.register(challenge)
        } catch {
            throw AuthenticationError.provider(error)
        }
        return try await verifyPasskeyEnrollment(passkey: passkey, challenge: challenge)
    }
}

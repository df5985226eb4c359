import Foundation
import SesameWire

/// A signup challenge (`POST /passkey/register`): the creation options to run the platform
/// ceremony with, and the auth session the token call must send back. Also what My Account's
/// enrollment returns.
public struct PasskeySignupChallenge: Sendable {
    /// The opaque, single-use `auth_session`.
    public let authSession: String
    /// The decoded `authn_params_public_key` (PublicKeyCredentialCreationOptions, JSON form).
    public let options: PasskeyCreationOptions
    /// The `authn_params_public_key` object exactly as the server sent it (members the SDK does not
    /// model included), for providers that take options JSON.
    public let optionsJSON: Data

    /// A challenge from its parts.
    public init(authSession: String, options: PasskeyCreationOptions, optionsJSON: Data) {
        self.authSession = authSession
        self.options = options
        self.optionsJSON = optionsJSON
    }

    /// Reads a `{"authn_params_public_key": {…}, "auth_session": "…"}` response body.
    public init(responseBody: Data) throws(AuthenticationError) {
        let response = try APIClient.decode(PasskeySignupChallengeResponse.self, from: responseBody, status: nil)
        self.init(
            authSession: response.authSession, options: response.authnParamsPublicKey,
            optionsJSON: try ChallengeBody.optionsJSON(responseBody))
    }
}

/// A login challenge (`POST /passkey/challenge`): the request options and the auth session.
public struct PasskeyLoginChallenge: Sendable {
    /// The opaque, single-use `auth_session`.
    public let authSession: String
    /// The decoded `authn_params_public_key` (PublicKeyCredentialRequestOptions, JSON form).
    public let options: PasskeyRequestOptions
    /// The `authn_params_public_key` object exactly as the server sent it.
    public let optionsJSON: Data

    /// A challenge from its parts.
    public init(authSession: String, options: PasskeyRequestOptions, optionsJSON: Data) {
        self.authSession = authSession
        self.options = options
        self.optionsJSON = optionsJSON
    }

    /// Reads a `{"authn_params_public_key": {…}, "auth_session": "…"}` response body.
    public init(responseBody: Data) throws(AuthenticationError) {
        let response = try APIClient.decode(PasskeyLoginChallengeResponse.self, from: responseBody, status: nil)
        self.init(
            authSession: response.authSession, options: response.authnParamsPublicKey,
            optionsJSON: try ChallengeBody.optionsJSON(responseBody))
    }
}

/// Extracts `authn_params_public_key` from a challenge body, re-serialised.
enum ChallengeBody {
    static func optionsJSON(_ body: Data) throws(AuthenticationError) -> Data {
        guard let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let options = document["authn_params_public_key"] as? [String: Any]
        else {
            throw AuthenticationError.invalidResponse("the challenge has no authn_params_public_key object")
        }
        do {
            return try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys])
        } catch {
            throw AuthenticationError.invalidResponse("cannot re-encode authn_params_public_key: \(error)")
        }
    }
}

import Foundation

/// What a passkey ceremony produced: the credential in WebAuthn's `toJSON()` form, sent to the
/// server as `authn_response`.
public struct PasskeyCredential: Sendable, Equatable {
    /// `RegistrationResponseJSON` or `AuthenticationResponseJSON`: `{id, rawId, type, response, …}`.
    public let json: Data
    /// The credential id, base64url.
    public let id: String

    /// A credential from its JSON and id, as given.
    public init(json: Data, id: String) {
        self.json = json
        self.id = id
    }

    /// A credential from its JSON; the id is read from the `id` member.
    public init(json: Data) throws(AuthenticationError) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let id = object["id"] as? String, !id.isEmpty
        else {
            throw AuthenticationError.passkey("the credential JSON is not an object with a string id")
        }
        self.init(json: json, id: id)
    }

    /// The `RegistrationResponseJSON` for a new credential, from the raw values a platform API
    /// returns (AuthenticationServices: `credentialID`, `rawClientDataJSON`, `rawAttestationObject`).
    public static func registration(
        credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String]? = nil,
        authenticatorAttachment: String? = nil
    ) throws(AuthenticationError) -> PasskeyCredential {
        try credential(
            credentialID, authenticatorAttachment,
            .registration(
                RegistrationResponse(
                    clientDataJSON: Base64URL.encode(clientDataJSON),
                    attestationObject: Base64URL.encode(attestationObject), transports: transports)))
    }

    /// The `AuthenticationResponseJSON` for an assertion, from the raw values a platform API returns
    /// (AuthenticationServices: `credentialID`, `rawClientDataJSON`, `rawAuthenticatorData`,
    /// `signature`, `userID`). An empty user handle is left out.
    public static func assertion(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?,
        authenticatorAttachment: String? = nil
    ) throws(AuthenticationError) -> PasskeyCredential {
        try credential(
            credentialID, authenticatorAttachment,
            .assertion(
                AssertionResponse(
                    clientDataJSON: Base64URL.encode(clientDataJSON),
                    authenticatorData: Base64URL.encode(authenticatorData), signature: Base64URL.encode(signature),
                    userHandle: userHandle.flatMap { $0.isEmpty ? nil : Base64URL.encode($0) })))
    }

    /// The public-key credential with `response`, in WebAuthn JSON.
    private static func credential(
        _ credentialID: Data, _ authenticatorAttachment: String?, _ response: CredentialJSON.Response
    ) throws(AuthenticationError) -> PasskeyCredential {
        let id = Base64URL.encode(credentialID)
        let body = CredentialJSON(
            id: id, rawId: id, type: "public-key", authenticatorAttachment: authenticatorAttachment,
            clientExtensionResults: [:], response: response)
        return PasskeyCredential(json: try body.encoded(), id: id)
    }
}

/// The `toJSON()` envelope.
private struct CredentialJSON: Encodable {
    var id: String
    var rawId: String
    var type: String
    var authenticatorAttachment: String?
    var clientExtensionResults: [String: String]
    var response: Response

    enum Response: Encodable {
        case registration(RegistrationResponse)
        case assertion(AssertionResponse)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .registration(let response): try response.encode(to: encoder)
            case .assertion(let response): try response.encode(to: encoder)
            }
        }
    }

    func encoded() throws(AuthenticationError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw AuthenticationError.passkey("cannot encode the credential JSON: \(error)")
        }
    }
}

private struct RegistrationResponse: Encodable {
    var clientDataJSON: String
    var attestationObject: String
    var transports: [String]?
}

private struct AssertionResponse: Encodable {
    var clientDataJSON: String
    var authenticatorData: String
    var signature: String
    var userHandle: String?
}

import Foundation

/// The credential a passkey login named that the server does not know (deleted, or never
/// registered there): the `unknown_credential` member of the server's `invalid_grant` answer
/// (docs/migration.md). An app can pass it on to the platform's credential manager so the passkey stops
/// being offered.
public struct UnknownCredential: Sendable, Hashable {
    /// The RP ID the passkey belongs to.
    public var rpID: String
    /// The credential id, base64url.
    public var credentialID: String

    /// A credential from its parts.
    public init(rpID: String, credentialID: String) {
        self.rpID = rpID
        self.credentialID = credentialID
    }
}

extension AuthenticationError {
    /// The server does not know the passkey the login used: its answer carries `unknown_credential`
    /// (or, from other servers, the error code is `unknown_credential`). The SDK clears the user's
    /// prefer-passkey flag on it.
    public var isUnknownCredential: Bool {
        code == "unknown_credential" || unknownCredential != nil
    }

    /// The passkey the server does not know, when its answer says which.
    public var unknownCredential: UnknownCredential? {
        guard kind == .server || kind == .unauthorized, let body,
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let member = object["unknown_credential"] as? [String: Any],
            let rpID = member["rp_id"] as? String, let credentialID = member["credential_id"] as? String
        else { return nil }
        return UnknownCredential(rpID: rpID, credentialID: credentialID)
    }
}

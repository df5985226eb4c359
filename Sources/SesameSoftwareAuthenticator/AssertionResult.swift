import WebAuthn

/// What `SoftwareAuthenticator.getAssertion` returns: the assertion as a relying party receives it,
/// in both its parsed and its WebAuthn JSON form, and the credential that made it.
public struct AssertionResult: Sendable {
    /// The assertion (what `RelyingParty.finishAuthentication` takes).
    public var credential: AuthenticationCredential
    /// `AuthenticationResponseJSON` (the `toJSON()` form): id, rawId, type, authenticatorAttachment,
    /// clientExtensionResults, response {clientDataJSON, authenticatorData, signature, userHandle}.
    public var json: [UInt8]
    /// The authenticator data that was signed.
    public var authenticatorData: AuthenticatorData
    /// The credential used, with its counter after this assertion.
    public var storedCredential: AuthenticatorCredential

    /// `json` as a string.
    public var jsonString: String { String(decoding: json, as: UTF8.self) }
}

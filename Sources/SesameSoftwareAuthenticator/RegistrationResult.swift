import WebAuthn

/// What `SoftwareAuthenticator.makeCredential` returns: the credential as a relying party receives
/// it, in both its parsed and its WebAuthn JSON form, and the record the authenticator stored.
public struct RegistrationResult: Sendable {
    /// The registration response (what `RelyingParty.finishRegistration` takes).
    public var credential: RegistrationCredential
    /// `RegistrationResponseJSON` (the `toJSON()` form): id, rawId, type, authenticatorAttachment,
    /// clientExtensionResults, response {clientDataJSON, attestationObject, transports,
    /// authenticatorData, publicKey (SPKI), publicKeyAlgorithm}. This is the `authn_response`.
    public var json: [UInt8]
    /// The authenticator data inside the attestation object.
    public var authenticatorData: AuthenticatorData
    /// The credential public key as written into the authenticator data.
    public var publicKey: COSEKey
    /// The record the authenticator stored (with its private key).
    public var storedCredential: AuthenticatorCredential

    /// `json` as a string.
    public var jsonString: String { String(decoding: json, as: UTF8.self) }
}

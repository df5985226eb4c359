import WebAuthn

/// What `navigator.credentials.get({publicKey})` passes to an authenticator: the parts of
/// `PublicKeyCredentialRequestOptions` the software authenticator uses, as plain values.
public struct CredentialAssertionRequest: Sendable, Hashable {
    /// `rpId`.
    public var rpID: String
    /// The challenge, written base64url into clientDataJSON.
    public var challenge: [UInt8]
    /// The `id` of each `allowCredentials` entry; empty asks for a discoverable credential.
    public var allowCredentials: [[UInt8]]
    /// `userVerification`.
    public var userVerification: UserVerificationRequirement

    /// A request; an empty `allowCredentials` means discoverable-credential login.
    public init(
        rpID: String, challenge: [UInt8], allowCredentials: [[UInt8]] = [],
        userVerification: UserVerificationRequirement = .preferred
    ) {
        self.rpID = rpID
        self.challenge = challenge
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}

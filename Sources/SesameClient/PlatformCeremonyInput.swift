import Foundation
import SesameWire

/// What a platform passkey API (AuthenticationServices, or an app's own bridge) needs from a
/// signup or enrollment challenge, with every base64url member decoded. Shared by
/// `PlatformPasskeyProvider` and tested on every platform.
public struct PlatformRegistrationInput: Sendable, Equatable {
    /// `rp.id`: the relying party the passkey is bound to.
    public let relyingPartyID: String
    /// The challenge bytes.
    public let challenge: Data
    /// `user.id`: the user handle.
    public let userID: Data
    /// `user.name`: the account name the passkey sheet shows.
    public let userName: String
    /// `user.displayName`.
    public let displayName: String
    /// `authenticatorSelection.userVerification`: "required", "preferred" or "discouraged".
    public let userVerification: String
    /// `excludeCredentials` ids: passkeys the user already has, which the authenticator must not duplicate.
    public let excludedCredentialIDs: [Data]

    /// Decodes the challenge's options; throws `.invalidResponse` naming a member that is not base64url.
    public init(_ challenge: PasskeySignupChallenge) throws(AuthenticationError) {
        let options = challenge.options
        relyingPartyID = options.rp.id
        self.challenge = try Self.bytes(options.challenge, "challenge")
        userID = try Self.bytes(options.user.id, "user.id")
        userName = options.user.name
        displayName = options.user.displayName
        userVerification = options.authenticatorSelection.userVerification
        excludedCredentialIDs = try Self.ids(options.excludeCredentials, "excludeCredentials")
    }

    static func bytes(_ text: String, _ member: String) throws(AuthenticationError) -> Data {
        guard let data = Base64URL.decode(text), !data.isEmpty else {
            throw AuthenticationError.invalidResponse("\(member) in the passkey options is not base64url")
        }
        return data
    }

    /// The ids of the credential list `member`, decoded.
    static func ids(_ descriptors: [PasskeyCreationOptions.CredentialDescriptor]?, _ member: String)
        throws(AuthenticationError) -> [Data]
    {
        var ids: [Data] = []
        for (index, descriptor) in (descriptors ?? []).enumerated() {
            ids.append(try bytes(descriptor.id, "\(member)[\(index)].id"))
        }
        return ids
    }
}

/// What a platform passkey API needs from a login challenge, decoded.
public struct PlatformAssertionInput: Sendable, Equatable {
    /// `rpId`.
    public let relyingPartyID: String
    /// The challenge bytes.
    public let challenge: Data
    /// `userVerification`: "required", "preferred" or "discouraged".
    public let userVerification: String
    /// `allowCredentials` ids; empty for a discoverable (username-less) login.
    public let allowedCredentialIDs: [Data]

    /// Decodes the challenge's options; throws `.invalidResponse` naming a member that is not base64url.
    public init(_ challenge: PasskeyLoginChallenge) throws(AuthenticationError) {
        let options = challenge.options
        relyingPartyID = options.rpId
        self.challenge = try PlatformRegistrationInput.bytes(options.challenge, "challenge")
        userVerification = options.userVerification
        allowedCredentialIDs = try PlatformRegistrationInput.ids(options.allowCredentials, "allowCredentials")
    }
}

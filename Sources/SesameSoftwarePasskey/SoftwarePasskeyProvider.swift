import Foundation
import SesameClient
import SesameSoftwareAuthenticator

/// A `PasskeyProvider` over Sesame's software authenticator, for Linux apps, command lines and
/// tests: passkeys whose private keys live in a file (`FileCredentialStore`: mode 0600, atomic
/// writes, a corrupt file is an error, never an empty store).
///
/// It reports the origin an Apple app would (`https://<rpId>`) unless given another, so a
/// server accepts it as it accepts the tenant's iOS app or web origin.
public struct SoftwarePasskeyProvider: PasskeyProvider {
    /// The authenticator that makes and uses the passkeys.
    public let authenticator: SoftwareAuthenticator

    /// A provider over an existing authenticator.
    public init(authenticator: SoftwareAuthenticator) {
        self.authenticator = authenticator
    }

    /// A provider whose passkeys are kept in the file at `storePath`, reporting `origin` in
    /// clientDataJSON (`https://<rpId>` when nil). The file is read on first use.
    public init(storePath: String, origin: Origin? = nil) throws {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = origin
        self.init(
            authenticator: SoftwareAuthenticator(
                configuration: configuration, store: FileCredentialStore(path: storePath)))
    }

    /// Makes a passkey for the signup (or enrollment) challenge's creation options.
    public func register(_ challenge: PasskeySignupChallenge) async throws -> PasskeyCredential {
        do {
            let result = try authenticator.makeCredential(optionsJSON: Array(challenge.optionsJSON))
            return try PasskeyCredential(json: Data(result.json))
        } catch let error as AuthenticatorError {
            throw Self.map(error)
        }
    }

    /// Signs the login challenge with the newest matching passkey in the store.
    public func assert(_ challenge: PasskeyLoginChallenge) async throws -> PasskeyCredential {
        do {
            let result = try authenticator.getAssertion(optionsJSON: Array(challenge.optionsJSON))
            return try PasskeyCredential(json: Data(result.json))
        } catch let error as AuthenticatorError {
            throw Self.map(error)
        }
    }

    /// An authenticator failure as a `.passkey` error whose code is the authenticator's
    /// (`NotAllowedError` when it holds no passkey for the RP, `corrupt_store`, …).
    static func map(_ error: AuthenticatorError) -> AuthenticationError {
        .passkey(error.message, code: error.code.rawValue)
    }
}

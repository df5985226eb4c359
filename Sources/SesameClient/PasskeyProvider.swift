/// Runs the passkey ceremony on this device: the system passkey sheet on Apple platforms
/// (`PlatformPasskeyProvider`), the software authenticator on Linux (`SoftwarePasskeyProvider`),
/// or an app's own.
///
/// Throw `AuthenticationError` (`.cancelled` when the user dismissed the sheet, `.passkey` for
/// anything else on the device); other errors are reported as `.passkey`.
public protocol PasskeyProvider: Sendable {
    /// Creates a passkey with the challenge's creation options and returns its registration JSON.
    func register(_ challenge: PasskeySignupChallenge) async throws -> PasskeyCredential
    /// Signs the challenge's request options with a passkey and returns the assertion JSON.
    func assert(_ challenge: PasskeyLoginChallenge) async throws -> PasskeyCredential
}

extension AuthenticationError {
    /// Maps what a provider threw: cancellation as is, any other error as `.passkey`.
    static func provider(_ error: any Error) -> AuthenticationError {
        if let error = error as? AuthenticationError { return error }
        if error is CancellationError { return .cancelled() }
        return .passkey("the passkey ceremony failed: \(error)")
    }
}

import Foundation

/// How the hosted enrollment page of a `passkey_enrollment` prompt ended, as its way back to the
/// app says: `redirect_uri?passkey_enrollment=created|skipped|already_registered` (docs/migration.md).
public enum PasskeyEnrollmentOutcome: String, Sendable, Hashable, CaseIterable {
    /// The user created a passkey. After a device-key re-authentication, that key is now
    /// `migrated`: it keeps working for the connection's grace period.
    case created
    /// The user chose "Not now" (a progressive prompt is snoozed).
    case skipped
    /// The user already has a passkey from the provider they chose; no second one was stored.
    case alreadyRegistered = "already_registered"

    /// The query item that carries the outcome.
    static let queryItem = "passkey_enrollment"

    /// The outcome `callback`, a navigation to `redirectURL`, carries. Throws `.invalidResponse`
    /// when `callback` is not that redirect, and `unknown_enrollment_outcome` when its
    /// `passkey_enrollment` is missing or not one of the three.
    public init(callback: URL, redirectURL: URL) throws(AuthenticationError) {
        guard WebAuthTransaction.isCallback(callback, redirectURL: redirectURL),
            let components = URLComponents(url: callback, resolvingAgainstBaseURL: false)
        else {
            throw AuthenticationError.invalidResponse("the enrollment page returned to another URL than redirectURL")
        }
        // The page adds its item after the redirect URL's own query: the last one is the page's.
        let value = components.queryItems?.last { $0.name == Self.queryItem }?.value
        guard let value, let outcome = PasskeyEnrollmentOutcome(rawValue: value) else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "unknown_enrollment_outcome",
                errorDescription: "the enrollment page returned passkey_enrollment=\(value ?? "(none)"), "
                    + "not created, skipped or already_registered")
        }
        self = outcome
    }

    /// Whether the user has a passkey now (one made, or one they had): the prefer-passkey flag is
    /// set for these.
    var userHasPasskey: Bool { self != .skipped }
}

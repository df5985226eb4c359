import Foundation
import SesameWire

/// The hosted enrollment page a token response's `passkey_enrollment` prompt links to (docs/migration.md).
extension SesameAuthentication {
    /// Opens the hosted enrollment page of `credentials`' prompt (after a password login or a
    /// device-key re-authentication) with a web-auth provider (the system sign-in sheet or the
    /// app's web view), and returns how it ended once the page comes back to `redirectURL`.
    /// `created` and `alreadyRegistered` set the user's prefer-passkey flag in
    /// `preferPasskeyStore`.
    ///
    /// The page comes back only when the token request that brought the prompt named the same
    /// URL (`enrollmentRedirectURL`, one of the client's callbacks); otherwise it ends without a
    /// way back, and closing it is `.cancelled`. The page must be on the tenant's domain, or https.
    public func openPasskeyEnrollment(
        _ credentials: Credentials, provider: any WebAuthProvider, redirectURL: URL
    ) async throws(AuthenticationError) -> PasskeyEnrollmentOutcome {
        try await openPasskeyEnrollment(credentials, provider: provider, redirectURL: redirectURL, flags: nil)
    }

    /// `openPasskeyEnrollment(_:provider:redirectURL:)`, setting the flag in `flags` (this
    /// client's store when nil).
    func openPasskeyEnrollment(
        _ credentials: Credentials, provider: any WebAuthProvider, redirectURL: URL,
        flags: (any PreferPasskeyStore)?
    ) async throws(AuthenticationError) -> PasskeyEnrollmentOutcome {
        guard let prompt = credentials.passkeyEnrollment else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "no_enrollment_prompt",
                errorDescription: "the credentials carry no passkey_enrollment prompt to open")
        }
        let url = try enrollmentPage(prompt)
        let callback = try await provider.authorize(url: url, redirectURL: redirectURL)
        let outcome = try PasskeyEnrollmentOutcome(callback: callback, redirectURL: redirectURL)
        if outcome.userHasPasskey { notePasskey(credentials: credentials, in: flags) }
        return outcome
    }

    /// The prompt's `enroll_url`, when it is https or on the tenant's own domain.
    private func enrollmentPage(_ prompt: PasskeyEnrollmentPrompt) throws(AuthenticationError) -> URL {
        let tenant = configuration.domain
        guard let url = URL(string: prompt.enrollURL), let host = url.host?.lowercased(),
            url.scheme?.lowercased() == "https"
                || (url.scheme?.lowercased() == tenant.scheme?.lowercased() && host == tenant.host?.lowercased())
        else {
            throw AuthenticationError.invalidResponse("enroll_url is not an https URL or a page of the tenant")
        }
        return url
    }
}

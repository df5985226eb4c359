// Written against Apple's AuthenticationServices API (iOS 16+, macOS 13+, visionOS 1+). Linux
// type-checks it against stand-ins (scripts/apple-standins-check.sh, -D SESAME_APPLE_STANDINS) but
// cannot run it. What it relies on (the URL, the callback's checks) is WebAuthTransaction, tested
// on Linux.
#if (canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))) || SESAME_APPLE_STANDINS
    import AuthenticationServices
    import Foundation

    /// A `WebAuthProvider` over `ASWebAuthenticationSession`: the system's sign-in sheet, which
    /// shares the browser's cookies (so SSO works) unless `ephemeral`. A custom-scheme redirect
    /// (`com.example.app://callback`) works everywhere; an https universal link needs iOS 17.4 or
    /// macOS 14.4 and the Associated Domains entitlement. Closing the sheet is `.cancelled`, and
    /// cancelling the Swift task closes it.
    @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
    public struct WebAuthenticationSessionProvider: WebAuthProvider {
        /// Returns the window the sheet is presented over.
        public let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        /// No shared cookies: every sign-in starts signed out (`prefersEphemeralWebBrowserSession`).
        public let ephemeral: Bool

        public init(ephemeral: Bool = false, anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
            self.ephemeral = ephemeral
        }

        public func authorize(url: URL, redirectURL: URL) async throws(AuthenticationError) -> URL {
            let outcome: Result<URL, AuthenticationError> = await run(url: url, redirectURL: redirectURL)
            return try outcome.get()
        }

        @MainActor
        private func run(url: URL, redirectURL: URL) async -> Result<URL, AuthenticationError> {
            let box = SessionBox()
            return await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<URL, AuthenticationError>, Never>) in
                    let completion: ASWebAuthenticationSession.CompletionHandler = { callback, error in
                        continuation.resume(returning: Self.outcome(callback, error))
                    }
                    let session: ASWebAuthenticationSession
                    if redirectURL.scheme?.lowercased() == "https", let host = redirectURL.host {
                        if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                            session = ASWebAuthenticationSession(
                                url: url, callback: .https(host: host, path: redirectURL.path),
                                completionHandler: completion)
                        } else {
                            continuation.resume(
                                returning: .failure(
                                    AuthenticationError(
                                        kind: .invalidResponse, code: "unsupported_redirect",
                                        errorDescription: "an https redirect needs iOS 17.4 or macOS 14.4")))
                            return
                        }
                    } else {
                        session = ASWebAuthenticationSession(
                            url: url, callbackURLScheme: redirectURL.scheme, completionHandler: completion)
                    }
                    let context = PresentationContext(anchor: anchor)
                    box.keep(session, context)
                    session.presentationContextProvider = context
                    session.prefersEphemeralWebBrowserSession = ephemeral
                    if !session.start() {
                        continuation.resume(
                            returning: .failure(
                                AuthenticationError(
                                    kind: .cancelled, code: "not_started",
                                    errorDescription: "the sign-in sheet could not be shown")))
                    }
                }
            } onCancel: {
                Task { @MainActor in box.cancel() }
            }
        }

        /// The callback, or the error as `AuthenticationError` (a closed sheet is `.cancelled`).
        static func outcome(_ callback: URL?, _ error: (any Error)?) -> Result<URL, AuthenticationError> {
            if let callback { return .success(callback) }
            let nsError = error.map { $0 as NSError }
            if nsError?.domain == ASWebAuthenticationSessionErrorDomain,
                nsError?.code == ASWebAuthenticationSessionError.Code.canceledLogin.rawValue
            {
                return .failure(AuthenticationError(kind: .cancelled, code: "cancelled", errorDescription: "closed"))
            }
            return .failure(
                AuthenticationError(
                    kind: .network, code: "web_auth_failed",
                    errorDescription: nsError?.localizedDescription ?? "the sign-in sheet failed"))
        }
    }

    /// Holds the session and its context while the sheet is up (the session keeps the context weakly).
    @MainActor
    final class SessionBox {
        private var session: ASWebAuthenticationSession?
        private var context: PresentationContext?
        nonisolated init() {}
        func keep(_ session: ASWebAuthenticationSession, _ context: PresentationContext) {
            self.session = session
            self.context = context
        }
        func cancel() { session?.cancel() }
    }

    /// The presentation anchor of the sheet.
    @MainActor
    final class PresentationContext: NSObject, ASWebAuthenticationPresentationContextProviding {
        let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) { self.anchor = anchor }
        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor { anchor() }
    }
#endif

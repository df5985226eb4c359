// Written against Apple's WebKit API (iOS 16+, macOS 13+, visionOS 1+). Linux type-checks it
// against stand-ins (scripts/apple-standins-check.sh, -D SESAME_APPLE_STANDINS). What it decides
// (whether a navigation is the callback) is WebAuthTransaction.isCallback, tested on Linux.
#if (canImport(WebKit) && (os(iOS) || os(macOS) || os(visionOS))) || SESAME_APPLE_STANDINS
    import Foundation
    import WebKit

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A `WebAuthProvider` over a `WKWebView` the app shows, for apps that keep their whole login
    /// inside a web view (docs/hosted-pages.md): it loads `/authorize`, lets the hosted pages run
    /// (passkeys work in WKWebView on iOS 16 and later for the app's associated domain), and stops
    /// the first navigation to the redirect URL, which it returns. The same stop ends a hosted
    /// passkey enrollment (`openPasskeyEnrollment`) when its page links back to the app. The
    /// provider becomes the web view's navigation delegate while a sign-in runs.
    @MainActor
    public final class WebViewAuthProvider: NSObject, WebAuthProvider, WKNavigationDelegate {
        public let webView: WKWebView
        private var redirectURL: URL?
        private var continuation: CheckedContinuation<Result<URL, AuthenticationError>, Never>?

        public init(webView: WKWebView) {
            self.webView = webView
        }

        public nonisolated func authorize(url: URL, redirectURL: URL) async throws(AuthenticationError) -> URL {
            try await begin(url: url, redirectURL: redirectURL).get()
        }

        private func begin(url: URL, redirectURL: URL) async -> Result<URL, AuthenticationError> {
            finish(
                .failure(
                    AuthenticationError(kind: .cancelled, code: "superseded", errorDescription: "a new sign-in began")))
            return await withCheckedContinuation { continuation in
                self.continuation = continuation
                self.redirectURL = redirectURL
                webView.navigationDelegate = self
                webView.load(URLRequest(url: url))
            }
        }

        /// Ends the sign-in in progress as `.cancelled` (the app closed the web view).
        public func cancel() {
            webView.stopLoading()
            finish(.failure(AuthenticationError(kind: .cancelled, code: "cancelled", errorDescription: "closed")))
        }

        private func finish(_ outcome: Result<URL, AuthenticationError>) {
            guard let continuation else { return }
            self.continuation = nil
            redirectURL = nil
            continuation.resume(returning: outcome)
        }

        public func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
            -> WKNavigationActionPolicy
        {
            guard let url = navigationAction.request.url, let redirectURL,
                WebAuthTransaction.isCallback(url, redirectURL: redirectURL)
            else { return .allow }
            finish(.success(url))
            return .cancel
        }

        public func webView(
            _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
        ) {
            finish(
                .failure(
                    AuthenticationError(
                        kind: .network, code: "web_view_failed",
                        errorDescription: (error as NSError).localizedDescription)))
        }
    }
#endif

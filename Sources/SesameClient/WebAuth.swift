import Foundation
import SesameWire

/// What opens `/authorize` and hands back the callback: `ASWebAuthenticationSession` on Apple
/// platforms (`WebAuthenticationSessionProvider`), a `WKWebView` the app owns
/// (`WebViewAuthProvider`), or a test's fake. It throws `.cancelled` when the user closes it.
public protocol WebAuthProvider: Sendable {
    /// Opens `url` and returns the first navigation to `redirectURL` (its query is the answer).
    func authorize(url: URL, redirectURL: URL) async throws(AuthenticationError) -> URL
}

/// Sign-in through the hosted pages with the authorization-code flow and PKCE, in Auth0.swift's
/// shape: `authentication.webAuth(redirectURL:).scope(…).start()`. Every option returns a copy.
public struct WebAuth: Sendable {
    let authentication: SesameAuthentication
    public private(set) var redirectURL: URL
    public private(set) var scope = SesameAuthentication.defaultScope
    public private(set) var audience: String?
    public private(set) var connection: String?
    public private(set) var prompt: String?
    public private(set) var maxAge: Int?
    public private(set) var nonce: String?
    public private(set) var parameters: [String: String] = [:]
    var provider: (any WebAuthProvider)?
    var digest: (any PKCEDigest)?
    var random: @Sendable (Int) -> [UInt8] = WebAuthTransaction.systemRandom

    init(authentication: SesameAuthentication, redirectURL: URL) {
        self.authentication = authentication
        self.redirectURL = redirectURL
        digest = PlatformDigest.default
    }

    public func scope(_ scope: String) -> WebAuth { with { $0.scope = scope } }
    public func audience(_ audience: String) -> WebAuth { with { $0.audience = audience } }
    public func connection(_ connection: String) -> WebAuth { with { $0.connection = connection } }
    /// `login` to sign in again whatever the session, `create` to show the signup page first.
    public func prompt(_ prompt: String) -> WebAuth { with { $0.prompt = prompt } }
    public func maxAge(_ seconds: Int) -> WebAuth { with { $0.maxAge = seconds } }
    public func nonce(_ nonce: String) -> WebAuth { with { $0.nonce = nonce } }
    /// More `/authorize` parameters (`login_hint`, `ui_locales`, `screen_hint`); the flow's own win.
    public func parameters(_ parameters: [String: String]) -> WebAuth {
        with { $0.parameters.merge(parameters) { _, new in new } }
    }
    public func redirectURL(_ url: URL) -> WebAuth { with { $0.redirectURL = url } }
    public func provider(_ provider: any WebAuthProvider) -> WebAuth { with { $0.provider = provider } }
    /// The SHA-256 of PKCE (CryptoKit's by default on Apple platforms; set one on Linux).
    public func digest(_ digest: any PKCEDigest) -> WebAuth { with { $0.digest = digest } }
    /// The random source of the verifier, state and nonce (tests make it deterministic).
    public func random(_ random: @escaping @Sendable (Int) -> [UInt8]) -> WebAuth { with { $0.random = random } }

    private func with(_ change: (inout WebAuth) -> Void) -> WebAuth {
        var copy = self
        change(&copy)
        return copy
    }

    /// The transaction `start()` runs (public so a custom flow can drive it).
    public func transaction() throws(AuthenticationError) -> WebAuthTransaction {
        guard let digest else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "no_digest",
                errorDescription: "PKCE needs SHA-256: call .digest(_:) (SesameCryptoDigest on Linux)")
        }
        return try WebAuthTransaction(
            configuration: authentication.configuration, redirectURL: redirectURL, scope: scope, audience: audience,
            connection: connection, prompt: prompt, maxAge: maxAge, nonce: nonce, parameters: parameters,
            digest: digest, random: random)
    }

    /// Opens the hosted sign-in, checks the callback, exchanges the code with the verifier, and
    /// checks the id token. `.cancelled` when the user closes the sign-in.
    public func start() async throws(AuthenticationError) -> Credentials {
        guard let provider else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "no_provider",
                errorDescription: "no WebAuthProvider: set one with .provider(_:)")
        }
        let transaction = try transaction()
        let callback = try await provider.authorize(url: transaction.authorizeURL, redirectURL: redirectURL)
        let code = try transaction.code(from: callback)
        return try await exchange(code: code, transaction: transaction)
    }

    /// The code exchange (`authorization_code` with the verifier) and the id token's checks.
    public func exchange(code: String, transaction: WebAuthTransaction) async throws(AuthenticationError)
        -> Credentials
    {
        let configuration = authentication.configuration
        let credentials = try await authentication.token([
            TokenFields.grantType: .string(GrantType.authorizationCode),
            ClientFields.clientID: .string(configuration.clientID), TokenFields.code: .string(code),
            TokenFields.redirectURI: .string(transaction.redirectURL.absoluteString),
            TokenFields.codeVerifier: .string(transaction.codeVerifier),
        ])
        if let idToken = credentials.idToken {
            try transaction.validate(idToken: idToken, clientID: configuration.clientID, now: authentication.now())
        }
        return credentials
    }

    /// Signs out of the hosted pages (`/oidc/logout`), returning to `returnTo` (one of the
    /// client's allowed logout URLs; the redirect URL by default).
    public func clearSession(returnTo: URL? = nil) async throws(AuthenticationError) {
        guard let provider else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "no_provider",
                errorDescription: "no WebAuthProvider: set one with .provider(_:)")
        }
        let back = returnTo ?? redirectURL
        var components = URLComponents(string: authentication.configuration.base + "/oidc/logout")
        components?.queryItems = [
            URLQueryItem(name: "client_id", value: authentication.configuration.clientID),
            URLQueryItem(name: "post_logout_redirect_uri", value: back.absoluteString),
        ]
        guard let url = components?.url else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "invalid_configuration", errorDescription: "bad domain")
        }
        _ = try await provider.authorize(url: url, redirectURL: back)
    }
}

extension SesameAuthentication {
    /// Sign-in through the hosted pages, returning to `redirectURL` (a custom scheme such as
    /// `com.example.app://callback`, or an https universal link; one of the client's callbacks).
    public func webAuth(redirectURL: URL) -> WebAuth { WebAuth(authentication: self, redirectURL: redirectURL) }
}

#if canImport(CryptoKit)
    import CryptoKit

    /// SHA-256 from CryptoKit (Apple platforms).
    public struct CryptoKitDigest: PKCEDigest {
        public init() {}
        public func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }
    }
#endif

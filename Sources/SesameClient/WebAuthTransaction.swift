import Foundation

/// SHA-256, for PKCE's S256 challenge. The SDK has no crypto of its own: on Apple platforms
/// `CryptoKitDigest` (CryptoKit); on Linux, `SesameCryptoDigest` from SesameSoftwarePasskey
/// (libcrypto), or any other implementation.
public protocol PKCEDigest: Sendable {
    func sha256(_ bytes: [UInt8]) -> [UInt8]
}

/// One `/authorize` round trip's secrets and checks (RFC 6749 §4.1, RFC 7636, OIDC Core §3.1,
/// RFC 9207): the URL to open, then the callback's checks. Pure and tested on Linux; the Apple
/// adapters (`ASWebAuthenticationSession`, `WKWebView`) only open the URL and hand back the callback.
public struct WebAuthTransaction: Sendable, Equatable {
    /// The PKCE verifier: 43 base64url characters of 32 random bytes (RFC 7636 §4.1).
    public let codeVerifier: String
    public let state: String
    public let nonce: String
    public let redirectURL: URL
    public let authorizeURL: URL
    /// The issuer the callback's `iss` must name (RFC 9207).
    public let issuer: String
    public let maxAge: Int?

    /// The URL for `parameters` (scope, audience, connection, prompt…), with fresh secrets from
    /// `random` (a cryptographically secure source of `count` bytes).
    public init(
        configuration: SesameConfiguration, redirectURL: URL, scope: String, audience: String? = nil,
        connection: String? = nil, prompt: String? = nil, maxAge: Int? = nil, nonce: String? = nil,
        parameters: [String: String] = [:], digest: any PKCEDigest,
        random: @Sendable (Int) -> [UInt8] = WebAuthTransaction.systemRandom
    ) throws(AuthenticationError) {
        codeVerifier = Base64URL.encode(Data(random(32)))
        state = Base64URL.encode(Data(random(16)))
        self.nonce = nonce ?? Base64URL.encode(Data(random(16)))
        self.redirectURL = redirectURL
        self.maxAge = maxAge
        issuer = configuration.base + "/"
        let challenge = Base64URL.encode(Data(digest.sha256(Array(codeVerifier.utf8))))
        var items: [URLQueryItem] = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: configuration.clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURL.absoluteString),
            URLQueryItem(name: "scope", value: scope),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "nonce", value: self.nonce),
            URLQueryItem(name: "code_challenge", value: challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        if let audience { items.append(URLQueryItem(name: "audience", value: audience)) }
        if let connection { items.append(URLQueryItem(name: "connection", value: connection)) }
        if let prompt { items.append(URLQueryItem(name: "prompt", value: prompt)) }
        if let maxAge { items.append(URLQueryItem(name: "max_age", value: String(maxAge))) }
        let fixed = Set(items.map(\.name))
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) where !fixed.contains(name) {
            items.append(URLQueryItem(name: name, value: value))
        }
        guard var components = URLComponents(string: configuration.base + "/authorize") else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "invalid_configuration",
                errorDescription: "cannot build /authorize from \(configuration.domain)")
        }
        // `+` is a space in a form-encoded query: encode it, and `;`, so every server reads the same.
        components.percentEncodedQueryItems = items.map {
            URLQueryItem(name: $0.name, value: Self.encode($0.value ?? ""))
        }
        guard let url = components.url else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "invalid_configuration", errorDescription: "cannot build /authorize")
        }
        authorizeURL = url
    }

    /// 32 random bytes from the system's cryptographically secure generator.
    public static let systemRandom: @Sendable (Int) -> [UInt8] = { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func encode(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// Whether `url` is this transaction's redirect (same scheme, host, port and path; the query
    /// is the answer). A web view stops at the first such navigation.
    public func isCallback(_ url: URL) -> Bool { Self.isCallback(url, redirectURL: redirectURL) }

    /// Whether `url` is a navigation to `redirectURL` (scheme and host compared case-insensitively).
    public static func isCallback(_ url: URL, redirectURL: URL) -> Bool {
        guard let got = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let want = URLComponents(url: redirectURL, resolvingAgainstBaseURL: false)
        else { return false }
        return got.scheme?.lowercased() == want.scheme?.lowercased()
            && got.host?.lowercased() == want.host?.lowercased()
            && got.port == want.port && (got.path.isEmpty ? "/" : got.path) == (want.path.isEmpty ? "/" : want.path)
    }

    /// The code of the callback: checked to be this redirect, with this `state` and (when given)
    /// this issuer. An `error` answer is `.server` with its code; a missing or foreign `state` is
    /// `.invalidResponse` (a possible CSRF, never retried).
    public func code(from callback: URL) throws(AuthenticationError) -> String {
        guard isCallback(callback), let components = URLComponents(url: callback, resolvingAgainstBaseURL: false)
        else { throw Self.invalid("the callback is not this transaction's redirect URL") }
        var values: [String: String] = [:]
        for item in components.queryItems ?? [] where values[item.name] == nil { values[item.name] = item.value ?? "" }
        guard let returned = values["state"], returned == state else {
            throw Self.invalid("the callback's state is not this transaction's")
        }
        if let iss = values["iss"], iss != issuer {
            throw Self.invalid("the callback's iss is not the configured tenant (RFC 9207)")
        }
        if let error = values["error"] {
            throw AuthenticationError(
                kind: error == "access_denied" ? .cancelled : .server, code: error,
                errorDescription: values["error_description"] ?? error)
        }
        guard let code = values["code"], !code.isEmpty else { throw Self.invalid("the callback carries no code") }
        return code
    }

    /// Checks the id token's claims (OIDC Core §3.1.3.7): `iss`, `aud` (this client), `azp`,
    /// `exp`, `nonce`, and `auth_time` within `max_age`. The signature is not checked here: the
    /// token came straight from the token endpoint over TLS (§3.1.3.7 item 6).
    public func validate(idToken: String, clientID: String, now: Date, leeway: TimeInterval = 60)
        throws(AuthenticationError)
    {
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { throw Self.invalid("the id token is not a JWT") }
        guard claims["iss"] as? String == issuer else { throw Self.invalid("the id token's iss is not the tenant") }
        let audiences = (claims["aud"] as? [String]) ?? [(claims["aud"] as? String) ?? ""]
        guard audiences.contains(clientID) else { throw Self.invalid("the id token is not for this client") }
        if audiences.count > 1, claims["azp"] as? String != clientID {
            throw Self.invalid("the id token's azp is not this client")
        }
        guard let exp = (claims["exp"] as? NSNumber)?.doubleValue, now.timeIntervalSince1970 < exp + leeway else {
            throw Self.invalid("the id token has expired")
        }
        guard claims["nonce"] as? String == nonce else {
            throw Self.invalid("the id token's nonce is not this transaction's")
        }
        if let maxAge {
            guard let authTime = (claims["auth_time"] as? NSNumber)?.doubleValue,
                now.timeIntervalSince1970 - authTime <= Double(maxAge) + leeway
            else { throw Self.invalid("the sign-in is older than max_age") }
        }
    }

    static func invalid(_ text: String) -> AuthenticationError {
        AuthenticationError(kind: .invalidResponse, code: "invalid_callback", errorDescription: text)
    }
}

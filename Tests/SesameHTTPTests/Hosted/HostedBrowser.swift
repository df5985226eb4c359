import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore
import Testing
import WebAuthn

/// A browser for the hosted-page tests: a cookie jar, the last page's HTML, and form posts that
/// carry the page's CSRF token and pending request, the way the pages' forms do.
final class HostedBrowser: @unchecked Sendable {  // used from one test at a time
    let api: APIHarness
    var cookies: [String: String] = [:]
    var host: String
    var userAgent = "HostedBrowser/1.0"
    var acceptLanguage: String?
    /// The last response.
    private(set) var last = APIReply(status: 0, headers: HTTPHeaders(), body: [])

    init(_ api: APIHarness, host: String = APIHarness.hostHeader) {
        self.api = api
        self.host = host
    }

    var html: String { String(decoding: last.body, as: UTF8.self) }
    var location: String? { last.headers["Location"] }

    /// Sends a request with the jar's cookies and keeps what it sets.
    @discardableResult
    func send(
        _ method: HTTPMethod, _ target: String, form: [(String, String)]? = nil, origin: String? = APIHarness.webOrigin,
        headers extra: [(String, String)] = []
    ) -> APIReply {
        var headers: [(String, String)] = [("User-Agent", userAgent)]
        if !cookies.isEmpty {
            headers.append(("Cookie", cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")))
        }
        if let acceptLanguage { headers.append(("Accept-Language", acceptLanguage)) }
        if method == .post, let origin { headers.append(("Origin", origin)) }
        headers += extra
        let body = form.map { Self.encode($0) }
        let reply = api.send(
            method, target, json: body, host: host, contentType: "application/x-www-form-urlencoded",
            headers: headers)
        for value in reply.headers.values(for: "Set-Cookie") {
            let pair = value.split(separator: ";")[0]
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let cookie = parts.count > 1 ? String(parts[1]) : ""
            if value.contains("Max-Age=0") { cookies.removeValue(forKey: name) } else { cookies[name] = cookie }
        }
        last = reply
        return reply
    }

    static func encode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<"\u{80}"))
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }

    /// The value of the first `<input name=…>` of the last page (HTML entities undone).
    func field(_ name: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return Self.unescape(String(rest[..<end]))
    }

    /// The JSON of `<script type="application/json" id=…>` on the last page.
    func data(_ id: String) -> String? {
        guard let range = html.range(of: "<script type=\"application/json\" id=\"\(id)\">") else { return nil }
        let rest = html[range.upperBound...]
        guard let end = rest.range(of: "</script>") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Posts a form of the last page: its CSRF token and pending request, and `fields`.
    @discardableResult
    func submit(_ action: String, _ fields: [(String, String)]) -> APIReply {
        var form: [(String, String)] = []
        if let csrf = field("csrf") { form.append(("csrf", csrf)) }
        if let tx = field("tx") { form.append(("tx", tx)) }
        return send(.post, action, form: form + fields)
    }

    /// Follows a same-server redirect (a relative `Location`, or one on the tenant's URL).
    @discardableResult
    func follow() -> APIReply {
        guard var target = location else { return last }
        if target.hasPrefix(APIHarness.publicURL) { target = String(target.dropFirst(APIHarness.publicURL.count)) }
        return send(.get, target.isEmpty ? "/" : target)
    }

    /// The query parameters of the last redirect.
    var redirectParameters: [String: String] {
        guard let location, let components = URLComponents(string: location) else { return [:] }
        var values: [String: String] = [:]
        for item in components.queryItems ?? [] { values[item.name] = item.value ?? "" }
        return values
    }
}

/// What an OIDC client does around the browser: PKCE, the authorize URL, the code exchange.
struct OIDCClient {
    static let redirectURI = APIHarness.publicURL + "/"
    var clientID: String
    var verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-more-random-text"
    var redirectURI = OIDCClient.redirectURI

    var challenge: String { Base64URL.encode(Digest.sha256(Array(verifier.utf8))) }

    /// `/authorize?…` with PKCE, `state` and `nonce`, and `extra` parameters.
    func authorizeTarget(
        scope: String = "openid profile email offline_access", state: String = "st-1", nonce: String = "nonce-1",
        extra: [(String, String)] = []
    ) -> String {
        let fields: [(String, String)] =
            [
                ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", scope),
                ("state", state), ("nonce", nonce), ("code_challenge", challenge), ("code_challenge_method", "S256"),
            ] + extra
        return "/authorize?" + HostedBrowser.encode(fields)
    }

    /// The code exchange at the token endpoint.
    func exchange(_ api: APIHarness, code: String, verifier: String? = nil, redirectURI: String? = nil) -> APIReply {
        var fields: [(String, String)] = [
            ("grant_type", "authorization_code"), ("client_id", clientID), ("code", code),
            ("redirect_uri", redirectURI ?? self.redirectURI),
        ]
        if let verifier = verifier ?? Optional(self.verifier), !verifier.isEmpty {
            fields.append(("code_verifier", verifier))
        }
        return api.send(
            .post, "/oauth/token", json: HostedBrowser.encode(fields), contentType: "application/x-www-form-urlencoded")
    }

    /// The claims of a JWT (not verified: the tests read what the server put there).
    static func claims(_ jwt: String) -> [String: Any] {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { return [:] }
        return object
    }
}

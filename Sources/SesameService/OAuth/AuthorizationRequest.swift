import Foundation
import SesameStore
import SesameWire

/// How `/authorize` returns its answer to the client (OAuth 2.0 Multiple Response Types, Form Post).
public enum ResponseMode: String, Sendable, Hashable, CaseIterable {
    /// In the redirect URI's query (the default for `code`).
    case query
    /// As an HTML form the browser posts to the redirect URI.
    case formPost = "form_post"
}

/// The `prompt` values `/authorize` takes (OIDC Core §3.1.2.1, and `create` from OIDC's
/// Initiating User Registration).
public enum AuthorizationPrompt: String, Sendable, Hashable, CaseIterable {
    /// Never show a page: answer from the session, or `login_required`.
    case none
    /// Ask the user to sign in again, whatever the session.
    case login
    /// Show the signup page first.
    case create
    /// Sesame's clients are first-party: there is no consent page, so this changes nothing.
    case consent
    /// One session per browser and tenant: treated as `login`, so the user can pick another account.
    case selectAccount = "select_account"
}

/// The languages the hosted pages speak, by their BCP 47 tags.
public enum PageLocale: String, Sendable, Hashable, CaseIterable {
    case en
    case ja
    case zhHans = "zh-Hans"
    case ko
    case es
    case fr
    case de
    case ptBR = "pt-BR"

    /// The first of `tags` (BCP 47, in preference order) that names a supported language, else
    /// nil. A tag matches by its language: any Portuguese is Brazilian Portuguese, and Chinese is
    /// Simplified unless the tag says Traditional (`Hant`, or Taiwan, Hong Kong or Macao), which
    /// the pages do not speak.
    public static func first(in tags: [String]) -> PageLocale? {
        for tag in tags { if let locale = match(tag) { return locale } }
        return nil
    }

    static func match(_ tag: String) -> PageLocale? {
        guard tag.utf8.count <= 64 else { return nil }
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        switch parts.first ?? "" {
        case "zh":
            return parts.dropFirst().contains(where: { ["hant", "tw", "hk", "mo"].contains($0) }) ? nil : .zhHans
        case "pt": return .ptBR
        case let language: return PageLocale(rawValue: language)
        }
    }

    /// The languages of an `Accept-Language` header, by quality then order (RFC 9110 §12.5.4).
    public static func preferred(acceptLanguage header: String?) -> [String] {
        guard let header, header.utf8.count <= 1_024 else { return [] }
        var ranked: [(tag: String, quality: Double, index: Int)] = []
        for (index, part) in header.split(separator: ",").prefix(32).enumerated() {
            let pieces = part.split(separator: ";")
            guard let tag = pieces.first?.trimmingCharacters(in: .whitespaces), !tag.isEmpty, tag != "*" else {
                continue
            }
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                let trimmed = parameter.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("q="), let value = Double(trimmed.dropFirst(2)) { quality = value }
            }
            if quality > 0 { ranked.append((tag, quality, index)) }
        }
        return ranked.sorted { ($0.quality, -$0.index) > ($1.quality, -$1.index) }.map(\.tag)
    }
}

/// A checked `/authorize` request (RFC 6749 §4.1.1, RFC 7636, OIDC Core §3.1.2.1).
public struct AuthorizationRequest: Sendable, Hashable {
    public var clientID: String
    /// Exactly one of the client's callbacks.
    public var redirectURI: String
    public var responseMode: ResponseMode
    /// As asked (checked against the client and audience when the code is made).
    public var scope: String
    public var state: String?
    public var nonce: String?
    /// The S256 challenge (43 base64url characters), or nil for a confidential client without PKCE.
    public var codeChallenge: String?
    public var prompts: Set<AuthorizationPrompt>
    /// Seconds since the last sign-in beyond which the user must sign in again.
    public var maxAge: Int?
    public var loginHint: String?
    /// The page to show first: the signup page for `screen_hint=signup` or `prompt=create`.
    public var startsWithSignup: Bool
    public var locale: PageLocale?
    /// Auth0's `audience`: the API the access token is for (nil: userinfo).
    public var audience: String?
    /// Auth0's `connection`: the database connection to use (nil: the client's default).
    public var connection: String?

    /// The parameters the endpoint reads, each with the bytes it may hold (the whole request is
    /// bounded by the URL limit too): what `checkedRequest` enforces and the OpenAPI document lists.
    /// Any other parameter is ignored (OIDC Core §3.1.2.1).
    public static let parameters: [WireField] = [
        WireField("client_id", .text(128)).requiredByService,
        WireField("redirect_uri", .text(2_048)).requiredByService,
        WireField("response_type", .text(64), description: "Only code.").requiredByService,
        WireField("response_mode", .text(32), description: "query (the default) or form_post."),
        WireField("scope", .text(2_048)), WireField("state", .text(2_048)), WireField("nonce", .text(512)),
        WireField("code_challenge", .text(128)),
        WireField("code_challenge_method", .text(16), description: "Only S256."),
        WireField("prompt", .text(128)), WireField("max_age", .text(16)), WireField("ui_locales", .text(256)),
        WireField("login_hint", .text(320)), WireField("audience", .text(512)),
        WireField("screen_hint", .text(32), description: "signup: the signup page first."),
        WireField("connection", .text(128)),
    ]

    /// Bytes each parameter may hold, by name.
    static let limits = Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.type.maxLength ?? 0) })

    /// The whole request must be signed in again for this session (`prompt=login`, or an
    /// `auth_time` older than `max_age`).
    public func needsFreshSignIn(authTime: Date, now: Date) -> Bool {
        if prompts.contains(.login) || prompts.contains(.selectAccount) || maxAge == 0 { return true }
        if let maxAge, now.timeIntervalSince(authTime) > TimeInterval(maxAge) { return true }
        return false
    }

    // MARK: The transaction payload

    init(
        clientID: String, redirectURI: String, responseMode: ResponseMode, scope: String, state: String?,
        nonce: String?, codeChallenge: String?, prompts: Set<AuthorizationPrompt>, maxAge: Int?, loginHint: String?,
        startsWithSignup: Bool, locale: PageLocale?, audience: String?, connection: String?
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseMode = responseMode
        self.scope = scope
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.prompts = prompts
        self.maxAge = maxAge
        self.loginHint = loginHint
        self.startsWithSignup = startsWithSignup
        self.locale = locale
        self.audience = audience
        self.connection = connection
    }
}

/// Where `/authorize` sends the browser back: the client's redirect URI with these parameters.
public struct AuthorizationResponse: Sendable, Hashable {
    public var redirectURI: String
    public var mode: ResponseMode
    /// `code`, `state` and `iss` (RFC 9207), or `error`, `error_description`, `state` and `iss`.
    public var parameters: [Parameter]

    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    /// The redirect URI with the parameters in its query (for `query`): the URI's own query kept.
    public var location: String {
        guard !parameters.isEmpty else { return redirectURI }
        var components = URLComponents(string: redirectURI) ?? URLComponents()
        var items = components.percentEncodedQueryItems ?? []
        for parameter in parameters {
            items.append(URLQueryItem(name: parameter.name, value: Self.formEncode(parameter.value)))
        }
        components.percentEncodedQueryItems = items
        return components.string ?? redirectURI
    }

    /// `value` percent-encoded for a query: everything but RFC 3986's unreserved characters.
    static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<"\u{80}"))
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// Why `/authorize` refused a request it can answer at the redirect URI (RFC 6749 §4.1.2.1).
public struct AuthorizationError: Error, Sendable, Hashable {
    public enum Code: String, Sendable, Hashable {
        case invalidRequest = "invalid_request"
        case unauthorizedClient = "unauthorized_client"
        case accessDenied = "access_denied"
        case unsupportedResponseType = "unsupported_response_type"
        case invalidScope = "invalid_scope"
        case serverError = "server_error"
        case temporarilyUnavailable = "temporarily_unavailable"
        case loginRequired = "login_required"
        /// OIDC Core §3.1.2.6: the user's consent is needed (a third-party client).
        case consentRequired = "consent_required"
        case requestNotSupported = "request_not_supported"
        case requestURINotSupported = "request_uri_not_supported"
    }

    public var code: Code
    public var description: String
}

// MARK: As a pending request stores it

extension AuthorizationRequest: RecordTabled {
    static let blank = AuthorizationRequest(
        clientID: "", redirectURI: "", responseMode: .query, scope: "", state: nil, nonce: nil, codeChallenge: nil,
        prompts: [], maxAge: nil, loginHint: nil, startsWithSignup: false, locale: nil, audience: nil,
        connection: nil)

    public static let recordFields = RecordFields<AuthorizationRequest>(
        blank: blank,
        [
            .field("clientID", \.clientID),
            .field("redirectURI", \.redirectURI),
            .field("responseMode", \.responseMode),
            .field("scope", \.scope),
            .field("state", \.state),
            .field("nonce", \.nonce),
            .field("codeChallenge", \.codeChallenge),
            .field("prompts", \.promptList),
            .field("maxAge", \.maxAge),
            .field("loginHint", \.loginHint),
            .field("startsWithSignup", \.startsWithSignup),
            .field("locale", \.locale),
            .field("audience", \.audience),
            .field("connection", \.connection),
        ])

    /// The prompts in a fixed order, so the same request always gives the same bytes.
    fileprivate var promptList: [AuthorizationPrompt] {
        get { AuthorizationPrompt.allCases.filter(prompts.contains) }
        set { prompts = Set(newValue) }
    }
}

extension ResponseMode: RecordVocabulary {}
extension AuthorizationPrompt: RecordVocabulary {}
extension PageLocale: RecordVocabulary {}

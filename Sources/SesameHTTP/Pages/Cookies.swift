/// The cookies of a request (RFC 6265 §5.4): `name=value` pairs split on `;`. The first of a
/// repeated name wins, as browsers send the most specific cookie first. Bounded: at most 64
/// pairs are read, and a value over 4,096 bytes is dropped.
struct RequestCookies: Sendable {
    static let maxPairs = 64
    static let maxValueBytes = 4_096
    private let values: [String: String]

    init(_ headers: HTTPHeaders) {
        var values: [String: String] = [:]
        var read = 0
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                guard read < Self.maxPairs else { break }
                read += 1
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = HTTPRequest.trimmingOWS(pair[..<equals])
                var value = HTTPRequest.trimmingOWS(pair[pair.index(after: equals)...])
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                guard !name.isEmpty, value.utf8.count <= Self.maxValueBytes, values[name] == nil else { continue }
                values[name] = value
            }
        }
        self.values = values
    }

    subscript(name: String) -> String? { values[name] }
}

/// One `Set-Cookie` field. Every Sesame cookie is `HttpOnly`, `SameSite=Lax` and `Path=/`; on
/// https it is `Secure` and `__Host-` prefixed (bound to this host, RFC 6265bis §4.1.3.2).
struct SetCookie: Sendable, Equatable {
    var name: String
    var value: String
    /// Seconds; 0 deletes the cookie; nil makes a session cookie.
    var maxAge: Int?
    var secure: Bool

    var header: String {
        var text = "\(name)=\(value); Path=/; HttpOnly; SameSite=Lax"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if secure { text += "; Secure" }
        return text
    }

    /// A field that deletes cookie `name`.
    static func deleting(_ name: String, secure: Bool) -> SetCookie {
        SetCookie(name: name, value: "", maxAge: 0, secure: secure)
    }
}

/// The names of Sesame's cookies: `__Host-` prefixed on https (the prefix needs `Secure`).
enum CookieName {
    /// The SSO session.
    case session
    /// A random id for this browser (CSRF binding, pending sign-ins).
    case device
    /// The passkey-enrollment prompt's answer on this browser: `later` (a week) or `never`.
    case passkeyPrompt
    /// The admin setup link's token while its opener signs in (an hour).
    case adminSetup

    func name(secure: Bool) -> String {
        let base: String
        switch self {
        case .session: base = "sesame-session"
        case .device: base = "sesame-device"
        case .passkeyPrompt: base = "sesame-passkey-prompt"
        case .adminSetup: base = "sesame-admin-setup"
        }
        return secure ? "__Host-" + base : base
    }
}

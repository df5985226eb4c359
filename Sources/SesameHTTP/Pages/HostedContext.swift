import Foundation
import SesameCrypto
import SesameService
import SesameStore
import WebAuthn

/// The context of a hosted page: the tenant, the browser's cookies and device id, the response's
/// CSP nonce, the CSRF token of this browser, and the language to speak.
struct HostedContext: Sendable {
    let request: RequestContext
    let tenant: TenantRecord
    /// The request came over https (cookies are then `Secure` and `__Host-` prefixed).
    let secure: Bool
    let cookies: RequestCookies
    /// This browser's device id: its cookie's, or a new one this response sets.
    let device: String
    let newDevice: Bool
    /// A fresh value per response: the only scripts that run carry it.
    let nonce: String
    /// From `ui_locales` in the query, else `Accept-Language`, else English.
    let locale: PageLocale
    /// The language `ui_locales` in this request's query asks for (a language link), if any.
    var askedLocale: PageLocale? = nil
    /// The token every form of this browser carries (an HMAC of the device id).
    let csrfToken: String
    /// The tenant's own origins, which every form posts from: the public URL's, and its custom
    /// domains' over https.
    let origins: Set<String>
    /// A `GET`'s path and query as sent (nil for another method): what `address` is made of, only
    /// when a page asks.
    var getTarget: (path: String, query: String)? = nil

    /// A `GET`'s own path and query without `ui_locales`, for the language links of a page that
    /// has no address of its own (an error); nil for another method or a path that could leave
    /// the site (`Self.sameSitePath`).
    var address: String? { getTarget.flatMap { Self.sameSitePath($0.path, query: $0.query) } }

    var requestID: String { request.requestID }
    var clientIP: String { request.clientIP }
    var clientKey: String { IPAddressRange.clientKey(request.clientIP) }

    func cookie(_ name: CookieName) -> String? { cookies[name.name(secure: secure)] }

    /// The language of a page for a pending request: a language link's, else the request's
    /// `ui_locales`, else the browser's.
    func locale(for pending: PendingAuthorization?) -> PageLocale {
        askedLocale ?? pending?.request.locale ?? locale
    }

    /// Refuses a form POST that is not this browser's: no device cookie, a CSRF token that is not
    /// this browser's, or an `Origin` / `Sec-Fetch-Site` that says another site sent it.
    func requireSameSiteForm(_ request: HTTPRequest, token: String?) throws {
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site == "cross-site" {
            throw HTTPError(status: 403, error: "csrf", description: "This form was sent from another site.")
        }
        if let sent = request.headers["Origin"], sent != "null", !origins.contains(sent.lowercased()) {
            throw HTTPError(status: 403, error: "csrf", description: "This form was sent from another site.")
        }
        guard !newDevice, let token, constantTimeEquals(Array(token.utf8), Array(csrfToken.utf8)) else {
            throw HTTPError(
                status: 403, error: "csrf",
                description: "This form has expired or was not sent from this browser. Reload the page and try again.")
        }
    }
}

/// What every hosted response carries, and how a page's CSP is written.
enum PageSecurity {
    /// The CSP of a page whose scripts carry `nonce` and whose forms may post to the tenant and to
    /// `formTargets` (the redirect URI a sign-in returns to: Chromium checks `form-action` along the
    /// redirects that follow a form POST).
    static func policy(nonce: String, formTargets: [String] = [], images: [String] = []) -> String {
        let targets = (["'self'"] + formTargets.compactMap(source)).joined(separator: " ")
        let pictures = (["'self'", "data:"] + images.compactMap(source)).joined(separator: " ")
        return "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'self'; img-src \(pictures); "
            + "connect-src 'self'; form-action \(targets); frame-ancestors 'none'; base-uri 'none'"
    }

    /// The CSP of a response that is not a page of ours (a redirect, an asset).
    static let strictPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    /// A CSP source for `url`: its origin for http(s), its scheme for an app's custom scheme.
    /// Nil for anything that could not be written safely into the header.
    static func source(_ url: String) -> String? {
        // A scheme that runs or reads instead of navigating is never a form target.
        guard RedirectScheme.refusedScheme(url) == nil else { return nil }
        if let origin = Origins.origin(of: url), origin.hasPrefix("http://") || origin.hasPrefix("https://") {
            let safe = origin.utf8.allSatisfy {
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "'")
            }
            return safe ? origin : nil
        }
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        let valid =
            scheme.first?.isLetter == true
            && scheme.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        return valid ? scheme + ":" : nil
    }

    /// The headers every hosted response gets (pages, redirects, assets and errors).
    static func decorate(_ response: inout HTTPResponse, secure: Bool) {
        if !response.headers.contains("Content-Security-Policy") {
            response.headers.add(name: "Content-Security-Policy", value: strictPolicy)
        }
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        if !response.headers.contains("Cache-Control") {
            response.headers.add(name: "Cache-Control", value: "no-store")
        }
        if secure {
            response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: "max-age=31536000")
        }
    }
}

extension RouteGroup where Context == TenantContext {
    /// The public URL's origin and `https://` each custom domain.
    static func ownOrigins(_ tenant: TenantRecord) -> Set<String> {
        var origins = Set(tenant.customDomains.map { "https://" + $0.lowercased() })
        if let own = Origins.origin(of: tenant.publicURL) { origins.insert(own) }
        return origins
    }

    /// The child group of the hosted pages: each request gets a `HostedContext`, a browser without
    /// a device cookie gets one, and every response carries the security headers.
    /// Errors a handler throws are written by `errorPage`, as a page of the hosted layout.
    func hosted(
        csrfKey: [UInt8], random: any RandomSource,
        errorPage: @escaping @Sendable (any Error, HostedContext) -> HTTPResponse
    ) -> RouteGroup<HostedContext> {
        derived { request, context in
            let secure = request.scheme == "https"
            let cookies = RequestCookies(request.headers)
            var device = cookies[CookieName.device.name(secure: secure)] ?? ""
            var newDevice = false
            if device.utf8.count != 22 || (try? Base64URL.decode(device)) == nil {
                device = Base64URL.encode(try random.bytes(count: 16))
                newDevice = true
            }
            let nonce = Base64URL.encode(try random.bytes(count: 16))
            let asked = request.query("ui_locales").map { $0.split(separator: " ").map(String.init) } ?? []
            let askedLocale = PageLocale.first(in: asked)
            let locale =
                askedLocale
                ?? PageLocale.first(in: PageLocale.preferred(acceptLanguage: request.headers["Accept-Language"]))
                ?? .en
            let mac = HMAC.authenticationCode(for: Array("sesame-csrf\u{0}\(device)".utf8), key: csrfKey)
            return HostedContext(
                request: context.request, tenant: context.tenant, secure: secure, cookies: cookies, device: device,
                newDevice: newDevice, nonce: nonce, locale: locale, askedLocale: askedLocale,
                csrfToken: Base64URL.encode(mac),
                origins: Self.ownOrigins(context.tenant),
                getTarget: request.method == .get ? (request.path, request.rawQuery) : nil)
        }
        .wrapped { request, context, next in
            var response: HTTPResponse = Catalog.$overrides.withValue(Catalog.overrides(context.tenant.branding)) {
                do {
                    return try next(request, context)
                } catch {
                    return errorPage(error, context)
                }
            }
            if context.newDevice {
                let cookie = SetCookie(
                    name: CookieName.device.name(secure: context.secure), value: context.device,
                    maxAge: 34_560_000, secure: context.secure)
                response.headers.add(name: "Set-Cookie", value: cookie.header)
            }
            PageSecurity.decorate(&response, secure: context.secure)
            return response
        }
    }
}

extension HostedContext {
    /// `path?query` without its `ui_locales`, when it can only stay on this site: a path of
    /// printable ASCII that starts with one `/`, with no backslash (a browser reads `/\host` and
    /// `//host` as another site). Nil otherwise.
    static func sameSitePath(_ path: String, query: String) -> String? {
        let printable = { (text: String) in text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
        }
        guard path.hasPrefix("/"), !path.hasPrefix("//"), printable(path), printable(query),
            path.utf8.count + query.utf8.count <= 2_048
        else { return nil }
        let kept = query.split(separator: "&").filter { !$0.hasPrefix("ui_locales=") && $0 != "ui_locales" }
        return kept.isEmpty ? path : path + "?" + kept.joined(separator: "&")
    }
}

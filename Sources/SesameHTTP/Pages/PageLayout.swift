import Foundation
import SesameCrypto
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// One hosted page before it is laid out: its markup (`HTML`, so every value in it was escaped on
/// the way in), the JSON it hands its script, and where its forms may post.
struct HostedPage {
    /// `data-page` on `<body>`: which part of the script runs.
    var name: String
    var title: Text
    /// The markup inside `<main>`.
    var body: HTML
    var status: Int = 200
    /// JSON blocks the script reads (`<script type="application/json" id=…>`), by element id.
    var data: [(id: String, json: String)] = []
    /// URLs a form of this page may post to besides the tenant (a redirect URI).
    var formTargets: [String] = []
    /// The path and query (without `ui_locales`) the language links point to; nil: no links.
    var languageBase: String?
}

/// The stylesheet and script, served from the binary under a content hash.
enum PageAssets {
    static let stylesheet = PackageResources.pages_css
    static let script = PackageResources.pages_js
    static let stylesheetVersion = version(stylesheet)
    static let scriptVersion = version(script)

    private static func version(_ bytes: [UInt8]) -> String {
        Digest.sha256(bytes).prefix(6).map { String(format: "%02x", $0) }.joined()
    }

    /// The tenant's theme as CSS custom properties, for each scheme (empty without branding
    /// colours). In the light scheme the brand colour is used as given; in the dark one it is
    /// lightened until it reads on the dark card (4.5:1), and a light page background gives way to
    /// the dark one. The text on the colour is white or near-black, whichever contrasts more.
    static func theme(_ branding: BrandingSettings?) -> String {
        var light: [String] = []
        var dark: [String] = []
        if let primary = branding?.primaryColor {
            let onDark = readable(primary, on: darkSurface)
            light.append("--accent: \(primary); --accent-text: \(textColor(on: primary));")
            dark.append("--accent: \(onDark); --accent-text: \(textColor(on: onDark));")
        }
        if let page = branding?.pageBackground {
            light.append("--page: \(page);")
            // Kept in the dark scheme only when the footer's muted text still reads on it.
            if contrast(darkMuted, page) >= 4.5 { dark.append("--page: \(page);") }
        }
        guard !light.isEmpty else { return "" }
        var css = "\n@media (prefers-color-scheme: light) { :root { " + light.joined(separator: " ") + " } }\n"
        if !dark.isEmpty {
            css += "@media (prefers-color-scheme: dark) { :root { " + dark.joined(separator: " ") + " } }\n"
        }
        return css
    }

    /// The dark scheme's card and muted text (`pages.css`; a test keeps them the same).
    static let darkSurface = "#1f2937"
    static let darkMuted = "#9ca3af"

    /// White or near-black, whichever reads better on `background`.
    static func textColor(on background: String) -> String {
        luminance(background) > 0.4 ? "#111827" : "#ffffff"
    }

    /// `color`, mixed with white in tenths until it has 4.5:1 against `background` (white at most).
    static func readable(_ color: String, on background: String) -> String {
        guard let channels = channels(color) else { return color }
        for tenth in 0...10 {
            let mixed = "#" + Hex.lowercase(channels.map { UInt8($0 + (255 - $0) * tenth / 10) })
            if contrast(mixed, background) >= 4.5 { return mixed }
        }
        return "#ffffff"
    }

    /// The stylesheet for a tenant: the shared one and its theme.
    static func themedStylesheet(for tenant: TenantRecord) -> [UInt8] {
        stylesheet + Array(theme(tenant.branding).utf8)
    }

    /// The stylesheet's URL version for a tenant (changes when its theme does).
    static func themedStylesheetVersion(for tenant: TenantRecord) -> String {
        let theme = theme(tenant.branding)
        return theme.isEmpty ? stylesheetVersion : stylesheetVersion + "-" + version(Array(theme.utf8))
    }

    /// The favicon: Sesame's mark, in the accent colour of each scheme.
    static let favicon = PackageResources.favicon_svg
    static let faviconVersion = version(favicon)

    /// The red, green and blue of `#rrggbb`, 0 to 255; nil for anything else.
    static func channels(_ hex: String) -> [Int]? {
        let digits = Array(hex.utf8.dropFirst())
        guard hex.hasPrefix("#"), digits.count == 6 else { return nil }
        let values = (0..<3).compactMap { Int(String(decoding: digits[$0 * 2..<$0 * 2 + 2], as: UTF8.self), radix: 16) }
        return values.count == 3 ? values : nil
    }

    /// The WCAG contrast ratio of two `#rrggbb` colours, 1 to 21.
    static func contrast(_ first: String, _ second: String) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// WCAG relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        guard let channels = channels(hex) else { return 0 }
        let linear = channels.map { channel -> Double in
            let value = Double(channel) / 255
            return value <= 0.03928 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }
}

enum PageLayout {
    /// The page as a response: the layout, the CSP with this response's nonce, no caching.
    static func response(_ page: HostedPage, context: HostedContext, locale: PageLocale) -> HTTPResponse {
        var response = HTTPResponse.html(html(page, context: context, locale: locale), status: page.status)
        let logo = context.tenant.branding?.logoURL.flatMap(Origins.origin(of:))
        response.headers.replaceOrAdd(
            name: "Content-Security-Policy",
            value: PageSecurity.policy(
                nonce: context.nonce, formTargets: page.formTargets, images: logo.map { [$0] } ?? []))
        return response
    }

    /// A globe before the language menu's current language (inline: no request, no CSP change).
    static let globe: HTML = """
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">\
        <g fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="9"/>\
        <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9M12 3C9.5 5.6 8.2 8.6 8.2 12s1.3 6.4 3.8 9"/></g></svg>
        """

    static func html(_ page: HostedPage, context: HostedContext, locale: PageLocale) -> String {
        let title = Catalog.text(page.title, locale)
        var data = HTML.empty
        for block in page.data {
            // JSON made safe inside <script> (`HTML(scriptJSON:)`): no `<`, `>` or `&` is left in it.
            data +=
                "<script type=\"application/json\" id=\"\(block.id)\">\(HTML(scriptJSON: block.json))</script>\n"
        }
        var languages = HTML.empty
        if let base = page.languageBase {
            let separator = base.contains("?") ? "&" : "?"
            let links = PageLocale.allCases.filter { $0 != locale }.map { other -> HTML in
                let href = base + separator + "ui_locales=" + other.rawValue
                return "<li><a href=\"\(href)\" lang=\"\(other.rawValue)\" hreflang=\"\(other.rawValue)\">"
                    + "\(Catalog.text(.languageName, other))</a></li>"
            }
            let label = Catalog.text(.languageMenu, locale)
            languages = """
                <nav aria-label="\(label)"><details class="languages"><summary>\(globe)\
                <span class="visually-hidden">\(label): </span>\(Catalog.text(.languageName, locale))</summary>
                <ul>\(links.joined())</ul></details></nav>
                """
        }
        let document: HTML = """
            \(head(title: "\(title) · \(context.tenant.name)", language: locale.rawValue, tenant: context.tenant, nonce: context.nonce))
            <body data-page="\(page.name)" data-show-password="\(Catalog.text(.showPassword, locale))" \
            data-hide-password="\(Catalog.text(.hidePassword, locale))">
            <main>
            \(logo(context))\(page.body)
            </main>
            \(data)<footer>\(languages) <p>\(Catalog.text(.poweredBy, locale))</p></footer>
            </body>
            </html>
            """
        return document.markup
    }

    /// The tenant's logo above the page, when its branding has one.
    static func logo(_ context: HostedContext) -> HTML {
        guard let url = context.tenant.branding?.logoURL else { return .empty }
        return "<img class=\"logo\" src=\"\(url)\" alt=\"\(context.tenant.name)\">\n"
    }

    /// The document up to `</head>`: the stylesheet (themed for `tenant`) and the script with this
    /// response's nonce.
    static func head(title: HTML, language: String, tenant: TenantRecord?, nonce: String) -> HTML {
        let stylesheet = tenant.map(PageAssets.themedStylesheetVersion(for:)) ?? PageAssets.stylesheetVersion
        return """
            <!doctype html>
            <html lang="\(language)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(title)</title>
            <link rel="icon" href="/u/assets/favicon.svg?v=\(PageAssets.faviconVersion)" type="image/svg+xml">
            <link rel="stylesheet" href="/u/assets/pages.css?v=\(stylesheet)">
            <script src="/u/assets/pages.js?v=\(PageAssets.scriptVersion)" nonce="\(nonce)" defer></script>
            </head>
            """
    }

    /// The attributes of a new-password field: the connection's rules as `passwordrules` (so a
    /// password manager makes a password that fits) and their lengths as `minlength`/`maxlength`.
    /// The field names its checklist (`PasswordChecklist.list` with the same `fieldID`), and the
    /// page's error when `error` is about it.
    static func newPasswordAttributes(_ rules: String, fieldID: String, error: (any Error)? = nil) -> HTML {
        let parsed = PasswordRulesParser.parse(rules).rules
        var attributes: HTML = " passwordrules=\"\(rules)\"\(invalid(error, describedBy: "\(fieldID)-rules"))"
        if let minimum = parsed.minLength { attributes += " minlength=\"\(minimum)\"" }
        if let maximum = parsed.maxLength { attributes += " maxlength=\"\(maximum)\"" }
        return attributes
    }

    /// The hidden fields every form carries: the CSRF token and the pending request.
    static func hiddenFields(_ context: HostedContext, transaction: String?) -> HTML {
        var fields: HTML = "<input type=\"hidden\" name=\"csrf\" value=\"\(context.csrfToken)\">"
        if let transaction {
            fields += "<input type=\"hidden\" name=\"tx\" value=\"\(transaction)\">"
        }
        return fields
    }

    /// An error box (`role=alert`, so a screen reader says it at once); empty without a message.
    static func errorBox(_ message: HTML?) -> HTML {
        guard let message else { return .empty }
        return "<p class=\"error\" id=\"form-error\" role=\"alert\" tabindex=\"-1\">\(message)</p>"
    }

    /// The attributes that tie a field to the page's error (WCAG 3.3.1): `aria-invalid` and the
    /// error box in `aria-describedby`, after what the field already names there. Empty without
    /// an error.
    static func invalid(_ error: (any Error)?, describedBy others: String? = nil) -> HTML {
        guard error != nil else { return others.map { " aria-describedby=\"\($0)\"" } ?? .empty }
        let ids = [others, "form-error"].compactMap { $0 }.joined(separator: " ")
        return " aria-invalid=\"true\" aria-describedby=\"\(ids)\""
    }

    /// The box the script writes its own errors into.
    static let clientErrorBox: HTML =
        "<p class=\"error\" role=\"alert\" id=\"client-error\" tabindex=\"-1\" hidden></p>"
}

/// A value as one path segment: everything but RFC 3986's unreserved characters percent-encoded.
enum PathSegment {
    static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}

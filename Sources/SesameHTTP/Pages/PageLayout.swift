import Foundation
import SesameCrypto
import SesameService
import SesameStore
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

    /// The tenant's theme as CSS custom properties (empty without branding colours). The text on
    /// the primary colour is white or near-black, whichever contrasts more.
    static func theme(_ branding: BrandingSettings?) -> String {
        var properties: [String] = []
        if let primary = branding?.primaryColor {
            properties.append("--accent: \(primary);")
            properties.append("--accent-text: \(luminance(primary) > 0.4 ? "#111827" : "#ffffff");")
        }
        if let page = branding?.pageBackground { properties.append("--page: \(page);") }
        return properties.isEmpty ? "" : "\n:root { " + properties.joined(separator: " ") + " }\n"
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

    /// WCAG relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let digits = Array(hex.utf8.dropFirst())
        guard digits.count == 6 else { return 0 }
        func channel(_ index: Int) -> Double {
            let value = Double(Int(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) ?? 0) / 255
            return value <= 0.03928 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
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
            let links = PageLocale.allCases.map { other -> HTML in
                let name = Catalog.text(.languageName, other)
                if other == locale { return "<span aria-current=\"true\">\(name)</span>" }
                let href = base + separator + "ui_locales=" + other.rawValue
                return "<a href=\"\(href)\" lang=\"\(other.rawValue)\" hreflang=\"\(other.rawValue)\">\(name)</a>"
            }
            languages = "<nav aria-label=\"Language\">\(links.joined(separator: " · "))</nav>"
        }
        let document: HTML = """
            \(head(title: "\(title) · \(context.tenant.name)", language: locale.rawValue, tenant: context.tenant, nonce: context.nonce))
            <body data-page="\(page.name)">
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
            <link rel="stylesheet" href="/u/assets/pages.css?v=\(stylesheet)">
            <script src="/u/assets/pages.js?v=\(PageAssets.scriptVersion)" nonce="\(nonce)" defer></script>
            </head>
            """
    }

    /// The attributes of a new-password field: the connection's rules as `passwordrules` (so a
    /// password manager makes a password that fits) and their lengths as `minlength`/`maxlength`.
    static func newPasswordAttributes(_ rules: String) -> HTML {
        let parsed = PasswordRulesParser.parse(rules).rules
        var attributes: HTML = " passwordrules=\"\(rules)\""
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
        return "<p class=\"error\" role=\"alert\" tabindex=\"-1\">\(message)</p>"
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

import Foundation
import SesameCrypto
import SesameService
import SesameStore
import WebAuthn

/// The landing page at `/` (HTML errors): what Sesame is, the way in, and a demo to copy.
struct LandingController: Sendable {
    let tenancy: TenancyService
    let random: any RandomSource

    func register(to group: inout RouteGroup<PageContext>) {
        group.get("/", handler: page)
    }

    func page(_ request: HTTPRequest, _ context: PageContext) throws -> HTTPResponse {
        let tenant = context.tenant
        let demoClient = try tenant.flatMap { tenant in
            try tenancy.clients(of: tenant).first {
                $0.grantTypes.contains(.webAuthn) && $0.secretHash == nil
            }
        }
        let nonce = Base64URL.encode(try random.bytes(count: 16))
        var response = HTTPResponse.html(
            LandingPage.html(tenant: tenant, demoClientID: demoClient?.id, nonce: nonce))
        // Only this response's script runs; no other site may frame the page.
        response.headers.replaceOrAdd(
            name: "Content-Security-Policy", value: PageSecurity.policy(nonce: nonce))
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }
}

/// The landing page: the entry for someone who just ran `make run`. What Sesame is, the sign-in
/// through the hosted pages (OpenID Connect with PKCE, as the demo client), the account and admin
/// pages, a demo of the native passkey API (what the browser test drives), and where the docs are.
/// Its script and stylesheet are the hosted pages' (no inline code).
enum LandingPage {
    static func html(tenant: TenantRecord?, demoClientID: String?, nonce: String) -> String {
        let name = tenant?.name ?? "Sesame"
        let rpID = tenant?.rpID ?? ""
        let client = demoClientID ?? ""
        let tenantText: HTML =
            tenant == nil
            ? "<p class=\"notice\">No tenant answers on this host name.</p>"
            : """
            <p class="lead">A passkey identity server for <strong>\(name)</strong> (WebAuthn RP ID <code>\(rpID)</code>).</p>
            """
        let page: HTML = """
            \(PageLayout.head(title: "Sesame · \(name)", language: "en", tenant: tenant, nonce: nonce))
            <body data-page="landing">
            <main>
            <h1>Sesame</h1>
            \(tenantText)
            <p>Apps sign users up and in with passkeys (and passwords, with a second factor) through hosted
            pages and standard OpenID Connect, or through an API compatible with Auth0's native passkey API.</p>
            <section aria-labelledby="try-heading">
            <h2 id="try-heading">Try it</h2>
            <button type="button" id="oidc">Sign in through the hosted pages (OpenID Connect)</button>
            <p class="hint">The demo client runs the authorization-code flow with PKCE, then shows the id token's claims.</p>
            <p><a href="/account">Your account</a>: passkeys, password, second factors, sessions.</p>
            <p><a href="/admin">Administration</a>: open the one-time setup link that <code>make run</code>
            (<code>sesame init</code>) printed to become the administrator, then add your application's callback URL.</p>
            </section>
            <section aria-labelledby="native-heading">
            <h2 id="native-heading">The native passkey API</h2>
            <p data-client-id="\(client)" id="demo">Demo client: <code>\(client.isEmpty ? "none" : client)</code></p>
            <label for="email">Email address</label>
            <input id="email" type="email" placeholder="you@example.com" autocomplete="username webauthn">
            <button id="signup" type="button" class="secondary">Sign up with a passkey</button>
            <button id="login" type="button" class="secondary">Sign in with a passkey</button>
            </section>
            <pre id="out" aria-live="polite"></pre>
            <section aria-labelledby="dev-heading">
            <h2 id="dev-heading">For developers</h2>
            <ul>
            <li><a href="/.well-known/openid-configuration">OpenID Connect discovery</a> ·
                <a href="/.well-known/jwks.json">signing keys (JWKS)</a></li>
            <li><a href="/.well-known/apple-app-site-association">apple-app-site-association</a> ·
                <a href="/.well-known/assetlinks.json">assetlinks.json</a> ·
                <a href="/.well-known/passkey-endpoints">passkey-endpoints</a></li>
            <li><a href="/healthz">Health</a></li>
            <li>Documentation: <code>README.md</code>, <code>docs/oidc.md</code> (a web app through OpenID Connect),
                <code>docs/hosted-pages.md</code>, <code>docs/api.md</code>.</li>
            </ul>
            </section>
            </main>
            </body>
            </html>
            """
        return page.markup
    }
}

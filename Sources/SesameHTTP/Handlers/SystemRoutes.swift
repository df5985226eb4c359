import Foundation
import SesameCrypto
import SesameService
import SesameStore
import SesameWire
import WebAuthn

extension SesameApplication {
    /// The landing page (HTML errors): what Sesame is, the way in, and a demo to copy.
    func addPageRoutes(to router: inout RouteGroup<PageContext>) {
        router.get("/") { [self] _, context in
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

    /// `/healthz`, and `/metrics` for holders of the metrics token.
    func addSystemRoutes(to router: inout RouteGroup<RequestContext>) {
        router.get("/healthz") { [self] _, _ in try health() }

        // /metrics is on this listener only for holders of the metrics token; otherwise it is
        // served by `metricsRouter()` on a listener of its own (`sesame serve --metrics-listen`).
        if let tokenHash = metricsTokenHash {
            router.get("/metrics") { [self] request, _ in
                guard let presented = Self.bearerToken(request),
                    constantTimeEquals(Digest.sha256(Array(presented.utf8)), tokenHash)
                else {
                    throw HTTPError(
                        status: 401, error: "invalid_token", description: "/metrics needs the metrics bearer token",
                        headers: ["WWW-Authenticate": #"Bearer realm="metrics""#])
                }
                return metrics.response()
            }
        }
    }

    /// The routes of a separate metrics listener: `/metrics` and `/healthz`, with no token. Bind it
    /// to an address only the scraper reaches (loopback or a private network).
    public func metricsRouter() -> Router {
        var router = Router()
        router.get("/metrics") { [self] _, _ in metrics.response() }
        router.get("/healthz") { [self] _, _ in try health() }
        return router
    }

    /// 200 when the store answers, else 503.
    func health() throws -> HTTPResponse {
        do {
            try tenancy.checkHealth()
        } catch {
            throw ServiceError.unavailable("the store is not answering")
        }
        return .json(bytes: Array(#"{"status":"ok"}"#.utf8))
    }

    /// The token of an `Authorization: Bearer` header, or nil.
    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["Authorization"], value.utf8.count > 7,
            value.prefix(7).lowercased() == "bearer "
        else { return nil }
        return HTTPRequest.trimmingOWS(value.dropFirst(7))
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

import Foundation
import SesameCrypto
import SesameService
import SesameStore
import SesameWire

extension SesameApplication {
    /// The landing page (HTML errors).
    func addPageRoutes(to router: inout RouteGroup<PageContext>) {
        router.get("/") { [self] _, context in
            let tenant = context.tenant
            let demoClient = try tenant.flatMap { tenant in
                try allClients(tenant).first {
                    $0.grantTypes.contains(.webAuthn) && $0.secretHash == nil
                }
            }
            var response = HTTPResponse.html(LandingPage.html(tenant: tenant, demoClientID: demoClient?.id))
            // No other site may frame the page (clickjacking): CSP for current browsers,
            // X-Frame-Options for older ones.
            response.headers.replaceOrAdd(
                name: "Content-Security-Policy",
                value:
                    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; "
                    + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
            response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
            response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
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

/// The small HTML landing page: what this server is, where discovery and docs are, and a passkey
/// demo against the native API (also what the browser test drives).
enum LandingPage {
    static func html(tenant: TenantRecord?, demoClientID: String?) -> String {
        let name = HTMLText.escape(tenant?.domain ?? "Sesame")
        let rpID = HTMLText.escape(tenant?.rpID ?? "")
        let client = HTMLText.escape(demoClientID ?? "")
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sesame · \(name)</title>
            <style>
            body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}
            code{background:#f3f3f3;padding:0 .25rem}
            button{font-size:1rem;padding:.4rem .8rem;margin:.2rem}
            input{font-size:1rem;padding:.3rem}
            pre{background:#f7f7f7;padding:.6rem;overflow:auto}
            </style>
            </head>
            <body>
            <h1>Sesame</h1>
            <p>This is a self-hosted passkey identity server for <strong>\(name)</strong>
            (WebAuthn RP ID <code>\(rpID)</code>). Apps sign users up and in with platform passkeys through
            an API compatible with Auth0's native passkey API, and receive standard OAuth 2.0 / OpenID
            Connect tokens.</p>
            <ul>
            <li><a href="/.well-known/openid-configuration">OpenID Connect discovery</a></li>
            <li><a href="/.well-known/jwks.json">Token signing keys (JWKS)</a></li>
            <li><a href="/.well-known/apple-app-site-association">apple-app-site-association</a> ·
                <a href="/.well-known/assetlinks.json">assetlinks.json</a></li>
            <li><a href="/healthz">Health</a> · <a href="/metrics">Metrics</a></li>
            <li>Documentation: the project's <code>README.md</code> and <code>docs/</code>.</li>
            </ul>
            <h2>Try a passkey</h2>
            <p data-client-id="\(client)" id="demo">Demo client: <code>\(client.isEmpty ? "none" : client)</code></p>
            <p><input id="email" type="email" placeholder="you@example.com" autocomplete="username webauthn">
            <button id="signup" type="button">Sign up with a passkey</button>
            <button id="login" type="button">Sign in with a passkey</button></p>
            <pre id="out" aria-live="polite"></pre>
            <script>
            (function () {
              const clientId = document.getElementById('demo').dataset.clientId;
              const b64 = {
                decode(s) { s = s.replace(/-/g, '+').replace(/_/g, '/'); while (s.length % 4) s += '=';
                  return Uint8Array.from(atob(s), c => c.charCodeAt(0)).buffer; },
                encode(buf) { let s = ''; for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
                  return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); }
              };
              async function post(path, body) {
                const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                  body: JSON.stringify(body) });
                const json = await response.json();
                if (!response.ok) throw new Error(json.error + ': ' + json.error_description);
                return json;
              }
              function credentialJSON(credential) {
                const r = credential.response, out = { id: credential.id, rawId: b64.encode(credential.rawId),
                  type: credential.type, authenticatorAttachment: credential.authenticatorAttachment,
                  clientExtensionResults: credential.getClientExtensionResults(), response: {
                    clientDataJSON: b64.encode(r.clientDataJSON) } };
                if (r.attestationObject) { out.response.attestationObject = b64.encode(r.attestationObject);
                  out.response.transports = r.getTransports ? r.getTransports() : []; }
                if (r.authenticatorData) { out.response.authenticatorData = b64.encode(r.authenticatorData);
                  out.response.signature = b64.encode(r.signature);
                  if (r.userHandle) out.response.userHandle = b64.encode(r.userHandle); }
                return out;
              }
              async function signup(email) {
                const challenge = await post('/passkey/register', { client_id: clientId, user_profile: { email } });
                const o = challenge.authn_params_public_key;
                const credential = await navigator.credentials.create({ publicKey: {
                  challenge: b64.decode(o.challenge), timeout: o.timeout, rp: o.rp,
                  user: { id: b64.decode(o.user.id), name: o.user.name, displayName: o.user.displayName },
                  pubKeyCredParams: o.pubKeyCredParams, authenticatorSelection: o.authenticatorSelection } });
                const tokens = await post('/oauth/token', { grant_type: 'urn:okta:params:oauth:grant-type:webauthn',
                  client_id: clientId, auth_session: challenge.auth_session, authn_response: credentialJSON(credential),
                  scope: 'openid profile email offline_access' });
                return { credentialId: credential.id, tokens };
              }
              async function login(allowCredentialId) {
                const challenge = await post('/passkey/challenge', { client_id: clientId });
                const o = challenge.authn_params_public_key;
                const publicKey = { challenge: b64.decode(o.challenge), timeout: o.timeout, rpId: o.rpId,
                  userVerification: o.userVerification };
                if (allowCredentialId) publicKey.allowCredentials = [{ type: 'public-key', id: b64.decode(allowCredentialId) }];
                const credential = await navigator.credentials.get({ publicKey });
                const tokens = await post('/oauth/token', { grant_type: 'urn:okta:params:oauth:grant-type:webauthn',
                  client_id: clientId, auth_session: challenge.auth_session, authn_response: credentialJSON(credential) });
                return { credentialId: credential.id, tokens };
              }
              window.sesameDemo = { signup, login };
              const out = document.getElementById('out');
              function show(promise) { promise.then(r => { out.textContent = 'Signed in. id_token: ' +
                (r.tokens.id_token || '').slice(0, 40) + '…'; }).catch(e => { out.textContent = String(e); }); }
              document.getElementById('signup').onclick = () => show(signup(document.getElementById('email').value));
              document.getElementById('login').onclick = () => show(login());
            })();
            </script>
            </body>
            </html>
            """
    }
}

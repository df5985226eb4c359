import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// The hosted pages and `/authorize` against hostile input: redirect URIs, PKCE, CSRF, framing,
/// scripts, open redirects, cookies from another tenant or browser, and XSS in every echoed field.
@Suite("Hosted pages: redirect URIs, PKCE, CSRF, headers, XSS and open redirects")
struct HostedSecurityTests {
    typealias F = AuthorizeFlowTests

    static func world() throws -> (APIHarness, HostedBrowser, OIDCClient) { try F.world(.memory) }

    @Test(
        "a redirect URI that is not exactly a callback is an error page, never a redirect",
        arguments: [
            nil, "http://evil.example/", "http://login.test:8080/evil", "HTTP://LOGIN.TEST:8080/",
            "http://login.test:8080/?x=1", "http://login.test:8080", "//evil.example/", "javascript:alert(1)",
        ])
    func redirectURIs(_ uri: String?) throws {
        let (_, browser, client) = try Self.world()
        var fields: [(String, String)] = [
            ("response_type", "code"), ("client_id", client.clientID), ("code_challenge", client.challenge),
            ("code_challenge_method", "S256"), ("state", "s"),
        ]
        if let uri { fields.append(("redirect_uri", uri)) }
        browser.send(.get, "/authorize?" + HostedBrowser.encode(fields))
        #expect(browser.last.status == 400)
        #expect(browser.location == nil)
        #expect(browser.html.contains("data-page=\"error\""))
    }

    @Test("an unknown client, or a repeated client_id or redirect_uri, is an error page")
    func unknownClient() throws {
        let (_, browser, client) = try Self.world()
        for query in [
            "client_id=nope&redirect_uri=\(OIDCClient.redirectURI)&response_type=code",
            "client_id=\(client.clientID)&client_id=\(client.clientID)&redirect_uri=\(OIDCClient.redirectURI)",
            "client_id=\(client.clientID)&redirect_uri=\(OIDCClient.redirectURI)&redirect_uri=\(OIDCClient.redirectURI)",
        ] {
            browser.send(.get, "/authorize?" + query)
            #expect(browser.last.status == 400, "\(query)")
            #expect(browser.location == nil)
        }
    }

    @Test("errors after the redirect URI is known go back to the client with state and iss")
    func redirectedErrors() throws {
        let (api, browser, client) = try Self.world()
        let cases: [([(String, String)], String)] = [
            ([("code_challenge_method", "plain")], "invalid_request"),
            ([("response_type", "token")], "unsupported_response_type"),
            ([("prompt", "none login")], "invalid_request"),
            ([("prompt", "bogus")], "invalid_request"),
            ([("max_age", "-1")], "invalid_request"),
            ([("scope", "openid read:secrets"), ("audience", "https://unknown.example/")], "invalid_request"),
            ([("request", "eyJ")], "request_not_supported"),
            ([("response_mode", "fragment")], "invalid_request"),
            ([("state", "twice")], "invalid_request"),
        ]
        for (extra, code) in cases {
            var fields: [(String, String)] = [
                ("response_type", "code"), ("client_id", client.clientID), ("redirect_uri", OIDCClient.redirectURI),
                ("code_challenge", client.challenge), ("code_challenge_method", "S256"), ("state", "s"),
            ]
            for (name, value) in extra {
                if name != "state", let index = fields.firstIndex(where: { $0.0 == name }) {
                    fields[index] = (name, value)
                } else {
                    fields.append((name, value))
                }
            }
            browser.send(.get, "/authorize?" + HostedBrowser.encode(fields))
            #expect(browser.last.status == 302, "\(extra)")
            #expect(browser.redirectParameters["error"] == code, "\(extra): \(browser.location ?? "")")
            #expect(browser.redirectParameters["iss"] == TokenService.issuer(api.tenant))
            if extra.first?.0 != "state" { #expect(browser.redirectParameters["state"] == "s") }
        }
        // A public client must use PKCE.
        browser.send(
            .get,
            "/authorize?"
                + HostedBrowser.encode([
                    ("response_type", "code"), ("client_id", client.clientID), ("redirect_uri", OIDCClient.redirectURI),
                ]))
        #expect(browser.redirectParameters["error"] == "invalid_request")
        #expect(browser.redirectParameters["error_description"]?.contains("PKCE") == true)
    }

    @Test("a confidential client may skip PKCE, but a verifier for a code without a challenge is refused")
    func confidentialClientPKCE() throws {
        let (api, browser, _) = try Self.world()
        let created = api.send(
            .post, "/api/v2/clients",
            json: APIHarness.encode([
                "name": "Web", "app_type": "regular_web", "grant_types": ["authorization_code"],
                "callbacks": [OIDCClient.redirectURI], "token_endpoint_auth_method": "client_secret_post",
            ]), token: try api.managementToken())
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let clientID = try #require(created.json["client_id"] as? String)
        let secret = try #require(created.json["client_secret"] as? String)
        for sendVerifier in [true, false] {
            browser.send(
                .get,
                "/authorize?"
                    + HostedBrowser.encode([
                        ("response_type", "code"), ("client_id", clientID), ("redirect_uri", OIDCClient.redirectURI),
                        ("scope", "openid"),
                    ]))
            if browser.location?.hasPrefix("/u/login") == true {
                browser.follow()
                browser.submit("/u/login", [("username", "ada@example.com")])
                browser.submit("/u/login/password", [("password", PasswordAccountsTests.password)])
            }
            let code = try #require(browser.redirectParameters["code"])
            var fields = [
                ("grant_type", "authorization_code"), ("client_id", clientID), ("client_secret", secret),
                ("code", code), ("redirect_uri", OIDCClient.redirectURI),
            ]
            if sendVerifier { fields.append(("code_verifier", "a-verifier-nobody-asked-for-0123456789-abcdefg")) }
            let reply = api.send(
                .post, "/oauth/token", json: HostedBrowser.encode(fields),
                contentType: "application/x-www-form-urlencoded")
            #expect(reply.status == (sendVerifier ? 400 : 200), "\(String(decoding: reply.body, as: UTF8.self))")
        }
    }

    @Test("a form POST without this browser's CSRF token, or from another site, is refused and changes nothing")
    func csrf() throws {
        let (_, browser, client) = try Self.world()
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        let tx = try #require(browser.field("tx"))
        let csrf = try #require(browser.field("csrf"))
        let other = HostedBrowser(browser.api)
        other.send(.get, "/u/assets/pages.css")
        let attempts: [(HostedBrowser, [(String, String)], String?, [(String, String)])] = [
            (browser, [("tx", tx), ("username", "ada@example.com")], APIHarness.webOrigin, []),
            (browser, [("tx", tx), ("csrf", "forged"), ("username", "ada@example.com")], APIHarness.webOrigin, []),
            (browser, [("tx", tx), ("csrf", csrf), ("username", "ada@example.com")], "http://evil.example", []),
            (
                browser, [("tx", tx), ("csrf", csrf), ("username", "ada@example.com")], nil,
                [("Sec-Fetch-Site", "cross-site")]
            ),
            (other, [("tx", tx), ("csrf", csrf), ("username", "ada@example.com")], APIHarness.webOrigin, []),
        ]
        for (who, form, origin, headers) in attempts {
            who.send(.post, "/u/login", form: form, origin: origin, headers: headers)
            #expect(who.last.status == 403, "\(form) \(origin ?? "no origin")")
            #expect(!who.html.contains("data-page=\"password\""))
        }
        // The pending request is untouched: the real form still works.
        browser.send(.get, "/u/login?tx=\(tx)")
        browser.submit("/u/login", [("username", "ada@example.com")])
        #expect(browser.html.contains("data-page=\"password\""))
    }

    @Test("on a custom domain the forms work (its https origin is the tenant's), another origin does not")
    func customDomain() throws {
        let (api, _, client) = try Self.world()
        let patched = api.send(
            .patch, "/api/v2/tenant/settings", json: #"{"custom_domains":["id.example.com"]}"#,
            token: try api.managementToken())
        #expect(patched.status == 200)
        let browser = HostedBrowser(api, host: "id.example.com")
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        let csrf = try #require(browser.field("csrf"))
        let tx = try #require(browser.field("tx"))
        browser.send(
            .post, "/u/login", form: [("csrf", csrf), ("tx", tx), ("username", "ada@example.com")],
            origin: "https://id.example.com")
        #expect(browser.html.contains("data-page=\"password\""), "\(browser.last.status)")
        browser.send(
            .post, "/u/login", form: [("csrf", csrf), ("tx", tx), ("username", "ada@example.com")],
            origin: "https://evil.example.com")
        #expect(browser.last.status == 403)
    }

    @Test("a pending sign-in belongs to the browser that began it")
    func pendingIsBound() throws {
        let (api, browser, client) = try Self.world()
        browser.send(.get, client.authorizeTarget())
        let target = try #require(browser.location)
        let other = HostedBrowser(api)
        other.send(.get, "/u/assets/pages.js")
        other.send(.get, target)
        #expect(other.last.status == 400)
        #expect(other.html.contains("no longer pending"))
    }

    @Test("every hosted page: CSP with this response's nonce, no framing, nosniff, no referrer; HSTS on https")
    func headers() throws {
        let (api, browser, client) = try Self.world()
        browser.send(.get, client.authorizeTarget())
        let redirect = browser.last
        browser.follow()
        let login = browser.last
        let tx = try #require(browser.field("tx"))
        browser.send(.get, "/u/signup?tx=\(tx)")
        let signup = browser.last
        browser.send(.get, "/u/login?tx=nope")
        let error = browser.last
        browser.send(.get, "/u/no-such-page")
        let missing = browser.last
        #expect(missing.status == 404)
        for (name, reply) in [
            ("redirect", redirect), ("login", login), ("signup", signup), ("error", error), ("404", missing),
        ] {
            let policy = reply.headers["Content-Security-Policy"] ?? ""
            #expect(policy.contains("frame-ancestors 'none'"), "\(name)")
            #expect(policy.contains("base-uri 'none'"), "\(name)")
            #expect(!policy.contains("unsafe-inline"), "\(name)")
            #expect(reply.headers["X-Content-Type-Options"] == "nosniff", "\(name)")
            #expect(reply.headers["Referrer-Policy"] == "no-referrer", "\(name)")
            #expect(reply.headers["Strict-Transport-Security"] == nil, "\(name): no HSTS on http")
        }
        for reply in [login, signup] {
            let html = String(decoding: reply.body, as: UTF8.self)
            let policy = reply.headers["Content-Security-Policy"] ?? ""
            let nonce = try #require(policy.split(separator: "'").first { $0.hasPrefix("nonce-") }).dropFirst(6)
            #expect(html.contains("nonce=\"\(nonce)\""))
            #expect(html.components(separatedBy: "<script src=").count == 2, "one script per page")
            #expect(html.components(separatedBy: "<link rel=\"stylesheet\"").count == 2, "one stylesheet per page")
            #expect(!html.contains("<script>"), "no inline script")
            #expect(!html.contains("style=\""), "no inline style")
        }
        #expect(
            login.headers["Content-Security-Policy"] != signup.headers["Content-Security-Policy"],
            "a nonce per response")

        // Over https (as a TLS listener or a trusted proxy reports it): HSTS and __Host- cookies.
        var request = HTTPRequest(
            method: .get, target: client.authorizeTarget(),
            headers: ["Host": APIHarness.hostHeader, "User-Agent": "HostedBrowser/1.0"])
        request.scheme = "https"
        let secure = api.responder.respond(to: request, connectionScheme: "https")
        #expect(secure.headers["Strict-Transport-Security"] == "max-age=31536000")
        let cookie = try #require(secure.headers["Set-Cookie"])
        #expect(cookie.hasPrefix("__Host-sesame-device="))
        #expect(cookie.contains("; Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        #expect(cookie.contains("Path=/") && !cookie.contains("Domain="))
    }

    @Test("a session cookie of another tenant opens nothing")
    func crossTenantCookie() throws {
        let (api, browser, client) = try Self.world()
        try F.passwordSignIn(browser, client)
        let now = api.clock.now()
        let other = TenantRecord(
            id: "tnt_other", name: "other.test", domain: "other.test", rpID: "other.test",
            publicURL: "http://other.test:8080", defaultConnectionID: "con_other", createdAt: now, updatedAt: now)
        try api.store.write(.durable) { transaction in
            try transaction.tenants.insert(other)
            try transaction.connections.insert(
                ConnectionRecord(
                    tenantID: other.id, id: "con_other", name: Bootstrap.defaultConnectionName,
                    password: PasswordPolicy(enabled: true), createdAt: now, updatedAt: now))
            try transaction.clients.insert(
                ClientRecord(
                    tenantID: other.id, id: client.clientID, name: "Same id, other tenant", appType: .spa,
                    grantTypes: [.authorizationCode], callbacks: ["http://other.test:8080/"], createdAt: now,
                    updatedAt: now))
        }
        let intruder = HostedBrowser(api, host: "other.test:8080")
        intruder.cookies = browser.cookies
        var otherClient = client
        otherClient.redirectURI = "http://other.test:8080/"
        intruder.send(.get, otherClient.authorizeTarget(extra: [("prompt", "none")]))
        #expect(intruder.redirectParameters["error"] == "login_required")
    }

    @Test("logout never redirects to a URL the client did not list")
    func logoutRedirects() throws {
        let (_, browser, client) = try Self.world()
        for uri in ["http://evil.example/", "http://login.test:8080/evil", APIHarness.publicURL] {
            browser.send(
                .get,
                "/oidc/logout?"
                    + HostedBrowser.encode([("client_id", client.clientID), ("post_logout_redirect_uri", uri)]))
            #expect(browser.last.status == 400, "\(uri)")
            #expect(browser.location == nil)
        }
        browser.send(
            .get, "/oidc/logout?" + HostedBrowser.encode([("post_logout_redirect_uri", OIDCClient.redirectURI)]))
        #expect(browser.last.status == 400, "a redirect URI needs a client to check it against")
        browser.send(
            .get,
            "/oidc/logout?" + HostedBrowser.encode([("id_token_hint", "not.a.token"), ("client_id", client.clientID)]))
        #expect(browser.last.status == 400)
    }

    @Test("every echoed field is escaped")
    func xss() throws {
        let (_, browser, client) = try Self.world()
        let probe = "\"'><script>alert(1)</script><img src=x onerror=alert(2)>"
        browser.send(.get, client.authorizeTarget(state: probe, nonce: probe, extra: [("login_hint", probe)]))
        browser.follow()
        #expect(browser.last.status == 200)
        #expect(!browser.html.contains("<script>alert"))
        #expect(!browser.html.contains("<img src=x"))
        #expect(browser.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        browser.submit("/u/login", [("username", probe)])
        #expect(!browser.html.contains("<script>alert"))
        let tx = try #require(browser.field("tx"))
        browser.send(.get, "/u/signup?tx=\(tx)")
        browser.submit("/u/signup", [("email", probe), ("name", probe), ("method", "password"), ("password", "x")])
        #expect(browser.last.status == 400)
        #expect(!browser.html.contains("<script>alert"))
        #expect(!browser.html.contains("<img src=x"))
        // The state goes back to the client as a query value, encoded.
        browser.send(.get, client.authorizeTarget(state: probe, extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["state"] == probe)
        #expect(browser.location?.contains("<") == false)
    }

    @Test("the page's language: ui_locales, else Accept-Language, else English")
    func languages() throws {
        let (_, browser, client) = try Self.world()
        browser.send(.get, client.authorizeTarget(extra: [("ui_locales", "ja-JP en")]))
        browser.follow()
        #expect(browser.html.contains("<html lang=\"ja\">"))
        #expect(browser.html.contains(Catalog.raw(.signInTitle, .ja)))
        let other = HostedBrowser(browser.api)
        other.acceptLanguage = "it;q=0.9, zh-TW;q=0.85, ja;q=0.8, en;q=0.5"
        other.send(.get, client.authorizeTarget())
        other.follow()
        #expect(other.html.contains("<html lang=\"ja\">"))
        let tx = try #require(other.field("tx"))
        other.acceptLanguage = "en-GB, ja;q=0.5"
        other.send(.get, "/u/login?tx=\(tx)")
        #expect(other.html.contains("<html lang=\"en\">"))
        other.acceptLanguage = "pt-PT, en;q=0.5"
        other.send(.get, "/u/login?tx=\(tx)")
        #expect(other.html.contains("<html lang=\"pt-BR\">"))
        #expect(other.html.contains(Catalog.raw(.signInTitle, .ptBR)))
    }

    @Test("discovery lists the authorization endpoint, code, PKCE S256, logout and the acr values")
    func discovery() throws {
        let (api, _, _) = try Self.world()
        let document = api.send(.get, "/.well-known/openid-configuration").json
        let issuer = TokenService.issuer(api.tenant)
        #expect(document["authorization_endpoint"] as? String == issuer + "authorize")
        #expect(document["end_session_endpoint"] as? String == issuer + "oidc/logout")
        #expect(document["response_types_supported"] as? [String] == ["code"])
        #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(document["response_modes_supported"] as? [String] == ["query", "form_post"])
        #expect((document["grant_types_supported"] as? [String])?.contains("authorization_code") == true)
        #expect(document["acr_values_supported"] as? [String] == AuthenticationContext.all)
        #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
    }
}

import Foundation
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import Testing

/// Issue 8, points 2–5 (reviews/auth0-sdk-wire-2 M5–M7, M9, M11): APIs (resource servers) with
/// their own audiences and scopes, refresh with an audience as the SDKs' credentials managers ask
/// for it, unknown token parameters ignored, and Auth0's refresh error texts.
@Suite("APIs, refresh with an audience, and Auth0's token errors")
struct APIAudienceTests {
    static let ordersAPI = "https://orders.example.com/"

    /// The JWT header and claims, read without verification.
    static func parts(_ token: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let pieces = token.split(separator: ".").map(String.init)
        guard pieces.count == 3 else { throw APIHarnessError.malformedToken }
        func decode(_ text: String) throws -> [String: Any] {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            guard let data = Data(base64Encoded: base64),
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw APIHarnessError.malformedToken }
            return object
        }
        return (try decode(pieces[0]), try decode(pieces[1]))
    }

    /// Creates the orders API through the Management API.
    @discardableResult
    static func createOrdersAPI(_ api: APIHarness, offline: Bool = false, alg: String = "ES256") throws -> [String: Any]
    {
        let body = APIHarness.encode([
            "identifier": ordersAPI, "name": "Orders",
            "scopes": [
                ["value": "read:orders", "description": "Read orders"],
                ["value": "write:orders", "description": "Place orders"],
            ],
            "signing_alg": alg, "token_lifetime": 900, "allow_offline_access": offline,
        ])
        let reply = api.send(.post, "/api/v2/resource-servers", json: body, token: try api.managementToken())
        guard reply.status == 201 else { throw APIHarnessError.unexpected("create API", reply) }
        return reply.json
    }

    /// A passkey login asking for `scope` and `audience`.
    static func logIn(
        _ api: APIHarness, _ authenticator: SoftwareAuthenticator, scope: String, audience: String?
    ) throws -> APIReply {
        let challenge = api.send(
            .post, "/passkey/challenge", json: APIHarness.encode(["client_id": api.bootstrap.clientID]))
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        return api.webAuthnGrant(
            authSession: challenge.json["auth_session"] as? String ?? "", response: assertion.jsonString, scope: scope,
            audience: audience)
    }

    /// Auth0.swift's `renew(withRefreshToken:audience:scope:)` body.
    static func renew(_ api: APIHarness, _ token: String, audience: String?, scope: String?) -> APIReply {
        var body: [String: Any] = [
            "refresh_token": token, "grant_type": "refresh_token", "client_id": api.bootstrap.clientID,
        ]
        if let audience { body["audience"] = audience }
        if let scope { body["scope"] = scope }
        return api.send(.post, "/oauth/token", json: APIHarness.encode(body))
    }

    // MARK: Refresh with an audience

    @Test(
        "apiCredentials(forAudience: My Account): a token for /me/v1, the refresh token rotates in its family, and the next plain renewal gives the original grant",
        arguments: HarnessStore.allCases)
    func myAccountThroughRefresh(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let login = try api.signUpForTokens(api.authenticator(), email: "mrrt@example.com")
        let first = try #require(login["refresh_token"] as? String)
        let myAccount = TokenService.myAccountAudience(api.tenant)

        let apiCredentials = Self.renew(
            api, first, audience: myAccount,
            scope: "openid read:me:authentication_methods delete:me:authentication_methods")
        #expect(apiCredentials.status == 200, "\(apiCredentials.json)")
        let accessToken = try #require(apiCredentials.json["access_token"] as? String)
        let claims = try Self.parts(accessToken).claims
        #expect(claims["aud"] as? [String] == [myAccount, TokenService.userInfoAudience(api.tenant)])
        #expect(claims["scope"] as? String == "openid read:me:authentication_methods delete:me:authentication_methods")
        #expect(api.send(.get, "/me/v1/authentication-methods", token: accessToken).status == 200)
        let second = try #require(apiCredentials.json["refresh_token"] as? String)
        #expect(second != first)

        // The family keeps its grant: a plain renewal is for /userinfo with the login's scopes.
        let plain = Self.renew(api, second, audience: nil, scope: nil)
        #expect(plain.status == 200)
        #expect(plain.json["scope"] as? String == "openid profile email offline_access")
        let plainClaims = try Self.parts(try #require(plain.json["access_token"] as? String)).claims
        #expect(plainClaims["aud"] as? String == TokenService.userInfoAudience(api.tenant))
        // Reuse detection is unchanged: the spent first token revokes the family.
        #expect(Self.renew(api, first, audience: myAccount, scope: nil).status == 400)
        #expect(
            Self.renew(api, try #require(plain.json["refresh_token"] as? String), audience: nil, scope: nil).status
                == 400)
    }

    @Test(
        "a refused renewal (unknown audience, ungranted OpenID scope, third-party API) leaves the refresh token usable",
        arguments: HarnessStore.allCases)
    func refusedRenewalsBurnNothing(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        try Self.createOrdersAPI(api)
        let login = try api.signUpForTokens(
            api.authenticator(), email: "keep@example.com", scope: "openid offline_access")
        let token = try #require(login["refresh_token"] as? String)

        let unknown = Self.renew(api, token, audience: "https://nope.example.com/", scope: "openid")
        #expect(unknown.status == 400)
        #expect(unknown.error == "invalid_request")
        let email = Self.renew(api, token, audience: TokenService.myAccountAudience(api.tenant), scope: "openid email")
        #expect(email.status == 400)
        #expect(email.error == "invalid_scope")
        let management = Self.renew(api, token, audience: TokenService.managementAudience(api.tenant), scope: nil)
        #expect(management.status == 400)

        try Self.makeThirdParty(api)
        let thirdParty = Self.renew(api, token, audience: Self.ordersAPI, scope: "openid read:orders")
        #expect(thirdParty.status == 403)
        #expect(thirdParty.error == "unauthorized_client")

        let renewed = Self.renew(api, token, audience: nil, scope: nil)
        #expect(renewed.status == 200, "\(renewed.json)")
    }

    /// Marks the native client third-party through the Management API.
    static func makeThirdParty(_ api: APIHarness) throws {
        let reply = api.send(
            .patch, "/api/v2/clients/\(api.bootstrap.clientID)", json: #"{"is_first_party":false}"#,
            token: try api.managementToken())
        guard reply.status == 200 else { throw APIHarnessError.unexpected("third-party", reply) }
    }

    // MARK: APIs

    @Test(
        "a login for an API: its aud, only its scopes, its lifetime and algorithm, RFC 9068 client_id, no refresh token unless it allows offline access",
        arguments: HarnessStore.allCases)
    func loginForAnAPI(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        try Self.createOrdersAPI(api)
        let authenticator = api.authenticator()
        _ = try api.signUp(authenticator, email: "orders@example.com")

        let reply = try Self.logIn(
            api, authenticator, scope: "openid read:orders delete:everything offline_access", audience: Self.ordersAPI)
        #expect(reply.status == 200, "\(reply.json)")
        #expect(reply.json["scope"] as? String == "openid read:orders")
        #expect(reply.json["expires_in"] as? Int == 900)
        #expect(reply.json["refresh_token"] == nil)
        let (header, claims) = try Self.parts(try #require(reply.json["access_token"] as? String))
        #expect(header["alg"] as? String == "ES256")
        #expect(header["typ"] as? String == "at+jwt")
        #expect(claims["aud"] as? [String] == [Self.ordersAPI, TokenService.userInfoAudience(api.tenant)])
        #expect(claims["client_id"] as? String == api.bootstrap.clientID)
        #expect(claims["scope"] as? String == "openid read:orders")
        #expect((claims["exp"] as? Int).map { $0 - (claims["iat"] as? Int ?? 0) } == 900)
        // The id token stays the client's (RS256 by default).
        let idHeader = try Self.parts(try #require(reply.json["id_token"] as? String)).header
        #expect(idHeader["alg"] as? String == "RS256")

        // With offline access allowed, a refresh token, and its renewals stay for the API.
        let apiID = try #require(try Self.apiID(api))
        let patched = api.send(
            .patch, "/api/v2/resource-servers/\(apiID)",
            json: #"{"allow_offline_access":true}"#, token: try api.managementToken())
        #expect(patched.status == 200)
        let offline = try Self.logIn(api, authenticator, scope: "read:orders offline_access", audience: Self.ordersAPI)
        let refreshToken = try #require(offline.json["refresh_token"] as? String)
        let renewed = Self.renew(api, refreshToken, audience: nil, scope: nil)
        #expect(renewed.status == 200)
        #expect(renewed.json["scope"] as? String == "read:orders offline_access")
        #expect(
            try Self.parts(try #require(renewed.json["access_token"] as? String)).claims["aud"] as? String
                == Self.ordersAPI)
    }

    static func apiID(_ api: APIHarness) throws -> String? {
        api.send(
            .get,
            "/api/v2/resource-servers/\(ordersAPI.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
            token: try api.managementToken()
        ).json["id"] as? String
    }

    @Test(
        "unknown scopes are dropped, not refused; a third-party client gets no API token",
        arguments: HarnessStore.allCases)
    func scopeFiltering(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        try Self.createOrdersAPI(api)
        let authenticator = api.authenticator()
        _ = try api.signUp(authenticator, email: "filter@example.com")
        let plain = try Self.logIn(api, authenticator, scope: "openid profile read:orders custom", audience: nil)
        #expect(plain.status == 200)
        #expect(plain.json["scope"] as? String == "openid profile")

        try Self.makeThirdParty(api)
        let refused = try Self.logIn(api, authenticator, scope: "openid read:orders", audience: Self.ordersAPI)
        #expect(refused.status == 403)
        #expect(refused.error == "unauthorized_client")
        let unknown = try Self.logIn(api, authenticator, scope: "openid", audience: "https://nope.example.com/")
        #expect(unknown.status == 400)
        #expect(unknown.errorDescription == "audience is not an API of this tenant")
    }

    @Test(
        "Management API: create, read by id or identifier, list, update, delete with its grants; bad input is 400 naming the field",
        arguments: HarnessStore.allCases)
    func resourceServerManagement(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let token = try api.managementToken()
        let created = try Self.createOrdersAPI(api)
        let id = try #require(created["id"] as? String)
        #expect(id.hasPrefix("rs_"))
        #expect(created["identifier"] as? String == Self.ordersAPI)
        #expect(created["signing_alg"] as? String == "ES256")
        #expect(created["token_lifetime"] as? Int == 900)
        #expect(created["allow_offline_access"] as? Bool == false)
        #expect(created["skip_consent_for_verifiable_first_party_clients"] as? Bool == true)
        #expect(created["is_system"] as? Bool == false)
        #expect(
            (created["scopes"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == [
                "read:orders", "write:orders",
            ])

        #expect(api.send(.get, "/api/v2/resource-servers/\(id)", token: token).json["id"] as? String == id)
        #expect(api.send(.get, "/api/v2/resource-servers", token: token).list.count == 1)
        let totals = api.send(.get, "/api/v2/resource-servers?include_totals=true", token: token).json
        #expect(totals["total"] as? Int == 1)
        #expect((totals["resource_servers"] as? [Any])?.count == 1)
        #expect(
            api.send(.post, "/api/v2/resource-servers", json: #"{"identifier":"\#(Self.ordersAPI)"}"#, token: token)
                .status
                == 409)

        // An m2m client granted both scopes; removing a scope from the API trims the grant.
        let m2m = api.send(
            .post, "/api/v2/clients",
            json:
                #"{"name":"Worker","app_type":"non_interactive","grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_post"}"#,
            token: token)
        let m2mID = try #require(m2m.json["client_id"] as? String)
        let secret = try #require(m2m.json["client_secret"] as? String)
        let grant = api.send(
            .post, "/api/v2/client-grants",
            json: #"{"client_id":"\#(m2mID)","audience":"\#(Self.ordersAPI)","scope":["read:orders","write:orders"]}"#,
            token: token)
        #expect(grant.status == 201, "\(grant.json)")
        let badGrant = api.send(
            .post, "/api/v2/client-grants",
            json: #"{"client_id":"\#(m2mID)","audience":"urn:none","scope":[]}"#, token: token)
        #expect(badGrant.errorDescription == "audience is not an API of this tenant")
        let m2mToken = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "client_credentials", "client_id": m2mID, "client_secret": secret,
                "audience": Self.ordersAPI,
            ]))
        #expect(m2mToken.status == 200, "\(m2mToken.json)")
        #expect(m2mToken.json["expires_in"] as? Int == 900)
        let m2mClaims = try Self.parts(try #require(m2mToken.json["access_token"] as? String))
        #expect(m2mClaims.header["alg"] as? String == "ES256")
        #expect(m2mClaims.claims["aud"] as? String == Self.ordersAPI)
        #expect(m2mClaims.claims["scope"] as? String == "read:orders write:orders")

        let patched = api.send(
            .patch, "/api/v2/resource-servers/\(id)",
            json: #"{"name":"Orders v2","scopes":[{"value":"read:orders"}],"token_lifetime":600}"#, token: token)
        #expect(patched.status == 200, "\(patched.json)")
        #expect(patched.json["name"] as? String == "Orders v2")
        let grants = api.send(.get, "/api/v2/client-grants?client_id=\(m2mID)", token: token).list
        #expect(grants.first?["scope"] as? [String] == ["read:orders"])
        #expect(
            api.send(.patch, "/api/v2/resource-servers/\(id)", json: #"{"identifier":"urn:moved"}"#, token: token)
                .errorDescription == "identifier cannot be changed")

        for (body, description) in [
            ("{}", "identifier is required"),
            (#"{"identifier":"has space"}"#, "identifier must be 1 to 600 printable ASCII characters without spaces"),
            (
                #"{"identifier":"\#(TokenService.managementAudience(api.tenant))"}"#,
                "identifier names one of Sesame's own APIs"
            ),
            (#"{"identifier":"urn:x","signing_alg":"HS256"}"#, "signing_alg must be one of RS256, ES256, EdDSA"),
            (#"{"identifier":"urn:x","token_lifetime":10}"#, "token_lifetime must be from 60 to 2592000"),
            (
                #"{"identifier":"urn:x","scopes":[{"value":"a b"}]}"#,
                "scopes[0].value must be 1 to 280 scope characters (RFC 6749 §3.3)"
            ),
            (
                #"{"identifier":"urn:x","scopes":[{"value":"openid"}]}"#,
                "scopes[0].value openid is an OpenID Connect scope"
            ),
            (#"{"identifier":"urn:x","scopes":[{"value":"a"},{"value":"a"}]}"#, "scopes[1].value a is given twice"),
            (#"{"identifier":"urn:x","scopes":["a"]}"#, "scopes[0] must be an object"),
            (#"{"identifier":"urn:x","scopes":[{"value":"a","extra":1}]}"#, "unknown field scopes[0].extra"),
            (#"{"identifier":"urn:x","token_dialect":"rfc9068_profile"}"#, "unknown field token_dialect"),
        ] {
            let reply = api.send(.post, "/api/v2/resource-servers", json: body, token: token)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.errorDescription == description, "\(body)")
        }
        let readOnly = try api.managementToken(scope: "read:resource_servers")
        #expect(api.send(.get, "/api/v2/resource-servers", token: readOnly).status == 200)
        #expect(api.send(.delete, "/api/v2/resource-servers/\(id)", token: readOnly).status == 403)

        #expect(api.send(.delete, "/api/v2/resource-servers/\(id)", token: token).status == 204)
        #expect(api.send(.get, "/api/v2/resource-servers/\(id)", token: token).status == 404)
        #expect(api.send(.get, "/api/v2/client-grants?client_id=\(m2mID)", token: token).list.isEmpty)
    }

    // MARK: Unknown parameters and challenge-borne token parameters

    @Test(
        "the token endpoint ignores parameters it does not know, in JSON and in forms", arguments: HarnessStore.allCases
    )
    func unknownTokenParameters(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let login = try api.signUpForTokens(api.authenticator(), email: "lenient@example.com")
        let token = try #require(login["refresh_token"] as? String)
        let json = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "refresh_token", "client_id": api.bootstrap.clientID, "refresh_token": token,
                "connection": "Username-Password-Authentication", "telemetry": ["x": 1], "future_field": true,
            ]))
        #expect(json.status == 200, "\(json.json)")
        let next = try #require(json.json["refresh_token"] as? String)
        let form = api.send(
            .post, "/oauth/token",
            json: "grant_type=refresh_token&client_id=\(api.bootstrap.clientID)&refresh_token=\(next)&device=ios",
            contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 200, "\(form.json)")
        let revoke = api.send(
            .post, "/oauth/revoke",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "token": form.json["refresh_token"] as? String ?? "", "extra": 1,
            ]))
        #expect(revoke.status == 200)
    }

    @Test(
        "Auth0.Android's PasskeyAuthProvider: scope and audience on /passkey/register and /passkey/challenge shape the token that follows",
        arguments: HarnessStore.allCases)
    func challengeBorneScopeAndAudience(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let authenticator = api.authenticator()
        let myAccount = TokenService.myAccountAudience(api.tenant)
        let challenge = api.send(
            .post, "/passkey/register",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "realm": "Username-Password-Authentication",
                "user_profile": ["email": "android@example.com"], "scope": "openid read:me:authentication_methods",
                "audience": myAccount,
            ]))
        #expect(challenge.status == 200, "\(challenge.json)")
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        // Like the Android SDK's token call: no scope, no audience.
        let body =
            #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(api.bootstrap.clientID)","#
            + #""auth_session":"\#(challenge.json["auth_session"] as? String ?? "")","authn_response":\#(credential.jsonString)}"#
        let token = api.send(.post, "/oauth/token", json: body)
        #expect(token.status == 200, "\(token.json)")
        #expect(token.json["scope"] as? String == "openid read:me:authentication_methods")
        let accessToken = try #require(token.json["access_token"] as? String)
        #expect(api.send(.get, "/me/v1/authentication-methods", token: accessToken).status == 200)

        // On the login challenge too; a token request that names a scope uses its own.
        let login = api.send(
            .post, "/passkey/challenge",
            json: APIHarness.encode(["client_id": api.bootstrap.clientID, "scope": "openid profile"]))
        let assertion = try authenticator.getAssertion(optionsJSON: login.body)
        let own = api.webAuthnGrant(
            authSession: login.json["auth_session"] as? String ?? "", response: assertion.jsonString,
            scope: "openid email")
        #expect(own.json["scope"] as? String == "openid email")

        let tooLong = api.send(
            .post, "/passkey/challenge",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "scope": String(repeating: "s", count: 1_025),
            ]))
        #expect(tooLong.status == 400)
    }

    // MARK: Error texts

    @Test(
        "a revoked, reused, unknown or blocked user's refresh token is 400 'Unknown or invalid refresh token.'; a deleted user's is 403",
        arguments: HarnessStore.allCases)
    func auth0RefreshErrorTexts(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let revokedLogin = try api.signUpForTokens(api.authenticator(), email: "revoked@example.com")
        let revoked = try #require(revokedLogin["refresh_token"] as? String)
        _ = api.send(
            .post, "/oauth/revoke", json: APIHarness.encode(["client_id": api.bootstrap.clientID, "token": revoked]))
        let unknown = "sesame_rt_" + String(repeating: "A", count: 43)
        for token in [revoked, unknown, "not-a-token"] {
            let reply = Self.renew(api, token, audience: nil, scope: nil)
            #expect(reply.status == 400)
            #expect(reply.error == "invalid_grant")
            #expect(reply.errorDescription == "Unknown or invalid refresh token.")
        }

        let blockedLogin = try api.signUpForTokens(api.authenticator(), email: "blocked@example.com")
        let blockedToken = try #require(blockedLogin["refresh_token"] as? String)
        let blockedUser = try APIHarness.subject(of: try #require(blockedLogin["access_token"] as? String))
        let block = api.send(
            .patch, "/api/v2/users/\(blockedUser.replacingOccurrences(of: "|", with: "%7C"))",
            json: #"{"blocked":true}"#,
            token: try api.managementToken())
        #expect(block.status == 200)
        let blocked = Self.renew(api, blockedToken, audience: nil, scope: nil)
        #expect(blocked.status == 400)
        #expect(blocked.errorDescription == "Unknown or invalid refresh token.")

        let deletedLogin = try api.signUpForTokens(api.authenticator(), email: "deleted@example.com")
        let deletedToken = try #require(deletedLogin["refresh_token"] as? String)
        let deletedUser = try APIHarness.subject(of: try #require(deletedLogin["access_token"] as? String))
        let deletion = api.send(
            .delete, "/api/v2/users/\(deletedUser.replacingOccurrences(of: "|", with: "%7C"))",
            token: try api.managementToken())
        #expect(deletion.status == 204)
        let deleted = Self.renew(api, deletedToken, audience: nil, scope: nil)
        #expect(deleted.status == 403)
        #expect(deleted.error == "invalid_grant")
        #expect(deleted.errorDescription == "The refresh_token was generated for a user who doesn't exist anymore.")
    }
}

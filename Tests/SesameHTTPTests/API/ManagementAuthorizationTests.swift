import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

@Suite("Management API: tokens, scopes and tenant isolation")
struct ManagementAuthorizationTests {
    let api: APIHarness

    init() throws {
        api = try APIHarness()
    }

    /// Every management route with a placeholder id, the scope it needs and a body it accepts.
    static let routes: [(HTTPMethod, String, String, String?)] = [
        (.get, "/api/v2/clients", "read:clients", nil),
        (.post, "/api/v2/clients", "create:clients", #"{"name":"x"}"#),
        (.get, "/api/v2/clients/some-id", "read:clients", nil),
        (.patch, "/api/v2/clients/some-id", "update:clients", #"{"name":"x"}"#),
        (.delete, "/api/v2/clients/some-id", "delete:clients", nil),
        (.post, "/api/v2/clients/some-id/rotate-secret", "update:client_keys", nil),
        (.get, "/api/v2/connections", "read:connections", nil),
        (.post, "/api/v2/connections", "create:connections", #"{"name":"x"}"#),
        (.get, "/api/v2/connections/con_x", "read:connections", nil),
        (.patch, "/api/v2/connections/con_x", "update:connections", "{}"),
        (.delete, "/api/v2/connections/con_x", "delete:connections", nil),
        (.get, "/api/v2/users", "read:users", nil),
        (.get, "/api/v2/users/sesame%7Cx", "read:users", nil),
        (.patch, "/api/v2/users/sesame%7Cx", "update:users", "{}"),
        (.delete, "/api/v2/users/sesame%7Cx", "delete:users", nil),
        (.get, "/api/v2/users/sesame%7Cx/authentication-methods", "read:authentication_methods", nil),
        (.delete, "/api/v2/users/sesame%7Cx/authentication-methods/passkey%7Cx", "delete:authentication_methods", nil),
        (.get, "/api/v2/tenant/settings", "read:tenant_settings", nil),
        (.patch, "/api/v2/tenant/settings", "update:tenant_settings", "{}"),
        (.post, "/api/v2/keys/signing/rotate", "update:tenant_settings", nil),
    ]

    @Test("every route answers 401 invalid_token without a token or with a bad one")
    func unauthenticated() throws {
        let valid = try api.managementToken()
        let parts = valid.split(separator: ".")
        let tampered = "\(parts[0]).\(parts[1]).\(String(parts[2].dropLast(4)))AAAA"
        for (method, path, _, body) in Self.routes {
            for token in [nil, "not-a-jwt", tampered] {
                let reply = api.send(method, path, json: body, token: token)
                #expect(reply.status == 401, "\(method) \(path)")
                #expect(reply.error == "invalid_token", "\(method) \(path)")
                #expect(reply.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
            }
        }
    }

    @Test("every route answers 403 insufficient_scope to a token without its scope, before reading the body")
    func wrongScope() throws {
        for (method, path, scope, body) in Self.routes {
            let other = Bootstrap.managementScopes.first { $0 != scope } ?? ""
            let token = try api.managementToken(scope: other)
            let reply = api.send(method, path, json: body, token: token)
            #expect(reply.status == 403, "\(method) \(path)")
            #expect(reply.error == "insufficient_scope")
            #expect(reply.errorDescription == "this operation needs the \(scope) scope")
            // The same token with the scope gets past authorization (200, 201, 204, 400 or 404, never 401/403).
            let allowed = api.send(method, path, json: body, token: try api.managementToken(scope: scope))
            #expect(![401, 403].contains(allowed.status), "\(method) \(path): \(allowed.status)")
        }
    }

    @Test("an expired management token is refused")
    func expired() throws {
        let token = try api.managementToken()
        api.clock.advance(by: TimeInterval(api.tenant.accessTokenLifetime + 120))
        let reply = api.send(.get, "/api/v2/clients", token: token)
        #expect(reply.status == 401)
        #expect(reply.error == "invalid_token")
    }

    @Test("a user's My Account token is not a management token")
    func userTokenRefused() throws {
        let session = try api.signUp(api.authenticator(), email: "user@example.com")
        let reply = api.send(.get, "/api/v2/clients", token: session.accessToken)
        #expect(reply.status == 401)
        #expect(reply.error == "invalid_token")
    }

    @Test("another tenant's token never works here, and this tenant's ids are unknown there")
    func tenantIsolation() throws {
        let (_, otherToken) = try api.addSecondTenant()
        let token = try api.managementToken()
        // The other tenant's token at this tenant, and this tenant's token at the other.
        #expect(api.send(.get, "/api/v2/clients", token: otherToken).status == 401)
        #expect(api.send(.get, "/api/v2/clients", token: token, host: "other.test").status == 401)
        // With its own token, the other tenant sees only its own clients, and none of ours by id.
        let theirs = api.send(.get, "/api/v2/clients", token: otherToken, host: "other.test")
        #expect(theirs.status == 200)
        #expect(theirs.list.compactMap { $0["client_id"] as? String } == ["other-m2m"])
        let ours = api.send(.get, "/api/v2/clients/\(api.bootstrap.clientID)", token: otherToken, host: "other.test")
        #expect(ours.status == 404)
        let patch = api.send(
            .patch, "/api/v2/clients/\(api.bootstrap.clientID)", json: #"{"name":"stolen"}"#, token: otherToken,
            host: "other.test")
        #expect(patch.status == 404)
        let connection = try #require(api.tenant.defaultConnectionID)
        #expect(
            api.send(.get, "/api/v2/connections/\(connection)", token: otherToken, host: "other.test").status == 404)
        let user = try api.signUp(api.authenticator(), email: "mine@example.com")
        let encoded = user.userID.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.get, "/api/v2/users/\(encoded)", token: otherToken, host: "other.test").status == 404)
        #expect(api.send(.delete, "/api/v2/users/\(encoded)", token: otherToken, host: "other.test").status == 404)
        #expect(api.send(.get, "/api/v2/users", token: otherToken, host: "other.test").list.isEmpty)
        #expect(api.send(.get, "/api/v2/users/\(encoded)", token: token).status == 200)
    }
}

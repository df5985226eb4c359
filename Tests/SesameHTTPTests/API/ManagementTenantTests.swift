import Foundation
import SesameService
import SesameStore
import Testing

@Suite("Management API: tenant settings and signing keys")
struct ManagementTenantTests {
    let api: APIHarness
    let token: String

    init() throws {
        api = try APIHarness()
        token = try api.managementToken()
    }

    @Test("reads and patches the settings; the changes take effect")
    func settings() throws {
        let read = api.send(.get, "/api/v2/tenant/settings", token: token)
        #expect(read.status == 200)
        #expect(read.json["domain"] as? String == "login.test")
        #expect(read.json["rp_id"] as? String == "login.test")
        #expect(read.json["default_connection"] as? String == "Username-Password-Authentication")
        #expect(read.json["access_token_lifetime"] as? Int == 86_400)
        #expect(read.json["session_lifetime"] as? Int == 168)
        #expect(read.json["idle_session_lifetime"] as? Int == 72)

        let patched = api.send(
            .patch, "/api/v2/tenant/settings",
            json: #"""
                {"friendly_name":"Example Login","custom_domains":["ID.Example.com"],
                 "allowed_origins":["https://app.example.com"],"related_origins":["https://example.co.uk"],
                 "access_token_lifetime":3600,"id_token_lifetime":600,"refresh_token_lifetime":604800,
                 "refresh_token_idle_lifetime":86400,"session_lifetime":48,"idle_session_lifetime":12}
                """#, token: token)
        #expect(patched.status == 200)
        #expect(patched.json["friendly_name"] as? String == "Example Login")
        #expect(patched.json["custom_domains"] as? [String] == ["id.example.com"])
        #expect(patched.json["access_token_lifetime"] as? Int == 3_600)
        #expect(patched.json["session_lifetime"] as? Int == 48)
        #expect(patched.json["idle_session_lifetime"] as? Int == 12)
        let stored = try #require(try api.store.read { try $0.tenants.get(id: api.tenant.id) })
        #expect(stored.sessionLifetime == 48 * 3_600)
        #expect(stored.idleSessionLifetime == 12 * 3_600)
        let webauthn = api.send(.get, "/.well-known/webauthn")
        #expect(webauthn.json["origins"] as? [String] == ["https://example.co.uk"])
        // The custom domain now resolves to this tenant.
        #expect(api.send(.get, "/api/v2/tenant/settings", token: token, host: "id.example.com").status == 200)
        // New tokens carry the new lifetime.
        let issued = try api.application.tokens.token(
            tenant: try #require(try api.store.read { try $0.tenants.get(id: api.tenant.id) }),
            request: TokenCall(
                grantType: "client_credentials",
                credentials: ClientCredentials(
                    clientID: api.bootstrap.managementClientID, clientSecret: api.bootstrap.managementClientSecret),
                fields: ["audience": TokenService.managementAudience(api.tenant)]))
        #expect(issued.expiresIn == 3_600)
    }

    @Test(
        "each broken field is refused with 400 naming it",
        arguments: [
            (#"{"domain":"evil.test"}"#, "domain is read-only"),
            (
                #"{"rp_id":"test"}"#,
                "rp_id must be the tenant's domain or a registrable suffix of it (not a top-level domain)"
            ),
            (
                #"{"rp_id":"example.com"}"#,
                "rp_id must be the tenant's domain or a registrable suffix of it (not a top-level domain)"
            ),
            (#"{"rp_id":"bad_host"}"#, "rp_id is not a host name"),
            (#"{"custom_domains":["ok.example.com","bad domain"]}"#, "custom_domains[1] is not a host name"),
            (#"{"custom_domains":["login.test"]}"#, "custom_domains[0] is the tenant's own domain"),
            (
                #"{"allowed_origins":["https://a.test/x"]}"#,
                "allowed_origins[0] is not an origin (http(s)://host[:port] with no path)"
            ),
            (#"{"related_origins":["http://a.test"]}"#, "related_origins[0] must be an https origin"),
            (#"{"access_token_lifetime":10}"#, "access_token_lifetime must be from 60 to 2592000"),
            (#"{"id_token_lifetime":1.5}"#, "id_token_lifetime must be an integer"),
            (#"{"refresh_token_lifetime":99999999999}"#, "refresh_token_lifetime must be from 3600 to 31557600"),
            (
                #"{"refresh_token_lifetime":3600,"refresh_token_idle_lifetime":7200}"#,
                "refresh_token_idle_lifetime must not exceed refresh_token_lifetime"
            ),
            (#"{"default_connection":"Nope"}"#, "default_connection is not a connection of this tenant"),
            (#"{"friendly_name":""}"#, "friendly_name must be 1 to 255 characters"),
            (#"{"session_lifetime":0}"#, "session_lifetime must be from 1 to 8760"),
            (#"{"idle_session_lifetime":8761}"#, "idle_session_lifetime must be from 1 to 8760"),
            (#"{"session_lifetime":24}"#, "idle_session_lifetime must not exceed session_lifetime"),
            (#"{"session_lifetimes":1}"#, "unknown field session_lifetimes"),
        ])
    func validation(body: String, description: String) throws {
        let reply = api.send(.patch, "/api/v2/tenant/settings", json: body, token: token)
        #expect(reply.status == 400)
        #expect(reply.error == "invalid_request")
        #expect(reply.errorDescription == description)
        let tenant = try #require(try api.store.read { try $0.tenants.get(id: api.tenant.id) })
        #expect(tenant == api.tenant)
    }

    @Test("rp_id may be a registrable parent of the domain; another tenant's custom domain is refused")
    func rpIDAndDomains() throws {
        // A tenant on a subdomain may use its parent as RP ID.
        let now = api.clock.now()
        try api.store.write(.durable) { transaction in
            var tenant = try #require(try transaction.tenants.get(id: api.tenant.id))
            tenant.domain = "login.example.com"
            tenant.updatedAt = now
            try transaction.tenants.update(tenant)
        }
        let parent = api.send(
            .patch, "/api/v2/tenant/settings", json: #"{"rp_id":"example.com"}"#, token: token,
            host: "login.example.com")
        #expect(parent.status == 200)
        #expect(parent.json["rp_id"] as? String == "example.com")
        _ = try api.addSecondTenant()
        let stolen = api.send(
            .patch, "/api/v2/tenant/settings", json: #"{"custom_domains":["other.test"]}"#, token: token,
            host: "login.example.com")
        #expect(stolen.status == 409)
    }

    @Test("the default connection can be moved, after which the old one can be deleted")
    func defaultConnection() throws {
        let old = try #require(api.tenant.defaultConnectionID)
        #expect(api.send(.post, "/api/v2/connections", json: #"{"name":"Members"}"#, token: token).status == 201)
        let moved = api.send(
            .patch, "/api/v2/tenant/settings", json: #"{"default_connection":"Members"}"#, token: token)
        #expect(moved.json["default_connection"] as? String == "Members")
        #expect(api.send(.delete, "/api/v2/connections/\(old)", token: token).status == 204)
    }

    @Test("rotating signing keys publishes new kids and keeps earlier tokens valid")
    func rotate() throws {
        let before = api.send(.get, "/.well-known/jwks.json")
        let beforeKids = Set(((before.json["keys"] as? [[String: Any]]) ?? []).compactMap { $0["kid"] as? String })
        let reply = api.send(.post, "/api/v2/keys/signing/rotate", token: token)
        #expect(reply.status == 201)
        let kid = try #require(reply.json["kid"] as? String)
        let keys = try #require(reply.json["keys"] as? [[String: Any]])
        #expect(Set(keys.compactMap { $0["alg"] as? String }) == ["RS256", "ES256", "EdDSA"])
        #expect(!beforeKids.contains(kid))
        let after = api.send(.get, "/.well-known/jwks.json")
        let afterKids = Set(((after.json["keys"] as? [[String: Any]]) ?? []).compactMap { $0["kid"] as? String })
        #expect(afterKids.isSuperset(of: Set(keys.compactMap { $0["kid"] as? String })))
        #expect(afterKids.isSuperset(of: beforeKids))
        // The token signed with the previous key still verifies; a new one uses the new key.
        #expect(api.send(.get, "/api/v2/tenant/settings", token: token).status == 200)
        #expect(api.send(.get, "/api/v2/tenant/settings", token: try api.managementToken()).status == 200)
    }
}

import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Audit item 2: a token with only `update:clients` rotated the secret of the all-scopes
/// management client, received it, and minted a token with every scope. Now secrets need the
/// client-key scopes and every scope of the client they belong to, and no grant can carry a scope
/// the caller lacks.
///
/// The attack below tries every route that can hand out a secret or widen a grant, with each scope
/// alone and with every scope but one, on every known client; then it spends every secret it got
/// on a client-credentials token. What it can get must stay within what it held.
@Suite("Audit 2: no Management route grants more than the caller holds")
struct PrivilegeEscalationTests {
    static let allScopes = ManagementScope.allCases.map(\.rawValue)
    /// Each scope alone, and every scope but one.
    static let callerScopeSets: [[String]] =
        allScopes.map { [$0] } + allScopes.map { left in allScopes.filter { $0 != left } }

    struct Attack {
        let api: APIHarness
        let token: String
        let admin: String
        var secrets: [(clientID: String, secret: String)] = []

        mutating func harvest(_ reply: APIReply) {
            if let id = reply.json["client_id"] as? String, let secret = reply.json["client_secret"] as? String {
                secrets.append((id, secret))
            }
        }

        /// Every client id and every grant id in the tenant (an attacker may know or guess them all).
        func inventory() -> (clients: [String], grants: [String]) {
            let clients = api.send(.get, "/api/v2/clients", token: admin).list.compactMap { $0["client_id"] as? String }
            let grants = api.send(.get, "/api/v2/client-grants", token: admin).list.compactMap { $0["id"] as? String }
            return (clients, grants)
        }

        /// Every client's grant scopes, by client id.
        func grantedScopes() -> [String: Set<String>] {
            var scopes: [String: Set<String>] = [:]
            for grant in api.send(.get, "/api/v2/client-grants", token: admin).list {
                guard let client = grant["client_id"] as? String, let values = grant["scope"] as? [String] else {
                    continue
                }
                scopes[client, default: []].formUnion(values)
            }
            return scopes
        }

        mutating func run() {
            let audience = TokenService.managementAudience(api.tenant)
            let all = PrivilegeEscalationTests.allScopes
            // A new confidential m2m client of the attacker's own.
            harvest(
                api.send(
                    .post, "/api/v2/clients",
                    json: #"{"name":"mine","app_type":"non_interactive","grant_types":["client_credentials"]}"#,
                    token: token))
            var (clients, grants) = inventory()
            // Widen every grant and give every client a full grant.
            for grant in grants {
                _ = api.send(
                    .patch, "/api/v2/client-grants/\(grant)", json: APIHarness.encode(["scope": all]), token: token)
            }
            for client in clients {
                _ = api.send(
                    .post, "/api/v2/client-grants",
                    json: APIHarness.encode(["client_id": client, "audience": audience, "scope": all]), token: token)
            }
            (clients, grants) = inventory()
            // Get a secret for every client: rotate it, or make a public client confidential.
            for client in clients {
                harvest(api.send(.post, "/api/v2/clients/\(client)/rotate-secret", token: token))
                harvest(
                    api.send(
                        .patch, "/api/v2/clients/\(client)",
                        json:
                            #"{"grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_post"}"#,
                        token: token))
                // No read of a client ever shows a secret.
                #expect(api.send(.get, "/api/v2/clients/\(client)", token: token).json["client_secret"] == nil)
            }
        }

        /// The scopes each harvested secret can mint for the Management API.
        func mintable() throws -> Set<String> {
            var scopes = Set<String>()
            for (client, secret) in secrets {
                let reply = api.send(
                    .post, "/oauth/token",
                    json: APIHarness.encode([
                        "grant_type": "client_credentials", "client_id": client, "client_secret": secret,
                        "audience": TokenService.managementAudience(api.tenant),
                    ]))
                guard reply.status == 200, let scope = reply.json["scope"] as? String else { continue }
                scopes.formUnion(scope.split(separator: " ").map(String.init))
            }
            return scopes
        }
    }

    func attack(_ scopes: [String], on kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let admin = try api.managementToken()
        var attack = Attack(
            api: api, token: try api.managementToken(scope: scopes.joined(separator: " ")), admin: admin)
        let before = attack.grantedScopes()
        attack.run()
        let held = Set(scopes)
        let minted = try attack.mintable()
        #expect(minted.isSubset(of: held), "minted \(minted.subtracting(held).sorted()) holding \(scopes)")
        for (client, granted) in attack.grantedScopes() {
            let added = granted.subtracting(before[client] ?? [])
            #expect(added.isSubset(of: held), "\(client) gained \(added.subtracting(held).sorted())")
        }
    }

    @Test(arguments: callerScopeSets)
    func inMemory(_ scopes: [String]) throws { try attack(scopes, on: .memory) }

    @Test(arguments: [
        ["update:clients"], ["update:client_keys", "read:client_keys"], allScopes.filter { $0 != "delete:users" },
    ])
    func onSQLite(_ scopes: [String]) throws { try attack(scopes, on: .sqlite) }

    @Test func theAuditsPathIsClosed() throws {
        let api = try APIHarness()
        let token = try api.managementToken(scope: "update:clients")
        let rotated = api.send(.post, "/api/v2/clients/\(api.bootstrap.managementClientID)/rotate-secret", token: token)
        #expect(rotated.status == 403)
        #expect(rotated.error == "insufficient_scope")
        #expect(rotated.json["client_secret"] == nil)
        // The management client's secret is unchanged.
        #expect((try? api.managementToken()) != nil)
    }

    @Test func rotatingNeedsEveryScopeOfTheClient() throws {
        let api = try APIHarness()
        let keys = try api.managementToken(scope: "update:client_keys read:client_keys read:users")
        let rotated = api.send(.post, "/api/v2/clients/\(api.bootstrap.managementClientID)/rotate-secret", token: keys)
        #expect(rotated.status == 403)
        #expect(rotated.errorDescription?.contains("which this token does not hold") == true)
        // A client granted only what the caller holds can be rotated, and its secret is returned.
        let admin = try api.managementToken()
        let created = api.send(
            .post, "/api/v2/clients", json: #"{"name":"reader","app_type":"non_interactive"}"#, token: admin)
        let id = try #require(created.json["client_id"] as? String)
        let grant = api.send(
            .post, "/api/v2/client-grants",
            json: APIHarness.encode([
                "client_id": id, "audience": TokenService.managementAudience(api.tenant), "scope": ["read:users"],
            ]), token: admin)
        #expect(grant.status == 201)
        let own = api.send(.post, "/api/v2/clients/\(id)/rotate-secret", token: keys)
        #expect(own.status == 200)
        #expect((own.json["client_secret"] as? String)?.isEmpty == false)
    }

    @Test func grantsCannotCarryScopesTheCallerLacks() throws {
        let api = try APIHarness()
        let token = try api.managementToken(scope: "create:client_grants update:client_grants read:users")
        let created = api.send(
            .post, "/api/v2/client-grants",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "audience": TokenService.managementAudience(api.tenant),
                "scope": ["read:users", "delete:users"],
            ]), token: token)
        #expect(created.status == 403)
        #expect(created.error == "insufficient_scope")
        #expect(created.errorDescription?.contains("delete:users") == true)
        let narrow = api.send(
            .post, "/api/v2/client-grants",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "audience": TokenService.managementAudience(api.tenant),
                "scope": ["read:users"],
            ]), token: token)
        #expect(narrow.status == 201)
        let id = try #require(narrow.json["id"] as? String)
        let widened = api.send(
            .patch, "/api/v2/client-grants/\(id)", json: #"{"scope":["read:users","update:users"]}"#, token: token)
        #expect(widened.status == 403)
    }

    @Test func aConfidentialClientsSecretIsShownOnlyWithReadClientKeys() throws {
        let api = try APIHarness()
        let body = #"{"name":"m2m","app_type":"non_interactive"}"#
        let without = api.send(
            .post, "/api/v2/clients", json: body, token: try api.managementToken(scope: "create:clients"))
        #expect(without.status == 403)
        #expect(without.errorDescription?.contains("read:client_keys") == true)
        let with = api.send(
            .post, "/api/v2/clients", json: body,
            token: try api.managementToken(scope: "create:clients read:client_keys"))
        #expect(with.status == 201)
        #expect((with.json["client_secret"] as? String)?.isEmpty == false)
        // A public client has no secret, so create:clients alone makes one.
        let native = api.send(
            .post, "/api/v2/clients", json: #"{"name":"app","app_type":"native"}"#,
            token: try api.managementToken(scope: "create:clients"))
        #expect(native.status == 201)
    }
}

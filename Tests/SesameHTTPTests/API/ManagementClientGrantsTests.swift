import Foundation
import SesameService
import Testing

@Suite("Management API: client grants")
struct ManagementClientGrantsTests {
    @Test("a new m2m client gets a grant and can then use client_credentials; revoking the grant stops it")
    func grantLifecycle() throws {
        let api = try APIHarness()
        let token = try api.managementToken()
        let created = api.send(
            .post, "/api/v2/clients",
            json:
                #"{"name":"Reporting job","app_type":"non_interactive","grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_post"}"#,
            token: token)
        #expect(created.status == 201)
        let clientID = try #require(created.json["client_id"] as? String)
        let secret = try #require(created.json["client_secret"] as? String)
        let audience = TokenService.managementAudience(api.tenant)
        let tokenBody =
            #"{"grant_type":"client_credentials","client_id":"\#(clientID)","client_secret":"\#(secret)","audience":"\#(audience)"}"#
        #expect(api.send(.post, "/oauth/token", json: tokenBody).status == 403)  // no grant yet

        let grant = api.send(
            .post, "/api/v2/client-grants",
            json: #"{"client_id":"\#(clientID)","audience":"\#(audience)","scope":["read:users"]}"#, token: token)
        #expect(grant.status == 201)
        let grantID = try #require(grant.json["id"] as? String)
        #expect(grant.json["scope"] as? [String] == ["read:users"])
        let duplicate = api.send(
            .post, "/api/v2/client-grants", json: #"{"client_id":"\#(clientID)","audience":"\#(audience)","scope":[]}"#,
            token: token)
        #expect(duplicate.status == 409)

        let issued = api.send(.post, "/oauth/token", json: tokenBody)
        #expect(issued.status == 200)
        let jobToken = try #require(issued.json["access_token"] as? String)
        #expect(api.send(.get, "/api/v2/users", token: jobToken).status == 200)
        #expect(api.send(.get, "/api/v2/clients", token: jobToken).status == 403)

        let listed = api.send(.get, "/api/v2/client-grants?client_id=\(clientID)", token: token)
        #expect(listed.list.count == 1)
        let widened = api.send(
            .patch, "/api/v2/client-grants/\(grantID)", json: #"{"scope":["read:users","read:clients"]}"#, token: token)
        #expect(widened.json["scope"] as? [String] == ["read:users", "read:clients"])

        #expect(api.send(.delete, "/api/v2/client-grants/\(grantID)", token: token).status == 204)
        #expect(api.send(.post, "/oauth/token", json: tokenBody).status == 403)
        #expect(api.send(.delete, "/api/v2/client-grants/\(grantID)", token: token).status == 404)
    }

    @Test(arguments: [
        (#"{"client_id":"x","audience":"https://elsewhere/api/","scope":[]}"#, "audience is not an API of this tenant"),
        (
            #"{"client_id":"x","audience":"AUD","scope":["launch:missiles"]}"#,
            "scope launch:missiles is not a Management API scope"
        ),
        (#"{"audience":"AUD","scope":[]}"#, "client_id is required"),
        (#"{"client_id":"x","audience":"AUD","scope":[],"extra":1}"#, "unknown field extra"),
    ])
    func badGrantsAre400(json: String, message: String) throws {
        let api = try APIHarness()
        let reply = api.send(
            .post, "/api/v2/client-grants",
            json: json.replacingOccurrences(of: "AUD", with: TokenService.managementAudience(api.tenant)),
            token: try api.managementToken())
        #expect(reply.status == 400)
        #expect(reply.errorDescription == message)
    }

    @Test func grantsNeedTheirScopes() throws {
        let api = try APIHarness()
        let token = try api.managementToken(scope: "read:users")
        #expect(api.send(.get, "/api/v2/client-grants", token: token).status == 403)
        #expect(api.send(.get, "/api/v2/client-grants").status == 401)
    }
}

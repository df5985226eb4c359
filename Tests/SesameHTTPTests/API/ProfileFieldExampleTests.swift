import Foundation
import SesameClient
import SesameStore
import SesameWire
import Testing

/// The worked example of docs/ARCHITECTURE.md, "Adding a profile field": `middle_name` was added
/// in UserRecord.swift (the profile's property, its `ProfileAttribute` and its field in the binary
/// form) and SesameClient's `UserInfo`. This follows it through every place the attribute list
/// reaches, on every store: a signup sets it, the Management API returns, changes and removes it,
/// it survives a read from the store, and the id token, userinfo, the SDK and discovery carry it.
@Suite("A profile field added in one place reaches every surface")
struct ProfileFieldExampleTests {
    static func path(_ id: String) -> String {
        "/api/v2/users/\(id.replacingOccurrences(of: "|", with: "%7C"))"
    }

    static func claims(_ jwt: String) throws -> [String: Any] {
        let parts = jwt.split(separator: ".")
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: HarnessStore.allCases)
    func middleNameEndToEnd(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let token = try api.managementToken()

        // Signup: the database connection's endpoint takes it beside the other attributes.
        let signup = api.send(
            .post, "/dbconnections/signup",
            json: APIHarness.encode([
                "client_id": api.bootstrap.clientID, "connection": "Username-Password-Authentication",
                "email": "ada@example.com", "password": "correct horse battery staple 42",
                "given_name": "Ada", "middle_name": "Augusta", "family_name": "Lovelace",
            ]))
        #expect(signup.status == 200, "\(String(decoding: signup.body, as: UTF8.self))")
        #expect(signup.json["middle_name"] as? String == "Augusta")

        // The Management API reads it from the store, and a patch changes and removes it.
        let found = api.send(.get, "/api/v2/users?q=ada", token: token).list
        let id = try #require(found.first?["user_id"] as? String)
        #expect(found.first?["middle_name"] as? String == "Augusta")
        let read = api.send(.get, Self.path(id), token: token)
        #expect(read.json["middle_name"] as? String == "Augusta")
        let patched = api.send(.patch, Self.path(id), json: #"{"middle_name":"Byron"}"#, token: token)
        #expect(patched.json["middle_name"] as? String == "Byron")
        let refused = api.send(.patch, Self.path(id), json: #"{"middle_name":"a\u0000b"}"#, token: token)
        #expect(refused.status == 400 && refused.error == "invalid_request")
        let tooLong = api.send(
            .patch, Self.path(id), json: APIHarness.encode(["middle_name": String(repeating: "x", count: 301)]),
            token: token)
        #expect(tooLong.status == 400)

        // The password grant's id token and userinfo carry it under the profile scope, and the SDK reads it.
        let tokens = api.send(
            .post, "/oauth/token",
            json: APIHarness.encode([
                "grant_type": "password", "client_id": api.bootstrap.clientID, "username": "ada@example.com",
                "password": "correct horse battery staple 42", "scope": "openid profile",
            ]))
        #expect(tokens.status == 200, "\(String(decoding: tokens.body, as: UTF8.self))")
        let idToken = try #require(tokens.json["id_token"] as? String)
        #expect(try Self.claims(idToken)["middle_name"] as? String == "Byron")
        let accessToken = try #require(tokens.json["access_token"] as? String)
        let userInfo = api.send(.get, "/userinfo", token: accessToken)
        #expect(userInfo.json["middle_name"] as? String == "Byron")
        #expect(try UserInfo(json: Data(userInfo.body)).middleName == "Byron")

        let removed = api.send(.patch, Self.path(id), json: #"{"middle_name":null}"#, token: token)
        #expect(removed.status == 200 && removed.json["middle_name"] == nil)

        // Discovery lists the claim.
        let discovery = api.send(.get, "/.well-known/openid-configuration")
        #expect((discovery.json["claims_supported"] as? [String])?.contains("middle_name") == true)
    }
}

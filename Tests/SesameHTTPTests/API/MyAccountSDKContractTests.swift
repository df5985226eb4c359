import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// What Auth0.swift, Auth0.Android and auth0-spa-js need from My Account (reviews/auth0-sdk-wire-2
/// M1–M4, M10, M12): the enrollment `Location` whose last segment is the method id, the passkey
/// fields their decoders require, `GET {id}`, `identity_user_id`, and RFC 9457 problems.
@Suite("My Account: the Auth0 SDK contract")
struct MyAccountSDKContractTests {
    /// What an SDK does with the enrollment answer: the last `/` segment of `Location`, decoded.
    static func methodID(fromLocation location: String) -> String? {
        location.split(separator: "/").last.map(String.init)?.removingPercentEncoding
    }

    @Test(
        "enrollment as the SDKs do it: id from Location, POST <Location>/verify, full method back",
        arguments: HarnessStore.allCases)
    func enrollmentThroughLocation(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let session = try api.signUp(api.authenticator(), email: "sdk@example.com")
        let challenge = api.send(
            .post, "/me/v1/authentication-methods", json: #"{"type":"passkey"}"#, token: session.accessToken)
        #expect(challenge.status == 202)
        let location = try #require(challenge.headers["Location"])
        #expect(location == "http://login.test:8080/me/v1/authentication-methods/passkey%7Cnew")
        let id = try #require(Self.methodID(fromLocation: location))
        #expect(id == "passkey|new")

        let phone = api.authenticator()
        let credential = try phone.makeCredential(optionsJSON: challenge.body)
        let path = String(location.dropFirst("http://login.test:8080".count)) + "/verify"
        let created = api.send(
            .post, path,
            json:
                #"{"auth_session":"\#(challenge.json["auth_session"] as? String ?? "")","authn_response":\#(credential.jsonString)}"#,
            token: session.accessToken)
        #expect(created.status == 201)
        let method = created.json
        try Self.expectAuth0SwiftPasskeyFields(method, api: api, userID: session.userID)

        // The same method by id, in the list, and after a rename: each carries the same fields.
        let methodID = try #require(method["id"] as? String)
        let one = api.send(
            .get, "/me/v1/authentication-methods/\(methodID.replacingOccurrences(of: "|", with: "%7C"))",
            token: session.accessToken)
        #expect(one.status == 200)
        try Self.expectAuth0SwiftPasskeyFields(one.json, api: api, userID: session.userID)
        #expect(one.json["public_key"] as? String == method["public_key"] as? String)
        let list = try #require(
            api.send(.get, "/me/v1/authentication-methods?type=passkey", token: session.accessToken).json[
                "authentication_methods"] as? [[String: Any]])
        #expect(list.count == 2)
        for entry in list { try Self.expectAuth0SwiftPasskeyFields(entry, api: api, userID: session.userID) }
        let renamed = api.send(
            .patch, "/me/v1/authentication-methods/\(methodID.replacingOccurrences(of: "|", with: "%7C"))",
            json: #"{"name":"Phone"}"#, token: session.accessToken)
        #expect(renamed.status == 200)
        try Self.expectAuth0SwiftPasskeyFields(renamed.json, api: api, userID: session.userID)
    }

    /// The members Auth0.swift's `PasskeyAuthenticationMethod` and `AuthenticationMethod` require,
    /// in the encodings they decode.
    static func expectAuth0SwiftPasskeyFields(_ method: [String: Any], api: APIHarness, userID: String) throws {
        #expect(method["type"] as? String == "passkey")
        #expect((method["id"] as? String)?.hasPrefix("passkey|") == true)
        #expect(method["usage"] as? [String] == ["primary"])
        #expect(method["relying_party_id"] as? String == "login.test")
        let bare = userID.split(separator: "|").last.map(String.init)
        #expect(method["identity_user_id"] as? String == bare)
        // ISO 8601 with fractional seconds, as Auth0.swift's formatter requires.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(formatter.date(from: method["created_at"] as? String ?? "") != nil)
        // public_key: standard base64 that Data(base64Encoded:) reads, and the stored COSE key.
        let publicKey = try #require(Data(base64Encoded: method["public_key"] as? String ?? ""))
        let id = try #require(method["id"] as? String)
        let stored = try #require(try api.store.read { try $0.passkeys.get(tenantID: api.tenant.id, id: id) })
        #expect(Array(publicKey) == stored.publicKey)
        #expect(method["key_id"] is String)
        #expect(method["user_handle"] is String)
        #expect(method["aaguid"] is String)
        #expect(["single_device", "multi_device"].contains(method["credential_device_type"] as? String ?? ""))
        #expect(method["credential_backed_up"] is Bool)
    }

    @Test(
        "GET {id}: 200 for one's own method, 404 as a problem for another's or an unknown id",
        arguments: HarnessStore.allCases)
    func getByID(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let alice = try api.signUp(api.authenticator(), email: "alice@example.com")
        let bob = try api.signUp(api.authenticator(), email: "bob@example.com")
        let list = api.send(.get, "/me/v1/authentication-methods", token: alice.accessToken)
        let id = try #require((list.json["authentication_methods"] as? [[String: Any]])?.first?["id"] as? String)
        let path = "/me/v1/authentication-methods/\(id.replacingOccurrences(of: "|", with: "%7C"))"
        #expect(api.send(.get, path, token: alice.accessToken).status == 200)
        for reply in [
            api.send(.get, path, token: bob.accessToken),
            api.send(.get, "/me/v1/authentication-methods/passkey%7Cnope", token: alice.accessToken),
        ] {
            #expect(reply.status == 404)
            #expect(reply.headers["Content-Type"] == "application/json")
            #expect(reply.json["title"] as? String == "not_found")
        }
        #expect(api.send(.get, path).status == 401)
    }

    @Test(
        "identity_user_id: the caller's own identity, bare or prefixed, is accepted; another is refused",
        arguments: HarnessStore.allCases)
    func identityUserID(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let session = try api.signUp(api.authenticator(), email: "linked@example.com")
        let bare = try #require(session.userID.split(separator: "|").last.map(String.init))
        for identity in [bare, session.userID] {
            let reply = api.send(
                .post, "/me/v1/authentication-methods",
                json:
                    #"{"type":"passkey","identity_user_id":"\#(identity)","connection":"Username-Password-Authentication"}"#,
                token: session.accessToken)
            #expect(reply.status == 202, "\(identity)")
        }
        let other = api.send(
            .post, "/me/v1/authentication-methods", json: #"{"type":"passkey","identity_user_id":"someone-else"}"#,
            token: session.accessToken)
        #expect(other.status == 400)
        #expect(other.json["detail"] as? String == "identity_user_id is not an identity of the signed-in user")
    }

    @Test(
        "errors are RFC 9457 problems: 401, 403, 404, 405, 409 and 400, each with type, status, title and detail",
        arguments: HarnessStore.allCases)
    func problems(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let session = try api.signUp(api.authenticator(), email: "problems@example.com")
        let id = try #require(
            (api.send(.get, "/me/v1/authentication-methods", token: session.accessToken).json["authentication_methods"]
                as? [[String: Any]])?.first?["id"] as? String)
        let path = "/me/v1/authentication-methods/\(id.replacingOccurrences(of: "|", with: "%7C"))"
        let cases: [(APIReply, Int, String)] = [
            (api.send(.get, "/me/v1/authentication-methods"), 401, "invalid_token"),
            (api.send(.get, "/me/v1/authentication-methods", token: try api.managementToken()), 401, "invalid_token"),
            (api.send(.delete, path, token: session.accessToken), 409, "conflict"),
            (api.send(.put, path, json: "{}", token: session.accessToken), 405, "method_not_allowed"),
            (api.send(.get, "/me/v1/nothing-here", token: session.accessToken), 404, "not_found"),
            (
                api.send(.post, "/me/v1/authentication-methods", json: #"{"type":1}"#, token: session.accessToken),
                400, "invalid_request"
            ),
        ]
        for (reply, status, title) in cases {
            #expect(reply.status == status, "\(title)")
            // Labelled application/json unless asked for: Auth0.Android parses only that.
            #expect(reply.headers["Content-Type"] == "application/json", "\(title)")
            #expect(reply.json["type"] as? String == "urn:sesame:error:\(title)")
            #expect(reply.json["status"] as? Int == status)
            #expect(reply.json["title"] as? String == title)
            #expect((reply.json["detail"] as? String)?.isEmpty == false)
            #expect(reply.json["error"] == nil)
        }
        // A client that asks for problem+json (RFC 9457 §3) gets it so labelled.
        let asked = api.send(
            .get, "/me/v1/authentication-methods", headers: [("Accept", "application/problem+json, application/json")])
        #expect(asked.status == 401)
        #expect(asked.headers["Content-Type"] == "application/problem+json")
        #expect(asked.json["title"] as? String == "invalid_token")
        // The bearer challenge stays on 401 (RFC 6750 §3).
        #expect(cases[0].0.headers["WWW-Authenticate"] == #"Bearer error="invalid_token""#)
        // The Authentication API keeps OAuth's shape.
        let token = api.send(.post, "/oauth/token", json: #"{"grant_type":"nope","client_id":"x"}"#)
        #expect(token.headers["Content-Type"] == "application/json")
        #expect(token.json["error"] != nil)
    }

    @Test("?type= filters: passkey lists passkeys, another type lists nothing", arguments: HarnessStore.allCases)
    func typeFilter(store: HarnessStore) throws {
        let api = try APIHarness(store: store)
        let session = try api.signUp(api.authenticator(), email: "filter@example.com")
        func count(_ query: String) -> Int? {
            (api.send(.get, "/me/v1/authentication-methods\(query)", token: session.accessToken).json[
                "authentication_methods"] as? [Any])?.count
        }
        #expect(count("") == 1)
        #expect(count("?type=passkey") == 1)
        #expect(count("?type=totp") == 0)
    }
}

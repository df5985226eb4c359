import Foundation
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import Testing

@Suite("My Account API")
struct MyAccountTests {
    let api: APIHarness

    init() throws {
        api = try APIHarness()
    }

    private func begin(_ token: String, body: String = #"{"type":"passkey"}"#) -> APIReply {
        api.send(.post, "/me/v1/authentication-methods", json: body, token: token)
    }

    private func verify(_ token: String, session: String, response: String) -> APIReply {
        api.send(
            .post, "/me/v1/authentication-methods/passkey%7Cnew/verify",
            json: #"{"auth_session":"\#(session)","authn_response":\#(response)}"#, token: token)
    }

    /// Enrolls a new passkey made by `authenticator` for the token's user.
    private func enroll(_ token: String, with authenticator: SoftwareAuthenticator) throws -> APIReply {
        let challenge = begin(token)
        guard challenge.status == 202 else { throw APIHarnessError.unexpected("enroll", challenge) }
        let credential = try authenticator.makeCredential(optionsJSON: challenge.body)
        return verify(token, session: challenge.json["auth_session"] as? String ?? "", response: credential.jsonString)
    }

    private func methods(_ token: String) -> [[String: Any]] {
        api.send(.get, "/me/v1/authentication-methods", token: token).json["authentication_methods"]
            as? [[String: Any]] ?? []
    }

    private func user(_ id: String) throws -> UserRecord {
        try #require(try api.store.read { try $0.users.get(tenantID: api.tenant.id, id: id) })
    }

    @Test("lists the user's passkeys with the documented fields")
    func list() throws {
        let authenticator = api.authenticator()
        let session = try api.signUp(authenticator, email: "list@example.com")
        let reply = api.send(.get, "/me/v1/authentication-methods", token: session.accessToken)
        #expect(reply.status == 200)
        let all = try #require(reply.json["authentication_methods"] as? [[String: Any]])
        #expect(all.count == 1)
        let method = try #require(all.first)
        let passkey = try #require(
            try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: session.userID) }.first)
        let stored = try #require(try authenticator.store.allCredentials().first)
        #expect(method["id"] as? String == passkey.id)
        #expect(method["type"] as? String == "passkey")
        #expect(method["key_id"] as? String == base64url(stored.id))
        #expect(method["user_handle"] as? String == base64url(try user(session.userID).userHandle))
        #expect(method["aaguid"] as? String == "5c888366-4806-4874-9de7-87bca8539807")
        #expect(method["credential_device_type"] as? String == "multi_device")
        #expect(method["credential_backed_up"] as? Bool == true)
        #expect(method["transports"] as? [String] == ["internal", "hybrid"])
        #expect(method["created_at"] as? String == "2027-01-15T08:00:00.000Z")
        #expect(method["last_auth_at"] as? String == "2027-01-15T08:00:00.000Z")
        #expect((method["name"] as? String)?.isEmpty == false)
    }

    @Test(
        "enroll: 202 with Location and excludeCredentials, the old authenticator refuses, a new one enrolls and logs in"
    )
    func enrollment() throws {
        let laptop = api.authenticator()
        let session = try api.signUp(laptop, email: "enroll@example.com")
        let challenge = begin(
            session.accessToken, body: #"{"type":"passkey","connection":"Username-Password-Authentication"}"#)
        #expect(challenge.status == 202)
        #expect(
            challenge.headers["Location"] == "http://login.test:8080/me/v1/authentication-methods/passkey%7Cnew")
        let options = try #require(challenge.json["authn_params_public_key"] as? [String: Any])
        let excluded = try #require(options["excludeCredentials"] as? [[String: Any]])
        let laptopCredential = try #require(try laptop.store.allCredentials().first)
        #expect(excluded.map { $0["id"] as? String } == [base64url(laptopCredential.id)])
        #expect(excluded.first?["type"] as? String == "public-key")
        let userHandle = base64url(try user(session.userID).userHandle)
        #expect((options["user"] as? [String: Any])?["id"] as? String == userHandle)
        #expect((options["rp"] as? [String: Any])?["id"] as? String == "login.test")

        // The authenticator that already holds a passkey for this user refuses (excludeCredentials).
        #expect(throws: AuthenticatorError.self) { _ = try laptop.makeCredential(optionsJSON: challenge.body) }

        let phone = api.authenticator()
        let credential = try phone.makeCredential(optionsJSON: challenge.body)
        let sessionID = try #require(challenge.json["auth_session"] as? String)
        let created = verify(session.accessToken, session: sessionID, response: credential.jsonString)
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        #expect(created.json["user_handle"] as? String == userHandle)
        #expect(created.headers["Location"]?.hasPrefix("http://login.test:8080/me/v1/authentication-methods/") == true)
        #expect(methods(session.accessToken).compactMap { $0["id"] as? String }.contains(id))

        // Single use: the same session cannot be verified twice.
        let replay = verify(session.accessToken, session: sessionID, response: credential.jsonString)
        #expect(replay.status == 400)
        #expect(replay.error == "invalid_grant")

        // The new passkey signs the same user in.
        #expect(try api.logIn(phone).userID == session.userID)
    }

    @Test("an enrollment session is bound to its user, expires, and cannot be redeemed at the token endpoint")
    func sessionBinding() throws {
        let alice = try api.signUp(api.authenticator(), email: "alice@example.com")
        let bob = try api.signUp(api.authenticator(), email: "bob@example.com")
        let phone = api.authenticator()

        let aliceChallenge = begin(alice.accessToken)
        let credential = try phone.makeCredential(optionsJSON: aliceChallenge.body)
        let stolen = verify(
            bob.accessToken, session: aliceChallenge.json["auth_session"] as? String ?? "",
            response: credential.jsonString)
        #expect(stolen.status == 400)
        #expect(stolen.errorDescription == "the auth_session belongs to another user")

        let late = begin(alice.accessToken)
        let lateCredential = try api.authenticator().makeCredential(optionsJSON: late.body)
        api.clock.advance(by: 61)
        let expired = verify(
            alice.accessToken, session: late.json["auth_session"] as? String ?? "", response: lateCredential.jsonString)
        #expect(expired.status == 400)
        #expect(expired.errorDescription == "the auth_session has expired")

        let grant = begin(alice.accessToken)
        let grantCredential = try api.authenticator().makeCredential(optionsJSON: grant.body)
        let body =
            #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(api.bootstrap.clientID)","#
            + #""auth_session":"\#(grant.json["auth_session"] as? String ?? "")","authn_response":\#(grantCredential.jsonString)}"#
        let token = api.send(.post, "/oauth/token", json: body)
        #expect(token.status == 400)
        #expect(token.error == "invalid_grant")
        #expect(methods(alice.accessToken).count == 1)
    }

    @Test("rename: 1 to 100 characters, only the user's own methods")
    func rename() throws {
        let session = try api.signUp(api.authenticator(), email: "rename@example.com")
        let id = try #require(methods(session.accessToken).first?["id"] as? String)
        let path = "/me/v1/authentication-methods/\(id.replacingOccurrences(of: "|", with: "%7C"))"
        let renamed = api.send(.patch, path, json: #"{"name":"Work laptop"}"#, token: session.accessToken)
        #expect(renamed.status == 200)
        #expect(renamed.json["name"] as? String == "Work laptop")
        #expect(methods(session.accessToken).first?["name"] as? String == "Work laptop")
        for (body, description) in [
            (#"{"name":""}"#, "name must be 1 to 100 characters"),
            (#"{"name":"\#(String(repeating: "x", count: 101))"}"#, "name must be 1 to 100 characters"),
            (#"{"name":7}"#, "name must be a string"),
            (#"{"name":"ok","type":"passkey"}"#, "unknown field type"),
            ("{}", "name is required"),
        ] {
            let reply = api.send(.patch, path, json: body, token: session.accessToken)
            #expect(reply.status == 400)
            #expect(reply.errorDescription == description)
        }
        let other = try api.signUp(api.authenticator(), email: "other@example.com")
        let foreign = api.send(.patch, path, json: #"{"name":"mine now"}"#, token: other.accessToken)
        #expect(foreign.status == 404)
        #expect(
            api.send(
                .patch, "/me/v1/authentication-methods/passkey%7Cnope", json: #"{"name":"x"}"#,
                token: session.accessToken
            ).status == 404)
    }

    @Test("delete: 204 while another passkey remains, 409 for the last one, 404 for someone else's")
    func delete() throws {
        let session = try api.signUp(api.authenticator(), email: "delete@example.com")
        #expect(try enroll(session.accessToken, with: api.authenticator()).status == 201)
        let ids = methods(session.accessToken).compactMap { $0["id"] as? String }
        #expect(ids.count == 2)
        let paths = ids.map { "/me/v1/authentication-methods/\($0.replacingOccurrences(of: "|", with: "%7C"))" }

        let other = try api.signUp(api.authenticator(), email: "someone@example.com")
        #expect(api.send(.delete, paths[0], token: other.accessToken).status == 404)

        #expect(api.send(.delete, paths[0], token: session.accessToken).status == 204)
        let last = api.send(.delete, paths[1], token: session.accessToken)
        #expect(last.status == 409)
        #expect(last.error == "conflict")
        #expect(methods(session.accessToken).compactMap { $0["id"] as? String } == [ids[1]])
    }

    @Test("at most 20 passkeys per user: the 21st enrollment is refused with 409")
    func maximum() throws {
        let session = try api.signUp(api.authenticator(), email: "many@example.com")
        for _ in 1..<20 {
            #expect(try enroll(session.accessToken, with: api.authenticator()).status == 201)
        }
        #expect(methods(session.accessToken).count == 20)
        let refused = begin(session.accessToken)
        #expect(refused.status == 409)
        #expect(refused.errorDescription == "the user already has the maximum of 20 passkeys")
    }

    @Test("401 without a user token or with a management token; 403 without the route's scope; 400 for bad bodies")
    func authorization() throws {
        let authenticator = api.authenticator()
        let session = try api.signUp(authenticator, email: "scopes@example.com")
        let routes: [(HTTPMethod, String, String?)] = [
            (.get, "/me/v1/authentication-methods", nil),
            (.post, "/me/v1/authentication-methods", #"{"type":"passkey"}"#),
            (.post, "/me/v1/authentication-methods/passkey%7Cnew/verify", #"{"auth_session":"x","authn_response":{}}"#),
            (.patch, "/me/v1/authentication-methods/passkey%7Cx", #"{"name":"x"}"#),
            (.delete, "/me/v1/authentication-methods/passkey%7Cx", nil),
        ]
        for (method, path, body) in routes {
            #expect(api.send(method, path, json: body).status == 401)
            let management = api.send(method, path, json: body, token: try api.managementToken())
            #expect(management.status == 401)
            #expect(management.error == "invalid_token")
        }

        // A My Account token with only the read scope.
        let challenge = api.send(.post, "/passkey/challenge", json: #"{"client_id":"\#(api.bootstrap.clientID)"}"#)
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        let body =
            #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(api.bootstrap.clientID)","#
            + #""auth_session":"\#(challenge.json["auth_session"] as? String ?? "")","authn_response":\#(assertion.jsonString),"#
            + #""audience":"\#(TokenService.myAccountAudience(api.tenant))","scope":"read:me:authentication_methods"}"#
        let readOnly = try #require(api.send(.post, "/oauth/token", json: body).json["access_token"] as? String)
        #expect(api.send(.get, "/me/v1/authentication-methods", token: readOnly).status == 200)
        let forbidden = begin(readOnly)
        #expect(forbidden.status == 403)
        #expect(forbidden.errorDescription == "this operation needs the create:me:authentication_methods scope")

        for (body, description) in [
            (#"{"type":"password"}"#, "type must be passkey"),
            ("{}", "type is required"),
            (#"{"type":"passkey","extra":1}"#, "unknown field extra"),
            (#"{"type":"passkey","connection":"Other"}"#, "connection is not the user's connection"),
        ] {
            let reply = begin(session.accessToken, body: body)
            #expect(reply.status == 400)
            #expect(reply.errorDescription == description)
        }
        let unknownID = api.send(
            .post, "/me/v1/authentication-methods/passkey%7Cabc/verify",
            json: #"{"auth_session":"x","authn_response":{}}"#,
            token: session.accessToken)
        #expect(unknownID.status == 404)
        let notObject = api.send(
            .post, "/me/v1/authentication-methods/passkey%7Cnew/verify",
            json: #"{"auth_session":"x","authn_response":"{}"}"#,
            token: session.accessToken)
        #expect(notObject.errorDescription == "authn_response must be an object")
    }

    @Test("another tenant's user token does not work here")
    func tenantIsolation() throws {
        let (other, _) = try api.addSecondTenant()
        let session = try api.signUp(api.authenticator(), email: "iso@example.com")
        _ = other
        let reply = api.send(.get, "/me/v1/authentication-methods", token: session.accessToken, host: "other.test")
        #expect(reply.status == 401)
    }

    private func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

import Foundation
import SesameService
import SesameStore
import Testing

@Suite("Management API: users and their authentication methods")
struct ManagementUsersTests {
    let api: APIHarness
    let token: String

    init() throws {
        api = try APIHarness()
        token = try api.managementToken()
    }

    private func path(_ id: String) -> String { "/api/v2/users/\(id.replacingOccurrences(of: "|", with: "%7C"))" }

    @Test("list, search, read, patch and delete users")
    func lifecycle() throws {
        let alice = try api.signUp(api.authenticator(), email: "alice@example.com")
        let bob = try api.signUp(api.authenticator(), email: "bob@example.org")

        let all = api.send(.get, "/api/v2/users", token: token)
        #expect(all.status == 200)
        #expect(Set(all.list.compactMap { $0["user_id"] as? String }) == [alice.userID, bob.userID])
        for query in ["alice", "email:%22alice*%22", "ALICE%40example"] {
            let found = api.send(.get, "/api/v2/users?q=\(query)", token: token)
            #expect(found.list.compactMap { $0["user_id"] as? String } == [alice.userID], "\(query)")
        }
        #expect(api.send(.get, "/api/v2/users?search=example.org", token: token).list.count == 1)
        // A term no identifier or name could hold is refused (PostgreSQL would cut it at a NUL).
        for query in ["a%00b", "alice%1B%5B31m", "ali%E2%80%AEce", "a%0Ab", String(repeating: "a", count: 257)] {
            let refused = api.send(.get, "/api/v2/users?q=\(query)", token: token)
            #expect(refused.status == 400 && refused.error == "invalid_request", "\(query)")
        }
        #expect(api.send(.get, "/api/v2/users?per_page=1&include_totals=true", token: token).json["total"] as? Int == 2)

        let read = api.send(.get, path(alice.userID), token: token)
        #expect(read.status == 200)
        #expect(read.json["email"] as? String == "alice@example.com")
        #expect(read.json["blocked"] as? Bool == false)
        #expect(read.json["last_login"] as? String == "2027-01-15T08:00:00.000Z")
        let identity = try #require((read.json["identities"] as? [[String: Any]])?.first)
        #expect(identity["connection"] as? String == "Username-Password-Authentication")
        #expect(identity["provider"] as? String == "auth0")

        let patched = api.send(
            .patch, path(alice.userID),
            json:
                #"{"name":"Alice A.","nickname":"al","user_metadata":{"plan":"pro","team":"blue"},"username":"alice_a"}"#,
            token: token)
        #expect(patched.status == 200)
        #expect(patched.json["name"] as? String == "Alice A.")
        #expect(patched.json["username"] as? String == "alice_a")
        #expect(patched.json["user_metadata"] as? [String: String] == ["plan": "pro", "team": "blue"])
        let merged = api.send(
            .patch, path(alice.userID), json: #"{"user_metadata":{"team":null,"seat":"3"},"nickname":null}"#,
            token: token)
        #expect(merged.json["user_metadata"] as? [String: String] == ["plan": "pro", "seat": "3"])
        #expect(merged.json["nickname"] == nil)
        #expect(merged.json["name"] as? String == "Alice A.")

        #expect(api.send(.delete, path(bob.userID), token: token).status == 204)
        #expect(api.send(.get, path(bob.userID), token: token).status == 404)
        #expect(try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: bob.userID) }.isEmpty)
        #expect(api.send(.delete, path(bob.userID), token: token).status == 404)
    }

    @Test("identifiers stay unique within the connection (409) and follow its policy (400)")
    func identifiers() throws {
        let alice = try api.signUp(api.authenticator(), email: "alice@example.com")
        _ = try api.signUp(api.authenticator(), email: "bob@example.com")
        let taken = api.send(.patch, path(alice.userID), json: #"{"email":"BOB@example.com"}"#, token: token)
        #expect(taken.status == 409)
        #expect(taken.errorDescription == "another user of this connection already has this email")

        let changed = api.send(.patch, path(alice.userID), json: #"{"email":"Alice2@Example.com"}"#, token: token)
        #expect(changed.json["email"] as? String == "alice2@example.com")
        #expect(changed.json["email_verified"] as? Bool == false)

        for (body, description) in [
            (#"{"email":"not-an-email"}"#, "email is not valid"),
            (#"{"email":null}"#, "email is required by the user's connection"),
            (#"{"phone_number":"+15550100"}"#, "phone_number is not enabled for the user's connection"),
            (#"{"username":"no spaces"}"#, "username is not valid"),
            (#"{"picture":"ftp://x"}"#, "picture must be an http(s) URL"),
            (#"{"blocked":"yes"}"#, "blocked must be a boolean"),
            (#"{"user_metadata":{"n":1}}"#, "user_metadata.n must be a string"),
            (#"{"user_id":"other"}"#, "unknown field user_id"),
            (#"{"name":""}"#, "name must be 1 to 300 characters"),
        ] {
            let reply = api.send(.patch, path(alice.userID), json: body, token: token)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.errorDescription == description)
        }
        let tooMany = (0..<11).map { #""k\#($0)":"v""# }.joined(separator: ",")
        let metadata = api.send(.patch, path(alice.userID), json: #"{"user_metadata":{\#(tooMany)}}"#, token: token)
        #expect(metadata.errorDescription == "user_metadata holds at most 10 values")
        #expect(api.send(.patch, path("sesame|unknown"), json: "{}", token: token).status == 404)
    }

    @Test("blocking a user stops passkey login")
    func blocking() throws {
        let authenticator = api.authenticator()
        let alice = try api.signUp(authenticator, email: "alice@example.com")
        #expect(api.send(.patch, path(alice.userID), json: #"{"blocked":true}"#, token: token).status == 200)
        #expect(throws: APIHarnessError.self) { _ = try api.logIn(authenticator) }
        #expect(api.send(.get, "/me/v1/authentication-methods", token: alice.accessToken).status == 401)
        #expect(api.send(.patch, path(alice.userID), json: #"{"blocked":false}"#, token: token).status == 200)
        #expect(try api.logIn(authenticator).userID == alice.userID)
    }

    @Test("lists a user's passkeys as Auth0 authentication methods and deletes one")
    func authenticationMethods() throws {
        let authenticator = api.authenticator()
        let alice = try api.signUp(authenticator, email: "alice@example.com")
        let reply = api.send(.get, path(alice.userID) + "/authentication-methods", token: token)
        #expect(reply.status == 200)
        let method = try #require(reply.list.first)
        let stored = try #require(
            try api.store.read { try $0.passkeys.list(tenantID: api.tenant.id, userID: alice.userID) }.first)
        #expect(method["id"] as? String == stored.id)
        #expect(method["type"] as? String == "passkey")
        #expect(method["credential_id"] as? String == method["key_id"] as? String)
        #expect((method["public_key"] as? String)?.isEmpty == false)
        #expect(method["credential_device_type"] as? String == "multi_device")
        #expect(method["aaguid"] as? String == "5c888366-4806-4874-9de7-87bca8539807")
        #expect(method["created_at"] as? String == "2027-01-15T08:00:00.000Z")

        let methodPath =
            path(alice.userID) + "/authentication-methods/" + stored.id.replacingOccurrences(of: "|", with: "%7C")
        let bob = try api.signUp(api.authenticator(), email: "bob@example.com")
        let wrongUser =
            path(bob.userID) + "/authentication-methods/" + stored.id.replacingOccurrences(of: "|", with: "%7C")
        #expect(api.send(.delete, wrongUser, token: token).status == 404)
        #expect(api.send(.delete, methodPath, token: token).status == 204)
        #expect(api.send(.get, path(alice.userID) + "/authentication-methods", token: token).list.isEmpty)
        #expect(api.send(.delete, methodPath, token: token).status == 404)
        #expect(throws: APIHarnessError.self) { _ = try api.logIn(authenticator) }
        #expect(api.send(.get, path("sesame|nobody") + "/authentication-methods", token: token).status == 404)
    }
}

import Foundation
import SesameService
import SesameStore
import Testing

@Suite("Management API: connections")
struct ManagementConnectionsTests {
    let api: APIHarness
    let token: String

    init() throws {
        api = try APIHarness()
        token = try api.managementToken()
    }

    static let validBody = #"""
        {"name":"Members","strategy":"auth0",
         "options":{"authentication_methods":{"password":{"enabled":false},"passkey":{"enabled":true}},
                    "passkey_options":{"challenge_ui":"button","progressive_enrollment_enabled":false,
                                       "local_enrollment_enabled":true},
                    "attributes":{"email":{"identifier":{"active":false}},
                                  "username":{"identifier":{"active":true},"signup":{"status":"required"}}},
                    "password_complexity_options":{"min_length":14}}}
        """#

    @Test("create, read, list, patch and delete a connection in Auth0's shape")
    func lifecycle() throws {
        let created = api.send(.post, "/api/v2/connections", json: Self.validBody, token: token)
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        #expect(created.json["strategy"] as? String == "auth0")
        #expect(created.json["realms"] as? [String] == ["Members"])
        #expect(created.json["is_default"] as? Bool == false)
        let options = try #require(created.json["options"] as? [String: Any])
        let passkeyOptions = try #require(options["passkey_options"] as? [String: Any])
        #expect(passkeyOptions["challenge_ui"] as? String == "button")
        #expect(passkeyOptions["progressive_enrollment_enabled"] as? Bool == false)
        let attributes = try #require(options["attributes"] as? [String: [String: [String: Any]]])
        #expect(attributes["email"]?["identifier"]?["active"] as? Bool == false)
        #expect(attributes["email"]?["signup"]?["status"] as? String == "inactive")
        #expect(attributes["username"]?["signup"]?["status"] as? String == "required")
        #expect(attributes["phone_number"]?["identifier"]?["active"] as? Bool == false)
        #expect((options["password_complexity_options"] as? [String: Any])?["min_length"] as? Int == 14)

        let record = try #require(try api.store.read { try $0.connections.get(tenantID: api.tenant.id, id: id) })
        #expect(record.identifiers == IdentifierPolicy(email: .disabled, phoneNumber: .disabled, username: .required))
        #expect(record.passkey.challengeUI == .button)
        #expect(
            record.password
                == PasswordPolicy(enabled: false, rules: "allowed: ascii-printable; minlength: 14; maxlength: 64;"))

        #expect(api.send(.get, "/api/v2/connections/\(id)", token: token).json["name"] as? String == "Members")
        let list = api.send(.get, "/api/v2/connections?include_totals=true", token: token)
        #expect(list.json["total"] as? Int == 2)

        let patched = api.send(
            .patch, "/api/v2/connections/\(id)",
            json:
                #"{"options":{"passkey_options":{"challenge_ui":"autofill"},"attributes":{"email":{"identifier":{"active":true}}},"passwordPolicy":"excellent"},"enabled_clients":["\#(api.bootstrap.clientID)"]}"#,
            token: token)
        #expect(patched.status == 200)
        #expect(patched.json["enabled_clients"] as? [String] == [api.bootstrap.clientID])
        let after = try #require(try api.store.read { try $0.connections.get(tenantID: api.tenant.id, id: id) })
        #expect(after.passkey.challengeUI == .autofill)
        #expect(after.passkey.progressiveEnrollmentEnabled == false)  // untouched
        #expect(after.identifiers.email == .optional)
        #expect(after.password.rules == "allowed: ascii-printable; minlength: 10; maxlength: 64;")

        #expect(api.send(.delete, "/api/v2/connections/\(id)", token: token).status == 204)
        #expect(api.send(.get, "/api/v2/connections/\(id)", token: token).status == 404)
    }

    @Test("the connection's passkey policy takes effect: disabled passkeys make its challenges 404")
    func policyTakesEffect() throws {
        let created = api.send(.post, "/api/v2/connections", json: #"{"name":"Closed"}"#, token: token)
        let id = try #require(created.json["id"] as? String)
        let challenge = #"{"client_id":"\#(api.bootstrap.clientID)","realm":"Closed"}"#
        #expect(api.send(.post, "/passkey/challenge", json: challenge).status == 200)
        let off = api.send(
            .patch, "/api/v2/connections/\(id)",
            json: #"{"options":{"authentication_methods":{"passkey":{"enabled":false}}}}"#, token: token)
        #expect(off.status == 200)
        #expect(api.send(.post, "/passkey/challenge", json: challenge).status == 404)
    }

    @Test("the default connection cannot be deleted; deleting another removes its users")
    func deletion() throws {
        let defaultID = try #require(api.tenant.defaultConnectionID)
        let refused = api.send(.delete, "/api/v2/connections/\(defaultID)", token: token)
        #expect(refused.status == 409)
        #expect(refused.error == "conflict")

        let id = try #require(
            api.send(.post, "/api/v2/connections", json: #"{"name":"Temporary"}"#, token: token).json["id"] as? String)
        let register = api.send(
            .post, "/passkey/register",
            json:
                #"{"client_id":"\#(api.bootstrap.clientID)","realm":"Temporary","user_profile":{"email":"t@example.com"}}"#
        )
        let credential = try api.authenticator().makeCredential(optionsJSON: register.body)
        let grant =
            #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(api.bootstrap.clientID)","realm":"Temporary","#
            + #""auth_session":"\#(register.json["auth_session"] as? String ?? "")","authn_response":\#(credential.jsonString)}"#
        #expect(api.send(.post, "/oauth/token", json: grant).status == 200)
        #expect(api.send(.get, "/api/v2/users", token: token).list.count == 1)

        #expect(api.send(.delete, "/api/v2/connections/\(id)", token: token).status == 204)
        #expect(api.send(.get, "/api/v2/users", token: token).list.isEmpty)
    }

    @Test(
        "each broken field is refused with 400 naming it",
        arguments: [
            (
                #"{"name":"Bad Name!"}"#,
                "name must be 1 to 128 letters, digits or hyphens, not starting or ending with one"
            ),
            (
                #"{"name":"Social","strategy":"google-oauth2"}"#,
                "strategy must be auth0 (a database connection) or apple (Sign in with Apple)"
            ),
            (#"{"name":"X","options":{"mfa":{}}}"#, "unknown field options.mfa"),
            (
                #"{"name":"X","options":{"passkey_options":{"challenge_ui":"popup"}}}"#,
                "options.passkey_options.challenge_ui must be one of both, autofill, button"
            ),
            (
                #"{"name":"X","options":{"passkey_options":{"local_enrollment_enabled":"yes"}}}"#,
                "options.passkey_options.local_enrollment_enabled must be a boolean"
            ),
            (
                #"{"name":"X","options":{"authentication_methods":{"passkey":{"enabled":true,"extra":1}}}}"#,
                "unknown field options.authentication_methods.passkey.extra"
            ),
            (
                #"{"name":"X","options":{"attributes":{"email":{"signup":{"status":"maybe"}}}}}"#,
                "options.attributes.email.signup.status must be one of required, optional, inactive"
            ),
            (
                #"{"name":"X","options":{"attributes":{"email":{"identifier":{"active":false}},"username":{"identifier":{"active":false}}}}}"#,
                "options.attributes must leave at least one identifier active"
            ),
            (#"{"name":"X","options":{"attributes":{"fax":{}}}}"#, "unknown field options.attributes.fax"),
            (
                #"{"name":"X","options":{"password_complexity_options":{"min_length":500}}}"#,
                "options.password_complexity_options.min_length must be from 1 to 128"
            ),
            (
                #"{"name":"X","options":{"passwordPolicy":"strong"}}"#,
                "options.passwordPolicy must be one of none, low, fair, good, excellent"
            ),
            (#"{"name":"X","enabled_clients":["nope"]}"#, "enabled_clients[0] is not a client of this tenant"),
        ])
    func validation(body: String, description: String) {
        let reply = api.send(.post, "/api/v2/connections", json: body, token: token)
        #expect(reply.status == 400)
        #expect(reply.error == "invalid_request")
        #expect(reply.errorDescription == description)
    }

    @Test("names are unique and fixed after creation")
    func names() throws {
        let taken = api.send(
            .post, "/api/v2/connections", json: #"{"name":"Username-Password-Authentication"}"#, token: token)
        #expect(taken.status == 409)
        let id = try #require(api.tenant.defaultConnectionID)
        let rename = api.send(.patch, "/api/v2/connections/\(id)", json: #"{"name":"Renamed"}"#, token: token)
        #expect(rename.status == 400)
        #expect(rename.errorDescription == "name cannot be changed after the connection is created")
        #expect(api.send(.patch, "/api/v2/connections/con_unknown", json: "{}", token: token).status == 404)
    }
}

import Foundation
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import Testing

/// Every public route answers malformed and hostile input with the status docs/api.md gives, a JSON
/// error body, no 500, and no write.
@Suite("Hostile input")
struct HostileInputTests {
    static let jsonRoutes = ["/passkey/register", "/passkey/challenge", "/oauth/token", "/oauth/revoke"]

    func expectError(
        _ response: HTTPResponse, _ status: Int, _ code: String, _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, comment, sourceLocation: sourceLocation)
        let body = InProcessSesame.json(response)
        #expect(body["error"] as? String == code, "\(body)", sourceLocation: sourceLocation)
        #expect((body["error_description"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    }

    @Test(
        arguments: jsonRoutes,
        [
            "", "{", "[]", "null", "\"x\"", "{\"client_id\":}", "{\"client_id\":\"a\",}", "{\"a\":1,\"a\":2}",
            String(repeating: "[", count: 100),
        ])
    func malformedJSONIs400(route: String, body: String) throws {
        let sesame = try InProcessSesame()
        expectError(sesame.send(.post, route, body: body), 400, "invalid_request", "\(route) \(body)")
        #expect(try sesame.counts().users == 0)
    }

    /// The password and MFA routes: the database routes answer `invalid_signup` for signup (Auth0's
    /// code) and `invalid_request` otherwise, in Auth0's database shape, never 500.
    static let passwordRoutes = [
        ("/dbconnections/signup", "invalid_signup"), ("/dbconnections/change_password", "invalid_request"),
        ("/dbconnections/reset_password", "invalid_request"), ("/mfa/challenge", "invalid_request"),
    ]

    @Test(arguments: passwordRoutes)
    func malformedBodiesAtThePasswordAndMFARoutesAre400(route: String, code: String) throws {
        let sesame = try InProcessSesame()
        for body in [
            "", "{", "[]", "null", "\"x\"", "{\"client_id\":}", "{\"a\":1,\"a\":2}", String(repeating: "[", count: 100),
            #"{"client_id":5}"#, #"{"password":["x"]}"#, #"{"email":{"a":1}}"#, #"{"unknown":true}"#,
        ] {
            let response = sesame.send(.post, route, body: body)
            #expect(response.status == 400, "\(route) \(body)")
            let json = InProcessSesame.json(response)
            #expect(json["error"] as? String == code, "\(route) \(body): \(json)")
            #expect((json["error_description"] as? String)?.isEmpty == false)
        }
        let wrongType = sesame.send(.post, route, body: "{}", contentType: "text/plain")
        #expect(wrongType.status == 415, "\(route)")
        #expect(try sesame.counts().users == 0)
        // Without a token the MFA API's other routes are 401, whatever the body.
        for (method, path) in [(HTTPMethod.post, "/mfa/associate"), (.get, "/mfa/authenticators")] {
            #expect(sesame.send(method, path, body: method == .post ? "{" : nil).status == 401)
        }
    }

    @Test(arguments: jsonRoutes)
    func wrongContentTypeIs415(route: String) throws {
        let sesame = try InProcessSesame()
        let body = #"{"client_id":"\#(sesame.bootstrap.clientID)"}"#
        expectError(sesame.send(.post, route, body: body, contentType: "text/plain"), 415, "unsupported_media_type")
        expectError(sesame.send(.post, route, body: body, contentType: nil), 415, "unsupported_media_type")
    }

    @Test(arguments: [
        ("/passkey/register", #"{"client_id":5,"user_profile":{"email":"a@b.co"}}"#, "client_id must be a string"),
        ("/passkey/register", #"{"client_id":"C","user_profile":"a@b.co"}"#, "user_profile must be an object"),
        ("/passkey/register", #"{"client_id":"C","user_profile":{"email":7}}"#, "user_profile.email must be a string"),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"email":"a@b.co","role":"admin"}}"#,
            "unknown field user_profile.role"
        ),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"email":"a@b.co"},"user_metadata":{"a":1}}"#,
            "user_metadata.a must be a string"
        ),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"email":"a@b.co"},"admin":true}"#,
            "unknown field admin"
        ),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"email":"a@b.co"},"organization":"org_1"}"#,
            "organization is not supported by this tenant"
        ),
        (
            "/oauth/token",
            #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"C","organization":"org_1"}"#,
            "organization is not supported by this tenant"
        ),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"email":"a@b.co"},"scope":7}"#,
            "scope must be a string"
        ),
        ("/passkey/register", #"{"client_id":"C"}"#, "user_profile is required"),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"email":"not-an-email"}}"#,
            "user_profile.email is not valid"
        ),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"username":"ada"}}"#,
            "user_profile.email is required by this connection"
        ),
        (
            "/passkey/register", #"{"client_id":"C","user_profile":{"email":"a@b.co","phone_number":"+15551234567"}}"#,
            "user_profile.phone_number is not enabled for this connection"
        ),
        ("/passkey/challenge", #"{"client_id":["C"]}"#, "client_id must be a string"),
        ("/passkey/challenge", #"{"client_id":"C","realm":"nope"}"#, "realm is not a connection of this tenant"),
        ("/oauth/token", #"{"grant_type":7,"client_id":"C"}"#, "grant_type must be a string"),
        (
            "/oauth/token", #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"C"}"#,
            "auth_session is required"
        ),
        (
            "/oauth/token",
            #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"C","auth_session":"x","authn_response":5}"#,
            "authn_response must be an object"
        ),
        ("/oauth/token", #"{"grant_type":"refresh_token","client_id":"C"}"#, "refresh_token is required"),
        ("/oauth/revoke", #"{"client_id":"C"}"#, "token is required"),
    ])
    func wrongTypesUnknownFieldsAndBadValuesAre400NamingTheField(route: String, body: String, message: String) throws {
        let sesame = try InProcessSesame()
        let response = sesame.send(
            .post, route, body: body.replacingOccurrences(of: #""C""#, with: "\"\(sesame.bootstrap.clientID)\""))
        expectError(response, 400, "invalid_request")
        #expect(InProcessSesame.json(response)["error_description"] as? String == message)
        #expect(try sesame.counts().users == 0)
    }

    @Test(arguments: [
        ("/passkey/register", #"{"client_id":"nobody","user_profile":{"email":"a@b.co"}}"#),
        ("/passkey/challenge", #"{"client_id":"nobody"}"#),
        ("/oauth/token", #"{"grant_type":"refresh_token","client_id":"nobody","refresh_token":"x"}"#),
        ("/oauth/revoke", #"{"client_id":"nobody","token":"x"}"#),
    ])
    func unknownClientIs401(route: String, body: String) throws {
        let sesame = try InProcessSesame()
        let response = sesame.send(.post, route, body: body)
        expectError(response, 401, "invalid_client")
        // Only a client that authenticated with Basic is challenged (RFC 6749 §5.2).
        #expect(response.headers["WWW-Authenticate"] == nil)
    }

    @Test func confidentialClientNeedsItsSecret() throws {
        let sesame = try InProcessSesame()
        let id = sesame.bootstrap.managementClientID
        let audience = "https://login.example.test/api/v2/"
        let missing = sesame.send(
            .post, "/oauth/token",
            body: #"{"grant_type":"client_credentials","client_id":"\#(id)","audience":"\#(audience)"}"#)
        expectError(missing, 401, "invalid_client")
        let wrong = sesame.send(
            .post, "/oauth/token",
            body:
                #"{"grant_type":"client_credentials","client_id":"\#(id)","client_secret":"wrong","audience":"\#(audience)"}"#
        )
        expectError(wrong, 401, "invalid_client")
        let right = sesame.send(
            .post, "/oauth/token",
            body:
                #"{"grant_type":"client_credentials","client_id":"\#(id)","client_secret":"\#(sesame.bootstrap.managementClientSecret)","audience":"\#(audience)"}"#
        )
        #expect(right.status == 200)
        // The same with HTTP Basic, form-encoded.
        let basic = Data("\(id):\(sesame.bootstrap.managementClientSecret)".utf8).base64EncodedString()
        let form = sesame.send(
            .post, "/oauth/token",
            body:
                "grant_type=client_credentials&audience=\(audience.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
            contentType: "application/x-www-form-urlencoded", headers: ["Authorization": "Basic \(basic)"])
        #expect(form.status == 200, "\(String(decoding: form.body, as: UTF8.self))")
    }

    @Test func aFailedBasicAuthenticationIsChallenged() throws {
        let sesame = try InProcessSesame()
        let basic = Data("\(sesame.bootstrap.managementClientID):wrong".utf8).base64EncodedString()
        let response = sesame.send(
            .post, "/oauth/token", body: "grant_type=client_credentials&audience=x",
            contentType: "application/x-www-form-urlencoded", headers: ["Authorization": "Basic \(basic)"])
        expectError(response, 401, "invalid_client")
        #expect(response.headers["WWW-Authenticate"] == #"Basic realm="sesame""#)
    }

    @Test func clientWithoutTheGrantIs403() throws {
        let sesame = try InProcessSesame()
        try sesame.addClient(id: "no-passkeys", grants: [.refreshToken])
        expectError(
            sesame.send(.post, "/passkey/challenge", body: #"{"client_id":"no-passkeys"}"#), 403, "unauthorized_client")
        expectError(
            sesame.send(
                .post, "/passkey/register", body: #"{"client_id":"no-passkeys","user_profile":{"email":"a@b.co"}}"#),
            403, "unauthorized_client")
        expectError(
            sesame.send(
                .post, "/oauth/token",
                body:
                    #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"no-passkeys","auth_session":"x","authn_response":{}}"#
            ),
            403, "unauthorized_client")
    }

    @Test func unsupportedGrantType() throws {
        let sesame = try InProcessSesame()
        expectError(
            sesame.send(
                .post, "/oauth/token", body: #"{"grant_type":"implicit","client_id":"\#(sesame.bootstrap.clientID)"}"#),
            400, "unsupported_grant_type")
    }

    @Test func reusedForeignAndUnknownSessionsAreInvalidGrant() throws {
        let sesame = try InProcessSesame()
        try sesame.addClient(id: "other-app", grants: [.webAuthn])
        let authenticator = sesame.authenticator()
        let (session, options) = sesame.signupChallenge(email: "ada@example.com")
        let registration = try authenticator.makeCredential(optionsJSON: options)
        // Another client presenting this session: refused, and the session is spent.
        expectError(
            sesame.send(
                .post, "/oauth/token",
                body: sesame.tokenBody(session: session, response: registration.jsonString, clientID: "other-app")),
            400, "invalid_grant")
        expectError(
            sesame.send(
                .post, "/oauth/token", body: sesame.tokenBody(session: session, response: registration.jsonString)),
            400, "invalid_grant")
        expectError(
            sesame.send(
                .post, "/oauth/token", body: sesame.tokenBody(session: "made-up", response: registration.jsonString)),
            400, "invalid_grant")
        #expect(try sesame.counts().users == 0)
    }

    @Test(arguments: ["attestationObject", "clientDataJSON"])
    func tamperedAttestationIsInvalidGrantWithNoWrite(field: String) throws {
        let sesame = try InProcessSesame()
        let (session, options) = sesame.signupChallenge(email: "ada@example.com")
        // Packed self attestation signs the authenticator data, so no byte of it can change unseen
        // (with `none`, an attacker who controls the client can alter unsigned fields, as WebAuthn allows).
        var authenticator = sesame.authenticator()
        var configuration = authenticator.configuration
        configuration.attestation = .packed
        authenticator = SoftwareAuthenticator(configuration: configuration)
        let registration = try authenticator.makeCredential(optionsJSON: options)
        let tampered = try Self.tamper(registration.json, field: field)
        expectError(
            sesame.send(.post, "/oauth/token", body: sesame.tokenBody(session: session, response: tampered)), 400,
            "invalid_grant")
        #expect(try sesame.counts() == (0, 0))
    }

    @Test(arguments: ["signature", "authenticatorData", "clientDataJSON", "userHandle"])
    func tamperedAssertionIsInvalidGrant(field: String) throws {
        let sesame = try InProcessSesame()
        let authenticator = sesame.authenticator()
        let (signupSession, signupOptions) = sesame.signupChallenge(email: "ada@example.com")
        let registration = try authenticator.makeCredential(optionsJSON: signupOptions)
        #expect(
            sesame.send(
                .post, "/oauth/token", body: sesame.tokenBody(session: signupSession, response: registration.jsonString)
            ).status == 200)
        let (session, options) = sesame.loginChallenge()
        let assertion = try authenticator.getAssertion(optionsJSON: options)
        let tampered = try Self.tamper(assertion.json, field: field)
        expectError(
            sesame.send(.post, "/oauth/token", body: sesame.tokenBody(session: session, response: tampered)), 400,
            "invalid_grant")
    }

    @Test func wrongOriginIsInvalidGrant() throws {
        let sesame = try InProcessSesame()
        let (session, options) = sesame.signupChallenge(email: "ada@example.com")
        let registration = try sesame.authenticator(origin: .web("https://evil.example")).makeCredential(
            optionsJSON: options)
        let response = sesame.send(
            .post, "/oauth/token", body: sesame.tokenBody(session: session, response: registration.jsonString))
        expectError(response, 400, "invalid_grant")
        #expect((InProcessSesame.json(response)["error_description"] as? String)?.contains("origin") == true)
    }

    @Test func unknownHostIs404AndUnknownRouteIs404AndWrongMethodIs405() throws {
        let sesame = try InProcessSesame()
        expectError(sesame.send(.post, "/passkey/challenge", body: "{}", host: "other.example"), 404, "not_found")
        expectError(sesame.send(.get, "/nope"), 404, "not_found")
        let wrongMethod = sesame.send(.get, "/passkey/challenge")
        expectError(wrongMethod, 405, "method_not_allowed")
        #expect(wrongMethod.headers["Allow"]?.contains("POST") == true)
    }

    @Test func passkeysDisabledIs404() throws {
        let sesame = try InProcessSesame()
        try sesame.store.write(.durable) { transaction in
            var connection = try #require(
                try transaction.connections.get(tenantID: sesame.tenant.id, name: "Username-Password-Authentication"))
            connection.passkey.enabled = false
            try transaction.connections.update(connection)
        }
        expectError(
            sesame.send(.post, "/passkey/challenge", body: #"{"client_id":"\#(sesame.bootstrap.clientID)"}"#), 404,
            "not_found")
    }

    /// Flips one byte in the middle of a base64url member of `response` in credential JSON.
    static func tamper(_ json: [UInt8], field: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        var response = try #require(object["response"] as? [String: Any])
        let value = try #require(response[field] as? String)
        var characters = Array(value)
        let index = characters.count / 2
        characters[index] = characters[index] == "A" ? "B" : "A"
        response[field] = String(characters)
        object["response"] = response
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}

import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameTesting
import Synchronization

/// `TestSesame` live: a real `SesameApplication` on SQLite behind a real HTTPServer on a loopback
/// port, with the tenant at `http://localhost:<port>`, and the raw-socket helpers the live suites use.
final class LiveSesame: @unchecked Sendable {  // immutable after init; the server is thread-safe
    let sesame: TestSesame
    var store: any SesameStore { sesame.store }
    var clock: ManualClock { sesame.clock }
    var application: SesameApplication { sesame.application }
    let server: HTTPServer
    var bootstrap: BootstrapResult { sesame.bootstrap }
    var tenant: TenantRecord { sesame.tenant }
    var port: Int { sesame.port }
    var origin: String { "http://localhost:\(port)" }

    /// Every log line the server wrote (debug level and up).
    var log: CapturedLog { sesame.log }

    init(rateLimitPerMinute: Int = 0, limits: ServerLimits = ServerLimits()) throws {
        var options = TestSesame.Options()
        options.rateLimitPerMinute = rateLimitPerMinute
        options.start = Date()
        sesame = try TestSesame(.live(limits: limits), store: .sqlite, options: options)
        server = try sesame.liveServer
    }

    /// One request on a fresh connection, with `Host: localhost:<port>`.
    func send(
        _ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = "application/json",
        headers: [String: String] = [:]
    ) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\n"
        if let body {
            if let contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "Content-Length: \(body.count)\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        try client.send(Array(head.utf8) + (body ?? []))
        return try client.readResponse(head: method == "HEAD")
    }

    func post(_ path: String, json: String, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        try send("POST", path, body: Array(json.utf8), headers: headers)
    }

    /// A software authenticator reporting this server's origin (or `origin`).
    func authenticator(origin: Origin? = nil, counter: AuthenticatorConfiguration.SignCounter = .zero)
        -> SoftwareAuthenticator
    {
        TestSesame.authenticator(origin: origin ?? .web(self.origin), counter: counter)
    }

    // MARK: Flows

    /// Signup challenge → authenticator → token. Returns the token response.
    func signUp(
        email: String, authenticator: SoftwareAuthenticator, scope: String = "openid profile email offline_access"
    ) throws -> [String: Any] {
        let challenge = try post(
            "/passkey/register", json: #"{"client_id":"\#(bootstrap.clientID)","user_profile":{"email":"\#(email)"}}"#)
        guard challenge.status == 200 else { throw LiveError.status(challenge.status, challenge.text) }
        let registration = try authenticator.makeCredential(optionsJSON: challenge.body)
        let session = try LiveSesame.object(challenge.body)["auth_session"] as? String ?? ""
        return try token(session: session, response: registration.jsonString, scope: scope)
    }

    /// Login challenge → authenticator → token.
    func logIn(authenticator: SoftwareAuthenticator, scope: String = "openid profile email") throws -> [String: Any] {
        let challenge = try post("/passkey/challenge", json: #"{"client_id":"\#(bootstrap.clientID)"}"#)
        guard challenge.status == 200 else { throw LiveError.status(challenge.status, challenge.text) }
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        let session = try LiveSesame.object(challenge.body)["auth_session"] as? String ?? ""
        return try token(session: session, response: assertion.jsonString, scope: scope)
    }

    func tokenRequest(session: String, response: String, scope: String) -> String {
        #"{"grant_type":"urn:okta:params:oauth:grant-type:webauthn","client_id":"\#(bootstrap.clientID)","auth_session":"\#(session)","authn_response":\#(response),"scope":"\#(scope)"}"#
    }

    func token(session: String, response: String, scope: String) throws -> [String: Any] {
        let reply = try post("/oauth/token", json: tokenRequest(session: session, response: response, scope: scope))
        guard reply.status == 200 else { throw LiveError.status(reply.status, reply.text) }
        return try LiveSesame.object(reply.body)
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw LiveError.notJSON
        }
        return object
    }

    /// The claims of a JWT (no verification: tests check signatures through JWKS separately).
    static func claims(_ jwt: String) throws -> [String: Any] {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3 else { throw LiveError.notJSON }
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        guard let data = Data(base64Encoded: payload) else { throw LiveError.notJSON }
        return try object(Array(data))
    }

    /// Users in the store (to prove a rejected request wrote nothing).
    func userCount() throws -> Int {
        try store.read { try $0.users.search(tenantID: tenant.id, query: nil, page: Page(offset: 0, limit: 100)).count }
    }
}

enum LiveError: Error {
    case status(Int, String)
    case notJSON
}

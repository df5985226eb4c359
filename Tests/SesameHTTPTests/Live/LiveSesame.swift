import Foundation
import SesameCrypto
import SesameHTTP
import SesameSQLite
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import Synchronization

/// A real `SesameApplication` on SQLite behind a real HTTPServer on a loopback port, bootstrapped
/// with a tenant whose public URL is `http://localhost:<port>`.
final class LiveSesame: @unchecked Sendable {  // immutable after init; the server is thread-safe
    let directory: URL
    let store: SQLiteStore
    let clock: ManualClock
    let application: SesameApplication
    let server: HTTPServer
    let bootstrap: BootstrapResult
    let tenant: TenantRecord
    var port: Int { server.port }
    var origin: String { "http://localhost:\(port)" }

    /// Every log line the server wrote (debug level and up).
    let log = LogCapture()

    init(rateLimitPerMinute: Int = 0, limits: ServerLimits = ServerLimits()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("sesame.db").path)
        clock = ManualClock(Date())
        let masterKey = try MasterKey.generate()
        application = SesameApplication(
            store: store, masterKey: masterKey, clock: clock, rateLimitPerMinute: rateLimitPerMinute)
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.limits = limits
        configuration.threads = 2
        server = try HTTPServer(
            configuration: configuration, router: application.router(), metrics: application.metrics,
            log: RequestLog(level: .debug, sink: { [log] line in log.append(line) }))
        (bootstrap, tenant) = try Bootstrap.initialize(
            store: store, publicURL: "http://localhost:\(server.port)", random: SystemRandom(), now: clock.now())
    }

    deinit {
        server.stop(gracePeriod: 1)
        try? FileManager.default.removeItem(at: directory)
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
        var configuration = AuthenticatorConfiguration()
        configuration.origin = origin ?? .web(self.origin)
        configuration.signCounter = counter
        return SoftwareAuthenticator(configuration: configuration)
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

/// Log lines captured from the server.
final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

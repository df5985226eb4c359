import Foundation
import SesameSoftwareAuthenticator

#if canImport(Glibc)
    import Glibc
#endif

/// The same load against `sesame-floor-server`, an ideal server that does only what no passkey
/// server can skip: the HTTP exchanges over this transport, the crypto of the floor, and (in its
/// second configuration) the fewest SQLite writes. Its CPU per login and per refresh is what any
/// server costs on this core, so Sesame's ratio to it is the part a faster Sesame could remove.
struct FloorPhase {
    /// What one real login and one real refresh sent to Sesame and got back: the floor server is
    /// sent the same bodies and answers with the same number of bytes.
    struct Sample {
        var challengeRequest: String
        var loginRequest: String
        var refreshRequest: String
        var challengeAnswerBytes: Int
        var loginAnswerBytes: Int
        var refreshAnswerBytes: Int
    }

    /// Server CPU per operation in one configuration of the floor server.
    struct Result {
        var loginMicroseconds: Double
        var refreshMicroseconds: Double
    }

    let settings: LoadSettings
    let binary: String
    let sample: Sample
    let directory: String

    /// One login (a user's passkey) and one refresh (a chain's first token) against Sesame, recorded.
    static func sample(_ run: LoadRun, login user: SoftwareAuthenticator, refreshToken: String) throws -> Sample {
        let client = SesameClient(connection: try HTTPConnection(port: run.port), clientID: run.clientID)
        let challengeRequest = #"{"client_id":"\#(run.clientID)"}"#
        let challenge = try client.connection.post("/passkey/challenge", json: challengeRequest)
        try SesameClient.expect200(challenge, "POST /passkey/challenge (sample)")
        guard let session = SesameClient.stringField("auth_session", in: challenge.body) else {
            throw LoadError("no auth_session in the sample challenge")
        }
        let assertion = try user.getAssertion(optionsJSON: challenge.body)
        let loginRequest = client.tokenRequest(
            session: session, response: assertion.jsonString, scope: "openid profile email")
        let login = try client.connection.post("/oauth/token", json: loginRequest)
        try SesameClient.expect200(login, "POST /oauth/token (sample login)")
        let refreshRequest = client.refreshRequest(refreshToken)
        let refresh = try client.connection.post("/oauth/token", json: refreshRequest)
        try SesameClient.expect200(refresh, "POST /oauth/token (sample refresh)")
        return Sample(
            challengeRequest: challengeRequest, loginRequest: loginRequest, refreshRequest: refreshRequest,
            challengeAnswerBytes: challenge.body.count, loginAnswerBytes: login.body.count,
            refreshAnswerBytes: refresh.body.count)
    }

    /// `count` logins and `count` refreshes against the floor server, with or without its SQLite
    /// writes, pinned to the server's core like Sesame.
    func measure(count: Int, storage: Bool) throws -> Result {
        let port = try LoadRun.freePort()
        var arguments = [
            binary, "--port", String(port), "--challenge-bytes", String(sample.challengeAnswerBytes),
            "--login-bytes", String(sample.loginAnswerBytes), "--refresh-bytes", String(sample.refreshAnswerBytes),
        ]
        let database = directory + "/floor-\(storage ? "sqlite" : "none").db"
        if storage { arguments += ["--sqlite", database] }
        if settings.serverCore >= 0 { arguments = ["taskset", "-c", String(settings.serverCore)] + arguments }
        let server = try ServerProcess(arguments: arguments, logPath: directory + "/floor-server.log")
        defer { server.stop() }
        try waitForHealth(server, port: port)

        _ = try phases(server, port: port, count: min(count, 1_000))  // warm-up
        let (login, refresh) = try phases(server, port: port, count: count)
        return Result(
            loginMicroseconds: login * 1e6 / Double(count), refreshMicroseconds: refresh * 1e6 / Double(count))
    }

    /// `count` logins, then `count` refreshes; the server's CPU seconds across each.
    private func phases(_ server: ServerProcess, port: Int, count: Int) throws -> (login: Double, refresh: Double) {
        let sample = self.sample
        let connections = settings.connections
        let login = try cpu(of: server) {
            try Self.drive(port: port, connections: connections, count: count) { connection in
                try Self.expect(connection.post("/passkey/challenge", json: sample.challengeRequest))
                try Self.expect(connection.post("/oauth/token", json: sample.loginRequest))
            }
        }
        let refresh = try cpu(of: server) {
            try Self.drive(port: port, connections: connections, count: count) { connection in
                try Self.expect(connection.post("/oauth/refresh", json: sample.refreshRequest))
            }
        }
        return (login, refresh)
    }

    private func waitForHealth(_ server: ServerProcess, port: Int) throws {
        let deadline = Clock.nanoseconds() + 10_000_000_000
        while Clock.nanoseconds() < deadline {
            if let connection = try? HTTPConnection(port: port),
                let health = try? connection.request("GET", "/healthz"), health.status == 200
            {
                return
            }
            if server.hasExited { throw LoadError("sesame-floor-server exited; see \(directory)/floor-server.log") }
            usleep(1_000)
        }
        throw LoadError("sesame-floor-server did not answer /healthz within 10 s")
    }

    /// The server's CPU seconds (user + system) across `body`.
    private func cpu(of server: ServerProcess, _ body: () throws -> Void) throws -> Double {
        let before = try server.cpuSeconds()
        try body()
        return try server.cpuSeconds() - before
    }

    private static func expect(_ response: HTTPConnection.Response) throws {
        guard response.status == 200 else {
            throw LoadError("sesame-floor-server answered \(response.status): its work failed")
        }
    }

    /// `count` operations over `connections` keep-alive connections, one thread each.
    private static func drive(
        port: Int, connections: Int, count: Int, _ operation: @escaping @Sendable (HTTPConnection) throws -> Void
    ) throws {
        let next = WorkCounter()
        _ = try Workers.run(count: connections) { _ in
            do {
                let connection = try HTTPConnection(port: port)
                while next.next() < count { try operation(connection) }
            } catch {
                next.abort()
                throw error
            }
        }
    }
}

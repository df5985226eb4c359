import Foundation
import SesameSoftwareAuthenticator

#if canImport(Glibc)
    import Glibc
#endif

/// One benchmark run: a fresh data directory, `sesame init`, the server started (and timed)
/// `starts` times, ES256 tokens switched on through the Management API, users signed up, then
/// the measured logins and refresh grants.
final class LoadRun {
    let settings: LoadSettings
    let directory: String
    let port: Int
    var server: ServerProcess?
    var bootstrap: [String: Any] = [:]
    var clientID = ""
    var origin: String { "http://localhost:\(port)" }

    init(settings: LoadSettings) throws {
        self.settings = settings
        // $TMPDIR picks the file system the server's database lives on (tmpfs takes the disk out).
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/sesame-loadbench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw LoadError("mkdtemp failed") }
        directory = String(cString: made)
        port = try Self.freePort()
    }

    /// Stops the server if it runs and removes the data directory (unless --keep).
    func cleanUp() {
        if let server {
            server.stop()
            self.server = nil
        }
        if let pidFile = settings.pidFile { unlink(pidFile) }
        if !settings.keep { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// A port the kernel just handed out (bound to port 0, then released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoadError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw LoadError("bind failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw LoadError("getsockname failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: Setup

    /// `sesame init --json` into the data directory.
    func initialise() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: settings.sesame)
        process.arguments =
            ["init", "--data", directory, "--public-url", origin, "--json"]
            + (settings.store.map { ["--store", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let client = object["client_id"] as? String
        else {
            throw LoadError("sesame init failed: \(String(decoding: data, as: UTF8.self))")
        }
        bootstrap = object
        clientID = client
    }

    /// Starts the server and returns the milliseconds from posix_spawn to the first 200 from
    /// GET /healthz (connect attempts in a tight loop, 50 µs apart).
    func start() throws -> Double {
        // Rate limits are off in both configurations: every request comes from one address.
        let tuning =
            settings.serverConfiguration == .tuned ? ["--threads", "1", "--log-level", "error"] : []
        var arguments =
            [
                settings.sesame, "serve", "--data", directory, "--listen", "127.0.0.1:\(port)", "--public-url", origin,
                "--rate-limit-per-ip", "0", "--trusted-proxy", "127.0.0.1",
            ] + tuning + (settings.store.map { ["--store", $0] } ?? [])
        // A profiler in front of the server (LOADBENCH_SERVER_WRAPPER="valgrind --tool=callgrind ...").
        if let wrapper = settings.serverWrapper {
            arguments = wrapper.split(separator: " ").map(String.init) + arguments
        }
        if settings.serverCore >= 0 { arguments = ["taskset", "-c", String(settings.serverCore)] + arguments }
        let process = try ServerProcess(arguments: arguments, logPath: directory + "/server.log")
        server = process
        if let pidFile = settings.pidFile {
            try "\(process.pid)\n".write(toFile: pidFile, atomically: true, encoding: .utf8)
        }
        let deadline = process.spawnedAt + 20_000_000_000
        while Clock.nanoseconds() < deadline {
            if let fd = try? HTTPConnection.open(port: port) {
                close(fd)
                let connection = try HTTPConnection(port: port)
                let health = try connection.request("GET", "/healthz")
                if health.status == 200 {
                    return Double(Clock.nanoseconds() - process.spawnedAt) / 1e6
                }
            }
            if process.hasExited {
                server = nil
                let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
                throw LoadError("the server exited during start:\n\(log)")
            }
            usleep(50)
        }
        throw LoadError("the server did not answer /healthz within 20 s")
    }

    /// Runs LOADBENCH_PHASE_HOOK (`sh -c HOOK hook PHASE SERVER_PID`) if set, and waits for it:
    /// e.g. `callgrind_control --zero` at "logins-start" and `--dump` at "logins-end".
    func phase(_ name: String) throws {
        guard let hook = settings.phaseHook, let server else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", hook, "hook", name, String(server.pid)]
        try process.run()
        process.waitUntilExit()
    }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        server?.stop()
        server = nil
    }

    /// Switches the native client to ES256 tokens with a client_credentials token for the
    /// Management API (`PATCH /api/v2/clients/{id}`).
    func useES256Tokens() throws {
        guard let managementID = bootstrap["management_client_id"] as? String,
            let secret = bootstrap["management_client_secret"] as? String
        else { throw LoadError("sesame init printed no management client") }
        let connection = try HTTPConnection(port: port)
        let token = try connection.post(
            "/oauth/token",
            json:
                #"{"grant_type":"client_credentials","client_id":"\#(managementID)","client_secret":"\#(secret)","audience":"\#(origin)/api/v2/"}"#
        )
        try SesameClient.expect200(token, "client_credentials token")
        guard let accessToken = SesameClient.stringField("access_token", in: token.body) else {
            throw LoadError("no access_token in the client_credentials response")
        }
        let patch = try connection.request(
            "PATCH", "/api/v2/clients/\(clientID)", body: Array(#"{"jwt_configuration":{"alg":"ES256"}}"#.utf8),
            headers: [("Authorization", "Bearer \(accessToken)")])
        try SesameClient.expect200(patch, "PATCH /api/v2/clients/\(clientID)")
    }

    /// A software authenticator that reports this server's origin.
    func authenticator() -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = .web(origin)
        return SoftwareAuthenticator(configuration: configuration)
    }

    /// Signs up `count` users, each with its own authenticator (one passkey each), and checks the
    /// id token is ES256. Returns the authenticators and the token response bodies.
    func signUp(count: Int, prefix: String, scope: String) throws -> [(SoftwareAuthenticator, [UInt8])] {
        let client = SesameClient(connection: try HTTPConnection(port: port), clientID: clientID)
        var users: [(SoftwareAuthenticator, [UInt8])] = []
        for index in 0..<count {
            let authenticator = self.authenticator()
            let body = try client.signUp(
                email: "\(prefix)\(index)@example.com", authenticator: authenticator, scope: scope)
            if index == 0 {
                let alg = SesameClient.stringField("id_token", in: body).flatMap(SesameClient.jwtAlgorithm)
                guard alg == "ES256" else { throw LoadError("id tokens are \(alg ?? "missing"), not ES256") }
            }
            users.append((authenticator, body))
        }
        return users
    }

    // MARK: Phases

    /// What a measured phase produced.
    struct PhaseResult {
        var count: Int
        var seconds: Double
        var serverCPUSeconds: Double
        /// This process's CPU time over the phase (the load generator's own cost).
        var clientCPUSeconds = 0.0
        /// The share of the server's CPU time spent in the kernel (stime / (utime + stime)).
        var systemShare: Double
        /// Whole operation (a login: challenge + assertion + token; a refresh: one request).
        var latency: Latencies
        /// The token request alone (logins only).
        var tokenLatency: Latencies
        var reconnects: Int

        var perSecond: Double { Double(count) / seconds }
        var cpuMicrosecondsEach: Double { serverCPUSeconds * 1e6 / Double(count) }
        var serverBusy: Double { serverCPUSeconds / seconds }
        var clientBusy: Double { clientCPUSeconds / seconds }
    }

    struct WorkerResult: Sendable {
        var latency: Latencies
        var tokenLatency: Latencies
        var reconnects: Int
    }

    /// `count` full logins over `connections` keep-alive connections, round-robin over `users`.
    func logins(_ count: Int, users: [SoftwareAuthenticator]) throws -> PhaseResult {
        let next = WorkCounter()
        let clientID = self.clientID
        let port = self.port
        let connections = settings.connections
        return try measured("logins", count: count) {
            try Workers.run(count: connections) { _ in
                do {
                    return try Self.loginWorker(port: port, clientID: clientID, count: count, users: users, next: next)
                } catch {
                    next.abort()
                    throw error
                }
            }
        }
    }

    /// Runs one measured phase: the phase hooks around it, the server's CPU (user and system) and
    /// this process's across it, and the workers' results merged.
    func measured(_ name: String, count: Int, _ body: () throws -> [WorkerResult]) throws -> PhaseResult {
        guard let server else { throw LoadError("the server is not running") }
        try phase("\(name)-start")
        let cpuBefore = try server.cpuTimes()
        let clientBefore = Self.ownCPUSeconds()
        let started = Clock.nanoseconds()
        let results = try body()
        let seconds = Double(Clock.nanoseconds() - started) / 1e9
        let cpuAfter = try server.cpuTimes()
        try phase("\(name)-end")
        let user = cpuAfter.user - cpuBefore.user
        let system = cpuAfter.system - cpuBefore.system
        var result = Self.merge(
            results, count: count, seconds: seconds, cpu: user + system, systemShare: system / max(user + system, 1e-9))
        result.clientCPUSeconds = Self.ownCPUSeconds() - clientBefore
        return result
    }

    static func loginWorker(
        port: Int, clientID: String, count: Int, users: [SoftwareAuthenticator], next: WorkCounter
    ) throws -> WorkerResult {
        let client = SesameClient(connection: try HTTPConnection(port: port), clientID: clientID)
        var latency = Latencies()
        var tokenLatency = Latencies()
        let challengeBody = #"{"client_id":"\#(clientID)"}"#
        while true {
            let index = next.next()
            if index >= count { break }
            let begin = Clock.nanoseconds()
            let sent = try login(client, users[index % users.count], challengeBody: challengeBody)
            let end = Clock.nanoseconds()
            latency.append(end - begin)
            tokenLatency.append(end - sent)
        }
        return WorkerResult(latency: latency, tokenLatency: tokenLatency, reconnects: client.connection.reconnects)
    }

    /// One full login (challenge, assertion, token request); returns when the token request was sent.
    static func login(
        _ client: SesameClient, _ authenticator: SoftwareAuthenticator, challengeBody: String
    ) throws -> UInt64 {
        let challenge = try client.connection.post("/passkey/challenge", json: challengeBody)
        try SesameClient.expect200(challenge, "POST /passkey/challenge")
        guard let session = SesameClient.stringField("auth_session", in: challenge.body) else {
            throw LoadError("no auth_session in the login challenge")
        }
        let assertion = try authenticator.getAssertion(optionsJSON: challenge.body)
        let body = client.tokenRequest(session: session, response: assertion.jsonString, scope: "openid profile email")
        let sent = Clock.nanoseconds()
        let token = try client.connection.post("/oauth/token", json: body)
        try SesameClient.expect200(token, "POST /oauth/token (login)")
        return sent
    }

    /// One refresh grant; returns the next refresh token of the chain.
    static func refresh(_ client: SesameClient, _ refreshToken: String) throws -> String {
        let reply = try client.connection.post("/oauth/token", json: client.refreshRequest(refreshToken))
        try SesameClient.expect200(reply, "POST /oauth/token (refresh)")
        guard let rotated = SesameClient.stringField("refresh_token", in: reply.body) else {
            throw LoadError("no refresh_token in the refresh response")
        }
        return rotated
    }

    /// `count` refresh grants: each connection rotates its own refresh-token chain.
    func refreshes(_ count: Int, firstTokens: [String]) throws -> PhaseResult {
        let next = WorkCounter()
        let clientID = self.clientID
        let port = self.port
        return try measured("refresh", count: count) {
            try Workers.run(count: firstTokens.count) { worker in
                do {
                    return try Self.refreshWorker(
                        port: port, clientID: clientID, count: count, firstToken: firstTokens[worker], next: next)
                } catch {
                    next.abort()
                    throw error
                }
            }
        }
    }

    private static func refreshWorker(
        port: Int, clientID: String, count: Int, firstToken: String, next: WorkCounter
    ) throws -> WorkerResult {
        let client = SesameClient(connection: try HTTPConnection(port: port), clientID: clientID)
        var latency = Latencies()
        var refreshToken = firstToken
        while true {
            let index = next.next()
            if index >= count { break }
            let begin = Clock.nanoseconds()
            refreshToken = try refresh(client, refreshToken)
            latency.append(Clock.nanoseconds() - begin)
        }
        return WorkerResult(latency: latency, tokenLatency: Latencies(), reconnects: client.connection.reconnects)
    }

    /// User + system CPU seconds of this process (every thread).
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    static func merge(
        _ results: [WorkerResult], count: Int, seconds: Double, cpu: Double, systemShare: Double
    ) -> PhaseResult {
        var latency = Latencies()
        var tokenLatency = Latencies()
        var reconnects = 0
        for result in results {
            latency.merge(result.latency)
            tokenLatency.merge(result.tokenLatency)
            reconnects += result.reconnects
        }
        return PhaseResult(
            count: count, seconds: seconds, serverCPUSeconds: cpu, systemShare: systemShare, latency: latency,
            tokenLatency: tokenLatency,
            reconnects: reconnects)
    }
}

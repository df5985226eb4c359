import Foundation
import SesameCrypto
import SesameSoftwareAuthenticator

#if canImport(Glibc)
    import Glibc
#endif

/// The peer: django-allauth's headless passkey login (Benchmarks/peers/allauth) under gunicorn
/// with one worker, pinned to the server's core, driven through allauth's `app` client
/// (`X-Session-Token`, no cookies, no CSRF). Users sign up through allauth's own passkey signup
/// (`/auth/webauthn/signup`, which requires an e-mailed code) with the same software authenticator
/// Sesame's users get; logins are `GET` + `POST /_allauth/app/v1/auth/webauthn/login`.
final class AllauthRun {
    let settings: LoadSettings
    let directory: String
    let port: Int
    var server: ServerProcess?
    var origin: String { "http://localhost:\(port)" }
    /// gunicorn's worker processes, found after the start; the measured phase checks they are
    /// the same at its end (a restarted worker would take its CPU time with it).
    private(set) var workers: [pid_t] = []

    static let apiBase = "/_allauth/app/v1"

    init(settings: LoadSettings) throws {
        self.settings = settings
        var template = Array("/tmp/sesame-peerbench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw LoadError("mkdtemp failed") }
        directory = String(cString: made)
        port = try LoadRun.freePort()
    }

    var mailDirectory: String { directory + "/mail" }

    /// The environment of every Python process of the run: the Django project, its run directory
    /// and a secret key made for this run (48 bytes from the CSPRNG, hex).
    func environment() throws -> [String: String] {
        let secret = try SystemRandom().bytes(count: 48).map { String(format: "%02x", $0) }.joined()
        return [
            "DJANGO_SETTINGS_MODULE": "settings", "PYTHONPATH": settings.allauthProject, "PEER_BENCH_DIR": directory,
            "PEER_BENCH_SECRET_KEY": secret, "PYTHONDONTWRITEBYTECODE": "1",
        ]
    }

    /// `python -m django migrate` into a fresh SQLite database, then the key goes into this
    /// process's environment, which the server inherits.
    func initialise() throws {
        try FileManager.default.createDirectory(atPath: mailDirectory, withIntermediateDirectories: true)
        for (name, value) in try environment() { setenv(name, value, 1) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: settings.python)
        process.arguments = ["-m", "django", "migrate", "--noinput"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoadError("django migrate failed:\n\(String(decoding: data, as: UTF8.self).suffix(3_000))")
        }
    }

    /// gunicorn with one worker on 127.0.0.1, pinned to the server's core; waits for
    /// `GET /_allauth/app/v1/config` to answer 200. Returns the milliseconds that took.
    func start() throws -> Double {
        var arguments = [
            settings.python, "-m", "gunicorn", "--no-control-socket", "--workers", "1",
            "--worker-class", settings.peerWorker.rawValue, "--bind", "127.0.0.1:\(port)",
            "--chdir", settings.allauthProject, "--keep-alive", "75",
        ]
        if settings.peerWorker == .gthread { arguments += ["--threads", String(settings.connections)] }
        arguments.append("wsgi:application")
        if settings.serverCore >= 0 { arguments = ["taskset", "-c", String(settings.serverCore)] + arguments }
        let process = try ServerProcess(arguments: arguments, logPath: directory + "/gunicorn.log")
        server = process
        let deadline = process.spawnedAt + 60_000_000_000
        while Clock.nanoseconds() < deadline {
            if let fd = try? HTTPConnection.open(port: port) {
                close(fd)
                let connection = try HTTPConnection(port: port)
                if try connection.request("GET", Self.apiBase + "/config").status == 200 {
                    workers = ServerProcess.children(of: process.pid)
                    guard workers.count == 1 else {
                        throw LoadError("gunicorn runs \(workers.count) worker processes, not 1")
                    }
                    return Double(Clock.nanoseconds() - process.spawnedAt) / 1e6
                }
            }
            if process.hasExited {
                server = nil
                throw LoadError("gunicorn exited during start:\n\(log().suffix(4_000))")
            }
            usleep(20_000)
        }
        throw LoadError("gunicorn did not answer within 60 s:\n\(log().suffix(4_000))")
    }

    func log() -> String { (try? String(contentsOfFile: directory + "/gunicorn.log", encoding: .utf8)) ?? "" }

    func stop() {
        server?.stop()
        server = nil
    }

    func cleanUp() {
        stop()
        if !settings.keep { try? FileManager.default.removeItem(atPath: directory) }
    }

    func authenticator() -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration()
        configuration.origin = .web(origin)
        return SoftwareAuthenticator(configuration: configuration)
    }

    // MARK: Signup

    /// Signs up `count` users through allauth's passkey signup, one authenticator (one passkey)
    /// each: POST signup {email} → the e-mailed code → POST email/verify → GET the creation
    /// options → PUT the credential. Each ends authenticated.
    func signUp(count: Int) throws -> [SoftwareAuthenticator] {
        let connection = try HTTPConnection(port: port)
        var users: [SoftwareAuthenticator] = []
        for index in 0..<count {
            let email = "peer\(index)@example.com"
            let authenticator = self.authenticator()
            let start = try connection.post(Self.apiBase + "/auth/webauthn/signup", json: #"{"email":"\#(email)"}"#)
            try Self.expect(start, 401, "POST /auth/webauthn/signup")
            guard let token = JSONScan.string("session_token", in: start.body) else {
                throw LoadError("no session_token after POST /auth/webauthn/signup: \(start.text.prefix(300))")
            }
            let headers = [("X-Session-Token", token)]
            let code = try takeCode(for: email)
            let verified = try connection.post(
                Self.apiBase + "/auth/email/verify", json: #"{"key":"\#(code)"}"#, headers: headers)
            try Self.expect(verified, 401, "POST /auth/email/verify")
            let options = try connection.request("GET", Self.apiBase + "/auth/webauthn/signup", headers: headers)
            try Self.expect(options, 200, "GET /auth/webauthn/signup")
            guard let creation = JSONScan.object("creation_options", in: options.body) else {
                throw LoadError("no creation_options: \(options.text.prefix(300))")
            }
            let registration = try authenticator.makeCredential(optionsJSON: creation)
            let done = try connection.request(
                "PUT", Self.apiBase + "/auth/webauthn/signup",
                body: Array(#"{"name":"bench","credential":\#(registration.jsonString)}"#.utf8), headers: headers)
            try Self.expect(done, 200, "PUT /auth/webauthn/signup")
            guard JSONScan.bool("is_authenticated", in: done.body) == true else {
                throw LoadError("the passkey signup did not authenticate: \(done.text.prefix(300))")
            }
            users.append(authenticator)
        }
        return users
    }

    /// The verification code of the one message to `email` in the mail spool (Django's file
    /// backend), which is then removed: the line after "listed below".
    func takeCode(for email: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: mailDirectory)
        for name in names {
            let path = mailDirectory + "/" + name
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard text.contains("\nTo: \(email)\n") else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            guard let marker = lines.firstIndex(where: { $0.contains("listed below") }), marker + 1 < lines.count
            else { throw LoadError("no code in the signup message \(path)") }
            unlink(path)
            return lines[marker + 1].trimmingCharacters(in: .whitespaces)
        }
        throw LoadError("no signup message to \(email) in \(mailDirectory)")
    }

    static func expect(_ response: HTTPConnection.Response, _ status: Int, _ what: String) throws {
        guard response.status == status else {
            throw LoadError("\(what) answered \(response.status), expected \(status): \(response.text.prefix(300))")
        }
    }

    // MARK: Logins

    /// `count` passkey logins over `connections` connections, round-robin over `users`; server
    /// CPU is the gunicorn master's and its worker's utime + stime across the phase.
    func logins(_ count: Int, users: [SoftwareAuthenticator]) throws -> LoadRun.PhaseResult {
        guard let server else { throw LoadError("gunicorn is not running") }
        let next = WorkCounter()
        let port = self.port
        let before = try server.cpuTimesWithChildren()
        let clientBefore = LoadRun.ownCPUSeconds()
        let started = Clock.nanoseconds()
        let results = try Workers.run(count: settings.connections) { _ in
            do {
                return try Self.loginWorker(port: port, count: count, users: users, next: next)
            } catch {
                next.abort()
                throw error
            }
        }
        let seconds = Double(Clock.nanoseconds() - started) / 1e9
        let after = try server.cpuTimesWithChildren()
        guard before.children == workers, after.children == workers else {
            throw LoadError("gunicorn's workers changed during the phase (\(workers) → \(after.children))")
        }
        let user = after.user - before.user
        let system = after.system - before.system
        var result = LoadRun.merge(
            results, count: count, seconds: seconds, cpu: user + system, systemShare: system / max(user + system, 1e-9))
        result.clientCPUSeconds = LoadRun.ownCPUSeconds() - clientBefore
        return result
    }

    private static func loginWorker(
        port: Int, count: Int, users: [SoftwareAuthenticator], next: WorkCounter
    ) throws -> LoadRun.WorkerResult {
        let connection = try HTTPConnection(port: port)
        var latency = Latencies()
        var tokenLatency = Latencies()
        let path = apiBase + "/auth/webauthn/login"
        while true {
            let index = next.next()
            if index >= count { break }
            let authenticator = users[index % users.count]
            let begin = Clock.nanoseconds()
            // A new login: no session token yet; allauth makes a session for the challenge.
            let options = try connection.request("GET", path)
            try expect(options, 200, "GET /auth/webauthn/login")
            guard let token = JSONScan.string("session_token", in: options.body),
                let request = JSONScan.object("request_options", in: options.body)
            else { throw LoadError("no session_token or request_options: \(options.text.prefix(300))") }
            let assertion = try authenticator.getAssertion(optionsJSON: request)
            let body = Array(#"{"credential":\#(assertion.jsonString)}"#.utf8)
            let sent = Clock.nanoseconds()
            let reply = try connection.request("POST", path, body: body, headers: [("X-Session-Token", token)])
            let end = Clock.nanoseconds()
            try expect(reply, 200, "POST /auth/webauthn/login")
            guard JSONScan.bool("is_authenticated", in: reply.body) == true,
                JSONScan.string("session_token", in: reply.body) != nil
            else { throw LoadError("the passkey login gave no authenticated session: \(reply.text.prefix(300))") }
            latency.append(end - begin)
            tokenLatency.append(end - sent)
        }
        return LoadRun.WorkerResult(latency: latency, tokenLatency: tokenLatency, reconnects: connection.reconnects)
    }
}

/// Finds members in a JSON body by name without building a tree (Python's json.dumps puts a
/// space after the colon, which `SesameClient.stringField` does not expect). Only for the values
/// these responses hold: base64url, tokens and ids (no escapes), objects, booleans.
enum JSONScan {
    /// The index just past `"name":` and any whitespace after it.
    private static func valueStart(_ name: String, in body: [UInt8]) -> Int? {
        let key = Array("\"\(name)\"".utf8)
        var index = 0
        while index + key.count <= body.count {
            if body[index] == key[0] && body[index..<(index + key.count)].elementsEqual(key) {
                var cursor = index + key.count
                while cursor < body.count && (body[cursor] == 0x20 || body[cursor] == 0x0A) { cursor += 1 }
                if cursor < body.count && body[cursor] == UInt8(ascii: ":") {
                    cursor += 1
                    while cursor < body.count && (body[cursor] == 0x20 || body[cursor] == 0x0A) { cursor += 1 }
                    return cursor
                }
            }
            index += 1
        }
        return nil
    }

    static func string(_ name: String, in body: [UInt8]) -> String? {
        guard let start = valueStart(name, in: body), start < body.count, body[start] == UInt8(ascii: "\"") else {
            return nil
        }
        guard let end = body[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: body[(start + 1)..<end], as: UTF8.self)
    }

    static func bool(_ name: String, in body: [UInt8]) -> Bool? {
        guard let start = valueStart(name, in: body) else { return nil }
        if body[start...].starts(with: Array("true".utf8)) { return true }
        if body[start...].starts(with: Array("false".utf8)) { return false }
        return nil
    }

    /// The bytes of the object value of `name`, braces matched outside strings.
    static func object(_ name: String, in body: [UInt8]) -> [UInt8]? {
        guard let start = valueStart(name, in: body), start < body.count, body[start] == UInt8(ascii: "{") else {
            return nil
        }
        var depth = 0
        var inString = false
        var escaped = false
        for index in start..<body.count {
            let byte = body[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return Array(body[start...index]) }
            default: break
            }
        }
        return nil
    }
}

// sesame-floor-server: the least a passkey server can cost on this machine's transport, crypto and
// storage, as a baseline for `sesame-loadgen` (docs/BENCHMARKS.md, "An ideal server on the same
// core"). It is not a server anyone should run: it checks nothing, parses nothing and answers
// filler of the sizes it is told. What it does do is what every passkey server must do:
//
// - the same libmicrohttpd daemon as `sesame serve --threads 1` (one internal polling thread,
//   epoll), keep-alive, the answer queued once the body is in;
// - the crypto of the loadgen's floor (`FloorWork`, the same code): one ES256 verify of an
//   assertion and two ES256 JWT signatures per login, two signatures per refresh;
// - with `--sqlite PATH`, the fewest SQLite writes a login and a refresh need, in WAL mode with
//   `synchronous = NORMAL` like Sesame's relaxed writes: a challenge row written by the challenge
//   and consumed by the token request with the passkey's counter, and a refresh token marked used
//   (compare-and-set) with its successor inserted, each a transaction of its own.
//
// Routes: POST /passkey/challenge, POST /oauth/token (the login's token request), POST
// /oauth/refresh (a refresh), GET /healthz. Usage:
//   sesame-floor-server --port N --challenge-bytes N --login-bytes N --refresh-bytes N [--sqlite PATH]
import CMicroHTTPD
import CSQLite
import SesameBenchFloor

#if canImport(Glibc)
    import Glibc
#endif

/// A bad argument or a failed setup: one line on stderr, exit 2 (arguments) or 1 (setup).
func fail(_ message: String, code: Int32) -> Never {
    let line = Array("sesame-floor-server: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(code)
}

struct Options {
    var port = 0
    var challengeBytes = 0
    var loginBytes = 0
    var refreshBytes = 0
    var sqlitePath: String?

    static let usage =
        "usage: sesame-floor-server --port N --challenge-bytes N --login-bytes N --refresh-bytes N [--sqlite PATH]"

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value; \(usage)", code: 2) }
            func count(_ maximum: Int) -> Int {
                guard let number = Int(value), number >= 1, number <= maximum else {
                    fail("\(flag) must be an integer from 1 to \(maximum)", code: 2)
                }
                return number
            }
            switch flag {
            case "--port": options.port = count(65_535)
            case "--challenge-bytes": options.challengeBytes = count(1 << 20)
            case "--login-bytes": options.loginBytes = count(1 << 20)
            case "--refresh-bytes": options.refreshBytes = count(1 << 20)
            case "--sqlite": options.sqlitePath = value
            default: fail("unknown option \(flag); \(usage)", code: 2)
            }
        }
        guard options.port > 0, options.challengeBytes > 0, options.loginBytes > 0, options.refreshBytes > 0 else {
            fail(usage, code: 2)
        }
        return options
    }
}

/// The fewest SQLite writes of a login and a refresh, on prepared statements.
final class FloorStorage {
    private var database: OpaquePointer?
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    private var insertChallenge: OpaquePointer?
    private var consumeChallenge: OpaquePointer?
    private var countPasskey: OpaquePointer?
    private var spendToken: OpaquePointer?
    private var insertToken: OpaquePointer?
    private var nextChallenge: Int64 = 0
    private var oldestChallenge: Int64 = 0
    private var currentToken: Int64 = 0
    private static let passkeys: Int64 = 200

    init(path: String) throws {
        guard sqlite3_open(path, &database) == SQLITE_OK else { throw FloorError("cannot open \(path)") }
        for statement in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
            "CREATE TABLE challenges (id BLOB PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID",
            "CREATE TABLE passkeys (id INTEGER PRIMARY KEY, sign_count INTEGER NOT NULL DEFAULT 0)",
            "CREATE TABLE refresh_tokens (hash BLOB PRIMARY KEY, family INTEGER NOT NULL, used_at INTEGER) WITHOUT ROWID",
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family)",
            "INSERT INTO refresh_tokens (hash, family) VALUES (zeroblob(32), 1)",
        ] {
            try execute(statement)
        }
        for id in 0..<Self.passkeys { try execute("INSERT INTO passkeys (id) VALUES (\(id))") }
        begin = try prepare("BEGIN IMMEDIATE")
        commit = try prepare("COMMIT")
        insertChallenge = try prepare("INSERT INTO challenges (id, expires_at) VALUES (?, 300)")
        consumeChallenge = try prepare("DELETE FROM challenges WHERE id = ?")
        countPasskey = try prepare("UPDATE passkeys SET sign_count = sign_count + 1 WHERE id = ?")
        spendToken = try prepare("UPDATE refresh_tokens SET used_at = 1 WHERE hash = ? AND used_at IS NULL")
        insertToken = try prepare("INSERT INTO refresh_tokens (hash, family) VALUES (?, 1)")
    }

    /// The challenge request's write: one challenge row.
    func challenge() -> Bool {
        nextChallenge += 1
        return transaction { run(insertChallenge, key: nextChallenge) }
    }

    /// The login token request's write: the oldest challenge consumed, a passkey's counter moved.
    func login() -> Bool {
        oldestChallenge += 1
        let passkey = oldestChallenge % Self.passkeys
        return transaction {
            run(consumeChallenge, key: oldestChallenge) && changes() == 1
                && run(countPasskey, integer: passkey) && changes() == 1
        }
    }

    /// A refresh's write: the presented token spent (compare-and-set), its successor inserted.
    func refresh() -> Bool {
        let spent = currentToken
        currentToken += 1
        return transaction {
            run(spendToken, key: spent) && changes() == 1 && run(insertToken, key: currentToken)
        }
    }

    private func transaction(_ body: () -> Bool) -> Bool {
        guard step(begin) else { return false }
        guard body() else {
            _ = sqlite3_exec(database, "ROLLBACK", nil, nil, nil)
            return false
        }
        return step(commit)
    }

    /// Binds a 32-byte key made from `key` and runs the statement.
    private func run(_ statement: OpaquePointer?, key: Int64) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: key.bigEndian) { bytes.replaceSubrange(24..<32, with: $0) }
        let bound = bytes.withUnsafeBytes { raw in
            sqlite3_bind_blob(statement, 1, raw.baseAddress, 32, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        return bound == SQLITE_OK && step(statement)
    }

    private func run(_ statement: OpaquePointer?, integer: Int64) -> Bool {
        sqlite3_bind_int64(statement, 1, integer) == SQLITE_OK && step(statement)
    }

    private func step(_ statement: OpaquePointer?) -> Bool {
        defer { sqlite3_reset(statement) }
        return sqlite3_step(statement) == SQLITE_DONE
    }

    private func changes() -> Int32 { sqlite3_changes(database) }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw FloorError("\(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw FloorError("\(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
        return statement
    }
}

struct FloorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What the access handler needs; read on libmicrohttpd's one polling thread only.
final class Floor: @unchecked Sendable {
    let crypto: FloorWork
    let storage: FloorStorage?
    let challengeAnswer: UnsafeMutableRawPointer
    let loginAnswer: UnsafeMutableRawPointer
    let refreshAnswer: UnsafeMutableRawPointer
    let sizes: (challenge: Int, login: Int, refresh: Int)
    /// Requests whose work failed (the loadgen then refuses the run).
    var failures = 0

    init(options: Options, crypto: FloorWork, storage: FloorStorage?) {
        self.crypto = crypto
        self.storage = storage
        sizes = (options.challengeBytes, options.loginBytes, options.refreshBytes)
        func filler(_ count: Int) -> UnsafeMutableRawPointer {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 1)
            buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "a"), count: count)
            return buffer
        }
        challengeAnswer = filler(sizes.challenge)
        loginAnswer = filler(sizes.login)
        refreshAnswer = filler(sizes.refresh)
    }

    /// The work of `path` and its answer, or nil for an unknown path.
    func answer(_ path: UnsafePointer<CChar>) -> (UnsafeMutableRawPointer, Int)? {
        if strcmp(path, "/passkey/challenge") == 0 {
            check { storage?.challenge() ?? true }
            return (challengeAnswer, sizes.challenge)
        }
        if strcmp(path, "/oauth/token") == 0 {
            check { storage?.login() ?? true }
            check { try crypto.verify() }
            check {
                try crypto.sign()
                try crypto.sign()
                return true
            }
            return (loginAnswer, sizes.login)
        }
        if strcmp(path, "/oauth/refresh") == 0 {
            check { storage?.refresh() ?? true }
            check {
                try crypto.sign()
                try crypto.sign()
                return true
            }
            return (refreshAnswer, sizes.refresh)
        }
        return nil
    }

    /// Counts a failure when `work` throws or returns false.
    private func check(_ work: () throws -> Bool) {
        if (try? work()) != true { failures += 1 }
    }
}

/// A request's context: set on its first call, so the answer is queued on a later one.
nonisolated(unsafe) let started = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
nonisolated(unsafe) let healthy: UnsafeMutableRawPointer = {
    let bytes = Array("ok".utf8)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 1)
    buffer.copyMemory(from: bytes, byteCount: bytes.count)
    return buffer
}()

let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, context in
    guard let cls, let connection, let url, let method, let uploadSize, let context else { return .NO }
    if context.pointee == nil {
        context.pointee = started
        return .YES
    }
    if uploadSize.pointee > 0 {
        uploadSize.pointee = 0
        return .YES
    }
    let floor = Unmanaged<Floor>.fromOpaque(cls).takeUnretainedValue()
    let answer: (UnsafeMutableRawPointer, Int)?
    if strcmp(method, "GET") == 0 && strcmp(url, "/healthz") == 0 {
        answer = (healthy, 2)
    } else {
        answer = floor.answer(url)
    }
    let status: UInt32 = answer == nil ? 404 : (floor.failures > 0 ? 500 : 200)
    let (bytes, count) = answer ?? (healthy, 0)
    guard let response = MHD_create_response_from_buffer(count, bytes, .RESPMEM_PERSISTENT) else { return .NO }
    defer { MHD_destroy_response(response) }
    MHD_add_response_header(response, "Content-Type", "application/json")
    MHD_add_response_header(response, "Cache-Control", "no-store")
    return MHD_queue_response(connection, status, response)
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let floor: Floor
do {
    floor = Floor(
        options: options, crypto: try FloorWork(), storage: try options.sqlitePath.map(FloorStorage.init))
} catch {
    fail("\(error)", code: 1)
}
var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = in_port_t(UInt16(options.port)).bigEndian
inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue)
let daemon = withUnsafeMutablePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        var items = [
            MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(socketAddress)),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        return items.withUnsafeMutableBufferPointer { buffer in
            sesame_MHD_start_daemon(
                flags, 0, nil, nil, access, Unmanaged.passUnretained(floor).toOpaque(), buffer.baseAddress)
        }
    }
}
guard daemon != nil else { fail("cannot listen on 127.0.0.1:\(options.port)", code: 1) }
// Serve until SIGTERM or SIGINT (the default action ends the process).
while true { pause() }

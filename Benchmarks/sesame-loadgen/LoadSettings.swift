import Foundation

/// How `sesame serve` is configured for the run.
enum ServerConfiguration: String {
    /// One libmicrohttpd polling thread and error-level logging: the CPU-per-operation figures.
    case tuned
    /// What `sesame serve` does without flags: its default thread pool and the info log level.
    case defaults = "default"
}

/// What to run, from flags and LOADBENCH_* variables.
struct LoadSettings {
    /// The release `sesame` binary.
    var sesame = ".build/release/sesame"
    /// The core the server is pinned to (through taskset); -1 = not pinned.
    var serverCore = 0
    /// Logins measured (the RSS figure is read after them).
    var logins = 100_000
    /// Refresh grants measured.
    var refreshes = 100_000
    /// Password logins measured (each of right, wrong and unknown); 0 skips them.
    var passwordLogins = 300
    /// Users signed up before the logins; logins go round-robin over them.
    var users = 200
    /// Concurrent keep-alive connections (one thread each).
    var connections = 4
    /// How many times the server is started to time its start (median reported).
    var starts = 3
    /// Where the server's pid is written while it runs (so a script can always kill it).
    var pidFile: String?
    /// A command put in front of the server (a profiler); LOADBENCH_SERVER_WRAPPER.
    var serverWrapper: String?
    /// A shell command run at each phase boundary; LOADBENCH_PHASE_HOOK.
    var phaseHook: String?
    /// A PostgreSQL URI to serve from instead of SQLite (LOADBENCH_STORE).
    var store: String?
    /// Keep the data directory and server log (printed at the end).
    var keep = false
    /// The server's thread and log settings (LOADBENCH_SERVER_CONFIG).
    var serverConfiguration = ServerConfiguration.tuned
    /// Logins and refreshes sent at half the measured rate for the latency figures; 0 skips them
    /// (LOADBENCH_PACED).
    var paced = 4_000
    /// A file that gets one line per paced operation: phase, worker, when it was due
    /// (`CLOCK_MONOTONIC`) and its latency, both in microseconds (LOADBENCH_LATENCY_LOG), to line
    /// stalls up with a trace of the server (`perf record -k mono`).
    var latencyLog: String?
    /// `--peers`: Sesame's logins beside django-allauth's headless passkey login (make bench-peers).
    var peers = false
    /// The venv Python with Django, django-allauth and gunicorn (--python).
    var python = ".build/bench-venv/bin/python"
    /// The Django project (--allauth-project), made absolute.
    var allauthProject = "Benchmarks/peers/allauth"
    /// gunicorn's worker class for the peer (LOADBENCH_PEER_WORKER).
    var peerWorker = PeerWorker.gthread
    /// Logins before each measured phase (LOADBENCH_WARMUP; default min(2000, logins), 300 with --peers).
    var warmup: Int?
    /// Logins and refreshes sent to `sesame-floor-server` in each of its two configurations, the
    /// ideal-server baseline (LOADBENCH_FLOOR; 0 skips it).
    var floorOperations = 10_000
    /// The `sesame-floor-server` binary (--floor-server; default: beside --sesame).
    var floorServer: String?

    /// gunicorn worker classes the peer can run with.
    enum PeerWorker: String, CaseIterable {
        /// One thread per connection (keep-alive, like Sesame's single polling thread with 4 connections).
        case gthread
        /// One request at a time; gunicorn closes the connection after each response.
        case sync
    }

    static let usage = """
        usage: sesame-loadgen [--sesame PATH] [--server-core N] [--logins N] [--refreshes N] [--users N]
                              [--connections N] [--starts N] [--pid-file PATH] [--keep]
                              [--server-config tuned|default] [--paced N] [--floor-server PATH]
                              [--peers [--python PATH] [--allauth-project DIR]]
        --peers: Sesame's passkey logins beside django-allauth's headless passkey login under gunicorn (one worker),
        both pinned to the server core (scripts/peer-bench.sh). LOADBENCH_PEER_WORKER = gthread (default) or sync.
        --floor-server: the ideal server measured beside Sesame (default: sesame-floor-server beside --sesame).
        Variables: LOADBENCH_SERVER_CONFIG, LOADBENCH_PACED, LOADBENCH_FLOOR (ideal-server operations, 0 skips),
        LOADBENCH_WARMUP, LOADBENCH_LOGINS, LOADBENCH_REFRESHES, LOADBENCH_USERS, LOADBENCH_CONNECTIONS,
        LOADBENCH_PASSWORD_LOGINS, LOADBENCH_LATENCY_LOG (FILE),
        LOADBENCH_SERVER_WRAPPER (e.g. "valgrind --tool=callgrind"), LOADBENCH_PHASE_HOOK (sh -c HOOK hook PHASE PID,
        PHASE = logins-start, logins-end, refresh-start, refresh-end), TMPDIR (where the server's data directory
        is made, default /tmp).
        """

    static func parse(_ arguments: [String], environment: [String: String]) throws -> LoadSettings {
        var settings = LoadSettings()
        func integer(_ text: String?, _ name: String, minimum: Int) throws -> Int? {
            guard let text, !text.isEmpty else { return nil }
            guard let value = Int(text), value >= minimum else {
                throw LoadError("\(name) must be an integer ≥ \(minimum)")
            }
            return value
        }
        settings.logins =
            try integer(environment["LOADBENCH_LOGINS"], "LOADBENCH_LOGINS", minimum: 1) ?? settings.logins
        settings.refreshes =
            try integer(environment["LOADBENCH_REFRESHES"], "LOADBENCH_REFRESHES", minimum: 1) ?? settings.refreshes
        settings.users = try integer(environment["LOADBENCH_USERS"], "LOADBENCH_USERS", minimum: 1) ?? settings.users
        settings.passwordLogins =
            try integer(environment["LOADBENCH_PASSWORD_LOGINS"], "LOADBENCH_PASSWORD_LOGINS", minimum: 0)
            ?? settings.passwordLogins
        settings.connections =
            try integer(environment["LOADBENCH_CONNECTIONS"], "LOADBENCH_CONNECTIONS", minimum: 1)
            ?? settings.connections
        settings.serverWrapper = environment["LOADBENCH_SERVER_WRAPPER"].flatMap { $0.isEmpty ? nil : $0 }
        settings.phaseHook = environment["LOADBENCH_PHASE_HOOK"].flatMap { $0.isEmpty ? nil : $0 }
        settings.store = environment["LOADBENCH_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        settings.latencyLog = environment["LOADBENCH_LATENCY_LOG"].flatMap { $0.isEmpty ? nil : $0 }
        settings.paced = try integer(environment["LOADBENCH_PACED"], "LOADBENCH_PACED", minimum: 0) ?? settings.paced
        func configuration(_ text: String?) throws -> ServerConfiguration? {
            guard let text, !text.isEmpty else { return nil }
            guard let value = ServerConfiguration(rawValue: text) else {
                throw LoadError("the server configuration must be tuned or default, not \(text)")
            }
            return value
        }
        settings.serverConfiguration =
            try configuration(environment["LOADBENCH_SERVER_CONFIG"]) ?? settings.serverConfiguration
        settings.warmup = try integer(environment["LOADBENCH_WARMUP"], "LOADBENCH_WARMUP", minimum: 0)
        settings.floorOperations =
            try integer(environment["LOADBENCH_FLOOR"], "LOADBENCH_FLOOR", minimum: 0) ?? settings.floorOperations
        if let worker = environment["LOADBENCH_PEER_WORKER"], !worker.isEmpty {
            guard let parsed = PeerWorker(rawValue: worker) else {
                throw LoadError(
                    "LOADBENCH_PEER_WORKER must be one of \(PeerWorker.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            settings.peerWorker = parsed
        }
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--keep" {
                settings.keep = true
                continue
            }
            if flag == "--peers" {
                settings.peers = true
                continue
            }
            if flag == "--help" || flag == "-h" { throw LoadError(usage) }
            guard let value = rest.popFirst() else { throw LoadError("\(flag) needs a value\n\(usage)") }
            switch flag {
            case "--sesame": settings.sesame = value
            case "--server-core": settings.serverCore = try integer(value, flag, minimum: -1) ?? 0
            case "--logins": settings.logins = try integer(value, flag, minimum: 1) ?? settings.logins
            case "--refreshes": settings.refreshes = try integer(value, flag, minimum: 1) ?? settings.refreshes
            case "--users": settings.users = try integer(value, flag, minimum: 1) ?? settings.users
            case "--connections": settings.connections = try integer(value, flag, minimum: 1) ?? settings.connections
            case "--starts": settings.starts = try integer(value, flag, minimum: 1) ?? settings.starts
            case "--pid-file": settings.pidFile = value
            case "--server-config": settings.serverConfiguration = try configuration(value) ?? .tuned
            case "--paced": settings.paced = try integer(value, flag, minimum: 0) ?? settings.paced
            case "--floor-server": settings.floorServer = value
            case "--python": settings.python = value
            case "--allauth-project": settings.allauthProject = value
            default: throw LoadError("unknown option \(flag)\n\(usage)")
            }
        }
        if !settings.allauthProject.hasPrefix("/") {
            settings.allauthProject = FileManager.default.currentDirectoryPath + "/" + settings.allauthProject
        }
        return settings
    }
}

// sesame-loadgen: full passkey logins and refresh grants against a release `sesame serve` pinned
// to one core, each figure beside the raw libcrypto cost of the same login measured in this run.
// Run by scripts/load-bench.sh (which pins this process to another core). See docs/BENCHMARKS.md.
import Foundation
import SesameSoftwareAuthenticator

#if canImport(Glibc)
    import Glibc
#endif

/// Targets from the issues (ES256 tokens).
enum Targets {
    static let cpuPerLoginRatio = 1.5
    static let cpuPerRefreshRatio = 1.5
    static let rssBytes = 96 << 20
    static let startMilliseconds = 150.0
    static let cpuPerPasswordLoginRatio = 1.1
    static let pacedP99Microseconds = 5_000.0
}

func log(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
func fmt(_ value: Double, _ decimals: Int = 0) -> String { String(format: "%.\(decimals)f", value) }
func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

/// The crypto floor on the server's core (the server is idle then), the lower of two passes.
func baseline(on core: Int) throws -> CryptoBaseline {
    let original = CPUAffinity.currentCores()
    if core >= 0 { CPUAffinity.pinCurrentThread(to: [core]) }
    defer { if !original.isEmpty { CPUAffinity.pinCurrentThread(to: original) } }
    return try CryptoBaseline.measure()
}

func runBenchmark(_ settings: LoadSettings, _ run: LoadRun) throws {
    log("loadgen: crypto baseline on core \(settings.serverCore)…")
    let before = try baseline(on: settings.serverCore)

    try run.initialise()
    var startTimes: [Double] = []
    for attempt in 0..<settings.starts {
        startTimes.append(try run.start())
        if attempt < settings.starts - 1 { run.stop() }
    }
    let sortedStarts = startTimes.sorted()
    let startMedian = sortedStarts[sortedStarts.count / 2]
    log("loadgen: start → first /healthz: \(startTimes.map { fmt($0, 1) }.joined(separator: ", ")) ms")

    try run.useES256Tokens()
    log("loadgen: signing up \(settings.users) users…")
    let users = try run.signUp(count: settings.users, prefix: "user", scope: "openid profile email").map(\.0)
    let refreshUsers = try run.signUp(
        count: settings.connections, prefix: "offline", scope: "openid profile email offline_access")
    // A second set of chains for the paced refreshes, signed up now so no signup runs mid-phase.
    let pacedRefreshUsers =
        settings.paced > 0
        ? try run.signUp(count: settings.connections, prefix: "paced", scope: "openid profile email offline_access")
        : []
    let refreshTokens = { (users: [(SoftwareAuthenticator, [UInt8])]) in
        try users.map { user in
            guard let token = SesameClient.stringField("refresh_token", in: user.1) else {
                throw LoadError("no refresh token at signup with offline_access")
            }
            return token
        }
    }
    let firstRefreshTokens = try refreshTokens(refreshUsers)
    // One login and one refresh recorded for the ideal server, which is sent the same bodies.
    var floorSample: FloorPhase.Sample?
    if settings.floorOperations > 0 {
        let sampleUser = try run.signUp(count: 1, prefix: "sample", scope: "openid profile email offline_access")
        floorSample = try FloorPhase.sample(
            run, login: users[0], refreshToken: try refreshTokens(sampleUser)[0])
    }
    guard let server = run.server else { throw LoadError("the server is not running") }
    let rssAfterSignup = try server.status("VmRSS")

    let warmup = settings.warmup ?? min(2_000, settings.logins)
    log("loadgen: \(warmup) warm-up logins, then \(settings.logins) measured…")
    _ = try run.logins(warmup, users: users)
    let logins = try run.logins(settings.logins, users: users)
    let rss = try server.status("VmRSS")
    let peak = try server.status("VmHWM")
    let threads = server.threadCount()
    var pacedLogins: LoadRun.PhaseResult?
    if settings.paced > 0 {
        log("loadgen: \(settings.paced) logins at half the measured rate (\(fmt(logins.perSecond / 2))/s)…")
        pacedLogins = try run.pacedLogins(settings.paced, rate: logins.perSecond / 2, users: users)
    }

    log("loadgen: \(settings.refreshes) refresh grants over \(firstRefreshTokens.count) chains…")
    let refreshes = try run.refreshes(settings.refreshes, firstTokens: firstRefreshTokens)
    let rssAfterRefresh = try server.status("VmRSS")
    var pacedRefreshes: LoadRun.PhaseResult?
    if settings.paced > 0 {
        log("loadgen: \(settings.paced) refreshes at half the measured rate (\(fmt(refreshes.perSecond / 2))/s)…")
        pacedRefreshes = try run.pacedRefreshes(
            settings.paced, rate: refreshes.perSecond / 2, firstTokens: try refreshTokens(pacedRefreshUsers))
    }

    var passwordRows: [(String, String, String, String)] = []
    if settings.passwordLogins > 0 {
        log("loadgen: Argon2id floor on core \(settings.serverCore)…")
        let passwordUsers = try run.passwordUsers(20)
        log("loadgen: \(settings.passwordLogins) password logins each: right, wrong, unknown user…")
        // The floor right before and right after the measured logins, on the same core: this
        // machine's clock wanders by a quarter over minutes, so the floor is their mean.
        let argonBefore = try LoadRun.argon2Floor(on: settings.serverCore)
        let right = try run.passwordLogins(settings.passwordLogins, users: passwordUsers, kind: .right)
        let argonAfter = try LoadRun.argon2Floor(on: settings.serverCore)
        let wrong = try run.passwordLogins(settings.passwordLogins, users: passwordUsers, kind: .wrong)
        let unknown = try run.passwordLogins(settings.passwordLogins, users: passwordUsers, kind: .unknown)
        let argon = (argonBefore + argonAfter) / 2
        let ratio = right.cpuMicrosecondsEach / argon
        let latency50 = { (phase: LoadRun.PhaseResult) in phase.latency.percentile(0.5) }
        passwordRows = [
            (
                "Argon2id check (m=19456 t=2 p=1)",
                "\(fmt(argon)) µs (mean of the passes before/after the logins: \(fmt(argonBefore)) / "
                    + "\(fmt(argonAfter)) µs)", "", ""
            ),
            (
                "server CPU per password login", "\(fmt(right.cpuMicrosecondsEach)) µs = \(fmt(ratio, 2))× Argon2id",
                "≤ \(fmt(Targets.cpuPerPasswordLoginRatio, 1))×", verdict(ratio <= Targets.cpuPerPasswordLoginRatio)
            ),
            ("", "\(fmt(right.systemShare * 100))% of it in the kernel", "", ""),
            (
                "password logins/s, \(settings.connections) clients, hash cap on",
                "\(fmt(right.perSecond, 1))/s, p50 / p99 \(fmt(latency50(right) / 1e3, 1)) / "
                    + "\(fmt(right.latency.percentile(0.99) / 1e3, 1)) ms", "", ""
            ),
            (
                "unknown user vs wrong password",
                "CPU \(fmt(unknown.cpuMicrosecondsEach)) / \(fmt(wrong.cpuMicrosecondsEach)) µs = "
                    + "\(fmt(unknown.cpuMicrosecondsEach / wrong.cpuMicrosecondsEach, 2))×; median latency "
                    + "\(fmt(latency50(unknown) / latency50(wrong), 2))×", "1.00×", ""
            ),
        ]
    }
    run.stop()

    var ideal: (bare: FloorPhase.Result, stored: FloorPhase.Result)?
    if let floorSample {
        let binary =
            settings.floorServer
            ?? URL(fileURLWithPath: settings.sesame).deletingLastPathComponent().appendingPathComponent(
                "sesame-floor-server"
            ).path
        let phase = FloorPhase(settings: settings, binary: binary, sample: floorSample, directory: run.directory)
        log(
            "loadgen: the ideal server (\(binary)), \(settings.floorOperations) logins and refreshes, without and with SQLite…"
        )
        ideal = (
            try phase.measure(count: settings.floorOperations, storage: false),
            try phase.measure(count: settings.floorOperations, storage: true)
        )
    }

    let after = try baseline(on: settings.serverCore)
    let floor = before.loginMicroseconds <= after.loginMicroseconds ? before : after

    let loginRatio = logins.cpuMicrosecondsEach / floor.loginMicroseconds
    let loginCapacity = 1e6 / logins.cpuMicrosecondsEach
    let floorRate = 1e6 / (Targets.cpuPerLoginRatio * floor.loginMicroseconds)
    let refreshCapacity = 1e6 / refreshes.cpuMicrosecondsEach
    let refreshFloorRate = 1e6 / (Targets.cpuPerRefreshRatio * floor.refreshMicroseconds)
    let refreshRatio = refreshes.cpuMicrosecondsEach / floor.refreshMicroseconds
    let mb = { (bytes: Int) in fmt(Double(bytes) / 1_048_576, 1) + " MB" }

    func row(_ figure: String, _ measured: String, _ target: String = "", _ result: String = "") -> String {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        return pad(figure, 40) + pad(measured, 50) + pad(target, 22) + result
    }
    let latency = { (latencies: Latencies) in
        "\(fmt(latencies.percentile(0.5))) / \(fmt(latencies.percentile(0.99))) µs"
    }
    let kernel = { (phase: LoadRun.PhaseResult) in "\(fmt(phase.systemShare * 100))% of it in the kernel" }
    let lines =
        [
            "Sesame load benchmark: server pinned to core \(settings.serverCore) ("
                + (settings.serverConfiguration == .tuned
                    ? "tuned: --threads 1 --log-level error" : "default: its thread pool, log level info") + "), "
                + "\(settings.connections) keep-alive connections, ES256 tokens, \(settings.users) users",
            "crypto floor (this run, server's core, idle server): ES256 verify \(fmt(floor.verifyMicroseconds, 1)) µs, "
                + "ES256 sign \(fmt(floor.signMicroseconds, 1)) µs; login floor 1 verify + 2 signs = "
                + "\(fmt(floor.loginMicroseconds, 1)) µs (passes before/after: \(fmt(before.loginMicroseconds, 1)) / "
                + "\(fmt(after.loginMicroseconds, 1)) µs); refresh floor 2 signs = \(fmt(floor.refreshMicroseconds, 1)) µs",
            "",
            row("figure", "measured", "target", "result"),
            row(
                "start → first /healthz (median of \(settings.starts))",
                "\(fmt(startMedian, 1)) ms (all: \(startTimes.map { fmt($0, 1) }.joined(separator: ", ")))",
                "≤ \(fmt(Targets.startMilliseconds)) ms", verdict(startMedian <= Targets.startMilliseconds)),
            row(
                "server CPU per login", "\(fmt(logins.cpuMicrosecondsEach)) µs = \(fmt(loginRatio, 2))× floor",
                "≤ 1.5× = \(fmt(Targets.cpuPerLoginRatio * floor.loginMicroseconds)) µs",
                verdict(loginRatio <= Targets.cpuPerLoginRatio)),
            row("", kernel(logins)),
            row("logins/s per core (1 / CPU per login)", "\(fmt(loginCapacity))/s", "≥ \(fmt(floorRate))/s"),
            row(
                "logins/s measured",
                "\(fmt(logins.perSecond))/s, server core \(fmt(logins.serverBusy * 100))% busy, "
                    + "load generator \(fmt(logins.clientBusy * 100))%"),
            row("login latency p50 / p99", latency(logins.latency) + " (challenge+sign+token)"),
            row("token request latency p50 / p99", latency(logins.tokenLatency)),
            row(
                "RSS after \(settings.logins) logins",
                "\(mb(rss)) (peak \(mb(peak)); \(mb(rssAfterSignup)) after signups; \(threads) threads)", "≤ 96 MB",
                verdict(rss <= Targets.rssBytes)),
            row(
                "server CPU per refresh", "\(fmt(refreshes.cpuMicrosecondsEach)) µs = \(fmt(refreshRatio, 2))× floor",
                "≤ 1.5× = \(fmt(Targets.cpuPerRefreshRatio * floor.refreshMicroseconds)) µs",
                verdict(refreshRatio <= Targets.cpuPerRefreshRatio)),
            row("", kernel(refreshes)),
            row(
                "refresh/s per core (1 / CPU per refresh)", "\(fmt(refreshCapacity))/s", "≥ \(fmt(refreshFloorRate))/s"),
            row(
                "refresh/s measured",
                "\(fmt(refreshes.perSecond))/s, server core \(fmt(refreshes.serverBusy * 100))% busy, "
                    + "load generator \(fmt(refreshes.clientBusy * 100))%"),
            row("refresh latency p50 / p99", latency(refreshes.latency)),
            row("RSS after the refreshes", mb(rssAfterRefresh)),
            row("keep-alive reconnects", "\(logins.reconnects + refreshes.reconnects)"),
        ] + idealRows(ideal, logins: logins, refreshes: refreshes, floor: floor, row: row)
        + pacedRows(pacedLogins, pacedRefreshes, row: row) + passwordRows.map { row($0.0, $0.1, $0.2, $0.3) }
    print(lines.joined(separator: "\n"))
}

/// The ideal server's rows (none when it was skipped): its CPU per login and refresh against the
/// crypto floor, without and with its SQLite writes, and Sesame's against the one with writes.
func idealRows(
    _ ideal: (bare: FloorPhase.Result, stored: FloorPhase.Result)?, logins: LoadRun.PhaseResult,
    refreshes: LoadRun.PhaseResult, floor: CryptoBaseline, row: (String, String, String, String) -> String
) -> [String] {
    guard let ideal else { return [] }
    let each = { (result: FloorPhase.Result) in
        "login \(fmt(result.loginMicroseconds)) µs = \(fmt(result.loginMicroseconds / floor.loginMicroseconds, 2))×, "
            + "refresh \(fmt(result.refreshMicroseconds)) µs = "
            + "\(fmt(result.refreshMicroseconds / floor.refreshMicroseconds, 2))× floor"
    }
    return [
        row("ideal server: HTTP + crypto", each(ideal.bare), "", ""),
        row("ideal server + fewest SQLite writes", each(ideal.stored), "", ""),
        row(
            "Sesame / ideal server with writes",
            "login \(fmt(logins.cpuMicrosecondsEach / ideal.stored.loginMicroseconds, 2))×, refresh "
                + "\(fmt(refreshes.cpuMicrosecondsEach / ideal.stored.refreshMicroseconds, 2))×", "", ""),
    ]
}

/// The latency rows of the paced phases (none when they were skipped).
func pacedRows(
    _ logins: LoadRun.PhaseResult?, _ refreshes: LoadRun.PhaseResult?,
    row: (String, String, String, String) -> String
) -> [String] {
    [("login", logins), ("refresh", refreshes)].compactMap { name, phase in
        guard let phase else { return nil }
        let p99 = phase.latency.percentile(0.99)
        return row(
            "\(name) p50 / p99 at half the max rate",
            "\(fmt(phase.latency.percentile(0.5))) / \(fmt(p99)) µs at \(fmt(phase.perSecond))/s "
                + "(server \(fmt(phase.serverBusy * 100))% busy)", "p99 ≤ 5 ms",
            verdict(p99 <= Targets.pacedP99Microseconds))
    }
}

let settings: LoadSettings
do {
    settings = try LoadSettings.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    log("sesame-loadgen: \(error)")
    exit(2)
}
let run: LoadRun
do {
    run = try LoadRun(settings: settings)
} catch {
    log("sesame-loadgen: \(error)")
    exit(1)
}
if settings.peers {
    do {
        try runPeers(settings, sesame: run)
    } catch {
        log("sesame-loadgen: \(error)")
        run.cleanUp()
        exit(1)
    }
    run.cleanUp()
    exit(0)
}
do {
    try runBenchmark(settings, run)
    if settings.keep { log("loadgen: data directory and server log kept in \(run.directory)") }
    run.cleanUp()
} catch {
    log("sesame-loadgen: \(error)")
    let serverLog = (try? String(contentsOfFile: run.directory + "/server.log", encoding: .utf8)) ?? ""
    if !serverLog.isEmpty { log("server log:\n\(serverLog.suffix(4_000))") }
    run.cleanUp()
    exit(1)
}

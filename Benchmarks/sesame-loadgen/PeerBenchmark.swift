import Foundation
import SesameSoftwareAuthenticator

/// `sesame-loadgen --peers` (make bench-peers): the same passkey logins against Sesame and against
/// django-allauth's headless passkey login, each server pinned to the same core and measured the
/// same way (utime + stime from /proc across the measured phase, divided by the logins). Sesame is
/// measured before and after the peer, and the ratio is taken against the mean of its two passes,
/// so a change in the machine's load during the run shows up as a gap between them.
func runPeers(_ settings: LoadSettings, sesame run: LoadRun) throws {
    log("loadgen: crypto baseline on core \(settings.serverCore)…")
    let floor = try baseline(on: settings.serverCore)

    try run.initialise()
    _ = try run.start()
    try run.useES256Tokens()
    log("loadgen: Sesame: signing up \(settings.users) users…")
    let sesameUsers = try run.signUp(count: settings.users, prefix: "user", scope: "openid profile email").map(\.0)

    let peer = try AllauthRun(settings: settings)
    defer { peer.cleanUp() }
    let peerStart: Double
    let peerUsers: [SoftwareAuthenticator]
    do {
        log("loadgen: allauth: migrate, start gunicorn…")
        try peer.initialise()
        peerStart = try peer.start()
        log("loadgen: allauth: signing up \(settings.users) users through the passkey signup…")
        peerUsers = try peer.signUp(count: settings.users)
    } catch {
        throw LoadError("\(error)\ngunicorn log:\n\(peer.log().suffix(4_000))")
    }

    let warmup = settings.warmup ?? min(300, settings.logins)
    log("loadgen: \(warmup) warm-up logins each, then \(settings.logins) measured: Sesame, allauth, Sesame…")
    _ = try run.logins(warmup, users: sesameUsers)
    let first = try run.logins(settings.logins, users: sesameUsers)
    let allauth: LoadRun.PhaseResult
    do {
        _ = try peer.logins(warmup, users: peerUsers)
        allauth = try peer.logins(settings.logins, users: peerUsers)
    } catch {
        throw LoadError("\(error)\ngunicorn log:\n\(peer.log().suffix(4_000))")
    }
    let second = try run.logins(settings.logins, users: sesameUsers)
    // gunicorn's resident memory: master + worker.
    let peerRSS = try ([peer.server?.pid].compactMap { $0 } + peer.workers).reduce(0) {
        $0 + (try ServerProcess.status("VmRSS", of: $1))
    }
    let sesameRSS = try run.server?.status("VmRSS") ?? 0
    peer.stop()
    run.stop()

    let sesameMean = (first.cpuMicrosecondsEach + second.cpuMicrosecondsEach) / 2
    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
    func row(_ name: String, _ phase: LoadRun.PhaseResult, _ rss: Int?, _ versus: String) -> String {
        pad(name, 44) + pad("\(fmt(phase.cpuMicrosecondsEach)) µs", 14) + pad("\(fmt(phase.systemShare * 100))%", 8)
            + pad("\(fmt(phase.perSecond))/s (\(fmt(phase.serverBusy * 100))% busy)", 22)
            + pad("\(fmt(phase.latency.percentile(0.5))) / \(fmt(phase.latency.percentile(0.99))) µs", 22)
            + pad(rss.map { fmt(Double($0) / 1_048_576, 1) + " MB" } ?? "", 10) + versus
    }
    let worker =
        settings.peerWorker == .gthread
        ? "gthread, \(settings.connections) threads" : "sync"
    let lines = [
        "Peers: full passkey logins, each server pinned to core \(settings.serverCore), "
            + "\(settings.connections) keep-alive connections, \(settings.users) users, \(settings.logins) measured "
            + "logins per pass after \(warmup) warm-up",
        "crypto floor (this run, server's core): ES256 verify \(fmt(floor.verifyMicroseconds, 1)) µs, sign "
            + "\(fmt(floor.signMicroseconds, 1)) µs; Sesame's login floor 1 verify + 2 signs = "
            + "\(fmt(floor.loginMicroseconds, 1)) µs",
        "allauth: gunicorn started in \(fmt(peerStart)) ms; 1 worker (\(worker)); CPU = master + worker",
        "",
        pad("server", 44) + pad("CPU/login", 14) + pad("kernel", 8) + pad("logins/s measured", 22)
            + pad("latency p50 / p99", 22) + pad("RSS", 10) + "vs Sesame (mean of passes)",
        row("Sesame (--threads 1), pass 1", first, nil, fmt(first.cpuMicrosecondsEach / sesameMean, 2) + "×"),
        row(
            "django-allauth headless (gunicorn 1 worker)", allauth, peerRSS,
            fmt(allauth.cpuMicrosecondsEach / sesameMean, 2) + "×"),
        row("Sesame (--threads 1), pass 2", second, sesameRSS, fmt(second.cpuMicrosecondsEach / sesameMean, 2) + "×"),
        "",
        "server CPU per login, allauth / Sesame: \(fmt(allauth.cpuMicrosecondsEach / sesameMean, 2))× "
            + "(Sesame \(fmt(sesameMean)) µs = \(fmt(sesameMean / floor.loginMicroseconds, 2))× its crypto floor; "
            + "allauth \(fmt(allauth.cpuMicrosecondsEach)) µs)",
        "keep-alive reconnects: Sesame \(first.reconnects + second.reconnects), allauth \(allauth.reconnects)",
    ]
    print(lines.joined(separator: "\n"))
}

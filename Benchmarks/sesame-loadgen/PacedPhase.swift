import Foundation
import SesameSoftwareAuthenticator
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The latency figures: operations sent open-loop at a fixed rate (half the rate the closed-loop
/// phase measured), so queueing at a realistic load shows and a saturated server does not.
///
/// Each connection has its own schedule: its k-th operation is due at
/// `start + (k × connections + worker) / rate`. An operation that could not start on time (the
/// previous one on its connection was still running) starts at once, and its latency is counted
/// from when it was due, not from when it was sent, so a stall is not hidden (coordinated
/// omission).
extension LoadRun {
    /// `count` logins at `rate` per second.
    func pacedLogins(_ count: Int, rate: Double, users: [SoftwareAuthenticator]) throws -> PhaseResult {
        let clientID = self.clientID
        let port = self.port
        let challengeBody = #"{"client_id":"\#(clientID)"}"#
        return try paced(count, rate: rate, phase: "paced-logins") { _ in
            let client = SesameClient(connection: try HTTPConnection(port: port), clientID: clientID)
            return { index in
                _ = try LoadRun.login(client, users[index % users.count], challengeBody: challengeBody)
                return client.connection.reconnects
            }
        }
    }

    /// `count` refresh grants at `rate` per second, each connection rotating its own chain.
    func pacedRefreshes(_ count: Int, rate: Double, firstTokens: [String]) throws -> PhaseResult {
        let clientID = self.clientID
        let port = self.port
        return try paced(count, rate: rate, phase: "paced-refresh") { worker in
            let client = SesameClient(connection: try HTTPConnection(port: port), clientID: clientID)
            var token = firstTokens[worker]
            return { _ in
                token = try LoadRun.refresh(client, token)
                return client.connection.reconnects
            }
        }
    }

    /// Runs `count` operations on the schedule above. `makeWorker` builds one connection's
    /// operation (which returns that connection's reconnect count so far).
    private func paced(
        _ count: Int, rate: Double, phase name: String,
        makeWorker: @escaping @Sendable (Int) throws -> (Int) throws -> Int
    ) throws -> PhaseResult {
        guard rate > 0 else { throw LoadError("the paced rate must be positive") }
        let connections = settings.connections
        let interval = 1e9 / rate
        let traced = settings.latencyLog != nil
        let trace = Mutex<[String]>([])
        let result = try measured(name, count: count) {
            // Taken after the phase hook has run, so a slow hook does not make the first slots late.
            let started = Clock.nanoseconds() + 10_000_000
            return try Workers.run(count: connections) { worker in
                let operation = try makeWorker(worker)
                var latency = Latencies()
                var lines: [String] = []
                defer { if traced { trace.withLock { $0 += lines } } }
                var reconnects = 0
                var index = worker
                while index < count {
                    let due = started + UInt64(Double(index) * interval)
                    let now = Clock.nanoseconds()
                    if due > now {
                        var pause = timespec(
                            tv_sec: Int(due - now) / 1_000_000_000, tv_nsec: Int(due - now) % 1_000_000_000)
                        nanosleep(&pause, nil)
                    }
                    reconnects = try operation(index)
                    let took = Clock.nanoseconds() - due
                    latency.append(took)
                    if traced { lines.append("\(name) \(worker) \(due / 1_000) \(took / 1_000)") }
                    index += connections
                }
                return WorkerResult(latency: latency, tokenLatency: Latencies(), reconnects: reconnects)
            }
        }
        if let path = settings.latencyLog {
            try appendLines(trace.withLock { $0 }, to: path)
        }
        return result
    }

    /// Appends `lines` to the file at `path`, creating it.
    private func appendLines(_ lines: [String], to path: String) throws {
        let text = lines.map { $0 + "\n" }.joined()
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw LoadError("cannot create the latency log \(path)")
            }
        }
        guard let file = FileHandle(forWritingAtPath: path) else { throw LoadError("cannot open \(path)") }
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data(text.utf8))
    }
}

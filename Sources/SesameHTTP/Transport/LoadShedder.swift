internal import CMicroHTTPD
import Synchronization

/// Sheds load the workers cannot keep up with: a request that has fully arrived but waited longer
/// than `maxQueueWait` before a worker thread could look at it is answered 503
/// `temporarily_unavailable` with `Retry-After` at once, without running its handler.
///
/// Handlers run on libmicrohttpd's worker threads, so under overload the queue is in the kernel:
/// requests sit in their sockets while every worker is busy. How long one sat there is what the
/// kernel says about the socket (`TCP_INFO`'s time since the last data arrived), read when the
/// request is complete. Answering stale requests costs next to nothing, so the backlog drains
/// quickly and the server goes on serving at its full rate; when the load stops, a new request
/// waits behind at most `maxQueueWait` of work. The health and metrics routes are never shed.
final class LoadShedder: Sendable {
    /// Seconds a complete request may wait for a worker; 0 turns shedding off.
    let maxQueueWait: Double
    /// What a shed answer puts in `Retry-After`.
    let retryAfterSeconds: Int
    private let measure: @Sendable (Int32) -> Double?
    private let shedCount = Atomic<Int>(0)

    /// Paths answered even when stale: cheap, and what operators and orchestrators probe.
    static let exemptPaths: Set<String> = ["/healthz", "/metrics"]

    /// A shedder for `maxQueueWait` seconds; `measure` reads how long a socket's data has waited
    /// (the kernel's figure by default; tests inject one).
    init(
        maxQueueWait: Double, retryAfterSeconds: Int = 1,
        measure: @escaping @Sendable (Int32) -> Double? = LoadShedder.kernelQueueWait
    ) {
        self.maxQueueWait = max(0, maxQueueWait)
        self.retryAfterSeconds = max(1, retryAfterSeconds)
        self.measure = measure
    }

    /// The answer for a request to `path` complete on `socket`: nil to handle it, or the 503.
    func rejection(path: String, socket: Int32) -> HTTPError? {
        guard maxQueueWait > 0, !Self.exemptPaths.contains(path) else { return nil }
        guard let waited = measure(socket) else { return nil }
        return rejection(waited: waited)
    }

    /// The decision for a request that waited `waited` seconds.
    func rejection(waited: Double) -> HTTPError? {
        guard maxQueueWait > 0, waited > maxQueueWait else { return nil }
        shedCount.add(1, ordering: .relaxed)
        return HTTPError(
            status: 503, error: "temporarily_unavailable",
            description: "the server is overloaded; retry in a moment",
            headers: ["Retry-After": String(retryAfterSeconds)])
    }

    /// Requests shed so far.
    var shed: Int { shedCount.load(ordering: .relaxed) }

    /// Seconds since the kernel last received data on `socket`, or nil if it cannot say (not TCP).
    @Sendable static func kernelQueueWait(_ socket: Int32) -> Double? {
        let milliseconds = sesame_tcp_last_data_received_ms(socket)
        return milliseconds < 0 ? nil : Double(milliseconds) / 1000
    }
}

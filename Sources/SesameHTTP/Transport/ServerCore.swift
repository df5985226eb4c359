import Synchronization

/// What the libmicrohttpd callbacks need, shared by all worker threads: the pipeline, limits and counters.
/// Passed to C as an unretained pointer; the `MHDDaemon` that uses it holds it strongly.
final class ServerCore: Sendable {
    let responder: HTTPResponder
    let limits: ServerLimits
    let connectionScheme: String
    /// Open connections: request deadlines and headroom for new addresses.
    let connections: ConnectionTable
    /// Requests begun (request line read) and not yet completed.
    let inFlight = Atomic<Int>(0)
    /// Per-request states alive (for leak checks in tests).
    let liveStates = Atomic<Int>(0)
    /// Set when the server stops accepting: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// Answers requests that waited too long for a worker with 503.
    let shedder: LoadShedder
    /// `sesame_http_requests_shed_total`.
    let shedCounter: CounterFamily

    init(
        responder: HTTPResponder, limits: ServerLimits, connectionScheme: String, connections: ConnectionTable,
        shedder: LoadShedder? = nil
    ) {
        self.responder = responder
        self.limits = limits
        self.connectionScheme = connectionScheme
        self.connections = connections
        self.shedder = shedder ?? LoadShedder(maxQueueWait: limits.maxQueueWaitSeconds)
        self.shedCounter = responder.metrics.counter(
            "sesame_http_requests_shed_total",
            help: "Requests answered 503 without being handled: they waited longer than the queue limit for a worker.")
    }
}

/// The per-request state libmicrohttpd keeps for us in the connection's `con_cls` pointer, from the
/// request line until the completion callback releases it. Only the connection's thread touches it.
final class RequestState {
    let rawTarget: String
    let startedAt: Double
    var headersSeen = false
    var responded = false
    var body: [UInt8] = []
    private let core: ServerCore

    init(rawTarget: String, core: ServerCore) {
        self.rawTarget = rawTarget
        self.startedAt = MonotonicClock.now()
        self.core = core
        core.inFlight.add(1, ordering: .relaxed)
        core.liveStates.add(1, ordering: .relaxed)
    }

    deinit {
        core.inFlight.subtract(1, ordering: .relaxed)
        core.liveStates.subtract(1, ordering: .relaxed)
    }
}

import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The HTTP/1.1 server: libmicrohttpd with epoll and a worker-thread pool; handlers run synchronously
/// on the workers. Creating it starts listening; `stop` drains in-flight requests and shuts it down.
public final class HTTPServer: Sendable {
    /// How to listen and what to enforce.
    public struct Configuration: Sendable {
        /// The listen address: an IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `0.0.0.0`, `::`).
        public var host: String = "127.0.0.1"
        /// The listen port; 0 picks a free one (read it back from `HTTPServer.port`).
        public var port: Int = 0
        /// Body, header, connection and timeout limits.
        public var limits = ServerLimits()
        /// Serve HTTPS with this certificate and key; nil for plain HTTP (e.g. behind a TLS proxy).
        public var tls: TLSConfiguration?
        /// Peers whose `X-Forwarded-*` headers are believed.
        public var trustedProxies: TrustedProxies = .none
        /// Worker threads; nil = the number of cores. 1 means a single polling thread (no pool).
        public var threads: Int?
        /// A limit applied to every request by client IP, or nil (routes can also wrap handlers themselves).
        public var rateLimiter: RateLimiter?

        /// The defaults: loopback, ephemeral port, default limits, plain HTTP, no proxies, one thread per core.
        public init() {}

        /// A configuration for `host:port`, other fields default.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    private enum State {
        case running(MHDDaemon)
        case stopping
        case stopped
    }

    /// The port the server listens on (the real one when 0 was asked for).
    public let port: Int
    /// The configuration it was started with.
    public let configuration: Configuration
    /// The request pipeline (router, metrics, log).
    public let responder: HTTPResponder

    private let core: ServerCore
    private let state: Mutex<State>
    private let stoppedSignal = DispatchSemaphore(value: 0)

    /// Starts a server with this router; request metrics go to `metrics`, request lines to `log`.
    public convenience init(
        configuration: Configuration, router: Router, metrics: Metrics = Metrics(), log: RequestLog = RequestLog()
    ) throws {
        let responder = HTTPResponder(
            router: router, trustedProxies: configuration.trustedProxies, rateLimiter: configuration.rateLimiter,
            metrics: metrics, log: log)
        try self.init(configuration: configuration, responder: responder)
    }

    /// Starts a server in front of `responder` (its trusted proxies and rate limiter apply, not the configuration's).
    public convenience init(configuration: Configuration, responder: HTTPResponder) throws {
        try self.init(configuration: configuration, responder: responder, shedder: nil)
    }

    /// Starts a server whose load shedding measures queue waits with `shedder` (tests inject one).
    init(configuration: Configuration, responder: HTTPResponder, shedder: LoadShedder?) throws {
        let limits = configuration.limits
        for (name, value) in [
            ("maxBodyBytes", limits.maxBodyBytes), ("connectionMemoryBytes", limits.connectionMemoryBytes),
            ("maxConnections", limits.maxConnections),
        ] where value < 1 {
            throw HTTPServerError.invalidLimit(name)
        }
        if limits.connectionsPerIP < 0 { throw HTTPServerError.invalidLimit("connectionsPerIP") }
        if limits.connectionTimeoutSeconds < 0 { throw HTTPServerError.invalidLimit("connectionTimeoutSeconds") }
        if limits.requestTimeoutSeconds < 0 { throw HTTPServerError.invalidLimit("requestTimeoutSeconds") }
        if !(0..<limits.maxConnections).contains(limits.reservedSlots) {
            throw HTTPServerError.invalidLimit("reservedConnections")
        }
        if limits.connectionsPerIPUnderPressure < 1 {
            throw HTTPServerError.invalidLimit("connectionsPerIPUnderPressure")
        }
        if limits.connectionMemoryBytes < 4096 { throw HTTPServerError.invalidLimit("connectionMemoryBytes") }
        if !(limits.maxQueueWaitSeconds >= 0 && limits.maxQueueWaitSeconds <= 3_600) {
            throw HTTPServerError.invalidLimit("maxQueueWaitSeconds")
        }
        let threads = configuration.threads ?? HTTPServer.coreCount()
        if threads < 1 { throw HTTPServerError.invalidLimit("threads") }
        // libmicrohttpd splits maxConnections evenly across the pool threads; each needs at least one.
        if limits.maxConnections < threads { throw HTTPServerError.invalidLimit("maxConnections") }

        self.configuration = configuration
        self.responder = responder
        let connections = ConnectionTable(
            policy: ConnectionTable.Policy(
                requestTimeout: Double(limits.requestTimeoutSeconds), maxConnections: limits.maxConnections,
                reserved: limits.reservedSlots, perAddressUnderPressure: limits.connectionsPerIPUnderPressure,
                exempt: responder.trustedProxies, keepFree: limits.keptFreeSlots(threads: threads)))
        let core = ServerCore(
            responder: responder, limits: limits, connectionScheme: configuration.tls == nil ? "http" : "https",
            connections: connections, shedder: shedder)
        self.core = core
        let daemon = try MHDDaemon(
            core: core, address: configuration.host, port: configuration.port, threads: threads,
            tls: configuration.tls)
        self.port = daemon.port
        self.state = Mutex(.running(daemon))
        responder.log.log(
            .info, "listening",
            fields: [
                ("address", configuration.host), ("port", String(daemon.port)), ("threads", String(threads)),
                ("tls", configuration.tls == nil ? "false" : "true"),
            ])
    }

    deinit {
        // A server dropped without stop(): stop at once (MHDDaemon.deinit joins the workers).
        state.withLock { $0 = .stopped }
    }

    /// Requests begun and not yet answered and completed.
    public var inFlightRequests: Int { core.inFlight.load(ordering: .relaxed) }

    /// Per-request states still allocated (0 when idle: used by tests to prove nothing leaks).
    var liveRequestStates: Int { core.liveStates.load(ordering: .relaxed) }

    /// Requests answered 503 by load shedding so far.
    public var shedRequests: Int { core.shedder.shed }

    /// Idle connections shut down to keep slots free so far.
    public var evictedConnections: Int { core.connections.evictions }

    /// Open connections (tests).
    var openConnections: Int { core.connections.count }

    /// Stops accepting connections, lets in-flight requests finish for up to `gracePeriod` seconds
    /// (responses then say `Connection: close`), then closes everything. Idempotent; must not be
    /// called from a handler.
    public func stop(gracePeriod: Double = 10) {
        let daemon: MHDDaemon? = state.withLock { state in
            guard case .running(let daemon) = state else { return nil }
            state = .stopping
            return daemon
        }
        guard let daemon else {
            waitUntilStopped()
            return
        }
        core.draining.store(true, ordering: .relaxed)
        daemon.quiesce()
        let deadline = MonotonicClock.now() + max(0, gracePeriod)
        while core.inFlight.load(ordering: .relaxed) > 0 && MonotonicClock.now() < deadline {
            usleep(5_000)
        }
        let unfinished = core.inFlight.load(ordering: .relaxed)
        daemon.stop()
        state.withLock { $0 = .stopped }
        responder.log.log(.info, "stopped", fields: [("unfinished_requests", String(unfinished))])
        stoppedSignal.signal()
    }

    /// Blocks until `stop` has finished (e.g. the main thread of `sesame serve`).
    public func waitUntilStopped() {
        stoppedSignal.wait()
        stoppedSignal.signal()  // let every other waiter through too
    }

    /// The number of online cores (at least 1).
    static func coreCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

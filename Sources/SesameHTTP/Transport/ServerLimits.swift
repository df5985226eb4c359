/// Resource limits the server enforces on every connection and request.
public struct ServerLimits: Sendable, Equatable {
    /// Largest request body accepted; a bigger one gets 413 `request_too_large` (default 64 KiB).
    public var maxBodyBytes: Int = 64 * 1024
    /// Memory per connection for the request line, headers and buffers (libmicrohttpd's
    /// `MHD_OPTION_CONNECTION_MEMORY_LIMIT`); larger headers are refused (default 32 KiB).
    public var connectionMemoryBytes: Int = 32 * 1024
    /// Simultaneous connections from one IP address; 0 = no limit (default 64). Behind a proxy every
    /// connection comes from the proxy, so set this to 0 there or size it for the proxy.
    public var connectionsPerIP: Int = 64
    /// Simultaneous connections in total (default 1024). libmicrohttpd divides this evenly among the
    /// worker threads, each refusing connections beyond its share; it must be at least the thread count.
    public var maxConnections: Int = 1024
    /// Seconds a connection may stay idle before it is closed; 0 = never (default 30).
    public var connectionTimeoutSeconds: Int = 30
    /// Seconds for a whole request (request line, headers and body) to arrive, counted from when the
    /// connection opened or its previous response was sent; 0 = no deadline (default 15). A
    /// keep-alive connection that sends nothing for this long is closed too.
    public var requestTimeoutSeconds: Int = 15
    /// Connection slots kept for addresses holding fewer than `connectionsPerIPUnderPressure`
    /// connections; nil = an eighth of `maxConnections`. Trusted proxies are exempt.
    public var reservedConnections: Int?
    /// What one address may hold once only the reserved slots are free (default 2).
    public var connectionsPerIPUnderPressure: Int = 2
    /// Seconds a fully arrived request may wait for a worker thread before it is answered 503
    /// `temporarily_unavailable` + `Retry-After` without being handled (`LoadShedder`); 0 = never
    /// shed (default 0.5).
    public var maxQueueWaitSeconds: Double = 0.5
    /// Keep a few slots free (the thread count, at least 2, at most an eighth of `maxConnections`)
    /// by shutting down the connection that has waited longest for its next request whenever a new
    /// one would take them (default true). Without it, once every slot is held libmicrohttpd stops
    /// accepting and new clients wait in the kernel's backlog until a held connection ends.
    public var evictIdleConnections: Bool = true

    /// The defaults above.
    public init() {}

    /// Limits with every field given.
    public init(
        maxBodyBytes: Int, connectionMemoryBytes: Int, connectionsPerIP: Int, maxConnections: Int,
        connectionTimeoutSeconds: Int, requestTimeoutSeconds: Int = 15, reservedConnections: Int? = nil,
        connectionsPerIPUnderPressure: Int = 2, maxQueueWaitSeconds: Double = 0.5
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.connectionMemoryBytes = connectionMemoryBytes
        self.connectionsPerIP = connectionsPerIP
        self.maxConnections = maxConnections
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.reservedConnections = reservedConnections
        self.connectionsPerIPUnderPressure = connectionsPerIPUnderPressure
        self.maxQueueWaitSeconds = maxQueueWaitSeconds
    }

    /// The reserved slots in force.
    var reservedSlots: Int { reservedConnections ?? maxConnections / 8 }

    /// The slots idle eviction keeps free with `threads` workers (0: none).
    func keptFreeSlots(threads: Int) -> Int {
        evictIdleConnections ? min(max(2, threads), maxConnections / 8) : 0
    }
}

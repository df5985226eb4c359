import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Every open connection, for two limits libmicrohttpd 0.9.75 does not have:
///
/// - a deadline for each whole request: from the moment a connection opens, or its previous
///   response has been sent, its next request line, headers and body must all have arrived
///   within `requestTimeout` seconds, or the connection is shut down (a slow sender, one byte
///   every few seconds, would otherwise hold its slot forever: libmicrohttpd's idle timeout
///   restarts with every byte);
/// - headroom for new addresses: once fewer than `reserved` slots are free, an address that
///   already holds `perAddressUnderPressure` connections is refused, so a few addresses cannot
///   take every slot. Trusted proxies, which carry many clients, are exempt.
///
/// Addresses are counted by `IPAddressRange.clientKey` (an IPv4 address, an IPv6 /64).
final class ConnectionTable: Sendable {
    /// The limits the table enforces.
    struct Policy: Sendable {
        /// Seconds for a whole request to arrive; 0 turns the deadline off.
        var requestTimeout: Double
        /// The connection limit the server was started with.
        var maxConnections: Int
        /// Slots kept for addresses that hold fewer than `perAddressUnderPressure` connections.
        var reserved: Int
        /// What one address may hold once the free slots are down to `reserved`.
        var perAddressUnderPressure: Int
        /// Peers the headroom rule does not apply to.
        var exempt: TrustedProxies
    }

    private struct Entry {
        var socket: Int32
        var key: String
        var address: String
        /// When the connection began waiting for its current request; nil while one is handled.
        var waitingSince: Double?
    }

    private struct State {
        var entries: [UInt: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var nextID: UInt = 1
    }

    let policy: Policy
    private let clock: @Sendable () -> Double
    private let shutdownSocket: @Sendable (Int32) -> Void
    private let state = Mutex(State())

    /// A table enforcing `policy`; `clock` reads a monotonic clock in seconds, `shutdownSocket`
    /// ends a connection (tests inject both).
    init(
        policy: Policy, clock: @escaping @Sendable () -> Double = MonotonicClock.now,
        shutdownSocket: @escaping @Sendable (Int32) -> Void = { _ = shutdown($0, Int32(SHUT_RDWR)) }
    ) {
        self.policy = policy
        self.clock = clock
        self.shutdownSocket = shutdownSocket
    }

    /// Whether a new connection from `address` may be accepted.
    func admit(address: String) -> Bool {
        guard !policy.exempt.isTrusted(address) else { return true }
        let key = IPAddressRange.clientKey(address)
        return state.withLock { state in
            let free = policy.maxConnections - state.entries.count
            guard free <= policy.reserved else { return true }
            return state.perAddress[key, default: 0] < policy.perAddressUnderPressure
        }
    }

    /// Records an accepted connection; returns its id (never 0).
    func opened(socket: Int32, address: String) -> UInt {
        let now = clock()
        let exempt = policy.exempt.isTrusted(address)
        let key = exempt ? "" : IPAddressRange.clientKey(address)
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(socket: socket, key: key, address: address, waitingSince: now)
            if !exempt { state.perAddress[key, default: 0] += 1 }
            return id
        }
    }

    /// Forgets a closed connection. Called before libmicrohttpd closes the socket, so the socket
    /// is never shut down after its number was given to another connection.
    func closed(_ id: UInt) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            guard !entry.key.isEmpty else { return }
            let left = state.perAddress[entry.key, default: 1] - 1
            state.perAddress[entry.key] = left > 0 ? left : nil
        }
    }

    /// The connection's request has fully arrived: its deadline stops while it is handled.
    func requestReceived(_ id: UInt) {
        state.withLock { $0.entries[id]?.waitingSince = nil }
    }

    /// The connection's response is done: the deadline for its next request starts.
    func requestCompleted(_ id: UInt) {
        let now = clock()
        state.withLock { $0.entries[id]?.waitingSince = now }
    }

    /// Shuts down every connection whose request is overdue, telling `report` of each first;
    /// returns their addresses.
    @discardableResult func reapOverdue(report: (String) -> Void = { _ in }) -> [String] {
        guard policy.requestTimeout > 0 else { return [] }
        let now = clock()
        return state.withLock { state in
            var reaped: [String] = []
            for (id, entry) in state.entries {
                guard let since = entry.waitingSince, now - since > policy.requestTimeout else { continue }
                state.entries[id]?.waitingSince = nil  // once
                report(entry.address)
                shutdownSocket(entry.socket)
                reaped.append(entry.address)
            }
            return reaped
        }
    }

    /// Open connections.
    var count: Int { state.withLock { $0.entries.count } }
}

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
///   take every slot. Trusted proxies, which carry many clients, are exempt;
/// - a free slot for whoever comes next: once only `keepFree` slots are left, opening a
///   connection shuts down the one that has waited longest for its next request (one that is being
///   handled, or a trusted proxy's, is never chosen). Many addresses holding one idle connection
///   each would otherwise fill every slot, and libmicrohttpd stops accepting at its limit, so a
///   legitimate client would wait in the kernel's backlog behind the attacker's connections.
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
        /// Slots kept free by shutting down the longest-waiting idle connection; 0 = never evict.
        var keepFree: Int = 0
    }

    private struct Entry {
        var socket: Int32
        var key: String
        var address: String
        /// When the connection began waiting for its current request; nil while one is handled.
        var waitingSince: Double?
        /// Shut down to make room; counted as free until libmicrohttpd closes it.
        var evicted = false
    }

    private struct State {
        var entries: [UInt: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var nextID: UInt = 1
        /// Entries shut down to make room and not yet closed.
        var evicting = 0
        /// Connections shut down to make room so far.
        var evictions = 0
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
            let free = policy.maxConnections - (state.entries.count - state.evicting)
            guard free <= policy.reserved else { return true }
            return state.perAddress[key, default: 0] < policy.perAddressUnderPressure
        }
    }

    /// Records an accepted connection; returns its id (never 0). When that leaves no more than
    /// `keepFree` slots, the longest-waiting idle connection is shut down to make room.
    func opened(socket: Int32, address: String) -> UInt {
        let now = clock()
        let exempt = policy.exempt.isTrusted(address)
        let key = exempt ? "" : IPAddressRange.clientKey(address)
        return state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(socket: socket, key: key, address: address, waitingSince: now)
            if !exempt { state.perAddress[key, default: 0] += 1 }
            if policy.keepFree > 0, policy.maxConnections - (state.entries.count - state.evicting) <= policy.keepFree {
                evictLongestWaiting(&state, except: id)
            }
            return id
        }
    }

    private func evictLongestWaiting(_ state: inout State, except newest: UInt) {
        var victim: (id: UInt, since: Double)?
        for (id, entry) in state.entries where id != newest && !entry.evicted && !entry.key.isEmpty {
            guard let since = entry.waitingSince else { continue }
            if victim.map({ since < $0.since || (since == $0.since && id < $0.id) }) ?? true {
                victim = (id, since)
            }
        }
        guard let victim, let entry = state.entries[victim.id] else { return }
        state.entries[victim.id]?.evicted = true
        state.entries[victim.id]?.waitingSince = nil  // the deadline need not reap it again
        state.evicting += 1
        state.evictions += 1
        shutdownSocket(entry.socket)
    }

    /// Forgets a closed connection. Called before libmicrohttpd closes the socket, so the socket
    /// is never shut down after its number was given to another connection.
    func closed(_ id: UInt) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            if entry.evicted { state.evicting -= 1 }
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
        state.withLock { state in
            guard state.entries[id]?.evicted == false else { return }
            state.entries[id]?.waitingSince = now
        }
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

    /// Connections shut down to make room so far.
    var evictions: Int { state.withLock { $0.evictions } }
}

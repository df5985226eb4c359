import Foundation

/// Caps the password hashes (Argon2id, or an imported hash being checked) running at once. Each
/// takes its connection's memory cost (19 MiB by default) for tens of milliseconds, so a flood of
/// password logins could otherwise take all the memory there is. The excess waits, at most
/// `maxWaiting` callers for at most `maxWait`, and is then refused with 503 and `Retry-After`.
/// Memory for hashing stays under `maxConcurrent` × the largest memory cost (256 MiB by the
/// Management API's limit).
public final class PasswordHashGate: @unchecked Sendable {  // state guarded by `condition`
    public let maxConcurrent: Int
    public let maxWaiting: Int
    public let maxWait: TimeInterval
    private let condition = NSCondition()
    private var running = 0
    private var waiting = 0

    /// - Parameters:
    ///   - maxConcurrent: hashes at once (default: one per processor).
    ///   - maxWaiting: callers that may queue for a slot.
    ///   - maxWait: how long one waits before it is refused.
    public init(
        maxConcurrent: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), maxWaiting: Int? = nil,
        maxWait: TimeInterval = 2
    ) {
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxWaiting = max(0, maxWaiting ?? 8 * self.maxConcurrent)
        self.maxWait = maxWait
    }

    /// The hashes running now (for tests and metrics).
    public var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    /// The callers waiting for a slot now (for tests and metrics).
    public var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    /// Runs `body` in a slot; 503 when none frees up in time or too many already wait.
    public func run<T>(_ body: () throws -> T) throws -> T {
        try acquire()
        defer { release() }
        return try body()
    }

    private func acquire() throws(ServiceError) {
        condition.lock()
        defer { condition.unlock() }
        if running < maxConcurrent {
            running += 1
            return
        }
        guard waiting < maxWaiting else { throw Self.busy }
        waiting += 1
        defer { waiting -= 1 }
        // Real time, not the service clock: this bounds how long a worker thread is held.
        let deadline = Date(timeIntervalSinceNow: maxWait)
        while running >= maxConcurrent {
            guard condition.wait(until: deadline) else {
                if running < maxConcurrent { break }
                throw Self.busy
            }
        }
        running += 1
    }

    private func release() {
        condition.lock()
        running -= 1
        condition.signal()
        condition.unlock()
    }

    static let busy = ServiceError.unavailable("too many password checks are running; retry in a moment")
}

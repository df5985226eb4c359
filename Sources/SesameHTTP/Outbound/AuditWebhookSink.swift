import Foundation
import SesameService
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Ships the audit log to an operator's URL (docs/audit-log.md): each POST carries a batch of
/// entries as JSON lines (`Content-Type: application/x-ndjson`; one entry per line with its
/// `tenant_id`, the same lines as the file), with `Authorization: Bearer <token>` when a token is
/// configured, and `Sesame-Signature: t=<unix seconds>,v1=<hex>` (`WebhookSignature`, an
/// HMAC-SHA256 over `"<t>." + body`) when a signing secret is. Each attempt is signed anew, so a
/// retried batch carries a fresh time.
///
/// `ship` only queues: a worker thread delivers, so the audit log's flush never waits on the
/// network. The queue holds at most `Limits.maxQueued` entries besides the batch in flight; beyond
/// that the oldest are dropped and counted (`droppedEntries`). A 2xx answer is delivery. A network
/// error, a timeout, 408, 429 or 5xx is tried again after an exponential backoff
/// (`Limits.firstRetry`, doubling, at most `Limits.maxRetryDelay`), `Limits.maxAttempts` times in
/// all; then, or at once on any other answer (a redirect included: none is followed, so the token
/// stays with the configured URL), the batch is dropped and counted. An entry can arrive twice when
/// an answer is lost after the receiver took the batch; `log_id` tells them apart.
public final class AuditWebhookSink: AuditSink {
    public struct Limits: Sendable, Hashable {
        /// Entries waiting besides the batch in flight.
        public var maxQueued: Int
        /// Entries in one POST.
        public var batchSize: Int
        /// For each POST.
        public var timeout: TimeInterval
        /// The pause after the first failed attempt; each further failure doubles it.
        public var firstRetry: TimeInterval
        /// The longest pause.
        public var maxRetryDelay: TimeInterval
        /// Attempts per batch, the first included.
        public var maxAttempts: Int

        public init(
            maxQueued: Int = 10_000, batchSize: Int = 500, timeout: TimeInterval = 5, firstRetry: TimeInterval = 1,
            maxRetryDelay: TimeInterval = 60, maxAttempts: Int = 10
        ) {
            self.maxQueued = max(1, maxQueued)
            self.batchSize = max(1, batchSize)
            self.timeout = timeout
            self.firstRetry = firstRetry
            self.maxRetryDelay = max(firstRetry, maxRetryDelay)
            self.maxAttempts = max(1, maxAttempts)
        }
    }

    /// Why a URL or a token cannot be used (the token itself is never part of the message).
    public enum ConfigurationError: Error, Hashable, CustomStringConvertible {
        case notHTTPS
        case credentialsInURL
        case badToken
        case badSecret
        case previousSecretAlone

        public var description: String {
            switch self {
            case .notHTTPS: return "must be an https URL (http only to a loopback address)"
            case .credentialsInURL: return "must not hold a user name or password (use the token file)"
            case .badToken: return "the token must be 1 to 4096 visible ASCII characters"
            case .badSecret: return "the signing secret must be 16 to 4096 bytes"
            case .previousSecretAlone: return "a previous signing secret needs a current one"
            }
        }

        /// The bounds of a signing secret's length, in bytes.
        public static let secretLength = 16...4_096
    }

    /// What one delivery step did (`deliverOnce`).
    public enum Step: Sendable, Hashable {
        /// Nothing was waiting.
        case idle
        case delivered(Int)
        /// The batch failed and is tried again after this pause.
        case retry(after: TimeInterval)
        /// The batch was refused, or failed `maxAttempts` times: its entries are counted as dropped.
        case dropped(Int)
    }

    public let url: URL
    public let limits: Limits
    private let authorization: String?
    /// The HMAC keys of `Sesame-Signature`, the current one first, then the previous one during a
    /// rotation (empty: batches are not signed); never logged or shown.
    private let secrets: [[UInt8]]
    /// The time a signature carries.
    private let clock: @Sendable () -> Date
    private let http: OutboundHTTP
    /// Waits out a retry's pause (nil: until the pause ends or `stop`).
    private let pause: (@Sendable (TimeInterval) -> Void)?

    private struct State {
        var queue: [[UInt8]] = []
        var batch: [[UInt8]] = []
        var attempts = 0
        var stopped = false
        var started = false
    }
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let lost = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)

    /// - Parameters:
    ///   - token: sent as `Authorization: Bearer`; never logged or shown.
    ///   - secret: signs each POST (`Sesame-Signature`), 16 to 4096 bytes; never logged or shown.
    ///   - previousSecret: during a rotation, the secret the receiver may still expect; each POST
    ///     then carries a second `v1` under it. Needs `secret`; the same bounds.
    ///   - clock: the time a signature carries (tests pin it).
    ///   - pause: replaces the worker's wait between attempts (tests record the backoff with it).
    public init(
        url: URL, token: String? = nil, secret: [UInt8]? = nil, previousSecret: [UInt8]? = nil,
        limits: Limits = Limits(),
        clock: @escaping @Sendable () -> Date = { Date() }, pause: (@Sendable (TimeInterval) -> Void)? = nil
    ) throws(ConfigurationError) {
        try Self.validate(url)
        if let token {
            guard (1...4_096).contains(token.utf8.count), token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw .badToken
            }
        }
        if let secret, !ConfigurationError.secretLength.contains(secret.count) { throw .badSecret }
        if let previousSecret {
            guard secret != nil else { throw .previousSecretAlone }
            guard ConfigurationError.secretLength.contains(previousSecret.count) else { throw .badSecret }
        }
        self.url = url
        self.limits = limits
        authorization = token.map { "Bearer " + $0 }
        secrets = [secret, previousSecret].compactMap { $0 }
        self.clock = clock
        self.pause = pause
        http = OutboundHTTP(timeout: limits.timeout, followsRedirects: false)
    }

    /// https, or http to a loopback address (127.0.0.0/8, ::1, localhost); no user name or password.
    public static func validate(_ url: URL) throws(ConfigurationError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.host?.lowercased(), !host.isEmpty
        else { throw .notHTTPS }
        guard components.user == nil, components.password == nil else { throw .credentialsInURL }
        switch components.scheme?.lowercased() {
        case "https": return
        case "http" where IPAddressRange.isLoopbackHost(host): return
        default: throw .notHTTPS
        }
    }

    // MARK: AuditSink

    public func ship(_ entries: [AuditEntry]) {
        guard !entries.isEmpty else { return }
        let lines = entries.map { $0.jsonLine() }
        let overflow = state.withLock { state -> Int in
            state.queue += lines
            let excess = max(0, state.queue.count - limits.maxQueued)
            if excess > 0 { state.queue.removeFirst(excess) }
            return excess
        }
        if overflow > 0 { lost.add(overflow, ordering: .relaxed) }
        wake.signal()
    }

    public var metricsName: String { "webhook" }
    /// Entries dropped: beyond the queue's bound, refused, or out of attempts.
    public var droppedEntries: Int { lost.load(ordering: .relaxed) }
    /// Entries the receiver accepted.
    public var deliveredEntries: Int { sent.load(ordering: .relaxed) }
    /// Entries waiting, the batch in flight included.
    public var pendingEntries: Int { state.withLock { $0.queue.count + $0.batch.count } }

    // MARK: Delivery

    /// The pause before attempt `attempt + 1` after `attempt` failed ones.
    public static func backoff(afterAttempt attempt: Int, _ limits: Limits) -> TimeInterval {
        let doubled = limits.firstRetry * pow(2, Double(max(0, min(attempt - 1, 30))))
        return min(limits.maxRetryDelay, doubled)
    }

    /// Posts the batch in flight (or the next one): one attempt, no waiting.
    public func deliverOnce() -> Step {
        let next = state.withLock { state -> (lines: [[UInt8]], attempt: Int)? in
            if state.batch.isEmpty {
                let count = min(limits.batchSize, state.queue.count)
                guard count > 0 else { return nil }
                state.batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                state.attempts = 0
            }
            state.attempts += 1
            return (state.batch, state.attempts)
        }
        guard let next else { return .idle }
        var body: [UInt8] = []
        for line in next.lines {
            body += line
            body.append(0x0A)
        }
        let outcome = post(body)
        let count = next.lines.count
        if outcome == .retry && next.attempt < limits.maxAttempts {
            return .retry(after: Self.backoff(afterAttempt: next.attempt, limits))
        }
        state.withLock { state in
            state.batch = []
            state.attempts = 0
        }
        if outcome == .delivered {
            sent.add(count, ordering: .relaxed)
            return .delivered(count)
        }
        lost.add(count, ordering: .relaxed)
        return .dropped(count)
    }

    private enum Outcome: Equatable {
        case delivered, refused, retry
    }

    private func post(_ body: [UInt8]) -> Outcome {
        guard
            let status = http.post(
                body, to: url, as: "application/x-ndjson", signedWith: secrets, at: clock, authorization: authorization)
        else { return .retry }
        switch status {
        case 200..<300: return .delivered
        case 408, 429, 500...: return .retry
        default: return .refused
        }
    }

    /// Starts the worker thread (once).
    public func start() {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard first else { return }
        let thread = Thread { [self] in run() }
        thread.name = "sesame.audit-webhook"
        thread.start()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        while !isStopped {
            switch deliverOnce() {
            case .idle: wake.wait()
            case .delivered, .dropped: continue
            case .retry(let delay):
                if let pause {
                    pause(delay)
                } else {
                    _ = stopping.wait(timeout: .now() + delay)
                }
            }
        }
        exited.signal()
    }

    /// Stops the worker (after the attempt it is making), then delivers what waits, one attempt
    /// per batch, for at most `seconds`: what is still queued after that is counted as dropped.
    public func finish(within seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        let started = state.withLock { state -> Bool in
            state.stopped = true
            return state.started
        }
        wake.signal()
        stopping.signal()
        if started, exited.wait(timeout: .now() + seconds) == .timedOut { return }
        delivery: while Date() < deadline {
            switch deliverOnce() {
            case .idle: return
            case .delivered, .dropped: continue
            case .retry: break delivery
            }
        }
        let left = state.withLock { state -> Int in
            defer {
                state.queue = []
                state.batch = []
            }
            return state.queue.count + state.batch.count
        }
        lost.add(left, ordering: .relaxed)
    }
}

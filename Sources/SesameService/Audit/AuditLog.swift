import Foundation
import SesameCrypto
import SesameStore
import Synchronization

/// Where a request came from, as the audit log records it: the client's address (after
/// trusted-proxy resolution) and its `User-Agent`. The HTTP layer binds it around each tenant
/// request (`AuditOrigin.run`), the way the configuration scope is bound, so no service signature
/// carries it and no service sees an HTTP type.
public struct AuditOrigin: Sendable, Hashable {
    public var ip: String?
    public var userAgent: String?

    /// The longest `User-Agent` kept; control characters are dropped.
    public static let maxUserAgent = 256

    public init(ip: String?, userAgent: String?) {
        self.ip = ip.map { String($0.prefix(64)) }
        self.userAgent = userAgent.map { text in
            String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
                .prefix(Self.maxUserAgent).description
        }
    }

    @TaskLocal static var current: AuditOrigin?

    /// Runs `body` with `origin` as the request's origin.
    public static func run<T>(_ origin: AuditOrigin, _ body: () throws -> T) rethrows -> T {
        try $current.withValue(origin) { try body() }
    }
}

/// What one token request has told the audit log so far: whether a flow recorded its own login
/// outcome (a wrong password is `fp`, not the grant's generic failure), and whose tokens these are.
final class AuditScope: Sendable {
    @TaskLocal static var current: AuditScope?
    /// Set while a step of a hosted sign-in runs (the password, a passkey): its success is not
    /// yet the sign-in's, which is written as `s` when the sign-in completes (a second factor or
    /// the enrollment prompt may come between).
    @TaskLocal static var hostedStep = false

    /// Runs `body` as a step of a hosted sign-in.
    static func step<T>(_ body: () throws(ServiceError) -> T) throws(ServiceError) -> T {
        let result: Result<T, ServiceError> = $hostedStep.withValue(true) {
            do throws(ServiceError) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    struct State {
        var outcomeRecorded = false
        var user: UserRecord?
    }
    let state = Mutex(State())

    static func run<T>(_ body: (AuditScope) throws(ServiceError) -> T) throws(ServiceError) -> T {
        let scope = AuditScope()
        let result: Result<T, ServiceError> = $current.withValue(scope) {
            do throws(ServiceError) { return .success(try body(scope)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Remembers the user the request signs in (the success entry names them).
    static func note(_ user: UserRecord) { current?.state.withLock { $0.user = user } }
}

/// Receives every batch of entries after the store holds it (the JSON-lines file, the webhook).
/// Called on the flushing thread: a sink must not block it for long (queue, then deliver).
public protocol AuditSink: Sendable {
    func ship(_ entries: [AuditEntry])
    /// The sink's label in `/metrics` (`sesame_audit_log_dropped_total{sink="file"}`).
    var metricsName: String { get }
    /// Entries this sink received but could not deliver (a failed write, a full queue, a refusal).
    var droppedEntries: Int { get }
}

/// The audit log's writer: entries are buffered and appended in batches (relaxed transactions of
/// `FlushChunks.size` entries, a full buffer flushed by `background`, like `AuthEventRecorder`),
/// so a login or a refresh pays for no extra write. An entry is queued outside the flow's
/// transaction, so a failed login is recorded even though the flow's own write rolled back.
/// After a chunk is stored it goes to every sink.
public final class AuditLog: Sendable {
    let store: any SesameStore
    let clock: any ServiceClock
    let random: any RandomSource
    /// Where every stored batch also goes (the JSON-lines file, the webhook).
    public let sinks: [any AuditSink]
    private let buffer = Mutex<[AuditEventRecord]>([])
    /// Held for a whole flush, so an explicit `flush()` returns only after one already running.
    private let flushing = Mutex(())
    private let background: BackgroundFlush?
    private let lastPrune = Mutex<Date?>(nil)
    /// Flush as soon as this many entries wait; by default one chunk, as `AuthEventRecorder`'s.
    public let batchSize: Int
    /// At most this many entries wait while the store is down; older ones are dropped.
    public let maxPending: Int
    /// How often `flush` also prunes by retention.
    public let pruneInterval: TimeInterval
    private let droppedCount = Atomic<Int>(0)

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource = SystemRandom(),
        sinks: [any AuditSink] = [], batchSize: Int = FlushChunks.size, maxPending: Int = 4_096,
        pruneInterval: TimeInterval = 3_600,
        background: BackgroundFlush? = nil
    ) {
        self.background = background
        self.store = store
        self.clock = clock
        self.random = random
        self.sinks = sinks
        self.batchSize = max(1, batchSize)
        self.maxPending = max(batchSize, maxPending)
        self.pruneInterval = pruneInterval
    }

    /// Queues one entry at the current time, with the request's origin.
    public func record(
        _ type: AuditEventType, tenantID: String, clientID: String? = nil, userID: String? = nil,
        userName: String? = nil, connectionID: String? = nil, details: AuditDetails = AuditDetails()
    ) {
        AuditScope.current?.state.withLock { $0.outcomeRecorded = true }
        queue(
            type, tenantID: tenantID, clientID: clientID, userID: userID, userName: userName,
            connectionID: connectionID, details: details)
    }

    /// The entry an auth event stands for, when it stands for one the flow does not record
    /// itself: signups, enrollments, password changes, recoveries and upgrades always; a login
    /// only outside the token endpoint (the hosted pages), whose own entry names the grant, and
    /// a failed password login never (the password check records `fp` or `fu` itself).
    func recordAuthEvent(
        tenantID: String, type: AuthEventKind, method: AuthEventMethod, outcome: AuthEventOutcome,
        clientID: String?, userID: String?, connectionID: String?
    ) {
        let success = outcome == .success
        let entry: AuditEventType?
        switch type {
        case .signup: entry = success ? .successSignup : .failedSignup
        case .login:
            let mfa = [.otp, .sms, .recoveryCode].contains(method)
            if AuditScope.current != nil || (!success && method == .password) || (success && AuditScope.hostedStep) {
                entry = nil
            } else if mfa {
                entry = success ? .mfaAuthSucceeded : .mfaAuthFailed
            } else {
                entry = success ? .successLogin : .failedLogin
            }
        case .refresh, .clientCredentials: entry = nil
        case .enroll: entry = success && method == .passkey ? .passkeyEnrolled : nil
        case .passwordChange: entry = success ? .successChangePassword : .failedChangePassword
        case .recovery: entry = success ? .accountRecovered : nil
        case .upgrade: entry = success ? .accountUpgraded : nil
        }
        guard let entry else { return }
        queue(
            entry, tenantID: tenantID, clientID: clientID, userID: userID, connectionID: connectionID,
            details: AuditDetails(method: method, reason: Self.reason(outcome)))
    }

    static func reason(_ outcome: AuthEventOutcome) -> AuditReason? {
        switch outcome {
        case .success: return nil
        case .invalidGrant: return .invalidGrant
        case .invalidSignup: return .invalidRequest
        case .blocked: return .userBlocked
        }
    }

    private func queue(
        _ type: AuditEventType, tenantID: String, clientID: String?, userID: String?, userName: String? = nil,
        connectionID: String?, details: AuditDetails
    ) {
        let now = clock.now()
        let suffix = (try? random.bytes(count: 8)) ?? withUnsafeBytes(of: UUID().uuid) { Array($0.prefix(8)) }
        let origin = AuditOrigin.current
        append(
            AuditEventRecord(
                tenantID: tenantID, id: Identifiers.timeOrdered("log_", at: now, suffix: suffix), at: now, type: type,
                clientID: clientID.map { String($0.prefix(128)) }, userID: userID, userName: userName,
                connectionID: connectionID, ip: origin?.ip, userAgent: origin?.userAgent, details: details))
    }

    /// Queues a user's entry (their id, connection and identifier).
    func record(
        _ type: AuditEventType, tenantID: String, clientID: String?, user: UserRecord?,
        details: AuditDetails = AuditDetails()
    ) {
        record(
            type, tenantID: tenantID, clientID: clientID, userID: user?.id, userName: user.flatMap(Self.userName),
            connectionID: user?.connectionID, details: details)
    }

    /// The identifier Auth0's `user_name` shows: email, else username, else phone number.
    static func userName(_ user: UserRecord) -> String? {
        user.profile.email ?? user.profile.username ?? user.profile.phoneNumber
    }

    private func append(_ event: AuditEventRecord) {
        let waiting = buffer.withLock { events -> Int in
            events.append(event)
            return events.count
        }
        // A request that must flush inline does not also run a prune that happens to be due.
        BackgroundFlush.whenFull(
            waiting: waiting, batchSize: batchSize, background: background, flush: { [self] in flush() },
            inline: { [self] in flushEntries() })
    }

    /// Appends every queued entry, hands each stored chunk to the sinks, and prunes when it is
    /// due. On a store failure the entries not yet stored wait for the next flush (at most
    /// `maxPending` of them).
    public func flush() {
        flushEntries()
        // Outside the flush lock: a long prune (a retention just shortened) must not hold back a
        // flush, nor a request that flushes inline because the buffer is four batches full.
        pruneIfDue()
    }

    /// The writing part of `flush`, without the prune.
    private func flushEntries() {
        flushing.withLock { _ in
            let pending = buffer.withLock { events -> [AuditEventRecord] in
                defer { events.removeAll(keepingCapacity: true) }
                return events
            }
            let (written, error) = FlushChunks.write(pending) { chunk in
                let records = Array(chunk)
                try store.write(.relaxed) { try $0.auditEvents.append(records) }
                ship(records)
            }
            if error != nil {
                buffer.withLock { events in
                    events.insert(contentsOf: pending[written...], at: 0)
                    if events.count > maxPending {
                        droppedCount.add(events.count - maxPending, ordering: .relaxed)
                        events.removeFirst(events.count - maxPending)
                    }
                }
            }
        }
    }

    /// Hands stored entries to every sink, with the names of the users and clients they name.
    private func ship(_ records: [AuditEventRecord]) {
        guard !sinks.isEmpty else { return }
        let entries =
            (try? store.read { tx in try AuditEntry.make(records, in: tx) })
            ?? records.map { AuditEntry($0, names: AuditEntry.Names()) }
        for sink in sinks { sink.ship(entries) }
    }

    /// Prunes when `pruneInterval` has passed since the last prune (or none ran yet).
    func pruneIfDue() {
        let now = clock.now()
        let due = lastPrune.withLock { last -> Bool in
            if let last, now.timeIntervalSince(last) < pruneInterval { return false }
            last = now
            return true
        }
        if due { _ = try? prune() }
    }

    /// Deletes every tenant's entries older than its retention (`TenantRecord.auditRetentionDays`),
    /// in bounded batches; returns how many.
    @discardableResult public func prune() throws -> Int {
        let now = clock.now()
        var removed = 0
        for tenant in try store.read({ try $0.tenants.all() }) {
            let cut = now.addingTimeInterval(-Double(tenant.auditRetentionDays) * 86_400)
            while true {
                let batch = try store.write(.relaxed) {
                    try $0.auditEvents.deleteOlder(tenantID: tenant.id, than: cut, limit: 1_000)
                }
                removed += batch
                if batch < 1_000 { break }
            }
        }
        return removed
    }

    /// Entries waiting to be written (tests).
    public var pendingCount: Int { buffer.withLock { $0.count } }
    /// Entries dropped because the store stayed down (`sesame_audit_log_dropped_total{sink="store"}`).
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }
}

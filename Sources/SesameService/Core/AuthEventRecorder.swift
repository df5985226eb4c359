import Foundation
import SesameCrypto
import SesameStore
import Synchronization

/// Buffers auth events and writes them in batches (relaxed transactions of `FlushChunks.size`
/// events), so a login costs no extra synchronous write. The server flushes on a timer and at
/// shutdown; a full buffer asks `background` for a flush, and flushes inline only when the
/// background has fallen four batches behind (so memory stays bounded).
public final class AuthEventRecorder: Sendable {
    private let store: any SesameStore
    private let random: any RandomSource
    private let buffer = Mutex<[AuthEventRecord]>([])
    /// Held for a whole flush, so an explicit `flush()` returns only after one already running.
    private let flushing = Mutex(())
    private let background: BackgroundFlush?
    /// Flush as soon as this many events wait. By default one chunk (`FlushChunks.size`): the
    /// background then writes each full buffer in one small transaction as it fills, so the writes
    /// are spread over time instead of coming as a burst of chunks that slows every request on the
    /// core meanwhile (docs/BENCHMARKS.md, "Bursts of batched writes").
    public let batchSize: Int
    /// After a failed flush, at most this many events are kept for the next one, so a dead store
    /// cannot grow memory without bound.
    static let maxKeptAfterFailure = 2_048
    /// The audit log. It rides along this recorder so every service that records auth events
    /// reaches it without a new dependency; it has its own buffer, table and flush (nil: off).
    public let audit: AuditLog?

    public init(
        store: any SesameStore, random: any RandomSource = SystemRandom(), batchSize: Int = FlushChunks.size,
        audit: AuditLog? = nil, background: BackgroundFlush? = nil
    ) {
        self.audit = audit
        self.background = background
        self.store = store
        self.random = random
        self.batchSize = batchSize
    }

    /// Queues one event, giving it a fresh id (`eventID`; the random part from the random source,
    /// or a UUID's if that fails, so ids never collide and a batch never fails on a duplicate).
    public func record(
        tenantID: String, type: AuthEventKind, method: AuthEventMethod, outcome: AuthEventOutcome, at: Date,
        clientID: String?, userID: String?, platform: AuthPlatform? = nil, connectionID: String? = nil,
        passkeyKind: PasskeyKind? = nil, aaguid: [UInt8]? = nil, clientPlatform: ClientPlatform? = nil,
        conditional: Bool = false
    ) {
        audit?.recordAuthEvent(
            tenantID: tenantID, type: type, method: method, outcome: outcome, clientID: clientID, userID: userID,
            connectionID: connectionID)
        let suffix = (try? random.bytes(count: 6)) ?? withUnsafeBytes(of: UUID().uuid) { Array($0.prefix(6)) }
        let id = Self.eventID(at: at, suffix: suffix)
        record(
            AuthEventRecord(
                tenantID: tenantID, id: id, at: at, type: type, method: method, outcome: outcome, clientID: clientID,
                userID: userID, platform: platform, connectionID: connectionID, passkeyKind: passkeyKind,
                aaguid: aaguid, clientPlatform: clientPlatform, conditional: conditional ? true : nil))
    }

    /// `evt_`, the event's time in milliseconds since 1970 as 12 hex digits, then `suffix` in hex.
    /// Ids that grow with time land at the end of the table's key order, so a batch of inserts
    /// touches a few pages rather than one page per event (random ids cost a page write each).
    static func eventID(at: Date, suffix: [UInt8]) -> String { Identifiers.timeOrdered("evt_", at: at, suffix: suffix) }

    /// Queues one event.
    public func record(_ event: AuthEventRecord) {
        let waiting = buffer.withLock { events -> Int in
            events.append(event)
            return events.count
        }
        BackgroundFlush.whenFull(waiting: waiting, batchSize: batchSize, background: background) { [self] in flush() }
    }

    /// Writes every queued event; on a store failure the rest are put back for the next flush.
    public func flush() {
        flushing.withLock { _ in
            let pending = buffer.withLock { events -> [AuthEventRecord] in
                defer { events.removeAll(keepingCapacity: true) }
                return events
            }
            let (written, error) = FlushChunks.write(pending) { chunk in
                try store.write(.relaxed) { try $0.authEvents.insert(Array(chunk)) }
            }
            guard error != nil else { return }
            buffer.withLock { events in
                events.insert(contentsOf: pending[written...].suffix(Self.maxKeptAfterFailure), at: 0)
            }
        }
    }

    /// Events waiting to be written (tests).
    public var pendingCount: Int { buffer.withLock { $0.count } }
}

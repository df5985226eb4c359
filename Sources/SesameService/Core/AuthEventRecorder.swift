import Foundation
import SesameCrypto
import SesameStore
import Synchronization

/// Buffers auth events and writes them in batches (one relaxed transaction per flush), so a login
/// costs no extra synchronous write. The server flushes on a timer and at shutdown.
public final class AuthEventRecorder: Sendable {
    private let store: any SesameStore
    private let random: any RandomSource
    private let buffer = Mutex<[AuthEventRecord]>([])
    /// Flush as soon as this many events wait.
    public let batchSize: Int

    public init(store: any SesameStore, random: any RandomSource = SystemRandom(), batchSize: Int = 256) {
        self.store = store
        self.random = random
        self.batchSize = batchSize
    }

    /// Queues one event, giving it a fresh id (from the random source, or a UUID if that fails, so
    /// ids never collide and a batch never fails on a duplicate).
    public func record(
        tenantID: String, type: AuthEventKind, method: AuthEventMethod, outcome: AuthEventOutcome, at: Date,
        clientID: String?, userID: String?, platform: AuthPlatform? = nil
    ) {
        let id =
            (try? random.bytes(count: 12)).map { "evt_" + Identifiers.hex($0) }
            ?? "evt_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        record(
            AuthEventRecord(
                tenantID: tenantID, id: id, at: at, type: type, method: method, outcome: outcome, clientID: clientID,
                userID: userID, platform: platform))
    }

    /// Queues one event.
    public func record(_ event: AuthEventRecord) {
        let full = buffer.withLock { events -> Bool in
            events.append(event)
            return events.count >= batchSize
        }
        if full { flush() }
    }

    /// Writes every queued event; on a store failure they are put back for the next flush.
    public func flush() {
        let pending = buffer.withLock { events -> [AuthEventRecord] in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
        guard !pending.isEmpty else { return }
        do {
            try store.write(.relaxed) { try $0.authEvents.insert(pending) }
        } catch {
            buffer.withLock { events in
                // Keep at most a few batches so a dead store cannot grow memory without bound.
                events.insert(contentsOf: pending.suffix(batchSize * 8), at: 0)
            }
        }
    }

    /// Events waiting to be written (tests).
    public var pendingCount: Int { buffer.withLock { $0.count } }
}

import Foundation
import SesameStore
import Synchronization

/// Batches "last used" times (a passkey's `lastUsedAt`, a user's `lastLoginAt`) so that a login
/// whose counter did not change writes nothing synchronously. Flushed with the auth events (every
/// second by `sesame serve`, and at shutdown); a time can lag the truth by that interval.
public final class UsageRecorder: Sendable {
    private struct Pending: Sendable {
        var passkeys: [PasskeyKey: Date] = [:]
        var users: [PasskeyKey: Date] = [:]
    }

    private struct PasskeyKey: Hashable, Sendable {
        let tenantID: String
        let id: String
    }

    private let store: any SesameStore
    private let pending = Mutex(Pending())
    /// Flush as soon as this many records wait.
    public let batchSize: Int

    public init(store: any SesameStore, batchSize: Int = 1_024) {
        self.store = store
        self.batchSize = batchSize
    }

    /// Notes that a passkey signed a user in at `at`.
    public func recordLogin(tenantID: String, passkeyID: String, userID: String, at: Date) {
        let full = pending.withLock { state -> Bool in
            state.passkeys[PasskeyKey(tenantID: tenantID, id: passkeyID)] = at
            state.users[PasskeyKey(tenantID: tenantID, id: userID)] = at
            return state.passkeys.count >= batchSize
        }
        if full { flush() }
    }

    /// Writes every pending time in one relaxed transaction; records deleted meanwhile are skipped,
    /// and a time never moves backwards.
    public func flush() {
        let batch = pending.withLock { state -> Pending in
            defer { state = Pending() }
            return state
        }
        guard !batch.passkeys.isEmpty || !batch.users.isEmpty else { return }
        do {
            try store.write(.relaxed) { transaction in
                // One narrow UPDATE each: the time moves forward only, a deleted record is skipped.
                for (key, at) in batch.passkeys {
                    try transaction.passkeys.touch(tenantID: key.tenantID, id: key.id, lastUsedAt: at)
                }
                for (key, at) in batch.users {
                    try transaction.users.touch(tenantID: key.tenantID, id: key.id, lastLoginAt: at)
                }
            }
        } catch {
            // Put the batch back (newest time wins) so a store hiccup loses nothing.
            pending.withLock { state in
                state.passkeys.merge(batch.passkeys) { max($0, $1) }
                state.users.merge(batch.users) { max($0, $1) }
            }
        }
    }

    /// Records waiting to be written (tests).
    public var pendingCount: Int { pending.withLock { $0.passkeys.count + $0.users.count } }
}

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
    /// Held for a whole flush, so an explicit `flush()` returns only after one already running.
    private let flushing = Mutex(())
    private let background: BackgroundFlush?
    /// Flush as soon as this many records wait.
    public let batchSize: Int

    /// A full batch asks `background` for a flush (inline without one, or when it has fallen four
    /// batches behind).
    public init(store: any SesameStore, batchSize: Int = 1_024, background: BackgroundFlush? = nil) {
        self.store = store
        self.batchSize = batchSize
        self.background = background
    }

    /// Notes that a passkey signed a user in at `at`.
    public func recordLogin(tenantID: String, passkeyID: String, userID: String, at: Date) {
        let waiting = pending.withLock { state -> Int in
            state.passkeys[PasskeyKey(tenantID: tenantID, id: passkeyID)] = at
            state.users[PasskeyKey(tenantID: tenantID, id: userID)] = at
            return state.passkeys.count
        }
        BackgroundFlush.whenFull(waiting: waiting, batchSize: batchSize, background: background) { [self] in flush() }
    }

    /// One pending time: a passkey's last use or a user's last login.
    private enum Touch {
        case passkey(PasskeyKey, Date)
        case user(PasskeyKey, Date)
    }

    /// Writes every pending time, `FlushChunks.size` to a relaxed transaction; records deleted
    /// meanwhile are skipped, and a time never moves backwards.
    public func flush() {
        flushing.withLock { _ in
            let batch = pending.withLock { state -> Pending in
                defer { state = Pending() }
                return state
            }
            let touches =
                batch.passkeys.map { Touch.passkey($0.key, $0.value) }
                + batch.users.map { Touch.user($0.key, $0.value) }
            let (written, error) = FlushChunks.write(touches) { chunk in
                try store.write(.relaxed) { transaction in
                    // One narrow UPDATE each: the time moves forward only, a deleted record is skipped.
                    for touch in chunk {
                        switch touch {
                        case .passkey(let key, let at):
                            try transaction.passkeys.touch(tenantID: key.tenantID, id: key.id, lastUsedAt: at)
                        case .user(let key, let at):
                            try transaction.users.touch(tenantID: key.tenantID, id: key.id, lastLoginAt: at)
                        }
                    }
                }
            }
            guard error != nil else { return }
            // Put back what was not written (newest time wins) so a store hiccup loses nothing.
            pending.withLock { state in
                for touch in touches[written...] {
                    switch touch {
                    case .passkey(let key, let at): state.passkeys[key] = max(state.passkeys[key] ?? at, at)
                    case .user(let key, let at): state.users[key] = max(state.users[key] ?? at, at)
                    }
                }
            }
        }
    }

    /// Records waiting to be written (tests).
    public var pendingCount: Int { pending.withLock { $0.passkeys.count + $0.users.count } }
}

import Foundation

/// One write transaction that several writes share (group commit).
///
/// A write that finishes while other writers wait for the writer lock does not commit: it leaves
/// the transaction open, hands the lock on and waits here. The next writer runs its body in the
/// same transaction, inside a savepoint of its own (so its failure undoes only its own part), and
/// the last writer of the group commits for all. Each body still runs alone and in order, and sees
/// the writes before it, so every read-check-write (a refresh token's compare-and-set, reuse
/// detection) is exactly as it is with one commit per write. A caller hears of success only after
/// the commit that holds its write.
///
/// `durable` and `members` are changed only under the store's writer lock; the outcome under the
/// condition's lock.
final class GroupCommit: @unchecked Sendable {
    /// Committed with `synchronous = FULL`.
    let durable: Bool
    /// The writes whose bodies succeeded in this transaction.
    var members = 0
    private let condition = NSCondition()
    private var outcome: Result<Void, any Error>?

    init(durable: Bool) {
        self.durable = durable
    }

    /// Records the commit's outcome and wakes the writes waiting for it.
    func complete(_ outcome: Result<Void, any Error>) {
        condition.lock()
        self.outcome = outcome
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the commit; throws its error if it failed.
    func waitForCommit() throws {
        condition.lock()
        while outcome == nil { condition.wait() }
        let outcome = self.outcome
        condition.unlock()
        try outcome?.get()
    }
}

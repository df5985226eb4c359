import Foundation
import SesameStore
import Synchronization

/// A store whose write transactions fail from a chosen one on, as when the disk fills up in the
/// middle of a request: each failing write runs its body and then throws
/// `StoreError.unavailable`, so the store rolls all of it back. Reads keep working. Trying every
/// starting point covers every moment a request's writes can start failing.
final class FailingWritesStore: SesameStore {
    private struct State {
        /// Writes from this many on (counted since `failWrites`) fail; nil: none fails.
        var failFrom: Int?
        var writes = 0
    }

    let inner: any SesameStore
    private let state = Mutex(State())

    init(_ inner: any SesameStore) { self.inner = inner }

    /// From now on, the write transactions after the first `count` fail.
    func failWrites(after count: Int) { state.withLock { $0 = State(failFrom: count) } }

    /// Every write succeeds again; returns how many writes were attempted since `failWrites`.
    @discardableResult func heal() -> Int {
        state.withLock { state in
            defer { state = State() }
            return state.writes
        }
    }

    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T { try inner.read(body) }

    func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T {
        let fails = state.withLock { state -> Bool in
            defer { state.writes += 1 }
            guard let failFrom = state.failFrom else { return false }
            return state.writes >= failFrom
        }
        return try inner.write(durability) { transaction in
            let result = try body(transaction)
            if fails { throw StoreError.unavailable("no space left on the device (a test's failing store)") }
            return result
        }
    }
}

import Foundation
import SesameStore
import Synchronization

/// A store that runs a competing operation at a chosen point: after the `boundary`-th transaction
/// (read or write) of the operation under test has finished, and before the next one starts. Trying
/// every boundary covers every way another request can land between two of this one's transactions,
/// deterministically and with no threads: the test of a read-check-write that must not lose updates.
final class InterleavingStore: SesameStore {
    private struct State {
        var boundary: Int?
        var completed = 0
        var racer: (@Sendable () -> Void)?
        var racing = false
        var fired = false
    }

    let inner: any SesameStore
    private let state = Mutex(State())

    init(_ inner: any SesameStore) { self.inner = inner }

    /// Arms `racer` to run once, after `boundary` transactions have finished (0: before the first).
    func arm(after boundary: Int, _ racer: @escaping @Sendable () -> Void) {
        state.withLock { $0 = State(boundary: boundary, racer: racer) }
        if boundary == 0 { fireIfDue() }
    }

    /// True once the armed racer has run.
    var fired: Bool { state.withLock { $0.fired } }

    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        defer { finished() }
        return try inner.read(body)
    }

    func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T {
        defer { finished() }
        return try inner.write(durability, body)
    }

    private func finished() {
        let counted = state.withLock { state -> Bool in
            guard !state.racing, state.boundary != nil else { return false }
            state.completed += 1
            return true
        }
        if counted { fireIfDue() }
    }

    private func fireIfDue() {
        let racer = state.withLock { state -> (@Sendable () -> Void)? in
            guard let boundary = state.boundary, state.completed == boundary, !state.fired, let racer = state.racer
            else { return nil }
            state.fired = true
            state.racing = true
            return racer
        }
        guard let racer else { return }
        racer()
        state.withLock { $0.racing = false }
    }
}

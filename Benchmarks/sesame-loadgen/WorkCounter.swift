import Synchronization

/// The next operation index, shared by the load threads.
final class WorkCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Claims the next index.
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Makes every later `next()` return an index past any count, so the other threads stop
    /// soon after one of them failed.
    func abort() { value.store(Int.max / 2, ordering: .relaxed) }
}

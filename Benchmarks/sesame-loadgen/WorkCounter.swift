import Synchronization

/// The next operation index, shared by the load threads.
final class WorkCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Claims the next index.
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

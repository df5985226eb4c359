import Foundation
import Synchronization

/// Serialises a store's write transactions. A write started from inside another write on the same
/// thread would wait for itself forever; this lock throws `StoreError.unavailable` instead.
public final class WriterLock: Sendable {
    private let lock = NSLock()
    private let owner = Mutex<ObjectIdentifier?>(nil)

    /// Creates an unlocked lock.
    public init() {}

    /// Whether the calling thread holds the lock (inside `withLock`).
    public var heldByCurrentThread: Bool {
        let me = ObjectIdentifier(Thread.current)
        return owner.withLock { $0 == me }
    }

    /// Runs `body` holding the lock; throws if this thread already holds it.
    public func withLock<T>(_ body: () throws -> T) throws -> T {
        let me = ObjectIdentifier(Thread.current)
        if owner.withLock({ $0 == me }) {
            throw StoreError.unavailable("a write transaction is already open on this thread")
        }
        lock.lock()
        owner.withLock { $0 = me }
        defer {
            owner.withLock { $0 = nil }
            lock.unlock()
        }
        return try body()
    }
}

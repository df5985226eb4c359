import Foundation
import Synchronization

/// The time source of the service; tests inject a manual one.
public protocol ServiceClock: Sendable {
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: ServiceClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to (tests).
public final class ManualClock: ServiceClock {
    private let current: Mutex<Date>
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }
    public func now() -> Date { current.withLock { $0 } }
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

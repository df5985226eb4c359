import Foundation

/// A counter of attempts within a time window (failed passwords per account and address, SMS
/// sends per user, wrong codes per MFA token), kept in the store so every process sees it.
public struct AttemptCount: Sendable, Hashable {
    public var count: Int
    /// When the window ends; the counter is gone (zero) from then on.
    public var windowEndsAt: Date
    public init(count: Int, windowEndsAt: Date) {
        self.count = count
        self.windowEndsAt = windowEndsAt
    }
}

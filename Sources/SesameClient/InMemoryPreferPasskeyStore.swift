import Foundation

/// Prefer-passkey flags in memory, for tests and for apps that keep no state between launches.
public final class InMemoryPreferPasskeyStore: PreferPasskeyStore, @unchecked Sendable {  // state behind `lock`
    private let lock = NSLock()
    private var users: Set<PreferPasskeyKey>

    /// A store holding the flags of `users`.
    public init(_ users: Set<PreferPasskeyKey> = []) {
        self.users = users
    }

    /// The users whose flag is set.
    public var flagged: Set<PreferPasskeyKey> {
        lock.lock()
        defer { lock.unlock() }
        return users
    }

    /// Whether the flag is set for `user`.
    public func prefersPasskey(_ user: PreferPasskeyKey) -> Bool {
        flagged.contains(user)
    }

    /// Sets the flag for `user`.
    public func setPrefersPasskey(_ user: PreferPasskeyKey) {
        lock.lock()
        defer { lock.unlock() }
        users.insert(user)
    }

    /// Clears the flag for `user`.
    public func clearPrefersPasskey(_ user: PreferPasskeyKey) {
        lock.lock()
        defer { lock.unlock() }
        users.remove(user)
    }
}

/// Where a `CredentialsManager` keeps the user's credentials between launches: a file on Linux
/// (`FileCredentialsStore`), the Keychain on Apple platforms (`KeychainCredentialsStore`), or an
/// app's own. Each method is atomic on its own.
public protocol CredentialsStore: Sendable {
    /// Replaces the stored credentials.
    func save(_ credentials: Credentials) throws
    /// The stored credentials; nil when none are stored. Unreadable data throws, never reads as nil.
    func load() throws -> Credentials?
    /// Removes the stored credentials (no error when there are none).
    func clear() throws
}

/// Why a credentials store (or a prefer-passkey store) failed.
public struct CredentialsStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Equatable {
        /// The stored data exists but is not valid credentials; it is left in place.
        case corrupt
        /// Reading, writing or removing failed.
        case io
    }

    /// What kind of failure.
    public var kind: Kind
    /// What failed, naming the file or item.
    public var message: String

    /// An error of `kind` explained by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

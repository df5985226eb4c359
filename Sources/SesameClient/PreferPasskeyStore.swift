/// The user a prefer-passkey flag belongs to: the tenant (its domain, as
/// `SesameConfiguration.domain` without a trailing slash) and the user id (`sub`).
public struct PreferPasskeyKey: Sendable, Hashable, Codable {
    /// `https://login.example.com`.
    public var tenant: String
    /// The user id, the tokens' `sub`.
    public var userID: String

    /// A key from its parts.
    public init(tenant: String, userID: String) {
        self.tenant = tenant
        self.userID = userID
    }

    /// The key of `userID` at the tenant `configuration` talks to.
    public init(configuration: SesameConfiguration, userID: String) {
        self.init(tenant: configuration.base, userID: userID)
    }

    enum CodingKeys: String, CodingKey {
        case tenant
        case userID = "user_id"
    }
}

/// Where the app keeps its own prefer-passkey flag, one per user: set once the user has signed in
/// with a passkey (a token response says `auth_method: passkey`) or enrolled one, cleared when the
/// server answers that the passkey is unknown. While it is set, re-authentication offers the
/// passkey before the device key (`SignInMethodSelector`), so an iPhone never opens a passkey
/// sheet for a user who has no passkey (iOS reports "no passkey here" as a cancel, indistinguishable
/// from the user's).
///
/// `KeychainPreferPasskeyStore` on Apple platforms, `FilePreferPasskeyStore` on Linux,
/// `InMemoryPreferPasskeyStore` in tests. The flag is a hint: a store that cannot be read counts
/// as unset, and the SDK never fails a sign-in because the flag could not be written.
public protocol PreferPasskeyStore: Sendable {
    /// Whether the flag is set for `user`.
    func prefersPasskey(_ user: PreferPasskeyKey) throws -> Bool
    /// Sets the flag for `user`.
    func setPrefersPasskey(_ user: PreferPasskeyKey) throws
    /// Clears the flag for `user` (no error when it is not set).
    func clearPrefersPasskey(_ user: PreferPasskeyKey) throws
}

/// How a user signed in, as a token response's `auth_method` and an id token's claim say
/// (docs/migration.md).
public enum SignInMethod: String, Codable, Sendable, Hashable, CaseIterable {
    case passkey
    case deviceKey = "device_key"
    case password
    case apple
    /// A refresh grant's token response (its id token keeps the original method).
    case refresh
}

/// How the password a user signed in with fares (`password_status`, docs/passwords.md).
public enum PasswordStatus: String, Codable, Sendable, Hashable, CaseIterable {
    case ok
    /// It no longer meets the connection's rules.
    case weak
    /// It is in the breached corpus or the range endpoint's list.
    case breached
}

/// What an app may offer in place of a weak or breached password (`recommended_upgrades`,
/// docs/account-upgrades.md).
public enum RecommendedUpgrade: String, Codable, Sendable, Hashable, CaseIterable {
    case strongPassword = "strong_password"
    case signInWithApple = "sign_in_with_apple"
    case passkey
}

import Foundation

/// An identity at another provider linked to a user (Auth0's `identities` entry): today a Sign in
/// with Apple `sub`, linked by an account security upgrade (docs/account-upgrades.md). Unique per tenant,
/// connection and subject, so one Apple ID belongs to one account.
public struct LinkedIdentityRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = LinkedIdentityRecord.currentVersion
    public var tenantID: String
    /// The provider's connection (strategy `apple`).
    public var connectionID: String
    public var provider: IdentityProvider
    /// The provider's stable user id (Apple's `sub`).
    public var subject: String
    /// The Sesame user it signs in as.
    public var userID: String
    /// The email the provider gave (Apple's may be a private relay address), if any.
    public var email: String?
    public var emailVerified: Bool
    /// Apple's `is_private_email`.
    public var isPrivateEmail: Bool
    public var createdAt: Date
    public var lastLoginAt: Date?

    public init(
        tenantID: String, connectionID: String, provider: IdentityProvider, subject: String, userID: String,
        email: String? = nil, emailVerified: Bool = false, isPrivateEmail: Bool = false, createdAt: Date,
        lastLoginAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.connectionID = connectionID
        self.provider = provider
        self.subject = subject
        self.userID = userID
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
    }
}

extension LinkedIdentityRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<LinkedIdentityRecord>(
        blank: LinkedIdentityRecord(
            tenantID: "", connectionID: "", provider: .apple, subject: "", userID: "", createdAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("connectionID", \.connectionID),
            .field("provider", \.provider),
            .field("subject", \.subject),
            .field("userID", \.userID),
            .field("email", \.email),
            .field("emailVerified", \.emailVerified),
            .field("isPrivateEmail", \.isPrivateEmail),
            .field("createdAt", \.createdAt),
            .field("lastLoginAt", \.lastLoginAt),
        ])
}

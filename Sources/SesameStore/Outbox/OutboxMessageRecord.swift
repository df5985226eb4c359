import Foundation

/// A message's channel.
public enum MessageChannel: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case email
    case sms
}

/// What a message is for.
public enum MessageTemplate: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    /// A password-reset link (`/dbconnections/change_password`).
    case passwordReset = "password_reset"
    /// A one-time code for an SMS second factor.
    case mfaCode = "mfa_code"
    /// A notice that the password a user signed in with is in a breach.
    case breachedPassword = "breached_password"
    /// A link that confirms the user's email address (after a signup at the hosted pages).
    case verifyEmail = "verify_email"
    /// A one-time code that starts an account recovery.
    case recoveryCode = "recovery_code"
    /// A notice that the account was recovered (and how).
    case accountRecovered = "account_recovered"
    /// A notice that a passkey or a second factor was added to the account.
    case credentialAdded = "credential_added"
    /// A notice that the address was confirmed and the ways to sign in added before it were removed.
    case credentialsRemoved = "credentials_removed"
    /// A notice that an administrator removed a passkey, the password or a second factor.
    case credentialRemoved = "credential_removed"
    /// A notice that the user deleted their account.
    case accountDeleted = "account_deleted"
}

/// A message the `outbox` sender kept instead of sending (development and tests): listed at
/// `GET /api/v2/outbox`. The text holds secrets (a reset link, a code), so it is sealed at rest.
public struct OutboxMessageRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = OutboxMessageRecord.currentVersion
    public var tenantID: String
    /// `msg_` + 32 hex digits, time-ordered.
    public var id: String
    public var createdAt: Date
    public var channel: MessageChannel
    public var template: MessageTemplate
    /// The email address or phone number.
    public var recipient: String
    /// The text, sealed with AES-256-GCM under a key derived from the master key.
    @Base64Bytes public var sealedText: [UInt8]
    public init(
        tenantID: String, id: String, createdAt: Date, channel: MessageChannel, template: MessageTemplate,
        recipient: String, sealedText: [UInt8]
    ) {
        self.tenantID = tenantID
        self.id = id
        self.createdAt = createdAt
        self.channel = channel
        self.template = template
        self.recipient = recipient
        self.sealedText = sealedText
    }
}

extension OutboxMessageRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<OutboxMessageRecord>(
        blank: OutboxMessageRecord(
            tenantID: "", id: "", createdAt: .distantPast, channel: .email, template: .passwordReset, recipient: "",
            sealedText: []),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("createdAt", \.createdAt),
            .field("channel", \.channel),
            .field("template", \.template),
            .field("recipient", \.recipient),
            .field("sealedText", \._sealedText.wrappedValue),
        ])
}

import Foundation

/// A person's sign-in at the hosted pages (the SSO session): what the session cookie stands for.
/// The cookie's value is never stored; `cookieHash` is its SHA-256 in the service's own domain.
/// `id` is public: the account page lists sessions by it, and ends one by it.
public struct SSOSessionRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = SSOSessionRecord.currentVersion
    public var tenantID: String
    /// `ses_` + 24 hex digits.
    public var id: String
    @Base64Bytes public var cookieHash: [UInt8]
    public var userID: String
    public var connectionID: String
    public var createdAt: Date
    /// When a request last used the session (written at most once a minute).
    public var lastSeenAt: Date
    /// The session ends when it was idle until this time...
    public var idleExpiresAt: Date
    /// ...or at this time, whichever comes first (the absolute lifetime).
    public var expiresAt: Date
    /// When the user last proved who they are (OIDC `auth_time`).
    public var authTime: Date
    /// RFC 8176 methods of that proof (`pwd`, `mfa`, `otp`, `pop`, `swk`, `hwk`, `user`).
    public var amr: [String]
    /// The browser's User-Agent when the session began (at most 256 bytes), for the session list.
    public var userAgent: String
    /// The client-address key of the sign-in (an IPv4 address or an IPv6 /64).
    public var clientAddress: String
    /// The clients that received a code from this session (for RP-initiated logout).
    public var clientIDs: [String]

    public init(
        tenantID: String, id: String, cookieHash: [UInt8], userID: String, connectionID: String, createdAt: Date,
        lastSeenAt: Date, idleExpiresAt: Date, expiresAt: Date, authTime: Date, amr: [String], userAgent: String,
        clientAddress: String, clientIDs: [String] = []
    ) {
        self.tenantID = tenantID
        self.id = id
        self.cookieHash = cookieHash
        self.userID = userID
        self.connectionID = connectionID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.idleExpiresAt = idleExpiresAt
        self.expiresAt = expiresAt
        self.authTime = authTime
        self.amr = amr
        self.userAgent = userAgent
        self.clientAddress = clientAddress
        self.clientIDs = clientIDs
    }

    /// When the session ends if nothing uses it: the earlier of the idle and absolute expiry.
    public var endsAt: Date { min(idleExpiresAt, expiresAt) }
}

extension SSOSessionRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<SSOSessionRecord>(
        blank: SSOSessionRecord(
            tenantID: "", id: "", cookieHash: [], userID: "", connectionID: "", createdAt: .distantPast,
            lastSeenAt: .distantPast, idleExpiresAt: .distantPast, expiresAt: .distantPast, authTime: .distantPast,
            amr: [], userAgent: "", clientAddress: "", clientIDs: []),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("cookieHash", \._cookieHash.wrappedValue),
            .field("userID", \.userID),
            .field("connectionID", \.connectionID),
            .field("createdAt", \.createdAt),
            .field("lastSeenAt", \.lastSeenAt),
            .field("idleExpiresAt", \.idleExpiresAt),
            .field("expiresAt", \.expiresAt),
            .field("authTime", \.authTime),
            .field("amr", \.amr),
            .field("userAgent", \.userAgent),
            .field("clientAddress", \.clientAddress),
            .field("clientIDs", \.clientIDs),
        ])
}

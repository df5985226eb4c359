import Foundation

/// An opaque refresh token, stored as its SHA-256 hash. Rotation creates a new record in the same
/// family and marks this one used; presenting a used token revokes the whole family.
public struct RefreshTokenRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = RefreshTokenRecord.currentVersion
    public var tenantID: String
    public var id: String
    @Base64Bytes public var tokenHash: [UInt8]
    public var familyID: String
    public var clientID: String
    public var userID: String
    public var scope: String
    public var audience: String?
    /// Authentication methods and time of the original login (carried into new id tokens).
    public var amr: [String]
    public var authTime: Date
    /// The passkey the family's login used (deleting it revokes the family); nil for families
    /// issued before this was recorded.
    public var passkeyID: String?
    public var createdAt: Date
    /// Absolute expiry of the family.
    public var expiresAt: Date
    /// Idle expiry of this token.
    public var idleExpiresAt: Date
    public var usedAt: Date?
    public var revokedAt: Date?
    /// The DPoP key (RFC 7638 thumbprint, base64url) a public client's family is bound to: every
    /// renewal must prove possession of it (RFC 9449 §5). Nil for unbound families.
    public var dpopJKT: String?
    public init(
        tenantID: String, id: String, tokenHash: [UInt8], familyID: String, clientID: String, userID: String,
        scope: String, audience: String?, amr: [String], authTime: Date, passkeyID: String? = nil, createdAt: Date,
        expiresAt: Date, idleExpiresAt: Date, usedAt: Date? = nil, revokedAt: Date? = nil, dpopJKT: String? = nil
    ) {
        self.dpopJKT = dpopJKT
        self.tenantID = tenantID
        self.id = id
        self.tokenHash = tokenHash
        self.familyID = familyID
        self.clientID = clientID
        self.userID = userID
        self.scope = scope
        self.audience = audience
        self.amr = amr
        self.authTime = authTime
        self.passkeyID = passkeyID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.idleExpiresAt = idleExpiresAt
        self.usedAt = usedAt
        self.revokedAt = revokedAt
    }
}

extension RefreshTokenRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<RefreshTokenRecord>(
        blank: RefreshTokenRecord(
            tenantID: "", id: "", tokenHash: [], familyID: "", clientID: "", userID: "", scope: "", audience: nil,
            amr: [], authTime: .distantPast, createdAt: .distantPast, expiresAt: .distantPast,
            idleExpiresAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("tokenHash", \._tokenHash.wrappedValue),
            .field("familyID", \.familyID),
            .field("clientID", \.clientID),
            .field("userID", \.userID),
            .field("scope", \.scope),
            .field("audience", \.audience),
            .field("amr", \.amr),
            .field("authTime", \.authTime),
            .field("passkeyID", \.passkeyID),
            .field("createdAt", \.createdAt),
            .field("expiresAt", \.expiresAt),
            .field("idleExpiresAt", \.idleExpiresAt),
            .field("usedAt", \.usedAt),
            .field("revokedAt", \.revokedAt),
            .field("dpopJKT", \.dpopJKT),
        ])
}

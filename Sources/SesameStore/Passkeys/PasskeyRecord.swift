import Foundation

/// A WebAuthn credential (passkey) of a user.
public struct PasskeyRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = PasskeyRecord.currentVersion
    public var tenantID: String
    /// The authentication-method id, e.g. "passkey|<hex>".
    public var id: String
    public var userID: String
    /// Unique per tenant.
    @Base64Bytes public var credentialID: [UInt8]
    /// The COSE_Key bytes.
    @Base64Bytes public var publicKey: [UInt8]
    public var signCount: UInt32
    @Base64Bytes public var aaguid: [UInt8]
    public var backupEligible: Bool
    public var backupState: Bool
    public var transports: [String]
    public var name: String
    public var attestationFormat: AttestationFormat
    public var createdAt: Date
    public var lastUsedAt: Date?
    public init(
        tenantID: String, id: String, userID: String, credentialID: [UInt8], publicKey: [UInt8], signCount: UInt32,
        aaguid: [UInt8], backupEligible: Bool, backupState: Bool, transports: [String], name: String,
        attestationFormat: AttestationFormat, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.id = id
        self.userID = userID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.aaguid = aaguid
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.transports = transports
        self.name = name
        self.attestationFormat = attestationFormat
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

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

extension PasskeyRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<PasskeyRecord>(
        blank: PasskeyRecord(
            tenantID: "", id: "", userID: "", credentialID: [], publicKey: [], signCount: 0, aaguid: [],
            backupEligible: false, backupState: false, transports: [], name: "", attestationFormat: .none,
            createdAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("userID", \.userID),
            .field("credentialID", \._credentialID.wrappedValue),
            .field("publicKey", \._publicKey.wrappedValue),
            .field("signCount", \.signCount),
            .field("aaguid", \._aaguid.wrappedValue),
            .field("backupEligible", \.backupEligible),
            .field("backupState", \.backupState),
            .field("transports", \.transports),
            .field("name", \.name),
            .field("attestationFormat", \.attestationFormat),
            .field("createdAt", \.createdAt),
            .field("lastUsedAt", \.lastUsedAt),
        ])
}

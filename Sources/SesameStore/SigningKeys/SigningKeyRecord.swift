import Foundation

/// Where a signing key is in its rotation.
public enum SigningKeyState: String, RecordVocabulary, Sendable, Hashable, Codable {
    /// Signs new tokens; published.
    case current
    /// No longer signs; still published so tokens it signed verify until they expire.
    case previous
    /// Retired: neither signs nor is published.
    case revoked
}

/// A tenant's token-signing key; the private key is sealed with the master key (AES-256-GCM).
public struct SigningKeyRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = SigningKeyRecord.currentVersion
    public var tenantID: String
    /// The JWK `kid`.
    public var id: String
    public var algorithm: JWTAlgorithm
    /// PKCS#8 DER sealed with the master key (nonce ‖ ciphertext ‖ tag), AAD = tenant id ‖ 0x00 ‖ kid.
    @Base64Bytes public var sealedPrivateKey: [UInt8]
    /// The public key as a DER SubjectPublicKeyInfo.
    @Base64Bytes public var publicKeySPKI: [UInt8]
    public var state: SigningKeyState
    public var createdAt: Date
    public var rotatedAt: Date?
    public init(
        tenantID: String, id: String, algorithm: JWTAlgorithm, sealedPrivateKey: [UInt8], publicKeySPKI: [UInt8],
        state: SigningKeyState, createdAt: Date, rotatedAt: Date? = nil
    ) {
        self.tenantID = tenantID
        self.id = id
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.publicKeySPKI = publicKeySPKI
        self.state = state
        self.createdAt = createdAt
        self.rotatedAt = rotatedAt
    }
}

extension SigningKeyRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<SigningKeyRecord>(
        blank: SigningKeyRecord(
            tenantID: "", id: "", algorithm: .es256, sealedPrivateKey: [], publicKeySPKI: [], state: .current,
            createdAt: .distantPast),
        [
            .field("tenantID", \.tenantID),
            .field("id", \.id),
            .field("algorithm", \.algorithm),
            .field("sealedPrivateKey", \._sealedPrivateKey.wrappedValue),
            .field("publicKeySPKI", \._publicKeySPKI.wrappedValue),
            .field("state", \.state),
            .field("createdAt", \.createdAt),
            .field("rotatedAt", \.rotatedAt),
        ])
}

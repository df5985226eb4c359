import Foundation

/// A FIDO authenticator status (FIDO Metadata Service v3 §3.1.4, `AuthenticatorStatus`).
public enum AuthenticatorStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case notFIDOCertified = "NOT_FIDO_CERTIFIED"
    /// The phased-out certification without a level; counted as level 1.
    case fidoCertified = "FIDO_CERTIFIED"
    case userVerificationBypass = "USER_VERIFICATION_BYPASS"
    case attestationKeyCompromise = "ATTESTATION_KEY_COMPROMISE"
    case userKeyRemoteCompromise = "USER_KEY_REMOTE_COMPROMISE"
    case userKeyPhysicalCompromise = "USER_KEY_PHYSICAL_COMPROMISE"
    case updateAvailable = "UPDATE_AVAILABLE"
    case revoked = "REVOKED"
    case selfAssertionSubmitted = "SELF_ASSERTION_SUBMITTED"
    case fidoCertifiedL1 = "FIDO_CERTIFIED_L1"
    case fidoCertifiedL1Plus = "FIDO_CERTIFIED_L1plus"
    case fidoCertifiedL2 = "FIDO_CERTIFIED_L2"
    case fidoCertifiedL2Plus = "FIDO_CERTIFIED_L2plus"
    case fidoCertifiedL3 = "FIDO_CERTIFIED_L3"
    case fidoCertifiedL3Plus = "FIDO_CERTIFIED_L3plus"

    /// The certification level this status grants (1, 1.5 as 2, 2 as 3, …), nil for a status
    /// that is not a certification.
    public var certificationRank: Int? {
        switch self {
        case .fidoCertified, .fidoCertifiedL1: return 1
        case .fidoCertifiedL1Plus: return 2
        case .fidoCertifiedL2: return 3
        case .fidoCertifiedL2Plus: return 4
        case .fidoCertifiedL3: return 5
        case .fidoCertifiedL3Plus: return 6
        default: return nil
        }
    }

    /// Whether the status says the authenticator must not be trusted: revoked, or a compromise
    /// of its attestation key, its user keys or its user verification.
    public var isCompromise: Bool {
        switch self {
        case .revoked, .attestationKeyCompromise, .userVerificationBypass, .userKeyRemoteCompromise,
            .userKeyPhysicalCompromise:
            return true
        default: return false
        }
    }
}

/// A status as a BLOB states it. The specification lets FIDO add statuses, so a value this
/// Sesame does not know is kept as it was written (never mapped to a known one), and the trust
/// decisions treat it as unknown (docs/mds.md).
public enum MetadataStatus: Sendable, Hashable, Codable {
    case known(AuthenticatorStatus)
    case unrecognized(String)

    public init(text: String) {
        self = AuthenticatorStatus(rawValue: text).map(MetadataStatus.known) ?? .unrecognized(text)
    }

    /// The status as the BLOB wrote it.
    public var text: String {
        switch self {
        case .known(let status): return status.rawValue
        case .unrecognized(let text): return text
        }
    }
}

/// One `statusReports` entry.
public struct MetadataStatusReport: Sendable, Hashable, Codable {
    public var status: MetadataStatus
    /// `effectiveDate`, ISO 8601 "YYYY-MM-DD", when given.
    public var effectiveDate: String?
    /// `certificateNumber`, when given.
    public var certificateNumber: String?

    public init(status: MetadataStatus, effectiveDate: String? = nil, certificateNumber: String? = nil) {
        self.status = status
        self.effectiveDate = effectiveDate
        self.certificateNumber = certificateNumber
    }
}

/// The protocol family of a metadata statement (`protocolFamily`).
public enum MetadataProtocolFamily: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case fido2
    case u2f
    case uaf
}

/// An attestation type a metadata statement declares (FIDO Registry §3.6.3, `attestationTypes`).
public enum MetadataAttestationType: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    case basicFull = "basic_full"
    case basicSurrogate = "basic_surrogate"
    case ecdaa
    case attCA = "attca"
    case anonCA = "anonca"
    case none
}

/// One authenticator model from an imported FIDO metadata BLOB: a FIDO2 model by AAGUID, a U2F
/// model by the key identifiers of its attestation certificates. Metadata is the same for every
/// tenant, so it is stored once for the installation.
public struct AuthenticatorMetadataRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = AuthenticatorMetadataRecord.currentVersion
    /// Lowercase 8-4-4-4-12, for FIDO2 models.
    public var aaguid: String?
    /// Lowercase hex SHA-1 key identifiers, for U2F models.
    public var attestationKeyIdentifiers: [String]
    /// `metadataStatement.description`: the model's name.
    public var description: String
    /// `metadataStatement.icon`: a checked `data:image/…;base64,` URL.
    public var icon: String?
    public var authenticatorVersion: Int
    public var protocolFamily: MetadataProtocolFamily
    public var attestationTypes: [MetadataAttestationType]
    /// `attestationRootCertificates`, DER.
    public var attestationRootCertificates: [[UInt8]]
    /// In the BLOB's order.
    public var statusReports: [MetadataStatusReport]
    /// `timeOfLastStatusChange`, "YYYY-MM-DD".
    public var timeOfLastStatusChange: String

    public init(
        aaguid: String?, attestationKeyIdentifiers: [String] = [], description: String, icon: String? = nil,
        authenticatorVersion: Int, protocolFamily: MetadataProtocolFamily, attestationTypes: [MetadataAttestationType],
        attestationRootCertificates: [[UInt8]], statusReports: [MetadataStatusReport], timeOfLastStatusChange: String
    ) {
        self.aaguid = aaguid
        self.attestationKeyIdentifiers = attestationKeyIdentifiers
        self.description = description
        self.icon = icon
        self.authenticatorVersion = authenticatorVersion
        self.protocolFamily = protocolFamily
        self.attestationTypes = attestationTypes
        self.attestationRootCertificates = attestationRootCertificates
        self.statusReports = statusReports
        self.timeOfLastStatusChange = timeOfLastStatusChange
    }

    /// The keys the store finds this entry by: "aaguid:<aaguid>", then "key:<hex>" for each key
    /// identifier. The first is the entry's own key (`entries()` counts the entry once, by it).
    public var lookupKeys: [String] {
        (aaguid.map { ["aaguid:" + $0] } ?? []) + attestationKeyIdentifiers.map { "key:" + $0 }
    }

    /// The report in force: the one with the latest effective date (a report without one counts
    /// as oldest; of equal dates the later in the BLOB wins). Dates are "YYYY-MM-DD", so they
    /// order as text.
    public var latestStatusReport: MetadataStatusReport? {
        var latest: MetadataStatusReport?
        for report in statusReports where (latest?.effectiveDate ?? "") <= (report.effectiveDate ?? "") {
            latest = report
        }
        return latest
    }
}

/// The imported BLOB itself: its serial number (`no`), when FIDO plans the next one, and what it
/// held. One per installation; an import replaces it with its entries.
public struct MetadataBLOBRecord: Sendable, Hashable, Codable, VersionedRecord {
    public static let currentVersion = 1
    public var version = MetadataBLOBRecord.currentVersion
    /// `no`: every BLOB FIDO publishes has a larger one.
    public var serial: Int
    /// `nextUpdate`, "YYYY-MM-DD".
    public var nextUpdate: String
    public var legalHeader: String
    public var entryCount: Int
    /// SHA-256 of the file as imported.
    public var sha256: [UInt8]
    public var importedAt: Date

    public init(
        serial: Int, nextUpdate: String, legalHeader: String, entryCount: Int, sha256: [UInt8], importedAt: Date
    ) {
        self.serial = serial
        self.nextUpdate = nextUpdate
        self.legalHeader = legalHeader
        self.entryCount = entryCount
        self.sha256 = sha256
        self.importedAt = importedAt
    }
}

extension MetadataStatusReport: RecordTabled {
    public static let recordFields = RecordFields<MetadataStatusReport>(
        blank: MetadataStatusReport(status: .unrecognized("")),
        [
            .field("status", \.statusText),
            .field("effectiveDate", \.effectiveDate),
            .field("certificateNumber", \.certificateNumber),
        ])

    /// The status as the BLOB wrote it, known or not.
    fileprivate var statusText: String {
        get { status.text }
        set { status = MetadataStatus(text: newValue) }
    }
}

extension AuthenticatorMetadataRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<AuthenticatorMetadataRecord>(
        blank: AuthenticatorMetadataRecord(
            aaguid: nil, description: "", authenticatorVersion: 0, protocolFamily: .fido2, attestationTypes: [],
            attestationRootCertificates: [], statusReports: [], timeOfLastStatusChange: ""),
        [
            .field("aaguid", \.aaguid),
            .field("attestationKeyIdentifiers", \.attestationKeyIdentifiers),
            .field("description", \.description),
            .field("icon", \.icon),
            .field("authenticatorVersion", \.authenticatorVersion),
            .field("protocolFamily", \.protocolFamily),
            .field("attestationTypes", \.attestationTypes),
            .field("attestationRootCertificates", \.attestationRootCertificates),
            .field("statusReports", \.statusReports),
            .field("timeOfLastStatusChange", \.timeOfLastStatusChange),
        ])
}

extension MetadataBLOBRecord: BinaryCodedRecord {
    public static let recordFields = RecordFields<MetadataBLOBRecord>(
        blank: MetadataBLOBRecord(
            serial: 0, nextUpdate: "", legalHeader: "", entryCount: 0, sha256: [], importedAt: .distantPast),
        [
            .field("serial", \.serial),
            .field("nextUpdate", \.nextUpdate),
            .field("legalHeader", \.legalHeader),
            .field("entryCount", \.entryCount),
            .field("sha256", \.sha256),
            .field("importedAt", \.importedAt),
        ])
}

/// What a connection requires of a new passkey's attestation (`passkey_options.attestation_requirement`).
/// Anything but `none` asks for `direct` attestation and needs imported FIDO metadata.
public enum AttestationRequirement: String, RecordVocabulary, Sendable, Hashable, Codable, CaseIterable {
    /// No requirement (the default): attestation is not asked for.
    case none
    /// A certificate path that chains to the attestation roots of the authenticator's metadata
    /// entry, whose status is not revoked or compromised.
    case metadata
    /// As `metadata`, and certified by FIDO at this level or above.
    case fidoCertifiedL1 = "FIDO_CERTIFIED_L1"
    case fidoCertifiedL1Plus = "FIDO_CERTIFIED_L1plus"
    case fidoCertifiedL2 = "FIDO_CERTIFIED_L2"
    case fidoCertifiedL2Plus = "FIDO_CERTIFIED_L2plus"
    case fidoCertifiedL3 = "FIDO_CERTIFIED_L3"
    case fidoCertifiedL3Plus = "FIDO_CERTIFIED_L3plus"

    /// The least certification rank that satisfies it: the rank of the FIDO status of the same
    /// name (`AuthenticatorStatus.certificationRank`), nil for `none` and `metadata`.
    public var minimumCertificationRank: Int? {
        AuthenticatorStatus(rawValue: rawValue)?.certificationRank
    }
}

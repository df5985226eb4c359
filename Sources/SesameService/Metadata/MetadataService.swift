import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// What an import did (the CLI prints it).
public struct MetadataImportReport: Sendable, Equatable {
    public var serial: Int
    /// The serial of the BLOB it replaced, nil for the first import.
    public var previousSerial: Int?
    public var entries: Int
    /// UAF entries, not used by Sesame.
    public var skippedEntries: Int
    public var nextUpdate: String
    /// `nextUpdate` is before the import's day: FIDO has published a newer BLOB.
    public var stale: Bool
    public var warnings: [String]
}

/// How an authenticator model is shown: the metadata's description and icon first, the AAGUID
/// table's name as the fallback.
public struct AuthenticatorDisplay: Sendable, Equatable {
    public var name: String?
    /// A checked `data:image/…;base64,` URL (`IconDataURL`).
    public var icon: String?

    public init(name: String?, icon: String?) {
        self.name = name
        self.icon = icon
    }
}

/// FIDO metadata: the offline import of a BLOB, and what registrations and pages read from it.
public struct MetadataService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock

    public init(store: any SesameStore, clock: any ServiceClock) {
        self.access = StoreAccess(store: store)
        self.clock = clock
    }

    /// Verifies `blob` against the root certificates in `rootPEM` at the clock's time and, in one
    /// durable transaction, replaces the stored metadata with it. Its `no` must be greater than
    /// the stored BLOB's unless `force` (checked inside the write, so two imports cannot both
    /// pass it).
    public func importBLOB(
        _ blob: [UInt8], rootPEM: String, force: Bool = false, limits: MetadataBLOB.Limits = .standard
    ) throws(MetadataImportError) -> MetadataImportReport {
        let now = clock.now()
        let roots: [X509Certificate]
        do {
            roots = try X509Certificate.certificates(pem: rootPEM)
        } catch {
            throw .root("\(error)")
        }
        let parsed = try MetadataBLOB.verify(blob, roots: roots, now: now, limits: limits)
        let record = MetadataBLOBRecord(
            serial: parsed.serial, nextUpdate: parsed.nextUpdate, legalHeader: parsed.legalHeader,
            entryCount: parsed.entries.count, sha256: parsed.sha256, importedAt: now)
        let previous: Int?
        do {
            previous = try access.store.write(.durable) { transaction -> Int? in
                let stored = try transaction.authenticatorMetadata.blob()
                if let stored, stored.serial >= parsed.serial, !force {
                    throw MetadataImportError.rollback(stored: stored.serial, offered: parsed.serial)
                }
                try transaction.authenticatorMetadata.replace(blob: record, entries: parsed.entries)
                return stored?.serial
            }
        } catch let error as MetadataImportError {
            throw error
        } catch {
            throw .store("\(error)")
        }
        return MetadataImportReport(
            serial: parsed.serial, previousSerial: previous, entries: parsed.entries.count,
            skippedEntries: parsed.skippedEntries, nextUpdate: parsed.nextUpdate,
            stale: parsed.nextUpdate < Self.day(now), warnings: parsed.warnings)
    }

    /// The stored BLOB, nil before the first import.
    public func currentBLOB() throws(ServiceError) -> MetadataBLOBRecord? {
        try access.read { try $0.authenticatorMetadata.blob() }
    }

    /// The name and icon for each AAGUID given (16 bytes each), by formatted AAGUID.
    public func display(aaguids: [[UInt8]]) throws(ServiceError) -> [String: AuthenticatorDisplay] {
        try access.read { try Self.display(aaguids: aaguids, in: $0) }
    }

    /// `display(aaguids:)` in a transaction.
    static func display(aaguids: [[UInt8]], in transaction: any StoreTransaction) throws -> [String:
        AuthenticatorDisplay]
    {
        var unique: [String: [UInt8]] = [:]
        for aaguid in aaguids where aaguid.count == 16 { unique[AAGUIDRegistry.format(aaguid)] = aaguid }
        let entries = try unique.keys.compactMap { try transaction.authenticatorMetadata.get(aaguid: $0) }
        var answer: [String: AuthenticatorDisplay] = [:]
        for (formatted, aaguid) in unique {
            answer[formatted] = Self.display(entry: entries.first { $0.aaguid == formatted }, aaguid: aaguid)
        }
        return answer
    }

    /// The metadata's description and icon, else the AAGUID table's name.
    static func display(entry: AuthenticatorMetadataRecord?, aaguid: [UInt8]) -> AuthenticatorDisplay {
        if let entry { return AuthenticatorDisplay(name: entry.description, icon: entry.icon) }
        return AuthenticatorDisplay(name: AAGUIDRegistry.name(for: aaguid), icon: nil)
    }

    /// "YYYY-MM-DD" of `date` in UTC.
    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = parts.year ?? 0
        let month = parts.month ?? 0
        let day = parts.day ?? 0
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}

/// The metadata a registration is checked against: the entries of the models its attestation
/// names, looked up before the ceremony so the WebAuthn core gets their roots as a value.
struct RegistrationMetadata {
    var entries: [AuthenticatorModel: AuthenticatorMetadataRecord]

    /// The entries for the models `attestationObject` may belong to.
    static func lookUp(attestationObject: [UInt8], in transaction: any StoreTransaction) throws -> RegistrationMetadata
    {
        var entries: [AuthenticatorModel: AuthenticatorMetadataRecord] = [:]
        for model in AuthenticatorModel.candidates(attestationObject: attestationObject) {
            let entry: AuthenticatorMetadataRecord?
            switch model {
            case .aaguid(let aaguid):
                entry = try transaction.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(aaguid))
            case .attestationKeyIdentifier(let identifier):
                entry = try transaction.authenticatorMetadata.get(attestationKeyIdentifier: Hex.lowercase(identifier))
            }
            if let entry { entries[model] = entry }
        }
        return RegistrationMetadata(entries: entries)
    }

    /// Each entry's attestation roots, for `AttestationPolicy.metadataAnchors`. A root that does
    /// not parse (it did at import) is left out.
    var anchors: [AuthenticatorModel: [X509Certificate]] {
        entries.mapValues { entry in entry.attestationRootCertificates.compactMap { try? X509Certificate(der: $0) } }
    }

    /// The entry for the AAGUID, if any.
    func entry(aaguid: [UInt8]) -> AuthenticatorMetadataRecord? { entries[.aaguid(aaguid)] }

    /// The entry that names a new passkey: the model its certificate path was verified to (a U2F
    /// model by key identifier, whose AAGUID is all zero), else the AAGUID it claims.
    func entry(for verified: VerifiedRegistration) -> AuthenticatorMetadataRecord? {
        if let model = verified.attestation.metadataModel, let entry = entries[model] { return entry }
        return entry(aaguid: verified.aaguid)
    }

    /// Refuses a registration its metadata or the connection's requirement does not allow
    /// (docs/mds.md): a model whose metadata is revoked or compromised (the AAGUID's, attested or
    /// not, and those of the key identifiers of the verified attestation certificate); and, under
    /// a requirement, anything but a path verified to the model's metadata roots with a known,
    /// uncompromised status and (for a level) that certification.
    func check(_ verified: VerifiedRegistration, requirement: AttestationRequirement) throws(ServiceError) {
        // The entries were looked up from this attestation object, which has verified: each is
        // its claimed AAGUID or a key identifier of the certificate whose key signed it.
        let named = entries.sorted { "\($0.key)" < "\($1.key)" }.map(\.value)
        for entry in named {
            if let why = Self.distrust(entry) {
                throw .invalidGrant("authenticator not accepted: its FIDO metadata status is \(why)")
            }
        }
        guard requirement != .none else { return }
        guard let model = verified.attestation.metadataModel, let entry = entries[model] else {
            throw .invalidGrant(
                "authenticator not accepted: the connection requires an attestation that chains to FIDO metadata")
        }
        if let why = Self.distrust(entry) {
            throw .invalidGrant("authenticator not accepted: its FIDO metadata status is \(why)")
        }
        if case .unrecognized(let text)? = entry.latestStatusReport?.status {
            throw .invalidGrant(
                "authenticator not accepted: its FIDO metadata status \(text.prefix(64)) is not one Sesame knows")
        }
        if let minimum = requirement.minimumCertificationRank {
            let rank = Self.certificationRank(entry)
            guard rank >= minimum else {
                throw .invalidGrant(
                    "authenticator not accepted: the connection requires \(requirement.rawValue) or above")
            }
        }
    }

    /// Why an entry must not be trusted: a REVOKED report anywhere, or a compromise as the
    /// latest report; nil when neither.
    static func distrust(_ entry: AuthenticatorMetadataRecord) -> String? {
        if entry.statusReports.contains(where: { $0.status == .known(.revoked) }) { return "REVOKED" }
        if case .known(let status)? = entry.latestStatusReport?.status, status.isCompromise { return status.rawValue }
        return nil
    }

    /// The highest certification any report grants (0 for none).
    static func certificationRank(_ entry: AuthenticatorMetadataRecord) -> Int {
        entry.statusReports.compactMap { report -> Int? in
            guard case .known(let status) = report.status else { return nil }
            return status.certificationRank
        }.max() ?? 0
    }
}

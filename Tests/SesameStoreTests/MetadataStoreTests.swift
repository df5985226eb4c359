import Foundation
import SesameStore
import Testing

/// The FIDO metadata repository (docs/mds.md), on every store.
@Suite struct MetadataStoreTests {
    static func entry(
        _ aaguid: String?, keys: [String] = [], description: String = "Model", statuses: [MetadataStatusReport] = []
    ) -> AuthenticatorMetadataRecord {
        AuthenticatorMetadataRecord(
            aaguid: aaguid, attestationKeyIdentifiers: keys, description: description,
            icon: "data:image/png;base64,iVBORw0KGgo=", authenticatorVersion: 3,
            protocolFamily: aaguid == nil ? .u2f : .fido2, attestationTypes: [.basicFull, .attCA],
            attestationRootCertificates: [[0x30, 0x03, 0x02, 0x01, 0x01], [0x30, 0x00]],
            statusReports: statuses, timeOfLastStatusChange: "2024-05-01")
    }

    static func blob(_ serial: Int) -> MetadataBLOBRecord {
        MetadataBLOBRecord(
            serial: serial, nextUpdate: "2024-06-01", legalHeader: "legal", entryCount: 2,
            sha256: Array(repeating: 7, count: 32),
            importedAt: Date(timeIntervalSinceReferenceDate: 700_000_000.25))
    }

    @Test(arguments: StoreKind.allCases) func replaceAndLookUp(_ kind: StoreKind) throws {
        let s = try kind.make()
        #expect(try s.read { try $0.authenticatorMetadata.blob() } == nil)
        let fido2 = Self.entry(
            "00112233-4455-6677-8899-aabbccddeeff",
            statuses: [
                MetadataStatusReport(
                    status: .known(.fidoCertifiedL2), effectiveDate: "2023-01-01", certificateNumber: "C1"),
                MetadataStatusReport(status: .unrecognized("FIDO_CERTIFIED_L9"), effectiveDate: "2024-01-01"),
            ])
        let u2f = Self.entry(
            nil, keys: ["aa" + String(repeating: "0", count: 38), "bb" + String(repeating: "1", count: 38)])
        try s.write { try $0.authenticatorMetadata.replace(blob: Self.blob(10), entries: [fido2, u2f]) }
        try s.read { tx throws in
            #expect(try tx.authenticatorMetadata.blob() == Self.blob(10))
            #expect(try tx.authenticatorMetadata.get(aaguid: "00112233-4455-6677-8899-aabbccddeeff") == fido2)
            #expect(
                try tx.authenticatorMetadata.get(attestationKeyIdentifier: "aa" + String(repeating: "0", count: 38))
                    == u2f)
            #expect(
                try tx.authenticatorMetadata.get(attestationKeyIdentifier: "bb" + String(repeating: "1", count: 38))
                    == u2f)
            #expect(try tx.authenticatorMetadata.get(aaguid: "ffffffff-4455-6677-8899-aabbccddeeff") == nil)
        }
        // A second import replaces everything: the old entries are gone.
        let other = Self.entry("99999999-4455-6677-8899-aabbccddeeff", description: "Other")
        try s.write { try $0.authenticatorMetadata.replace(blob: Self.blob(11), entries: [other]) }
        try s.read { tx throws in
            #expect(try tx.authenticatorMetadata.blob()?.serial == 11)
            #expect(try tx.authenticatorMetadata.get(aaguid: "00112233-4455-6677-8899-aabbccddeeff") == nil)
            #expect(
                try tx.authenticatorMetadata.get(attestationKeyIdentifier: "aa" + String(repeating: "0", count: 38))
                    == nil)
            #expect(try tx.authenticatorMetadata.get(aaguid: "99999999-4455-6677-8899-aabbccddeeff") == other)
        }
    }

    /// `entries()` lists each entry once, however many keys find it, and only the current ones.
    @Test(arguments: StoreKind.allCases) func entriesListEachEntryOnce(_ kind: StoreKind) throws {
        let s = try kind.make()
        #expect(try s.read { try $0.authenticatorMetadata.entries() }.isEmpty)
        let fido2 = Self.entry("00112233-4455-6677-8899-aabbccddeeff")
        // A FIDO2 entry that also lists key identifiers, and a U2F entry with two.
        let both = Self.entry(
            "99999999-4455-6677-8899-aabbccddeeff", keys: ["cc" + String(repeating: "2", count: 38)],
            description: "Both")
        let u2f = Self.entry(
            nil, keys: ["aa" + String(repeating: "0", count: 38), "bb" + String(repeating: "1", count: 38)],
            description: "U2F")
        try s.write { try $0.authenticatorMetadata.replace(blob: Self.blob(1), entries: [u2f, fido2, both]) }
        let listed = try s.read { try $0.authenticatorMetadata.entries() }
        #expect(listed.count == 3)
        #expect(Set(listed) == [fido2, both, u2f])
        #expect(try s.read { try $0.authenticatorMetadata.entries() } == listed)
        try s.write { try $0.authenticatorMetadata.replace(blob: Self.blob(2), entries: [u2f]) }
        #expect(try s.read { try $0.authenticatorMetadata.entries() } == [u2f])
    }

    /// A failed import leaves the previous metadata whole (one transaction).
    @Test(arguments: StoreKind.allCases) func failedReplaceKeepsThePrevious(_ kind: StoreKind) throws {
        let s = try kind.make()
        let first = Self.entry("00112233-4455-6677-8899-aabbccddeeff")
        try s.write { try $0.authenticatorMetadata.replace(blob: Self.blob(1), entries: [first]) }
        let duplicate = Self.entry("99999999-4455-6677-8899-aabbccddeeff")
        #expect(throws: StoreError.conflict(.authenticatorMetadata)) {
            try s.write { try $0.authenticatorMetadata.replace(blob: Self.blob(2), entries: [duplicate, duplicate]) }
        }
        try s.read { tx throws in
            #expect(try tx.authenticatorMetadata.blob()?.serial == 1)
            #expect(try tx.authenticatorMetadata.get(aaguid: "00112233-4455-6677-8899-aabbccddeeff") == first)
            #expect(try tx.authenticatorMetadata.get(aaguid: "99999999-4455-6677-8899-aabbccddeeff") == nil)
        }
    }

    @Test func latestStatusReportIsTheLatestEffectiveDate() {
        let entry = Self.entry(
            "00112233-4455-6677-8899-aabbccddeeff",
            statuses: [
                MetadataStatusReport(status: .known(.revoked), effectiveDate: "2024-03-01"),
                MetadataStatusReport(status: .known(.fidoCertifiedL1), effectiveDate: "2023-01-01"),
                MetadataStatusReport(status: .known(.updateAvailable), effectiveDate: nil),
            ])
        #expect(entry.latestStatusReport?.status == .known(.revoked))
        #expect(MetadataStatus(text: "REVOKED") == .known(.revoked))
        #expect(MetadataStatus(text: "SOMETHING_NEW") == .unrecognized("SOMETHING_NEW"))
    }
}

import Foundation
import SesameCrypto
import SesamePostgres
import SesameSQLite
import SesameService
import SesameStore
import SesameTesting
import Testing
import WebAuthn

@testable import SesameCLI

/// `sesame store copy`: a SQLite deployment moved to PostgreSQL, counts verified.
@Suite("sesame store copy")
struct StoreCopyCommandTests {
    static let dsn = TestPostgres.dsn
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let aaguid: [UInt8] = Array(repeating: 0x5e, count: 16)

    /// FIDO metadata to copy: a PKI, a FIDO2 model and a U2F model.
    struct Metadata {
        let pki: TestPKI
        let ca: TestAttestationCA
        let u2f: TestU2FAttestation

        init() throws {
            pki = try TestPKI.make(now: StoreCopyCommandTests.now)
            ca = try TestAttestationCA.make(aaguid: StoreCopyCommandTests.aaguid, now: StoreCopyCommandTests.now)
            u2f = try TestU2FAttestation.make(now: StoreCopyCommandTests.now)
        }

        /// A BLOB numbered `serial` holding both models (`legalHeader` varies the file).
        func blob(_ serial: Int, description: String = "Copied Key") throws -> [UInt8] {
            let entries = [
                TestMetadataBLOB.entry(
                    aaguid: StoreCopyCommandTests.aaguid, description: description, roots: [ca.root],
                    icon: TestMetadataBLOB.pngIcon),
                TestMetadataBLOB.u2fEntry(
                    keyIdentifiers: [u2f.keyIdentifier], description: "Copied U2F Key", roots: [u2f.root],
                    statuses: [("FIDO_CERTIFIED_L1", "2025-01-01"), ("REVOKED", "2026-01-01")]),
            ]
            return try TestMetadataBLOB.sign(
                TestMetadataBLOB.payload(serial: serial, nextUpdate: "2027-02-15", entries: entries), pki: pki)
        }

        /// Imports a new BLOB numbered `serial` into `store`; returns its file.
        @discardableResult
        func importBLOB(_ serial: Int, into store: any SesameStore, description: String = "Copied Key") throws
            -> [UInt8]
        {
            let file = try blob(serial, description: description)
            try importFile(file, into: store)
            return file
        }

        /// Imports the BLOB `file` into `store`.
        func importFile(_ file: [UInt8], into store: any SesameStore) throws {
            _ = try MetadataService(store: store, clock: ManualClock(StoreCopyCommandTests.now)).importBLOB(
                file, rootPEM: pki.rootPEM)
        }

        /// Both lookups answer the same in `copy` as in `source`, and the BLOB record is the same.
        func expectSameLookups(_ copy: any SesameStore, _ source: any SesameStore) throws {
            let byAAGUID = try copy.read {
                try $0.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(StoreCopyCommandTests.aaguid))
            }
            #expect(byAAGUID?.description == "Copied Key")
            #expect(byAAGUID?.icon == TestMetadataBLOB.pngIcon)
            #expect(byAAGUID?.attestationRootCertificates == [ca.root.der])
            #expect(
                byAAGUID
                    == (try source.read {
                        try $0.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(StoreCopyCommandTests.aaguid))
                    }))
            let byKey = try copy.read { try $0.authenticatorMetadata.get(attestationKeyIdentifier: u2f.keyIdentifier) }
            #expect(byKey?.description == "Copied U2F Key")
            #expect(byKey?.attestationRootCertificates == [u2f.root.der])
            #expect(byKey?.statusReports.map(\.status) == [.known(.fidoCertifiedL1), .known(.revoked)])
            #expect(
                byKey
                    == (try source.read {
                        try $0.authenticatorMetadata.get(attestationKeyIdentifier: u2f.keyIdentifier)
                    }))
            let blob = try copy.read { try $0.authenticatorMetadata.blob() }
            #expect(blob != nil)
            #expect(blob == (try source.read { try $0.authenticatorMetadata.blob() }))
        }
    }

    /// A temporary data directory with a bootstrapped SQLite store.
    static func sourceDirectory() throws -> (String, SQLiteStore, TenantRecord) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-copy-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let source = try SQLiteStore(path: DataDirectory(path: data).databasePath)
        let (_, tenant) = try Bootstrap.initialize(
            store: source, publicURL: "https://login.example.com", random: SystemRandom(), now: now)
        return (data, source, tenant)
    }

    @Test(.enabled(if: dsn != nil)) func everythingArrivesAndTheCountsMatch() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-copy-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let source = try SQLiteStore(path: DataDirectory(path: data).databasePath)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (_, tenant) = try Bootstrap.initialize(
            store: source, publicURL: "https://login.example.com", random: SystemRandom(), now: now)
        let connection = try #require(
            try source.read { try $0.connections.list(tenantID: tenant.id, page: Page()) }.first)
        // More users than one page holds, each with a passkey; tokens and events beside them.
        try source.write(.durable) { tx in
            for index in 0..<150 {
                let id = "sesame|\(index)"
                try tx.users.insert(
                    UserRecord(
                        tenantID: tenant.id, id: id, connectionID: connection.id,
                        userHandle: Array("handle-\(index)".utf8), profile: UserProfile(email: "u\(index)@example.com"),
                        createdAt: now, updatedAt: now))
                try tx.passkeys.insert(
                    PasskeyRecord(
                        tenantID: tenant.id, id: "passkey|\(index)", userID: id,
                        credentialID: Array("cred-\(index)".utf8),
                        publicKey: [1, 2, 3], signCount: 0, aaguid: Array(repeating: 0, count: 16),
                        backupEligible: true,
                        backupState: true, transports: ["internal"], name: "Passkey", attestationFormat: .none,
                        createdAt: now))
                try tx.refreshTokens.insert(
                    RefreshTokenRecord(
                        tenantID: tenant.id, id: "rt_\(index)", tokenHash: Array(repeating: UInt8(index), count: 32),
                        familyID: "rtf_\(index)", clientID: "c", userID: id, scope: "openid", audience: nil,
                        amr: ["pop"], authTime: now, createdAt: now, expiresAt: now + 3_600, idleExpiresAt: now + 3_600)
                )
                if index < 3 {
                    try tx.deviceKeys.insert(
                        DeviceKeyRecord(
                            tenantID: tenant.id, id: "key-\(index)", userID: id, clientID: "c",
                            publicKey: [4] + Array(repeating: 1, count: 64), deviceID: "install-\(index)",
                            deviceName: "Phone", platform: .android, osVersion: "8.1", createdAt: now))
                }
            }
            try tx.authEvents.insert(
                (0..<120).map {
                    AuthEventRecord(
                        tenantID: tenant.id, id: "evt_\($0)", at: now + Double($0), type: .login, method: .passkey,
                        outcome: .success)
                })
            try tx.resourceServers.insert(
                ResourceServerRecord(
                    tenantID: tenant.id, id: "rs_1", identifier: "https://api.example.com/", name: "API",
                    createdAt: now,
                    updatedAt: now))
        }
        let metadata = try Metadata()
        try metadata.importBLOB(5, into: source)
        let target = try PostgresTestSchema(prefix: "copy_")

        let run = CLI.run(["store", "copy", "--from", data, "--to", target.dsn])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout
                == "Copied 1 tenants, 2 clients, 1 connections, 1 APIs, 0 signing keys, 150 users, 150 passkeys, "
                + "3 device keys, 0 linked identities, 150 refresh tokens, 120 auth events, "
                + "FIDO metadata BLOB no. 5 with 2 entries; the counts match. Serve it with the same master key.\n"
        )
        let copy = try PostgresStore(dsn: target.dsn)
        try metadata.expectSameLookups(copy, source)
        #expect(try copy.read { try $0.authenticatorMetadata.entries() }.count == 2)
        #expect(try copy.read { try $0.tenants.get(host: "login.example.com") } == tenant)
        #expect(
            try copy.read { try $0.passkeys.get(tenantID: tenant.id, credentialID: Array("cred-149".utf8)) }
                == source.read { try $0.passkeys.get(tenantID: tenant.id, credentialID: Array("cred-149".utf8)) })
        #expect(
            try copy.read { try $0.refreshTokens.get(tenantID: tenant.id, tokenHash: Array(repeating: 7, count: 32)) }?
                .id
                == "rt_7")

        #expect(try copy.read { try $0.deviceKeys.get(tenantID: tenant.id, id: "key-2") }?.userID == "sesame|2")
        // The adoption statistics' roll-up is rebuilt from the copied events.
        let day = AuthDailyCount.day(of: now)
        let copied = try copy.read {
            try $0.authEvents.dailyCounts(
                tenantID: tenant.id, from: "2000-01-01", to: "2100-01-01", clientID: nil, connectionID: nil)
        }
        #expect(copied.map(\.count).reduce(0, +) == 120 && copied.first?.day == day)

        let again = CLI.run(["store", "copy", "--from", data, "--to", target.dsn])
        #expect(again.status == 2)
        #expect(again.stderrLines == ["sesame: store copy: the target store is not empty"])
    }

    @Test(.enabled(if: dsn != nil)) func aSourceWithoutMetadataLeavesTheTargetsAlone() throws {
        let (data, _, _) = try Self.sourceDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let metadata = try Metadata()
        let target = try PostgresTestSchema(prefix: "copy_")
        let destination = try PostgresStore(dsn: target.dsn)
        try metadata.importBLOB(3, into: destination)

        let run = CLI.run(["store", "copy", "--from", data, "--to", target.dsn])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("auth events, no FIDO metadata; the counts match"), "\(run.stdout)")
        #expect(try destination.read { try $0.authenticatorMetadata.blob()?.serial } == 3)
        #expect(try destination.read { try $0.authenticatorMetadata.entries() }.count == 2)
    }

    /// The rollback rule of `mds import`: a target whose BLOB is newer, or another file with the
    /// same `no`, is refused with exit 5 before anything is written; the same BLOB copies again.
    @Test(.enabled(if: dsn != nil)) func aTargetWithNewerMetadataIsRefusedAndUntouched() throws {
        let (data, source, _) = try Self.sourceDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let metadata = try Metadata()
        let file = try metadata.importBLOB(5, into: source)

        let newer = try PostgresTestSchema(prefix: "copy_")
        let newerStore = try PostgresStore(dsn: newer.dsn)
        try metadata.importBLOB(6, into: newerStore, description: "Newer Key")
        let refused = CLI.run(["store", "copy", "--from", data, "--to", newer.dsn])
        #expect(refused.status == 5, "\(refused.stderr)")
        #expect(
            refused.stderrLines == [
                "sesame: store copy: the target holds FIDO metadata BLOB no. 6, and the source's no. 5 is not newer; "
                    + "nothing was copied (import the newer BLOB into the source first)"
            ])
        #expect(refused.stdout.isEmpty)
        #expect(try newerStore.read { try $0.tenants.all() }.isEmpty)
        #expect(try newerStore.read { try $0.authenticatorMetadata.blob()?.serial } == 6)
        #expect(
            try newerStore.read {
                try $0.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(Self.aaguid))
            }?.description == "Newer Key")

        // The same `no` from another file: refused too.
        let sameNumber = try PostgresTestSchema(prefix: "copy_")
        try metadata.importBLOB(5, into: try PostgresStore(dsn: sameNumber.dsn), description: "Other File")
        #expect(CLI.run(["store", "copy", "--from", data, "--to", sameNumber.dsn]).status == 5)

        // The same BLOB already imported into the target: copied again, and the copy goes on.
        let same = try PostgresTestSchema(prefix: "copy_")
        let sameStore = try PostgresStore(dsn: same.dsn)
        try metadata.importFile(file, into: sameStore)
        let copied = CLI.run(["store", "copy", "--from", data, "--to", same.dsn])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try sameStore.read { try $0.tenants.all() }.count == 1)
        try metadata.expectSameLookups(sameStore, source)
    }

    /// The copy itself in both directions: SQLite to PostgreSQL and PostgreSQL back to SQLite.
    @Test(.enabled(if: dsn != nil)) func metadataCopiesBothWays() throws {
        let (data, source, _) = try Self.sourceDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let metadata = try Metadata()
        try metadata.importBLOB(7, into: source)
        let schema = try PostgresTestSchema(prefix: "copy_")
        let postgres = try PostgresStore(dsn: schema.dsn)
        let there = try StoreCopyCommand.copyMetadata(from: source, to: postgres)
        #expect(there.summary == "FIDO metadata BLOB no. 7 with 2 entries")
        #expect(try there.matches(postgres))
        try metadata.expectSameLookups(postgres, source)

        let back = try TestDatabase(.sqlite)
        let returned = try StoreCopyCommand.copyMetadata(from: postgres, to: back.store)
        #expect(try returned.matches(back.store))
        try metadata.expectSameLookups(back.store, postgres)
        // Back into the original: the same BLOB, copied again; an older one is refused.
        _ = try StoreCopyCommand.copyMetadata(from: postgres, to: source)
        try metadata.importBLOB(8, into: source)
        #expect(throws: StoreCopyCommand.MetadataRollback.self) {
            try StoreCopyCommand.copyMetadata(from: postgres, to: source)
        }
        #expect(try source.read { try $0.authenticatorMetadata.blob()?.serial } == 8)
    }

    @Test(arguments: [
        (["store"], "sesame: store: missing action: copy"),
        (["store", "move"], "sesame: store: unknown action 'move' (expected copy)"),
        (["store", "copy", "--to", "postgres://x"], "sesame: store copy: --from DIR is required"),
        (["store", "copy", "--from", "/tmp"], "sesame: store copy: --to postgres://… is required"),
        (
            ["store", "copy", "--from", "/tmp", "--to", "file:///x"],
            "sesame: store copy: --store must be a postgres:// or postgresql:// URI (without it, SQLite in --data)"
        ),
        (
            ["store", "copy", "--from", "/nonexistent", "--to", "postgres://x"],
            "sesame: store copy: /nonexistent/sesame.db does not exist"
        ),
    ])
    func badArgumentsAreOneLineAndExitTwo(arguments: [String], message: String) {
        let run = CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines == [Substring(message)])
        #expect(run.stdout.isEmpty)
    }
}

import Foundation
import SesameSQLite
import SesameStore
import SesameTesting
import Testing
import WebAuthn

@testable import SesameCLI

/// `sesame mds import` (docs/mds.md): bad arguments, bad files, a good import, a bad BLOB and a
/// rollback, each with its exit status.
@Suite struct MetadataCommandTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let aaguid: [UInt8] = Array(repeating: 0x42, count: 16)

    /// A data directory with a migrated database, a BLOB file and the root's PEM file.
    final class Files {
        let directory: URL
        var database: String { directory.appendingPathComponent("sesame.db").path }
        var blob: String { directory.appendingPathComponent("blob.jwt").path }
        var root: String { directory.appendingPathComponent("root.pem").path }
        let pki: TestPKI
        let ca: TestAttestationCA

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-mds-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            _ = try SQLiteStore(path: directory.appendingPathComponent("sesame.db").path)
            pki = try TestPKI.make(now: MetadataCommandTests.now)
            ca = try TestAttestationCA.make(aaguid: MetadataCommandTests.aaguid, now: MetadataCommandTests.now)
            try Data(pki.rootPEM.utf8).write(to: URL(fileURLWithPath: root))
        }

        func writeBLOB(serial: Int, nextUpdate: String = "2027-02-15") throws {
            let entry = TestMetadataBLOB.entry(
                aaguid: MetadataCommandTests.aaguid, description: "CLI Key", roots: [ca.root])
            let bytes = try TestMetadataBLOB.sign(
                TestMetadataBLOB.payload(serial: serial, nextUpdate: nextUpdate, entries: [entry]), pki: pki)
            try Data(bytes).write(to: URL(fileURLWithPath: blob))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    func run(_ arguments: [String]) -> CLIRun { CLI.run(arguments, now: Self.now) }

    @Test func badArgumentsAreOneLineAndExitTwo() throws {
        let files = try Files()
        for arguments in [
            ["mds"], ["mds", "export"], ["mds", "import"], ["mds", "import", files.blob],
            ["mds", "import", files.blob, "--root"], ["mds", "import", files.blob, "--root", files.root, "--bogus"],
            ["mds", "import", files.blob, "--root", files.root, "--store", "mysql://x"],
            ["mds", "import", files.blob, "--root", files.root, "extra"],
        ] {
            let result = run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(run(["mds", "--help"]).status == 0)
        #expect(run(["help", "mds"]).stdout.contains("sesame mds import FILE --root"))
    }

    @Test func importsThenRefusesARollbackAndABadBLOB() throws {
        let files = try Files()
        try files.writeBLOB(serial: 3)
        let dataArguments = ["--root", files.root, "--data", files.directory.path]

        let missing = run(["mds", "import", files.directory.appendingPathComponent("nope.jwt").path] + dataArguments)
        #expect(missing.status == 3, "\(missing.stderr)")

        let imported = run(["mds", "import", files.blob] + dataArguments)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("BLOB no. 3"))
        #expect(imported.stdout.contains("1 entries"))
        let store = try SQLiteStore(path: files.database)
        #expect(
            try store.read { try $0.authenticatorMetadata.get(aaguid: AAGUIDRegistry.format(Self.aaguid)) }?.description
                == "CLI Key")

        let again = run(["mds", "import", files.blob] + dataArguments)
        #expect(again.status == 5)
        #expect(again.stderr.contains("rollback"))
        #expect(again.stderrLines.count == 1)
        #expect(run(["mds", "import", files.blob, "--force"] + dataArguments).status == 0)

        // A BLOB checked against another root: refused, exit 4, the stored one untouched.
        let stranger = try TestPKI.make(now: Self.now, name: "Other")
        let otherRoot = files.directory.appendingPathComponent("other.pem").path
        try Data(stranger.rootPEM.utf8).write(to: URL(fileURLWithPath: otherRoot))
        try files.writeBLOB(serial: 9)
        let refused = run(["mds", "import", files.blob, "--root", otherRoot, "--data", files.directory.path])
        #expect(refused.status == 4, "\(refused.stderr)")
        #expect(refused.stderr.contains("certificate chain"))
        // An alg MDS does not allow: one line naming it, exit 4 like every refused BLOB.
        let hmac = try TestMetadataBLOB.sign(
            TestMetadataBLOB.payload(serial: 11, nextUpdate: "2027-02-15", entries: []), pki: files.pki, alg: "HS256")
        try Data(hmac).write(to: URL(fileURLWithPath: files.blob))
        let badAlg = run(["mds", "import", files.blob] + dataArguments)
        #expect(badAlg.status == 4)
        #expect(
            badAlg.stderrLines == [
                #"sesame: mds import: the BLOB is malformed: the JWS alg "HS256" is not one MDS allows"#
            ])
        // Not a BLOB at all.
        try Data("hello".utf8).write(to: URL(fileURLWithPath: files.blob))
        let garbage = run(["mds", "import", files.blob] + dataArguments)
        #expect(garbage.status == 4)
        #expect(garbage.stderr.contains("malformed"))
        #expect(try store.read { try $0.authenticatorMetadata.blob()?.serial } == 3)

        // A stale BLOB imports with a warning.
        try files.writeBLOB(serial: 10, nextUpdate: "2026-12-01")
        let stale = run(["mds", "import", files.blob] + dataArguments)
        #expect(stale.status == 0)
        #expect(stale.stderr.contains("nextUpdate (2026-12-01) has passed"))
    }
}

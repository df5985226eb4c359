import Foundation
import SesameCrypto
import SesamePostgres
import SesameSQLite
import SesameService
import SesameStore
import SesameTesting
import Testing

@testable import SesameCLI

/// `sesame store copy`: a SQLite deployment moved to PostgreSQL, counts verified.
@Suite("sesame store copy")
struct StoreCopyCommandTests {
    static let dsn = TestPostgres.dsn

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
        let target = try PostgresTestSchema(prefix: "copy_")

        let run = CLI.run(["store", "copy", "--from", data, "--to", target.dsn])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout
                == "Copied 1 tenants, 2 clients, 1 connections, 1 APIs, 0 signing keys, 150 users, 150 passkeys, "
                + "3 device keys, 0 linked identities, 150 refresh tokens, 120 auth events; the counts match. Serve it with the same master key.\n"
        )
        let copy = try PostgresStore(dsn: target.dsn)
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

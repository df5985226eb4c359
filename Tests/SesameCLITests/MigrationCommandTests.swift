import Foundation
import SesamePostgres
import SesameSQLite
import SesameService
import SesameStore
import SesameTesting
import Testing

@testable import SesameCLI

/// `sesame demo migration` and `sesame stats` (docs/migration.md).
@Suite("sesame demo migration, sesame stats")
struct MigrationCommandTests {
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-demo-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let today = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15

    /// The demo's summary lines (the tenant's ids differ from run to run; the year does not).
    static func summary(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Simulated") || $0.hasPrefix("On ") }
    }

    @Test("the same seed gives the same year, and the roll-up holds every authentication it wrote")
    func demo() throws {
        let first = try Self.temporaryDirectory()
        let second = try Self.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let arguments = ["demo", "migration", "--users", "120", "--days", "40", "--seed", "7"]
        let run = CLI.run(arguments + ["--data", first], now: Self.today)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("/admin/setup?token="), "a new directory is initialised, with its setup link")
        let again = CLI.run(arguments + ["--data", second], now: Self.today)
        #expect(Self.summary(run.stdout) == Self.summary(again.stdout) && Self.summary(run.stdout).count == 2)
        #expect(run.stdout.contains("Simulated 120 users from 2026-12-07 to 2027-01-15"))

        let store = try SQLiteStore(path: DataDirectory(path: first).databasePath)
        let tenant = try #require(try store.read { try $0.tenants.all().first })
        let cells = try store.read {
            try $0.authEvents.dailyCounts(
                tenantID: tenant.id, from: "2026-12-07", to: "2027-01-15", clientID: nil, connectionID: nil)
        }
        let events = try store.read { try $0.authEvents.list(tenantID: tenant.id, page: Page(limit: 100)) }
        #expect(!events.isEmpty)
        // "Simulated 120 users from … to …: N authentications, …"
        let line = try #require(Self.summary(run.stdout).first)
        let written = Int(line.split(separator: ": ")[1].split(separator: " ")[0]) ?? -1
        #expect(cells.map(\.count).reduce(0, +) == written)
        let adoption = try store.read { try $0.users.adoption(tenantID: tenant.id, connectionID: nil) }
        #expect(adoption.total == 120 && adoption.withPasskey > 0 && adoption.withDeviceKeyOnly > 0)

        // A directory that has users is refused.
        let refused = CLI.run(arguments + ["--data", first], now: Self.today)
        #expect(refused.status == 2)
        #expect(refused.stderr == "sesame: demo migration: \(first) already has users; use an empty data directory\n")
    }

    @Test("the demo writes to PostgreSQL with --store", .enabled(if: TestPostgres.dsn != nil))
    func demoOnPostgres() throws {
        let data = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let schema = try PostgresTestSchema(prefix: "demo_")
        let run = CLI.run(
            ["demo", "migration", "--users", "50", "--days", "10", "--data", data, "--store", schema.dsn],
            now: Self.today)
        #expect(run.status == 0, "\(run.stderr)")
        let store = try PostgresStore(dsn: schema.dsn)
        let tenant = try #require(try store.read { try $0.tenants.all().first })
        let cells = try store.read {
            try $0.authEvents.dailyCounts(
                tenantID: tenant.id, from: "2027-01-06", to: "2027-01-15", clientID: nil, connectionID: nil)
        }
        let line = try #require(Self.summary(run.stdout).first)
        #expect(cells.map(\.count).reduce(0, +) == Int(line.split(separator: ": ")[1].split(separator: " ")[0]))
        #expect(try store.read { try $0.users.adoption(tenantID: tenant.id, connectionID: nil) }.total == 50)
    }

    @Test(arguments: [
        (["demo"], "sesame: demo: missing scenario: migration"),
        (["demo", "rollout"], "sesame: demo: unknown scenario 'rollout' (expected migration)"),
        (["demo", "migration", "--users", "0"], "sesame: demo migration: --users must be an integer from 1 to 200000"),
        (["demo", "migration", "--days", "400"], "sesame: demo migration: --days must be an integer from 1 to 366"),
        (["demo", "migration", "--seed", "-1"], "sesame: demo migration: --seed must be a non-negative integer"),
        (["stats"], "sesame: stats: --server is required"),
        (
            ["stats", "--server", "http://localhost:1", "--client-id", "c", "--from", "2027-1-1"],
            "sesame: stats: --from must be a date like 2027-01-15"
        ),
        (["stats", "--json", "--csv"], "sesame: stats: --csv and --json cannot be used together"),
        (["stats", "--connection", ""], "sesame: stats: --connection needs a value"),
    ])
    func badArguments(_ arguments: [String], message: String) {
        let run = CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr == message + "\n")
    }

    @Test("sesame stats prints the days with the share and a bar, the users, and the server's CSV or JSON")
    func stats() async throws {
        let live = try ClientLiveServer()
        let tenant = live.sesame.tenant
        let now = Date()
        let today = AuthDailyCount.day(of: now)
        func event(_ id: String, _ method: AuthEventMethod) -> AuthEventRecord {
            AuthEventRecord(
                tenantID: tenant.id, id: id, at: now, type: .login, method: method, outcome: .success,
                clientID: live.clientID, userID: "u", passkeyKind: method == .passkey ? .synced : nil)
        }
        try live.store.write(.durable) { transaction in
            try transaction.authEvents.insert([
                event("e1", .passkey), event("e2", .deviceKey), event("e3", .deviceKey), event("e4", .deviceKey),
            ])
        }
        let secret = try Self.temporaryDirectory() + "/secret"
        try Array(live.bootstrap.managementClientSecret.utf8).withUnsafeBufferPointer {
            try Data(buffer: $0).write(to: URL(fileURLWithPath: secret))
        }
        let base = [
            "--server", live.url, "--client-id", live.bootstrap.managementClientID, "--client-secret-file", secret,
            "--from", today, "--to", today,
        ]
        let table = await APICommandTests.runStats(base)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("date         total  passkey  device_key") == true)
        #expect(lines.contains { $0.hasPrefix(today) && $0.contains("  25.0% █████") }, "\(table.stdout)")
        #expect(lines.last?.hasPrefix("users: ") == true)
        let csv = await APICommandTests.runStats(base + ["--csv"])
        #expect(csv.stdout.hasPrefix(AdoptionCSV.header + "\r\n\(today),4,1,3,"))
        let json = await APICommandTests.runStats(base + ["--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["days"] as? [[String: Any]])?.first?["device_auth_passkey_share"] as? Double == 0.25)
        // The server's refusal of a day that does not exist: one line, exit status 1.
        let refused = await APICommandTests.runStats(
            [
                "--server", live.url, "--client-id", live.bootstrap.managementClientID, "--client-secret-file", secret,
                "--from", "2027-02-30",
            ])
        #expect(refused.status == 1)
        #expect(refused.stderr == "sesame: stats: the server refused (HTTP 400): from must be a date like 2027-01-15\n")
    }
}

extension APICommandTests {
    static func runStats(_ arguments: [String]) async -> CLIRun {
        final class Buffers: @unchecked Sendable {
            var out = ""
            var err = ""
        }
        let buffers = Buffers()
        let environment = CommandEnvironment(
            readStandardInput: { [] }, readFile: CommandEnvironment.process.readFile,
            writeOutput: { buffers.out += $0 }, writeError: { buffers.err += $0 }, now: { Date() })
        let status = await APICommand.runStats(arguments, environment: environment)
        return CLIRun(status: status, stdout: buffers.out, stderr: buffers.err)
    }
}

import Foundation
import SesameCrypto
import SesamePostgres
import SesameSQLite
import SesameService
import SesameStore
import SesameTesting
import Testing

@testable import SesameCLI

/// `sesame logs`: the audit log read from the store, newest first, filtered, as text or JSON lines.
@Suite("sesame logs")
struct LogsCommandTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A data directory with a tenant and five entries, a second apart: ada's two wrong
    /// passwords and her login, a Management write, grace's signup.
    final class World {
        let data: String
        let tenant: TenantRecord
        let store: any SesameStore

        init(store makeStore: (String) throws -> any SesameStore) throws {
            data =
                FileManager.default.temporaryDirectory.appendingPathComponent("sesame-logs-\(UUID().uuidString)")
                .path
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            store = try makeStore(DataDirectory(path: data).databasePath)
            (_, tenant) = try Bootstrap.initialize(
                store: store, publicURL: "https://login.example.com", random: SystemRandom(), now: LogsCommandTests.now)
            let rows: [(AuditEventType, String?, String?)] = [
                (.failedPassword, "auth0|ada", "ada@example.com"), (.failedPassword, "auth0|ada", "ada@example.com"),
                (.successPasswordExchange, "auth0|ada", "ada@example.com"), (.successAPIOperation, nil, nil),
                (.successSignup, "auth0|grace", "grace@example.com"),
            ]
            let tenantID = tenant.id
            try store.write(.durable) { tx in
                try tx.auditEvents.append(
                    rows.enumerated().map { index, row in
                        AuditEventRecord(
                            tenantID: tenantID, id: String(format: "log_%012x%016x", index + 1, index),
                            at: LogsCommandTests.now + Double(index), type: row.0, userID: row.1, userName: row.2,
                            ip: "198.51.100.\(index)")
                    })
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: data) }

        func ids(_ run: CLIRun) -> [String] {
            run.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["log_id"] as? String
            }
        }
    }

    static func sqlite() throws -> World { try World { try SQLiteStore(path: $0) } }

    static func check(_ world: World, _ location: [String]) throws {
        let all = CLI.run(["logs", "--json"] + location)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(world.ids(all) == (0..<5).reversed().map { String(format: "log_%012x%016x", $0 + 1, $0) })
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(all.stdout.split(separator: "\n")[0].utf8)) as? [String: Any])
        #expect(first["type"] as? String == "ss" && first["tenant_id"] as? String == world.tenant.id)
        #expect(first["user_name"] as? String == "grace@example.com")

        let text = CLI.run(["logs"] + location)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.first == "2027-01-15T08:00:04.000Z  ss  grace@example.com  -  198.51.100.4  Successful signup")
        #expect(lines.last?.hasPrefix("2027-01-15T08:00:00.000Z  fp  ada@example.com  -  198.51.100.0  ") == true)

        #expect(CLI.run(["logs", "--type", "fp"] + location).stdout.split(separator: "\n").count == 2)
        #expect(
            CLI.run(["logs", "--type", "fp", "--type", "ss"] + location).stdout.split(separator: "\n").count == 3)
        #expect(CLI.run(["logs", "--user", "auth0|ada"] + location).stdout.split(separator: "\n").count == 3)
        #expect(
            world.ids(CLI.run(["logs", "--take", "2", "--json", "--tenant", world.tenant.id] + location))
                == world.ids(all).prefix(2).map { $0 })
        let none = CLI.run(["logs", "--user", "auth0|nobody"] + location)
        #expect(none.status == 0 && none.stdout.isEmpty)
    }

    @Test func listsNewestFirstWithFilters() throws {
        let world = try Self.sqlite()
        try Self.check(world, ["--data", world.data])
    }

    @Test(.enabled(if: TestPostgres.dsn != nil)) func readsPostgreSQL() throws {
        let schema = try PostgresTestSchema(prefix: "logs_")
        let world = try World { _ in try PostgresStore(dsn: schema.dsn) }
        try Self.check(world, ["--store", schema.dsn])
    }

    @Test func badArgumentsAreOneLineAndExitTwo() throws {
        let world = try Self.sqlite()
        let data = ["--data", world.data]
        for arguments in [
            ["logs", "--take", "0"] + data, ["logs", "--take", "1001"] + data, ["logs", "--take", "x"] + data,
            ["logs", "--type", "nope"] + data, ["logs", "--tenant", "tnt_missing"] + data,
            ["logs", "--bogus"] + data, ["logs", "extra"] + data, ["logs", "--store", "mysql://x"],
            ["logs", "--user", ""] + data, ["logs", "--data", world.data + "/missing"],
        ] {
            let run = CLI.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        // Two tenants: which one must be said.
        var other = world.tenant
        other.id = "tnt_other"
        other.domain = "other.example.com"
        other.customDomains = []
        try world.store.write(.durable) { try $0.tenants.insert(other) }
        let ambiguous = CLI.run(["logs"] + data)
        #expect(ambiguous.status == 2 && ambiguous.stderr.contains("--tenant"))
        let chosen = CLI.run(["logs", "--tenant", "tnt_other"] + data)
        #expect(chosen.status == 0 && chosen.stdout.isEmpty, "\(chosen.stderr)")
        #expect(CLI.run(["logs", "--help"]).stdout.contains("usage: sesame logs"))
        #expect(CLI.run(["help", "logs"]).status == 0)
    }
}

import Foundation
import SesameCrypto
import SesamePostgres
import SesameSQLite
import SesameService
import SesameStore
import SesameTesting
import Testing

@testable import SesameCLI

/// `sesame admin setup-link|list`: a new admin setup link (the one before stops working), and
/// the administrators, read from the store directly.
@Suite("sesame admin")
struct AdminCommandTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// An initialised store with two users and the setup link `init` printed.
    final class World {
        let data: String
        let tenant: TenantRecord
        let store: any SesameStore
        let firstLink: String

        init(store makeStore: (String) throws -> any SesameStore) throws {
            data =
                FileManager.default.temporaryDirectory.appendingPathComponent("sesame-admin-\(UUID().uuidString)")
                .path
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            store = try makeStore(DataDirectory(path: data).databasePath)
            (_, tenant) = try Bootstrap.initialize(
                store: store, publicURL: "https://login.example.com", random: SystemRandom(), now: AdminCommandTests.now
            )
            firstLink = try AdminAccess(store: store, clock: SystemClock(), random: SystemRandom())
                .newSetupLink(tenant: tenant)
            let tenantID = tenant.id
            let connectionID = try #require(tenant.defaultConnectionID)
            try store.write(.durable) { transaction in
                for (id, email) in [("sesame|ada", "ada@example.com"), ("sesame|grace", "grace@example.com")] {
                    try transaction.users.insert(
                        UserRecord(
                            tenantID: tenantID, id: id, connectionID: connectionID,
                            userHandle: Array(Digest.sha256(Array(id.utf8))), profile: UserProfile(email: email),
                            createdAt: AdminCommandTests.now, updatedAt: AdminCommandTests.now))
                }
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: data) }

        var access: AdminAccess { AdminAccess(store: store, clock: SystemClock(), random: SystemRandom()) }

        static func token(_ link: String) -> String? {
            link.range(of: "token=").map { String(link[$0.upperBound...].prefix { !$0.isWhitespace }) }
        }
    }

    static func check(_ world: World, _ location: [String]) throws {
        #expect(world.access.isSetupToken(World.token(world.firstLink), tenant: world.tenant))
        let empty = CLI.run(["admin", "list"] + location)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.hasPrefix("No administrators yet."))

        let issued = CLI.run(["admin", "setup-link"] + location)
        #expect(issued.status == 0, "\(issued.stderr)")
        #expect(issued.stdout.contains("https://login.example.com/admin/setup?token="))
        let token = try #require(World.token(issued.stdout))
        // The new link works; the one init printed no longer does.
        #expect(world.access.isSetupToken(token, tenant: world.tenant))
        #expect(!world.access.isSetupToken(World.token(world.firstLink), tenant: world.tenant))
        #expect(throws: ServiceError.self) {
            try world.access.claim(World.token(world.firstLink), userID: "sesame|grace", tenant: world.tenant)
        }
        try world.access.claim(token, userID: "sesame|ada", tenant: world.tenant)
        #expect(!world.access.isSetupToken(token, tenant: world.tenant), "single use")

        // A second administrator through a second link.
        let second = try #require(World.token(CLI.run(["admin", "setup-link"] + location).stdout))
        try world.access.claim(second, userID: "sesame|grace", tenant: world.tenant)
        let listed = CLI.run(["admin", "list", "--tenant", world.tenant.id] + location)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(
            listed.stdout == "sesame|ada  ada@example.com  -\nsesame|grace  grace@example.com  -\n")
    }

    @Test func issuesANewLinkAndListsTheAdministrators() throws {
        let world = try World { try SQLiteStore(path: $0) }
        try Self.check(world, ["--data", world.data])
    }

    @Test(.enabled(if: TestPostgres.dsn != nil)) func worksOnPostgreSQL() throws {
        let schema = try PostgresTestSchema(prefix: "admin_")
        let world = try World { _ in try PostgresStore(dsn: schema.dsn) }
        try Self.check(world, ["--store", schema.dsn])
    }

    @Test func badArgumentsAreOneLineAndExitTwo() throws {
        let world = try World { try SQLiteStore(path: $0) }
        let data = ["--data", world.data]
        for arguments in [
            ["admin"], ["admin", "nope"] + data, ["admin", "--data", world.data], ["admin", "list", "--bogus"] + data,
            ["admin", "setup-link", "extra"] + data, ["admin", "list", "--tenant", "tnt_missing"] + data,
            ["admin", "setup-link", "--store", "mysql://x"], ["admin", "list", "--data", world.data + "/missing"],
            ["admin", "setup-link", "--tenant", ""] + data,
        ] {
            let run = CLI.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.data + "/missing"), "nothing is created")
        #expect(CLI.run(["admin", "--help"]).stdout.contains("usage: sesame admin setup-link"))
        #expect(CLI.run(["help", "admin"]).status == 0)
    }
}

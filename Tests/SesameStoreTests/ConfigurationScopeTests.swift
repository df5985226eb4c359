import Foundation
import SesameStore
import SesameTesting
import Testing

@testable import SesamePostgres
@testable import SesameSQLite

/// One request compares the store's configuration generation once (`ConfigurationScope`), and a
/// SQLite read the cache answers whole begins no database transaction.
@Suite("CachingStore: one generation check per request")
struct ConfigurationScopeTests {
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    func tenant() -> TenantRecord {
        TenantRecord(
            id: "t1", name: "t1", domain: "login.example", rpID: "login.example",
            publicURL: "https://login.example", createdAt: at, updatedAt: at)
    }

    func client(_ name: String) -> ClientRecord {
        ClientRecord(
            tenantID: "t1", id: "c1", name: name, appType: .native, grantTypes: [], createdAt: at, updatedAt: at)
    }

    func cachedName(_ store: CachingStore) throws -> String? {
        try store.read { try $0.clients.get(tenantID: "t1", id: "c1") }?.name
    }

    @Test func anotherProcessesChangeShowsFromTheNextScope() throws {
        let inner = InMemoryStore()
        let store = CachingStore(inner)
        try store.write(.durable) {
            try $0.tenants.insert(tenant())
            try $0.clients.insert(client("first"))
        }
        try ConfigurationScope.run { () throws in
            #expect(try cachedName(store) == "first")
            // Another process changes the client: this request keeps what its first read validated.
            try inner.write(.durable) { try $0.clients.update(client("elsewhere")) }
            #expect(try cachedName(store) == "first")
        }
        // The next request compares again and sees it.
        try ConfigurationScope.run { () throws in #expect(try cachedName(store) == "elsewhere") }
    }

    @Test func withoutAScopeEveryReadCompares() throws {
        let inner = InMemoryStore()
        let store = CachingStore(inner)
        try store.write(.durable) {
            try $0.tenants.insert(tenant())
            try $0.clients.insert(client("first"))
        }
        #expect(try cachedName(store) == "first")
        try inner.write(.durable) { try $0.clients.update(client("elsewhere")) }
        #expect(try cachedName(store) == "elsewhere")
    }

    @Test func thisProcessesWriteInsideTheScopeIsSeenAtOnce() throws {
        let store = CachingStore(InMemoryStore())
        try store.write(.durable) {
            try $0.tenants.insert(tenant())
            try $0.clients.insert(client("first"))
        }
        try ConfigurationScope.run { () throws in
            #expect(try cachedName(store) == "first")
            try store.write(.durable) { try $0.clients.update(client("second")) }
            #expect(try cachedName(store) == "second")
        }
    }

    @Test func aScopeValidatedForOneStoreIsNotTrustedByAnother() throws {
        let first = CachingStore(InMemoryStore())
        let innerSecond = InMemoryStore()
        let second = CachingStore(innerSecond)
        for store in [first, second] {
            try store.write(.durable) {
                try $0.tenants.insert(tenant())
                try $0.clients.insert(client("first"))
            }
        }
        #expect(try cachedName(second) == "first")
        try innerSecond.write(.durable) { try $0.clients.update(client("elsewhere")) }
        try ConfigurationScope.run { () throws in
            #expect(try cachedName(first) == "first")
            #expect(try cachedName(second) == "elsewhere")
        }
    }

    @Test(.enabled(if: TestPostgres.dsn != nil))
    func aPostgreSQLReadTheCacheAnswersTakesNoConnection() throws {
        let schema = try PostgresTestSchema()
        let postgres = try PostgresStore(dsn: schema.dsn)
        let store = CachingStore(postgres)
        try store.write(.durable) {
            try $0.tenants.insert(tenant())
            try $0.clients.insert(client("first"))
        }
        #expect(try cachedName(store) == "first")
        let before = postgres.beganReads
        try ConfigurationScope.run { () throws in
            for _ in 0..<3 {
                #expect(try store.read { try $0.tenants.get(host: "login.example") }?.id == "t1")
                #expect(try cachedName(store) == "first")
            }
        }
        #expect(postgres.beganReads == before + 1)
        let users = try store.read {
            try $0.users.search(tenantID: "t1", query: nil, page: Page(offset: 0, limit: 10))
        }
        #expect(users.isEmpty)
        #expect(postgres.beganReads == before + 2)
    }

    @Test func aSQLiteReadTheCacheAnswersBeginsNothing() throws {
        let directory = try TemporaryDirectory()
        let sqlite = try SQLiteStore(path: directory.file("sesame.db"))
        let store = CachingStore(sqlite)
        try store.write(.durable) {
            try $0.tenants.insert(tenant())
            try $0.clients.insert(client("first"))
        }
        #expect(try cachedName(store) == "first")  // fills the cache
        let before = sqlite.beganReads
        try ConfigurationScope.run { () throws in
            for _ in 0..<3 {
                #expect(try store.read { try $0.tenants.get(host: "login.example") }?.id == "t1")
                #expect(try cachedName(store) == "first")
            }
        }
        // The first read compared the generation (one transaction); the other five began none.
        #expect(sqlite.beganReads == before + 1)
        // A read that needs the database still runs in a transaction, and commits.
        let users = try ConfigurationScope.run { () throws in
            try store.read { try $0.users.search(tenantID: "t1", query: nil, page: Page(offset: 0, limit: 10)) }
        }
        #expect(users.isEmpty)
        #expect(sqlite.beganReads == before + 2)
        // Without a scope each read compares, so each begins.
        _ = try cachedName(store)
        #expect(sqlite.beganReads == before + 3)
    }
}

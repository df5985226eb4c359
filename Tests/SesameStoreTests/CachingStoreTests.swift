import Foundation
import SesameStore
import Testing

@Suite("CachingStore")
struct CachingStoreTests {
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    func tenant(_ id: String, host: String) -> TenantRecord {
        TenantRecord(
            id: id, name: id, domain: host, rpID: host, publicURL: "https://\(host)", createdAt: at, updatedAt: at)
    }

    func client(_ id: String, name: String) -> ClientRecord {
        ClientRecord(
            tenantID: "t1", id: id, name: name, appType: .native, grantTypes: [], createdAt: at, updatedAt: at)
    }

    @Test func configurationWritesThroughTheCacheAreSeenAtOnce() throws {
        let inner = InMemoryStore()
        let store = CachingStore(inner)
        #expect(try store.read { try $0.tenants.get(host: "login.example") } == nil)  // a cached miss
        try store.write(.durable) { try $0.tenants.insert(tenant("t1", host: "login.example")) }
        #expect(try store.read { try $0.tenants.get(host: "LOGIN.example") }?.id == "t1")

        try store.write(.durable) { try $0.clients.insert(client("c1", name: "first")) }
        #expect(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") }?.name == "first")
        try store.write(.durable) { try $0.clients.update(client("c1", name: "second")) }
        #expect(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") }?.name == "second")
        try store.write(.durable) { try $0.clients.delete(tenantID: "t1", id: "c1") }
        #expect(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") } == nil)
    }

    @Test func anotherProcessesChangeIsSeenOnTheNextRead() throws {
        let inner = InMemoryStore()
        let store = CachingStore(inner)
        try store.write(.durable) {
            try $0.tenants.insert(tenant("t1", host: "login.example"))
            try $0.clients.insert(client("c1", name: "first"))
        }
        #expect(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") }?.name == "first")
        // A change behind the cache's back (another process) raises the store's configuration
        // generation, which the next read compares.
        let before = try inner.read { try $0.configurationGeneration() }
        try inner.write(.durable) { try $0.clients.update(client("c1", name: "elsewhere")) }
        #expect(try inner.read { try $0.configurationGeneration() } > before)
        #expect(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") }?.name == "elsewhere")
    }

    @Test func aRolledBackWriteStillInvalidates() throws {
        let store = CachingStore(InMemoryStore())
        try store.write(.durable) { try $0.tenants.insert(tenant("t1", host: "a.example")) }
        #expect(try store.read { try $0.tenants.get(id: "t1") }?.domain == "a.example")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write(.durable) { transaction in
                var changed = tenant("t1", host: "b.example")
                changed.name = "changed"
                try transaction.tenants.update(changed)
                throw Abort()
            }
        }
        #expect(try store.read { try $0.tenants.get(id: "t1") }?.domain == "a.example")
    }

    @Test func hostileLookupsCannotGrowItWithoutBound() throws {
        let store = CachingStore(InMemoryStore(), capacity: 100)
        for index in 0..<1_000 {
            _ = try store.read { try $0.tenants.get(host: "h\(index).example") }
        }
        try store.write(.durable) { try $0.tenants.insert(tenant("t1", host: "h999.example")) }
        #expect(try store.read { try $0.tenants.get(host: "h999.example") }?.id == "t1")
    }
}

/// Audit item 6 (found beside it): a read transaction whose snapshot predates a configuration
/// write could cache what it read after the write's invalidation, and the stale record (an old
/// client secret, say) was then served until the next write.
@Suite("CachingStore: snapshots older than a write")
struct CachingStoreSnapshotTests {
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    func client(_ name: String) -> ClientRecord {
        ClientRecord(
            tenantID: "t1", id: "c1", name: name, appType: .native, grantTypes: [], createdAt: at, updatedAt: at)
    }

    @Test(arguments: [StoreKind.memory, StoreKind.sqlite])
    func aReadThatBeganBeforeAWriteDoesNotCacheWhatItSaw(_ kind: StoreKind) throws {
        let backing = try kind.make()
        let store = CachingStore(backing.store)
        try store.write(.durable) {
            try $0.tenants.insert(
                TenantRecord(
                    id: "t1", name: "t1", domain: "login.example", rpID: "login.example",
                    publicURL: "https://login.example", createdAt: at, updatedAt: at))
            try $0.clients.insert(client("old"))
        }
        let seen = try store.read { transaction -> String? in
            _ = try transaction.tenants.get(id: "t1")  // the snapshot is taken now
            try store.write(.durable) { try $0.clients.update(client("new")) }
            return try transaction.clients.get(tenantID: "t1", id: "c1")?.name
        }
        #expect(seen == "old")  // the transaction's own snapshot
        #expect(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") }?.name == "new")
    }
}

import Dispatch
import Foundation
import SesameStore
import Synchronization
import Testing

/// The storage contract (Store.swift), run against every implementation.
@Suite struct StoreConformanceTests {
    // MARK: Tenants

    @Test(arguments: StoreKind.allCases) func tenantRoundTripAndHostLookup(_ kind: StoreKind) throws {
        let s = try kind.make()
        let tenant = Fixture.tenant(custom: ["Auth.Example.org", "id.example.net"])
        try s.write { try $0.tenants.insert(tenant) }
        try s.read { tx throws in
            #expect(try tx.tenants.get(id: "t1") == tenant)
            #expect(try tx.tenants.get(host: "login.example.com") == tenant)
            #expect(try tx.tenants.get(host: "LOGIN.Example.COM") == tenant)
            #expect(try tx.tenants.get(host: "auth.example.org") == tenant)
            #expect(try tx.tenants.get(host: "ID.EXAMPLE.NET") == tenant)
            #expect(try tx.tenants.get(host: "example.com") == nil)
            #expect(try tx.tenants.get(id: "t2") == nil)
            #expect(try tx.tenants.all() == [tenant])
        }
    }

    @Test(arguments: StoreKind.allCases) func tenantUpdateMovesHosts(_ kind: StoreKind) throws {
        let s = try kind.make()
        var tenant = Fixture.tenant(custom: ["old.example.com"])
        try s.write { try $0.tenants.insert(tenant) }
        tenant.customDomains = ["new.example.com"]
        tenant.name = "Renamed"
        try s.write { try $0.tenants.update(tenant) }
        try s.read { tx throws in
            #expect(try tx.tenants.get(host: "old.example.com") == nil)
            #expect(try tx.tenants.get(host: "new.example.com") == tenant)
            #expect(try tx.tenants.get(host: "login.example.com") == tenant)
        }
        // The released host is free for another tenant.
        let other = Fixture.tenant("t2", domain: "old.example.com")
        try s.write { try $0.tenants.insert(other) }
        #expect(try s.read { try $0.tenants.get(host: "old.example.com") } == other)
        #expect(try s.read { try $0.tenants.all() } == [tenant, other])
    }

    @Test(arguments: StoreKind.allCases) func tenantUniqueness(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { try $0.tenants.insert(Fixture.tenant(custom: ["auth.example.org"])) }
        #expect(throws: StoreError.conflict(.tenantID)) {
            try s.write { try $0.tenants.insert(Fixture.tenant(domain: "other.example.com")) }
        }
        #expect(throws: StoreError.conflict(.tenantHost)) {
            try s.write { try $0.tenants.insert(Fixture.tenant("t2", domain: "Login.Example.com")) }
        }
        #expect(throws: StoreError.conflict(.tenantHost)) {
            try s.write {
                try $0.tenants.insert(Fixture.tenant("t2", domain: "x.example.com", custom: ["AUTH.example.org"]))
            }
        }
        #expect(throws: StoreError.conflict(.tenantHost)) {
            try s.write {
                try $0.tenants.insert(Fixture.tenant("t2", domain: "x.example.com", custom: ["login.example.com"]))
            }
        }
        // A tenant may list its own domain again among its custom domains.
        let t2 = Fixture.tenant("t2", domain: "b.example.com", custom: ["B.example.com"])
        try s.write { try $0.tenants.insert(t2) }
        var taking = t2
        taking.customDomains = ["auth.example.org"]
        #expect(throws: StoreError.conflict(.tenantHost)) { try s.write { try $0.tenants.update(taking) } }
        #expect(try s.read { try $0.tenants.get(id: "t2") } == t2)
        #expect(try s.read { try $0.tenants.get(host: "b.example.com") } == t2)
        #expect(throws: StoreError.notFound("tenant t9")) {
            try s.write { try $0.tenants.update(Fixture.tenant("t9", domain: "nine.example.com")) }
        }
    }

    // MARK: Clients

    @Test(arguments: StoreKind.allCases) func clients(_ kind: StoreKind) throws {
        let s = try kind.make()
        let clients = (0..<5).map { Fixture.client("c\(4 - $0)", at: Double($0)) }
        try s.write { tx in for client in clients { try tx.clients.insert(client) } }
        try s.write { try $0.clients.insert(Fixture.client("c0", tenant: "t2")) }
        try s.read { tx throws in
            #expect(try tx.clients.get(tenantID: "t1", id: "c2") == clients[2])
            #expect(try tx.clients.get(tenantID: "t3", id: "c2") == nil)
            #expect(try tx.clients.list(tenantID: "t1", page: Page()) == clients)
            #expect(try tx.clients.list(tenantID: "t1", page: Page(offset: 1, limit: 2)) == Array(clients[1...2]))
            #expect(try tx.clients.list(tenantID: "t1", page: Page(offset: 5, limit: 2)) == [])
            #expect(try tx.clients.list(tenantID: "t2", page: Page()).map(\.tenantID) == ["t2"])
        }
        #expect(throws: StoreError.conflict(.clientID)) { try s.write { try $0.clients.insert(Fixture.client("c2")) } }
        var changed = clients[2]
        changed.secretHash = nil
        changed.ios = nil
        changed.callbacks = []
        try s.write { try $0.clients.update(changed) }
        #expect(try s.read { try $0.clients.get(tenantID: "t1", id: "c2") } == changed)
        #expect(throws: StoreError.notFound("client c9")) {
            try s.write { try $0.clients.update(Fixture.client("c9")) }
        }
        try s.write { try $0.clients.delete(tenantID: "t1", id: "c2") }
        #expect(try s.read { try $0.clients.get(tenantID: "t1", id: "c2") } == nil)
        #expect(try s.read { try $0.clients.get(tenantID: "t2", id: "c0") } != nil)
        #expect(throws: StoreError.notFound("client c2")) {
            try s.write { try $0.clients.delete(tenantID: "t1", id: "c2") }
        }
    }

    // MARK: Connections

    @Test(arguments: StoreKind.allCases) func connections(_ kind: StoreKind) throws {
        let s = try kind.make()
        let first = Fixture.connection("con1", name: "Passkeys", at: 0)
        let second = Fixture.connection("con2", name: "Employees", at: 1)
        try s.write { tx throws in
            try tx.connections.insert(second)
            try tx.connections.insert(first)
            try tx.connections.insert(Fixture.connection("con1", name: "Passkeys", tenant: "t2"))
        }
        try s.read { tx throws in
            #expect(try tx.connections.get(tenantID: "t1", id: "con1") == first)
            #expect(try tx.connections.get(tenantID: "t1", name: "Employees") == second)
            #expect(try tx.connections.get(tenantID: "t1", name: "employees") == nil)
            #expect(try tx.connections.list(tenantID: "t1", page: Page()) == [first, second])
            #expect(try tx.connections.list(tenantID: "t1", page: Page(offset: 1, limit: 1)) == [second])
        }
        #expect(throws: StoreError.conflict(.connectionID)) {
            try s.write { try $0.connections.insert(Fixture.connection("con1", name: "Other")) }
        }
        #expect(throws: StoreError.conflict(.connectionName)) {
            try s.write { try $0.connections.insert(Fixture.connection("con3", name: "Passkeys")) }
        }
        var renamed = second
        renamed.name = "Passkeys"
        #expect(throws: StoreError.conflict(.connectionName)) { try s.write { try $0.connections.update(renamed) } }
        renamed.name = "Staff"
        try s.write { try $0.connections.update(renamed) }
        #expect(try s.read { try $0.connections.get(tenantID: "t1", name: "Staff") } == renamed)
        #expect(try s.read { try $0.connections.get(tenantID: "t1", name: "Employees") } == nil)
        #expect(throws: StoreError.notFound("connection con9")) {
            try s.write { try $0.connections.update(Fixture.connection("con9", name: "Nine")) }
        }
        try s.write { try $0.connections.delete(tenantID: "t1", id: "con2") }
        #expect(try s.read { try $0.connections.get(tenantID: "t1", id: "con2") } == nil)
        #expect(throws: StoreError.notFound("connection con2")) {
            try s.write { try $0.connections.delete(tenantID: "t1", id: "con2") }
        }
    }

    // MARK: Resource servers

    static func resourceServer(
        _ id: String, identifier: String, tenant: String = "t1", at seconds: TimeInterval = 0
    ) -> ResourceServerRecord {
        ResourceServerRecord(
            tenantID: tenant, id: id, identifier: identifier, name: "API \(id)",
            scopes: [ResourceServerScope(value: "read:orders", description: "Read orders")],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + seconds),
            updatedAt: Date(timeIntervalSince1970: 1_700_000_000 + seconds))
    }

    @Test(arguments: StoreKind.allCases) func resourceServers(_ kind: StoreKind) throws {
        let s = try kind.make()
        let first = Self.resourceServer("rs1", identifier: "https://api.example.com/", at: 0)
        let second = Self.resourceServer("rs2", identifier: "urn:orders", at: 1)
        try s.write { tx throws in
            try tx.resourceServers.insert(second)
            try tx.resourceServers.insert(first)
            try tx.resourceServers.insert(Self.resourceServer("rs1", identifier: "urn:orders", tenant: "t2"))
        }
        try s.read { tx throws in
            #expect(try tx.resourceServers.get(tenantID: "t1", id: "rs1") == first)
            #expect(try tx.resourceServers.get(tenantID: "t1", identifier: "urn:orders") == second)
            #expect(try tx.resourceServers.get(tenantID: "t1", identifier: "URN:orders") == nil)
            #expect(try tx.resourceServers.get(tenantID: "t3", identifier: "urn:orders") == nil)
            #expect(try tx.resourceServers.list(tenantID: "t1", page: Page()) == [first, second])
            #expect(try tx.resourceServers.list(tenantID: "t1", page: Page(offset: 1, limit: 1)) == [second])
        }
        #expect(throws: StoreError.conflict(.resourceServerID)) {
            try s.write { try $0.resourceServers.insert(Self.resourceServer("rs1", identifier: "urn:other")) }
        }
        #expect(throws: StoreError.conflict(.resourceServerIdentifier)) {
            try s.write { try $0.resourceServers.insert(Self.resourceServer("rs3", identifier: "urn:orders")) }
        }
        var moved = second
        moved.identifier = "https://api.example.com/"
        #expect(throws: StoreError.conflict(.resourceServerIdentifier)) {
            try s.write { try $0.resourceServers.update(moved) }
        }
        moved.identifier = "urn:billing"
        try s.write { try $0.resourceServers.update(moved) }
        #expect(try s.read { try $0.resourceServers.get(tenantID: "t1", identifier: "urn:billing") } == moved)
        #expect(try s.read { try $0.resourceServers.get(tenantID: "t1", identifier: "urn:orders") } == nil)
        #expect(throws: StoreError.notFound("resource server rs9")) {
            try s.write { try $0.resourceServers.update(Self.resourceServer("rs9", identifier: "urn:nine")) }
        }
        try s.write { try $0.resourceServers.delete(tenantID: "t1", id: "rs2") }
        #expect(try s.read { try $0.resourceServers.get(tenantID: "t1", identifier: "urn:billing") } == nil)
        #expect(throws: StoreError.notFound("resource server rs2")) {
            try s.write { try $0.resourceServers.delete(tenantID: "t1", id: "rs2") }
        }
    }

    // MARK: Whole-tenant listings (moving a deployment)

    @Test(arguments: StoreKind.allCases) func refreshTokensAndEventsAreListedPageByPage(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx in
            for index in 0..<5 {
                try tx.refreshTokens.insert(
                    Fixture.refreshToken("r\(index)", hash: UInt8(index + 1), family: "f\(index)"))
            }
            try tx.refreshTokens.insert(Fixture.refreshToken("other", tenant: "t2", hash: 9))
            try tx.authEvents.insert((0..<5).map { Fixture.event("e\($0)", at: Double(10 - $0)) })
        }
        try s.read { tx throws in
            let tokens = try Page.all { try tx.refreshTokens.list(tenantID: "t1", page: $0) }
            #expect(tokens.map(\.id) == ["r0", "r1", "r2", "r3", "r4"])
            #expect(try tx.refreshTokens.list(tenantID: "t1", page: Page(offset: 3, limit: 1)).map(\.id) == ["r3"])
            #expect(try tx.authEvents.list(tenantID: "t1", page: Page(offset: 0, limit: 2)).map(\.id) == ["e4", "e3"])
            #expect(try tx.authEvents.list(tenantID: "t2", page: Page()).isEmpty)
        }
    }

    // MARK: Configuration generation

    @Test(arguments: StoreKind.allCases) func configurationWritesRaiseTheGeneration(_ kind: StoreKind) throws {
        let s = try kind.make()
        func generation() throws -> Int64 { try s.read { try $0.configurationGeneration() } }
        var last = try generation()
        func expectRaised(_ what: String, _ write: (any StoreTransaction) throws -> Void) throws {
            try s.write(write)
            let now = try generation()
            #expect(now > last, "\(what)")
            last = now
        }
        try expectRaised("tenant insert") { try $0.tenants.insert(Fixture.tenant()) }
        try expectRaised("tenant update") { tx in
            var tenant = Fixture.tenant()
            tenant.name = "renamed"
            try tx.tenants.update(tenant)
        }
        try expectRaised("client insert") { try $0.clients.insert(Fixture.client("c1")) }
        try expectRaised("client update") { try $0.clients.update(Fixture.client("c1")) }
        try expectRaised("connection insert") { try $0.connections.insert(Fixture.connection()) }
        try expectRaised("connection update") { try $0.connections.update(Fixture.connection()) }
        try expectRaised("API insert") {
            try $0.resourceServers.insert(Self.resourceServer("rs1", identifier: "urn:a"))
        }
        try expectRaised("API delete") { try $0.resourceServers.delete(tenantID: "t1", id: "rs1") }
        try expectRaised("connection delete") { try $0.connections.delete(tenantID: "t1", id: "con1") }
        try expectRaised("client delete") { try $0.clients.delete(tenantID: "t1", id: "c1") }
        // Users, passkeys and tokens are not configuration.
        try s.write { tx in
            try tx.users.insert(Fixture.user())
            try tx.passkeys.insert(Fixture.passkey("passkey|a", credential: [1]))
        }
        #expect(try generation() == last)
    }

    // MARK: Auth sessions

    static func session(_ byte: UInt8, requester: String = "203.0.113.7", expiresAt: Date) -> AuthSessionRecord {
        AuthSessionRecord(
            handleHash: Array(repeating: byte, count: 32), tenantID: "t1", requester: requester,
            expiresAt: expiresAt, payload: [1, 2, 3, byte])
    }

    @Test(arguments: StoreKind.allCases) func authSessions(_ kind: StoreKind) throws {
        let s = try kind.make()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        func insert(_ byte: UInt8, requester: String = "203.0.113.7", at now: Date) throws -> AuthSessionInsertion {
            try s.write {
                try $0.authSessions.insert(
                    Self.session(byte, requester: requester, expiresAt: now + 60), maxPerRequester: 2, now: now)
            }
        }
        #expect(try insert(1, at: t0) == .inserted)
        #expect(try insert(2, at: t0) == .inserted)
        // The cap counts unexpired sessions of one requester only.
        #expect(try insert(3, at: t0 + 1) == .requesterFull)
        #expect(try insert(3, requester: "198.51.100.1", at: t0 + 1) == .inserted)
        #expect(
            try s.read { try $0.authSessions.get(handleHash: Array(repeating: 1, count: 32)) }?.payload == [1, 2, 3, 1])
        // Single use: consumed once, then gone.
        let consumed = try s.write { try $0.authSessions.consume(handleHash: Array(repeating: 1, count: 32)) }
        #expect(consumed == Self.session(1, expiresAt: t0 + 60))
        #expect(try s.write { try $0.authSessions.consume(handleHash: Array(repeating: 1, count: 32)) } == nil)
        #expect(try insert(4, at: t0 + 2) == .inserted)
        // Once expired, sessions no longer count and are swept.
        #expect(try insert(5, at: t0 + 61) == .inserted)
        #expect(try s.write { try $0.authSessions.deleteExpired(now: t0 + 62, limit: 100) } == 3)
        #expect(try s.read { try $0.authSessions.get(handleHash: Array(repeating: 2, count: 32)) } == nil)
        #expect(try s.read { try $0.authSessions.get(handleHash: Array(repeating: 5, count: 32)) } != nil)
        #expect(throws: StoreError.self) {
            try s.read { try $0.authSessions.consume(handleHash: Array(repeating: 5, count: 32)) }
        }
    }

    /// Many writers consume one handle: exactly one gets the session.
    @Test(arguments: StoreKind.allCases) func anAuthSessionIsConsumedOnce(_ kind: StoreKind) throws {
        let s = try kind.make()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try s.write {
            try $0.authSessions.insert(Self.session(9, expiresAt: t0 + 60), maxPerRequester: 10, now: t0)
        }
        let winners = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if (try? s.write({ try $0.authSessions.consume(handleHash: Array(repeating: 9, count: 32)) })) != nil {
                winners.add(1, ordering: .relaxed)
            }
        }
        #expect(winners.load(ordering: .relaxed) == 1)
    }

    // MARK: DPoP proofs

    @Test(arguments: StoreKind.allCases) func dpopProofReplayCache(_ kind: StoreKind) throws {
        let s = try kind.make()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let key: [UInt8] = Array(repeating: 7, count: 32)
        func record(_ key: [UInt8], tenant: String = "t1", at now: Date) throws -> Bool {
            try s.write { try $0.dpopProofs.record(tenantID: tenant, key: key, expiresAt: now + 360, now: now) }
        }
        #expect(try record(key, at: t0))
        #expect(try !record(key, at: t0 + 1))
        #expect(try !record(key, at: t0 + 359))
        #expect(try record(key, tenant: "t2", at: t0 + 1))
        #expect(try record(Array(repeating: 8, count: 32), at: t0 + 1))
        // Once expired, the same key is new again (and expired entries are dropped as it goes).
        #expect(try record(key, at: t0 + 360))
        #expect(try !record(key, at: t0 + 361))
        #expect(throws: StoreError.self) {
            try s.read { try $0.dpopProofs.record(tenantID: "t1", key: key, expiresAt: t0, now: t0) }
        }
        // Many proofs: all recorded, each refused once more.
        for index in 0..<300 {
            #expect(try record(Array(repeating: UInt8(index % 256), count: 31) + [UInt8(index / 256)], at: t0 + 400))
        }
        #expect(try !record(Array(repeating: 5, count: 31) + [0], at: t0 + 401))
    }

    @Test(arguments: StoreKind.allCases) func attemptCounters(_ kind: StoreKind) throws {
        let s = try kind.make()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let key: [UInt8] = Array(repeating: 3, count: 32)
        func add(_ delta: Int = 1, at now: Date, sliding: Bool = false, tenant: String = "t1") throws -> Int {
            try s.write {
                try $0.attemptCounters.add(
                    tenantID: tenant, key: key, delta: delta, now: now, windowEndsAt: now + 60, sliding: sliding)
            }
        }
        #expect(try add(at: t0) == 1)
        #expect(try add(at: t0 + 10) == 2)
        #expect(try add(-1, at: t0 + 11) == 1)
        #expect(try add(-5, at: t0 + 12) == 0)
        #expect(try add(at: t0 + 13, tenant: "t2") == 1)
        #expect(try add(at: t0 + 20) == 1)
        // A fixed window ends where it began + 60; a sliding one moves.
        #expect(
            try s.read { try $0.attemptCounters.get(tenantID: "t1", key: key, now: t0 + 30) }
                == AttemptCount(count: 1, windowEndsAt: t0 + 60))
        #expect(try add(at: t0 + 59, sliding: true) == 2)
        #expect(try s.read { try $0.attemptCounters.get(tenantID: "t1", key: key, now: t0 + 100) }?.count == 2)
        #expect(try s.read { try $0.attemptCounters.get(tenantID: "t1", key: key, now: t0 + 118) } != nil)
        #expect(
            try s.read { try $0.attemptCounters.get(tenantID: "t1", key: key, now: t0 + 118.5) }?.windowEndsAt == t0
                + 119)
        #expect(try s.read { try $0.attemptCounters.get(tenantID: "t1", key: key, now: t0 + 119) } == nil)
        #expect(try add(at: t0 + 200) == 1)
        try s.write { try $0.attemptCounters.reset(tenantID: "t1", key: key) }
        #expect(try s.read { try $0.attemptCounters.get(tenantID: "t1", key: key, now: t0 + 200) } == nil)
        #expect(try s.write { try $0.attemptCounters.deleteExpired(now: t0 + 1_000, limit: 10) } == 1)
        #expect(throws: StoreError.self) {
            try s.read {
                try $0.attemptCounters.add(
                    tenantID: "t1", key: key, delta: 1, now: t0, windowEndsAt: t0, sliding: false)
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func concurrentAttemptsAreEachCounted(_ kind: StoreKind) async throws {
        let store = try kind.make()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try store.write {
                        try $0.attemptCounters.add(
                            tenantID: "t1", key: [1], delta: 1, now: t0, windowEndsAt: t0 + 60, sliding: true)
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.sorted() == Array(1...12))
    }

    @Test(arguments: StoreKind.allCases) func outbox(_ kind: StoreKind) throws {
        let s = try kind.make()
        func message(_ id: String, at seconds: Double, tenant: String = "t1") -> OutboxMessageRecord {
            OutboxMessageRecord(
                tenantID: tenant, id: id, createdAt: Fixture.time(seconds), channel: .email, template: .passwordReset,
                recipient: "ada@example.com", sealedText: [1, 2, 3, UInt8(seconds)])
        }
        try s.write { tx in
            for (index, id) in ["m1", "m2", "m3"].enumerated() { try tx.outbox.insert(message(id, at: Double(index))) }
            try tx.outbox.insert(message("m1", at: 9, tenant: "t2"))
        }
        #expect(try s.read { try $0.outbox.list(tenantID: "t1", page: Page()) }.map(\.id) == ["m3", "m2", "m1"])
        #expect(
            try s.read { try $0.outbox.list(tenantID: "t1", page: Page(offset: 1, limit: 1)) } == [message("m2", at: 1)]
        )
        #expect(throws: StoreError.conflict(.outboxMessageID)) {
            try s.write { try $0.outbox.insert(message("m2", at: 5)) }
        }
        #expect(try s.write { try $0.outbox.deleteOlder(than: Fixture.time(2), limit: 10) } == 2)
        #expect(try s.read { try $0.outbox.list(tenantID: "t1", page: Page()) }.map(\.id) == ["m3"])
        #expect(try s.read { try $0.outbox.list(tenantID: "t2", page: Page()) }.count == 1)
    }

    // MARK: SSO sessions

    @Test(arguments: StoreKind.allCases) func ssoSessions(_ kind: StoreKind) throws {
        let s = try kind.make()
        func session(_ id: String, user: String = "u1", tenant: String = "t1", at seconds: Double, idle: Double = 100)
            -> SSOSessionRecord
        {
            SSOSessionRecord(
                tenantID: tenant, id: id, cookieHash: Array("\(tenant)/\(id)".utf8), userID: user, connectionID: "c1",
                createdAt: Fixture.time(seconds), lastSeenAt: Fixture.time(seconds),
                idleExpiresAt: Fixture.time(seconds + idle), expiresAt: Fixture.time(seconds + 1_000),
                authTime: Fixture.time(seconds), amr: ["pwd", "mfa"], userAgent: "Chromium", clientAddress: "127.0.0.1",
                clientIDs: ["app"])
        }
        try s.write { tx in
            try tx.ssoSessions.insert(session("s1", at: 0))
            try tx.ssoSessions.insert(session("s2", at: 1))
            try tx.ssoSessions.insert(session("s3", user: "u2", at: 2))
            try tx.ssoSessions.insert(session("s1", tenant: "t2", at: 3))
        }
        #expect(try s.read { try $0.ssoSessions.get(cookieHash: Array("t1/s2".utf8)) } == session("s2", at: 1))
        #expect(try s.read { try $0.ssoSessions.get(cookieHash: Array("nope".utf8)) } == nil)
        #expect(try s.read { try $0.ssoSessions.list(tenantID: "t1", userID: "u1") }.map(\.id) == ["s2", "s1"])
        #expect(throws: StoreError.conflict(.ssoSessionID)) {
            try s.write { try $0.ssoSessions.insert(session("s2", at: 9)) }
        }
        var duplicateCookie = session("s9", at: 9)
        duplicateCookie.cookieHash = Array("t1/s1".utf8)
        #expect(throws: StoreError.conflict(.ssoSessionCookie)) {
            try s.write { try $0.ssoSessions.insert(duplicateCookie) }
        }
        // A rotation replaces the cookie hash; the old cookie finds nothing.
        var rotated = session("s1", at: 0)
        rotated.cookieHash = Array("t1/s1-rotated".utf8)
        rotated.lastSeenAt = Fixture.time(50)
        rotated.idleExpiresAt = Fixture.time(150)
        try s.write { try $0.ssoSessions.update(rotated) }
        #expect(try s.read { try $0.ssoSessions.get(cookieHash: Array("t1/s1".utf8)) } == nil)
        #expect(try s.read { try $0.ssoSessions.get(cookieHash: Array("t1/s1-rotated".utf8)) } == rotated)
        #expect(throws: StoreError.notFound("sso session gone")) {
            try s.write { try $0.ssoSessions.update(session("gone", at: 0)) }
        }
        // s2 ends at 101 (idle); s1 now at 150; s3 at 102.
        #expect(try s.write { try $0.ssoSessions.deleteExpired(now: Fixture.time(101.5), limit: 10) } == 1)
        #expect(try s.read { try $0.ssoSessions.list(tenantID: "t1", userID: "u1") }.map(\.id) == ["s1"])
        #expect(try s.write { try $0.ssoSessions.delete(tenantID: "t1", id: "s3") } == true)
        #expect(try s.write { try $0.ssoSessions.delete(tenantID: "t1", id: "s3") } == false)
        try s.write { try $0.ssoSessions.insert(session("s4", at: 4)) }
        #expect(try s.write { try $0.ssoSessions.deleteAll(tenantID: "t1", userID: "u1") } == 2)
        #expect(try s.read { try $0.ssoSessions.list(tenantID: "t1", userID: "u1") }.isEmpty)
        #expect(try s.read { try $0.ssoSessions.list(tenantID: "t2", userID: "u1") }.count == 1)
    }

    // MARK: Device keys

    static func deviceKey(_ id: String, user: String = "sesame|01", tenant: String = "t1", at seconds: Double)
        -> DeviceKeyRecord
    {
        DeviceKeyRecord(
            tenantID: tenant, id: id, userID: user, clientID: "app", publicKey: [4] + Array(repeating: 7, count: 64),
            deviceID: "install-\(id)", deviceName: "Taro's iPhone", platform: .ios, osVersion: "16.3",
            model: "iPhone12,1", createdAt: Fixture.time(seconds))
    }

    @Test(arguments: StoreKind.allCases) func deviceKeys(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx in
            try tx.users.insert(Fixture.user())
            try tx.deviceKeys.insert(Self.deviceKey("k2", at: 2))
            try tx.deviceKeys.insert(Self.deviceKey("k1", at: 1))
            try tx.deviceKeys.insert(Self.deviceKey("k3", user: "sesame|02", at: 3))
            try tx.deviceKeys.insert(Self.deviceKey("k1", tenant: "t2", at: 4))
        }
        #expect(try s.read { try $0.deviceKeys.get(tenantID: "t1", id: "k1") } == Self.deviceKey("k1", at: 1))
        #expect(try s.read { try $0.deviceKeys.get(tenantID: "t1", id: "nope") } == nil)
        #expect(try s.read { try $0.deviceKeys.list(tenantID: "t1", userID: "sesame|01") }.map(\.id) == ["k1", "k2"])
        #expect(try s.read { try $0.deviceKeys.list(tenantID: "t1", page: Page()) }.map(\.id) == ["k1", "k2", "k3"])
        #expect(throws: StoreError.conflict(.deviceKeyID)) {
            try s.write { try $0.deviceKeys.insert(Self.deviceKey("k2", at: 9)) }
        }
        var migrated = Self.deviceKey("k2", at: 2)
        migrated.state = .migrated
        migrated.migratedAt = Fixture.time(10)
        migrated.migratedToPasskeyID = "passkey|01"
        migrated.expiresAt = Fixture.time(100)
        migrated.lastUsedAt = Fixture.time(9)
        try s.write { try $0.deviceKeys.update(migrated) }
        #expect(try s.read { try $0.deviceKeys.get(tenantID: "t1", id: "k2") } == migrated)
        #expect(migrated.isUsable(at: Fixture.time(99)) && !migrated.isUsable(at: Fixture.time(100)))
        #expect(throws: StoreError.notFound("device key gone")) {
            try s.write { try $0.deviceKeys.update(Self.deviceKey("gone", at: 0)) }
        }
        #expect(try s.write { try $0.deviceKeys.delete(tenantID: "t1", id: "k3") } == true)
        #expect(try s.write { try $0.deviceKeys.delete(tenantID: "t1", id: "k3") } == false)
        // Deleting the user deletes its keys, and only its own tenant's.
        try s.write { try $0.users.delete(tenantID: "t1", id: "sesame|01") }
        #expect(try s.read { try $0.deviceKeys.list(tenantID: "t1", userID: "sesame|01") }.isEmpty)
        #expect(try s.read { try $0.deviceKeys.get(tenantID: "t2", id: "k1") } != nil)
    }

    // MARK: Linked identities

    static func identity(_ subject: String, user: String = "sesame|01", tenant: String = "t1", at seconds: Double)
        -> LinkedIdentityRecord
    {
        LinkedIdentityRecord(
            tenantID: tenant, connectionID: "con_apple", provider: .apple, subject: subject, userID: user,
            email: "\(subject)@privaterelay.appleid.com", emailVerified: true, isPrivateEmail: true,
            createdAt: Fixture.time(seconds))
    }

    @Test(arguments: StoreKind.allCases) func linkedIdentities(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx in
            try tx.users.insert(Fixture.user())
            try tx.linkedIdentities.insert(Self.identity("002.b", at: 2))
            try tx.linkedIdentities.insert(Self.identity("001.a", at: 1))
            try tx.linkedIdentities.insert(Self.identity("003.c", user: "sesame|02", at: 3))
            try tx.linkedIdentities.insert(Self.identity("001.a", tenant: "t2", at: 4))
        }
        #expect(
            try s.read { try $0.linkedIdentities.get(tenantID: "t1", connectionID: "con_apple", subject: "001.a") }
                == Self.identity("001.a", at: 1))
        #expect(
            try s.read { try $0.linkedIdentities.get(tenantID: "t1", connectionID: "other", subject: "001.a") } == nil)
        #expect(
            try s.read { try $0.linkedIdentities.list(tenantID: "t1", userID: "sesame|01") }.map(\.subject)
                == ["001.a", "002.b"])
        #expect(
            try s.read { try $0.linkedIdentities.list(tenantID: "t1", page: Page()) }.map(\.subject)
                == ["001.a", "002.b", "003.c"])
        // One Apple ID belongs to one account, whoever tries to link it again.
        #expect(throws: StoreError.conflict(.linkedIdentity)) {
            try s.write { try $0.linkedIdentities.insert(Self.identity("001.a", user: "sesame|09", at: 9)) }
        }
        var used = Self.identity("002.b", at: 2)
        used.lastLoginAt = Fixture.time(20)
        try s.write { try $0.linkedIdentities.update(used) }
        #expect(
            try s.read { try $0.linkedIdentities.get(tenantID: "t1", connectionID: "con_apple", subject: "002.b") }
                == used)
        #expect(throws: StoreError.notFound("linked identity gone")) {
            try s.write { try $0.linkedIdentities.update(Self.identity("gone", at: 0)) }
        }
        #expect(
            try s.write { try $0.linkedIdentities.delete(tenantID: "t1", connectionID: "con_apple", subject: "003.c") })
        #expect(
            try s.write { try $0.linkedIdentities.delete(tenantID: "t1", connectionID: "con_apple", subject: "003.c") }
                == false)
        // Deleting the user unlinks its identities, and only its own tenant's.
        try s.write { try $0.users.delete(tenantID: "t1", id: "sesame|01") }
        #expect(try s.read { try $0.linkedIdentities.list(tenantID: "t1", userID: "sesame|01") }.isEmpty)
        #expect(
            try s.read { try $0.linkedIdentities.get(tenantID: "t2", connectionID: "con_apple", subject: "001.a") }
                != nil)
    }

    @Test(arguments: StoreKind.allCases) func revokingAllButOneFamily(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx in
            try tx.refreshTokens.insert(Fixture.refreshToken("r1", hash: 1, family: "f1"))
            try tx.refreshTokens.insert(Fixture.refreshToken("r2", hash: 2, family: "f2"))
            try tx.refreshTokens.insert(Fixture.refreshToken("r3", hash: 3, family: "f2"))
            try tx.refreshTokens.insert(Fixture.refreshToken("r4", hash: 4, family: "f3", user: "sesame|02"))
        }
        let revoked = try s.write {
            try $0.refreshTokens.revokeAll(tenantID: "t1", userID: "sesame|01", exceptFamily: "f1", at: Fixture.time(5))
        }
        #expect(revoked == 2)
        let tokens = try s.read { try $0.refreshTokens.list(tenantID: "t1", page: Page()) }
        #expect(tokens.filter { $0.revokedAt != nil }.map(\.id).sorted() == ["r2", "r3"])
    }

    /// The SQL stores index only a family's first token by user and passkey; revoking by either
    /// must still reach every successor, in this tenant only.
    @Test(arguments: StoreKind.allCases) func revocationReachesEveryTokenOfARotatedFamily(_ kind: StoreKind) throws {
        let s = try kind.make()
        func chain(_ family: String, tenant: String = "t1", from hash: UInt8, passkey: String?) throws {
            try s.write { tx in
                for step in 0..<3 {
                    var token = Fixture.refreshToken(
                        "\(family)-\(step)", tenant: tenant, hash: hash + UInt8(step), family: family)
                    token.passkeyID = passkey
                    try tx.refreshTokens.insert(token)
                    if step < 2 {
                        _ = try tx.refreshTokens.markUsed(tenantID: tenant, id: token.id, at: Fixture.time(2))
                    }
                }
            }
        }
        try chain("fa", from: 10, passkey: "passkey|a")
        try chain("fb", from: 20, passkey: "passkey|b")
        try chain("fc", tenant: "t2", from: 30, passkey: "passkey|a")
        #expect(
            try s.write { try $0.refreshTokens.revokeAll(tenantID: "t1", passkeyID: "passkey|a", at: Fixture.time(3)) }
                == 3)
        #expect(
            try s.write {
                try $0.refreshTokens.revokeAll(
                    tenantID: "t1", userID: "sesame|01", exceptFamily: "fa", at: Fixture.time(4))
            } == 3)
        let t1 = try s.read { try $0.refreshTokens.list(tenantID: "t1", page: Page()) }
        #expect(t1.count == 6 && t1.allSatisfy { $0.revokedAt != nil })
        #expect(
            try s.read { try $0.refreshTokens.list(tenantID: "t2", page: Page()) }.allSatisfy { $0.revokedAt == nil })
        #expect(
            try s.write { try $0.refreshTokens.revokeAll(tenantID: "t2", userID: "sesame|01", at: Fixture.time(5)) }
                == 3)
    }

    @Test(arguments: StoreKind.allCases) func adoptionCounts(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx in
            for index in 1...5 {
                try tx.users.insert(
                    Fixture.user(
                        "sesame|0\(index)", connection: index == 5 ? "con2" : "con1", handle: UInt8(index),
                        email: "u\(index)@example.com", phone: nil, username: nil))
            }
            // 1: passkey and key; 2: passkey; 3: key only; 4: a revoked key only; 5: key only, other connection.
            try tx.passkeys.insert(Fixture.passkey("passkey|1", user: "sesame|01", credential: [1]))
            try tx.passkeys.insert(Fixture.passkey("passkey|2", user: "sesame|02", credential: [2]))
            try tx.passkeys.insert(Fixture.passkey("passkey|3", user: "sesame|02", credential: [3]))
            try tx.deviceKeys.insert(Self.deviceKey("k1", user: "sesame|01", at: 0))
            try tx.deviceKeys.insert(Self.deviceKey("k3", user: "sesame|03", at: 0))
            var revoked = Self.deviceKey("k4", user: "sesame|04", at: 0)
            revoked.state = .revoked
            try tx.deviceKeys.insert(revoked)
            try tx.deviceKeys.insert(Self.deviceKey("k5", user: "sesame|05", at: 0))
            try tx.deviceKeys.insert(Self.deviceKey("k9", user: "sesame|09", tenant: "t2", at: 0))
        }
        let all = try s.read { try $0.users.adoption(tenantID: "t1", connectionID: nil) }
        #expect(all == UserAdoption(total: 5, withPasskey: 2, withDeviceKeyOnly: 2))
        #expect(all.passwordOnly == 1)
        let con1 = try s.read { try $0.users.adoption(tenantID: "t1", connectionID: "con1") }
        #expect(con1 == UserAdoption(total: 4, withPasskey: 2, withDeviceKeyOnly: 1))
        #expect(try s.read { try $0.users.adoption(tenantID: "t3", connectionID: nil) }.total == 0)
    }

    @Test(arguments: StoreKind.allCases) func dailyRollUp(_ kind: StoreKind) throws {
        let s = try kind.make()
        let day = 86_400.0
        // Fixture.t0 is 2025-05-27T00:53:20Z; each event is an hour into its day or later.
        func event(
            _ id: String, _ type: AuthEventKind, _ method: AuthEventMethod, day index: Double,
            outcome: AuthEventOutcome = .success, client: String = "app", kind: PasskeyKind? = nil,
            platform: ClientPlatform? = nil, tenant: String = "t1"
        ) -> AuthEventRecord {
            AuthEventRecord(
                tenantID: tenant, id: id, at: Fixture.time(index * day + 3_600), type: type, method: method,
                outcome: outcome, clientID: client, userID: "u", connectionID: "con1", passkeyKind: kind,
                aaguid: kind == nil ? nil : Array(repeating: 0xab, count: 16), clientPlatform: platform)
        }
        try s.write { tx in
            try tx.authEvents.insert([
                event("e1", .login, .passkey, day: 0, kind: .synced, platform: .ios),
                event("e2", .login, .passkey, day: 0, kind: .synced, platform: .ios),
                event("e3", .signup, .passkey, day: 0, kind: .deviceBound, platform: .android),
                event("e4", .login, .deviceKey, day: 0, platform: .ios),
                event("e5", .login, .password, day: 0, outcome: .invalidGrant),
                event("e6", .enroll, .passkey, day: 0, kind: .synced),
                event("e7", .refresh, .refreshToken, day: 1, client: "web"),
                event("e8", .login, .password, day: 1, client: "web", platform: .web),
                event("e9", .login, .passkey, day: 1, tenant: "t2"),
            ])
        }
        // A second batch adds to the same cells.
        try s.write {
            try $0.authEvents.insert([event("e10", .login, .passkey, day: 0, kind: .synced, platform: .ios)])
        }
        let first = AuthDailyCount.day(of: Fixture.time(3_600))
        let second = AuthDailyCount.day(of: Fixture.time(day + 3_600))
        #expect(first == "2025-05-27" && second == "2025-05-28")
        let cells = try s.read {
            try $0.authEvents.dailyCounts(tenantID: "t1", from: first, to: second, clientID: nil, connectionID: nil)
        }
        let synced = cells.first { $0.method == .passkey && $0.passkeyKind == .synced }
        #expect(synced?.count == 3 && synced?.aaguid == String(repeating: "ab", count: 16) && synced?.platform == .ios)
        #expect(cells.filter { $0.day == first }.map(\.count).reduce(0, +) == 5)
        #expect(cells.filter { $0.day == second }.map(\.count).reduce(0, +) == 2)
        #expect(cells.contains { $0.method == .deviceKey && $0.count == 1 && $0.passkeyKind == nil })
        #expect(!cells.contains { $0.method == .password && $0.day == first })
        let web = try s.read {
            try $0.authEvents.dailyCounts(
                tenantID: "t1", from: first, to: second, clientID: "web", connectionID: "con1")
        }
        #expect(Set(web.map(\.method)) == [.refresh, .password])
        #expect(
            try s.read {
                try $0.authEvents.dailyCounts(
                    tenantID: "t1", from: second, to: second, clientID: "app", connectionID: nil)
            }.isEmpty)
    }

    // MARK: Users

    @Test(arguments: StoreKind.allCases) func userRoundTripAndLookups(_ kind: StoreKind) throws {
        let s = try kind.make()
        let ada = Fixture.user()
        let bare = Fixture.user("sesame|02", handle: 2, email: nil, phone: nil, username: nil, name: nil, at: 1)
        try s.write { tx throws in
            try tx.users.insert(ada)
            try tx.users.insert(bare)
        }
        try s.read { tx throws in
            #expect(try tx.users.get(tenantID: "t1", id: "sesame|01") == ada)
            #expect(try tx.users.get(tenantID: "t2", id: "sesame|01") == nil)
            #expect(try tx.users.get(tenantID: "t1", userHandle: [UInt8](repeating: 2, count: 32)) == bare)
            #expect(try tx.users.get(tenantID: "t1", userHandle: [UInt8](repeating: 3, count: 32)) == nil)
            #expect(
                try tx.users.withIdentifiers(
                    tenantID: "t1", connectionID: "con1", email: "ADA@example.COM", phoneNumber: nil, username: nil)
                    == [ada])
            #expect(
                try tx.users.withIdentifiers(
                    tenantID: "t1", connectionID: "con1", email: nil, phoneNumber: "+15550001", username: nil)
                    == [ada])
            #expect(
                try tx.users.withIdentifiers(
                    tenantID: "t1", connectionID: "con1", email: nil, phoneNumber: nil, username: "aDA") == [
                        ada
                    ])
            #expect(
                try tx.users.withIdentifiers(
                    tenantID: "t1", connectionID: "con2", email: "ada@example.com", phoneNumber: nil, username: nil)
                    == [])
            #expect(
                try tx.users.withIdentifiers(
                    tenantID: "t1", connectionID: "con1", email: nil, phoneNumber: nil, username: nil) == [])
        }
        var changed = ada
        changed.profile.email = nil
        changed.blocked = true
        changed.lastLoginAt = nil
        changed.userMetadata = [:]
        try s.write { try $0.users.update(changed) }
        #expect(try s.read { try $0.users.get(tenantID: "t1", id: "sesame|01") } == changed)
        #expect(
            try s.read {
                try $0.users.withIdentifiers(
                    tenantID: "t1", connectionID: "con1", email: "ada@example.com", phoneNumber: nil, username: nil)
            } == [])
        #expect(throws: StoreError.notFound("user sesame|09")) {
            try s.write { try $0.users.update(Fixture.user("sesame|09", handle: 9)) }
        }
        #expect(throws: StoreError.notFound("user sesame|09")) {
            try s.write { try $0.users.delete(tenantID: "t1", id: "sesame|09") }
        }
    }

    @Test(arguments: StoreKind.allCases) func userUniqueness(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { try $0.users.insert(Fixture.user()) }
        let base = Fixture.user(
            "sesame|02", handle: 2, email: "grace@example.com", phone: "+15550002", username: "grace")
        var sameID = base
        sameID.id = "sesame|01"
        var sameHandle = base
        sameHandle.userHandle = Fixture.user().userHandle
        var sameEmail = base
        sameEmail.profile.email = "ADA@example.com"
        var samePhone = base
        samePhone.profile.phoneNumber = "+15550001"
        var sameUsername = base
        sameUsername.profile.username = "ada"
        let cases: [(UserRecord, UniqueRule)] = [
            (sameID, .userID), (sameHandle, .userHandle), (sameEmail, .userEmail),
            (samePhone, .userPhoneNumber), (sameUsername, .userUsername),
        ]
        for (user, rule) in cases {
            #expect(throws: StoreError.conflict(rule)) { try s.write { try $0.users.insert(user) } }
        }
        // The same identifiers are free in another connection and another tenant; absent ones never clash.
        var otherConnection = sameEmail
        otherConnection.id = "sesame|05"
        otherConnection.userHandle = [UInt8](repeating: 5, count: 32)
        otherConnection.connectionID = "con2"
        otherConnection.profile.phoneNumber = "+15550001"
        otherConnection.profile.username = "ADA"
        var otherTenant = Fixture.user()
        otherTenant.tenantID = "t2"
        try s.write { tx throws in
            try tx.users.insert(otherConnection)
            try tx.users.insert(otherTenant)
            try tx.users.insert(Fixture.user("sesame|03", handle: 3, email: nil, phone: nil, username: nil))
            try tx.users.insert(Fixture.user("sesame|04", handle: 4, email: nil, phone: nil, username: nil))
        }
        // Updating into a taken identifier conflicts; keeping one's own does not.
        var grace = base
        try s.write { try $0.users.insert(grace) }
        grace.profile.name = "Grace Hopper"
        try s.write { try $0.users.update(grace) }
        grace.profile.username = "Ada"
        #expect(throws: StoreError.conflict(.userUsername)) { try s.write { try $0.users.update(grace) } }
        #expect(try s.read { try $0.users.get(tenantID: "t1", id: "sesame|02") }?.profile.username == "grace")
    }

    @Test(arguments: StoreKind.allCases) func userSearchAndPaging(_ kind: StoreKind) throws {
        let s = try kind.make()
        let users = [
            Fixture.user(
                "sesame|a1", handle: 1, email: "ada@example.com", phone: "+4411", username: "ada", name: "Ada", at: 1),
            Fixture.user(
                "sesame|b2", handle: 2, email: "Bob@Work.example", phone: nil, username: "bobby", name: nil, at: 2),
            Fixture.user("sesame|c3", handle: 3, email: nil, phone: "+3312", username: "c_3", name: "Carla", at: 3),
            Fixture.user(
                "sesame|d4", handle: 4, email: "d%d@example.com", phone: nil, username: nil, name: "DÉSIRÉE", at: 4),
            Fixture.user("sesame|e5", handle: 5, email: nil, phone: nil, username: "cx3", name: nil, at: 5),
        ]
        try s.write { tx in for user in users { try tx.users.insert(user) } }
        try s.write { try $0.users.insert(Fixture.user("sesame|z", tenant: "t2", handle: 9, at: 9)) }
        func search(_ query: String?, _ page: Page = Page()) throws -> [String] {
            try s.read { try $0.users.search(tenantID: "t1", query: query, page: page) }.map(\.id)
        }
        #expect(try search(nil) == ["sesame|e5", "sesame|d4", "sesame|c3", "sesame|b2", "sesame|a1"])
        #expect(try search("") == ["sesame|e5", "sesame|d4", "sesame|c3", "sesame|b2", "sesame|a1"])
        #expect(try search(nil, Page(offset: 1, limit: 2)) == ["sesame|d4", "sesame|c3"])
        #expect(try search(nil, Page(offset: 4, limit: 2)) == ["sesame|a1"])
        #expect(try search("EXAMPLE") == ["sesame|d4", "sesame|b2", "sesame|a1"])
        #expect(try search("work") == ["sesame|b2"])
        #expect(try search("BOBB") == ["sesame|b2"])
        #expect(try search("+33") == ["sesame|c3"])
        #expect(try search("carl") == ["sesame|c3"])
        #expect(try search("désirée") == ["sesame|d4"])
        #expect(try search("|A1") == ["sesame|a1"])
        // % and _ are literal characters, not wildcards.
        #expect(try search("d%d") == ["sesame|d4"])
        #expect(try search("%") == ["sesame|d4"])
        #expect(try search("c_3") == ["sesame|c3"])
        #expect(try search("_") == ["sesame|c3"])
        #expect(try search("nobody") == [])
    }

    @Test(arguments: StoreKind.allCases) func deleteUserCascades(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx throws in
            try tx.users.insert(Fixture.user())
            try tx.users.insert(Fixture.user("sesame|02", handle: 2, email: nil, phone: nil, username: nil))
            try tx.passkeys.insert(Fixture.passkey("passkey|a", credential: [1]))
            try tx.passkeys.insert(Fixture.passkey("passkey|b", credential: [2]))
            try tx.passkeys.insert(Fixture.passkey("passkey|c", user: "sesame|02", credential: [3]))
            try tx.refreshTokens.insert(Fixture.refreshToken("r1", hash: 1))
            try tx.refreshTokens.insert(Fixture.refreshToken("r2", hash: 2, family: "f2"))
            try tx.refreshTokens.insert(Fixture.refreshToken("r3", hash: 3, family: "f3", user: "sesame|02"))
        }
        try s.write { try $0.users.delete(tenantID: "t1", id: "sesame|01") }
        try s.read { tx throws in
            #expect(try tx.users.get(tenantID: "t1", id: "sesame|01") == nil)
            #expect(try tx.passkeys.list(tenantID: "t1", userID: "sesame|01") == [])
            #expect(try tx.passkeys.get(tenantID: "t1", credentialID: [1]) == nil)
            // Refresh tokens stay, for the caller to revoke (a renewal then says the user is gone).
            #expect(try tx.refreshTokens.get(tenantID: "t1", tokenHash: [UInt8](repeating: 1, count: 32)) != nil)
            #expect(try tx.refreshTokens.get(tenantID: "t1", tokenHash: [UInt8](repeating: 2, count: 32)) != nil)
            #expect(try tx.users.get(tenantID: "t1", id: "sesame|02") != nil)
            #expect(try tx.passkeys.list(tenantID: "t1", userID: "sesame|02").map(\.id) == ["passkey|c"])
            #expect(try tx.refreshTokens.get(tenantID: "t1", tokenHash: [UInt8](repeating: 3, count: 32)) != nil)
        }
        // The freed credential id can be used again.
        try s.write { tx throws in
            try tx.passkeys.insert(Fixture.passkey("passkey|d", user: "sesame|02", credential: [1]))
        }
    }

    // MARK: Passkeys

    @Test(arguments: StoreKind.allCases) func passkeys(_ kind: StoreKind) throws {
        let s = try kind.make()
        let first = Fixture.passkey("passkey|1", credential: [1, 0, 1], at: 1)
        let second = Fixture.passkey("passkey|2", credential: [], at: 2)
        try s.write { tx throws in
            try tx.passkeys.insert(second)
            try tx.passkeys.insert(first)
            try tx.passkeys.insert(Fixture.passkey("passkey|3", user: "sesame|02", credential: [3]))
            try tx.passkeys.insert(Fixture.passkey("passkey|1", tenant: "t2", credential: [1, 0, 1]))
        }
        try s.read { tx throws in
            #expect(try tx.passkeys.get(tenantID: "t1", id: "passkey|1") == first)
            #expect(try tx.passkeys.get(tenantID: "t1", credentialID: [1, 0, 1]) == first)
            #expect(try tx.passkeys.get(tenantID: "t1", credentialID: []) == second)
            #expect(try tx.passkeys.get(tenantID: "t1", credentialID: [1, 0]) == nil)
            #expect(try tx.passkeys.list(tenantID: "t1", userID: "sesame|01") == [first, second])
            #expect(try tx.passkeys.list(tenantID: "t3", userID: "sesame|01") == [])
        }
        #expect(throws: StoreError.conflict(.passkeyID)) {
            try s.write { try $0.passkeys.insert(Fixture.passkey("passkey|1", credential: [7])) }
        }
        #expect(throws: StoreError.conflict(.passkeyCredentialID)) {
            try s.write { try $0.passkeys.insert(Fixture.passkey("passkey|9", credential: [1, 0, 1])) }
        }
        var used = first
        used.signCount = 42
        used.backupState = false
        used.lastUsedAt = nil
        try s.write { try $0.passkeys.update(used) }
        #expect(try s.read { try $0.passkeys.get(tenantID: "t1", credentialID: [1, 0, 1]) } == used)
        var clashing = used
        clashing.credentialID = [3]
        #expect(throws: StoreError.conflict(.passkeyCredentialID)) { try s.write { try $0.passkeys.update(clashing) } }
        #expect(throws: StoreError.notFound("passkey passkey|9")) {
            try s.write { try $0.passkeys.update(Fixture.passkey("passkey|9", credential: [99])) }
        }
        try s.write { try $0.passkeys.delete(tenantID: "t1", id: "passkey|1") }
        #expect(try s.read { try $0.passkeys.list(tenantID: "t1", userID: "sesame|01") } == [second])
        #expect(throws: StoreError.notFound("passkey passkey|1")) {
            try s.write { try $0.passkeys.delete(tenantID: "t1", id: "passkey|1") }
        }
    }

    // MARK: Signing keys

    @Test(arguments: StoreKind.allCases) func signingKeys(_ kind: StoreKind) throws {
        let s = try kind.make()
        let old = Fixture.signingKey("k-old", at: 0)
        let new = Fixture.signingKey("k-new", at: 10)
        try s.write { tx throws in
            try tx.signingKeys.insert(new)
            try tx.signingKeys.insert(old)
            try tx.signingKeys.insert(Fixture.signingKey("k-old", tenant: "t2"))
        }
        #expect(try s.read { try $0.signingKeys.list(tenantID: "t1") } == [old, new])
        #expect(throws: StoreError.conflict(.signingKeyID)) {
            try s.write { try $0.signingKeys.insert(Fixture.signingKey("k-new")) }
        }
        var rotated = old
        rotated.state = .previous
        rotated.rotatedAt = Fixture.time(10.000_123)
        try s.write { try $0.signingKeys.update(rotated) }
        #expect(try s.read { try $0.signingKeys.list(tenantID: "t1") } == [rotated, new])
        #expect(throws: StoreError.notFound("signing key k9")) {
            try s.write { try $0.signingKeys.update(Fixture.signingKey("k9")) }
        }
    }

    // MARK: Refresh tokens

    @Test(arguments: StoreKind.allCases) func refreshTokens(_ kind: StoreKind) throws {
        let s = try kind.make()
        let token = Fixture.refreshToken()
        try s.write { try $0.refreshTokens.insert(token) }
        try s.read { tx throws in
            #expect(try tx.refreshTokens.get(tenantID: "t1", tokenHash: token.tokenHash) == token)
            #expect(try tx.refreshTokens.get(tenantID: "t2", tokenHash: token.tokenHash) == nil)
            #expect(try tx.refreshTokens.get(tenantID: "t1", tokenHash: [UInt8](repeating: 2, count: 32)) == nil)
        }
        #expect(throws: StoreError.conflict(.refreshTokenID)) {
            try s.write { try $0.refreshTokens.insert(Fixture.refreshToken("r1", hash: 2)) }
        }
        #expect(throws: StoreError.conflict(.refreshTokenHash)) {
            try s.write { try $0.refreshTokens.insert(Fixture.refreshToken("r2", hash: 1)) }
        }
        // Token hashes are unique across tenants too.
        #expect(throws: StoreError.conflict(.refreshTokenHash)) {
            try s.write { try $0.refreshTokens.insert(Fixture.refreshToken("r2", tenant: "t2", hash: 1)) }
        }
        var used = token
        used.usedAt = Fixture.time(60.5)
        used.audience = nil
        try s.write { try $0.refreshTokens.update(used) }
        #expect(try s.read { try $0.refreshTokens.get(tenantID: "t1", tokenHash: token.tokenHash) } == used)
        #expect(throws: StoreError.notFound("refresh token r9")) {
            try s.write { try $0.refreshTokens.update(Fixture.refreshToken("r9", hash: 9)) }
        }
    }

    @Test(arguments: StoreKind.allCases) func refreshTokenRevocation(_ kind: StoreKind) throws {
        let s = try kind.make()
        let earlier = Fixture.time(100)
        let now = Fixture.time(200.25)
        var alreadyRevoked = Fixture.refreshToken("r3", hash: 3)
        alreadyRevoked.revokedAt = earlier
        try s.write { tx throws in
            try tx.refreshTokens.insert(Fixture.refreshToken("r1", hash: 1))
            try tx.refreshTokens.insert(Fixture.refreshToken("r2", hash: 2))
            try tx.refreshTokens.insert(alreadyRevoked)
            try tx.refreshTokens.insert(Fixture.refreshToken("r4", hash: 4, family: "f2"))
            try tx.refreshTokens.insert(Fixture.refreshToken("r5", tenant: "t2", hash: 5))
            try tx.refreshTokens.insert(Fixture.refreshToken("r6", hash: 6, family: "f3", user: "sesame|02"))
        }
        #expect(try s.write { try $0.refreshTokens.revokeFamily(tenantID: "t1", familyID: "f1", at: now) } == 2)
        func revokedAt(_ hash: UInt8, tenant: String = "t1") throws -> Date? {
            try s.read { try $0.refreshTokens.get(tenantID: tenant, tokenHash: [UInt8](repeating: hash, count: 32)) }?
                .revokedAt
        }
        #expect(try revokedAt(1) == now)
        #expect(try revokedAt(2) == now)
        #expect(try revokedAt(3) == earlier)
        #expect(try revokedAt(4) == nil)
        #expect(try revokedAt(5, tenant: "t2") == nil)
        #expect(try s.write { try $0.refreshTokens.revokeFamily(tenantID: "t1", familyID: "f1", at: now) } == 0)
        #expect(try s.write { try $0.refreshTokens.revokeAll(tenantID: "t1", userID: "sesame|01", at: now) } == 1)
        #expect(try revokedAt(4) == now)
        #expect(try revokedAt(6) == nil)
        #expect(try revokedAt(5, tenant: "t2") == nil)
    }

    /// The narrow updates change their fields and nothing else, and a read sees them.
    @Test(arguments: StoreKind.allCases) func narrowUpdatesOfTheHotRecords(_ kind: StoreKind) throws {
        let s = try kind.make()
        var user = Fixture.user()
        user.userMetadata = ["plan": "pro"]
        let passkey = Fixture.passkey()
        try s.write { tx throws in
            try tx.users.insert(user)
            try tx.passkeys.insert(passkey)
        }
        try s.write { tx throws in
            try tx.passkeys.recordAssertion(
                tenantID: "t1", id: passkey.id, signCount: 7, backupState: true, at: Fixture.time(50))
            try tx.users.touch(tenantID: "t1", id: user.id, lastLoginAt: Fixture.time(50))
        }
        var expectedPasskey = passkey
        expectedPasskey.signCount = 7
        expectedPasskey.backupState = true
        expectedPasskey.lastUsedAt = Fixture.time(50)
        var expectedUser = user
        expectedUser.lastLoginAt = Fixture.time(50)
        #expect(try s.read { try $0.passkeys.get(tenantID: "t1", id: passkey.id) } == expectedPasskey)
        #expect(
            try s.read { try $0.passkeys.get(tenantID: "t1", credentialID: passkey.credentialID) } == expectedPasskey)
        #expect(try s.read { try $0.passkeys.list(tenantID: "t1", userID: user.id) } == [expectedPasskey])
        #expect(try s.read { try $0.users.get(tenantID: "t1", id: user.id) } == expectedUser)

        // A time moves forward only; touching a record that is gone changes nothing and is no error.
        try s.write { tx throws in
            try tx.passkeys.touch(tenantID: "t1", id: passkey.id, lastUsedAt: Fixture.time(40))
            try tx.users.touch(tenantID: "t1", id: user.id, lastLoginAt: Fixture.time(40))
            try tx.passkeys.touch(tenantID: "t1", id: "passkey|gone", lastUsedAt: Fixture.time(60))
            try tx.users.touch(tenantID: "t1", id: "sesame|gone", lastLoginAt: Fixture.time(60))
            try tx.passkeys.touch(tenantID: "t2", id: passkey.id, lastUsedAt: Fixture.time(60))
        }
        #expect(try s.read { try $0.passkeys.get(tenantID: "t1", id: passkey.id) }?.lastUsedAt == Fixture.time(50))
        #expect(try s.read { try $0.users.get(tenantID: "t1", id: user.id) }?.lastLoginAt == Fixture.time(50))
        try s.write { tx throws in
            try tx.passkeys.touch(tenantID: "t1", id: passkey.id, lastUsedAt: Fixture.time(60))
            try tx.users.touch(tenantID: "t1", id: user.id, lastLoginAt: Fixture.time(60))
        }
        #expect(try s.read { try $0.passkeys.get(tenantID: "t1", id: passkey.id) }?.lastUsedAt == Fixture.time(60))
        #expect(try s.read { try $0.users.get(tenantID: "t1", id: user.id) }?.lastLoginAt == Fixture.time(60))
        #expect(throws: StoreError.notFound("passkey passkey|gone")) {
            try s.write {
                try $0.passkeys.recordAssertion(
                    tenantID: "t1", id: "passkey|gone", signCount: 1, backupState: false, at: Fixture.time(1))
            }
        }
        // A full update after narrow ones keeps what the record says.
        var renamed = try #require(try s.read { try $0.passkeys.get(tenantID: "t1", id: passkey.id) })
        renamed.name = "Laptop"
        try s.write { try $0.passkeys.update(renamed) }
        #expect(try s.read { try $0.passkeys.get(tenantID: "t1", id: passkey.id) } == renamed)
    }

    /// Marking a refresh token used is a compare-and-set: once, and never on a revoked token.
    @Test(arguments: StoreKind.allCases) func markingARefreshTokenUsedSucceedsOnce(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx throws in
            try tx.refreshTokens.insert(Fixture.refreshToken("r1", hash: 1))
            try tx.refreshTokens.insert(Fixture.refreshToken("r2", hash: 2, family: "f2"))
        }
        #expect(try s.write { try $0.refreshTokens.markUsed(tenantID: "t1", id: "r1", at: Fixture.time(10)) })
        #expect(try !s.write { try $0.refreshTokens.markUsed(tenantID: "t1", id: "r1", at: Fixture.time(11)) })
        #expect(try !s.write { try $0.refreshTokens.markUsed(tenantID: "t2", id: "r2", at: Fixture.time(11)) })
        #expect(try !s.write { try $0.refreshTokens.markUsed(tenantID: "t1", id: "gone", at: Fixture.time(11)) })
        _ = try s.write { try $0.refreshTokens.revokeFamily(tenantID: "t1", familyID: "f2", at: Fixture.time(12)) }
        #expect(try !s.write { try $0.refreshTokens.markUsed(tenantID: "t1", id: "r2", at: Fixture.time(13)) })
        let first = try #require(
            try s.read { try $0.refreshTokens.get(tenantID: "t1", tokenHash: [UInt8](repeating: 1, count: 32)) })
        #expect(first.usedAt == Fixture.time(10))
        #expect(first.revokedAt == nil)
        let second = try #require(
            try s.read { try $0.refreshTokens.get(tenantID: "t1", tokenHash: [UInt8](repeating: 2, count: 32)) })
        #expect(second.usedAt == nil)
        #expect(second.revokedAt == Fixture.time(12))
    }

    /// Many writers rotating one token: exactly one marks it used.
    @Test(arguments: StoreKind.allCases) func concurrentMarkUsedHasOneWinner(_ kind: StoreKind) async throws {
        let s = try kind.make()
        try s.write { try $0.refreshTokens.insert(Fixture.refreshToken("r1", hash: 1)) }
        let store = s
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try store.write {
                        try $0.refreshTokens.markUsed(tenantID: "t1", id: "r1", at: Fixture.time(Double(index)))
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
    }

    @Test(arguments: StoreKind.allCases) func refreshTokenRevocationByPasskey(_ kind: StoreKind) throws {
        let s = try kind.make()
        let now = Fixture.time(300)
        func token(_ id: String, hash: UInt8, tenant: String = "t1", family: String, passkey: String?)
            -> RefreshTokenRecord
        {
            var record = Fixture.refreshToken(id, tenant: tenant, hash: hash, family: family)
            record.passkeyID = passkey
            return record
        }
        try s.write { tx throws in
            try tx.refreshTokens.insert(token("r1", hash: 1, family: "f1", passkey: "passkey|a"))
            try tx.refreshTokens.insert(token("r2", hash: 2, family: "f1", passkey: "passkey|a"))
            try tx.refreshTokens.insert(token("r3", hash: 3, family: "f2", passkey: "passkey|b"))
            try tx.refreshTokens.insert(token("r4", hash: 4, family: "f3", passkey: nil))
            try tx.refreshTokens.insert(token("r5", hash: 5, tenant: "t2", family: "f4", passkey: "passkey|a"))
        }
        #expect(
            try s.read { try $0.refreshTokens.get(tenantID: "t1", tokenHash: [UInt8](repeating: 1, count: 32)) }?
                .passkeyID
                == "passkey|a")
        #expect(try s.write { try $0.refreshTokens.revokeAll(tenantID: "t1", passkeyID: "passkey|a", at: now) } == 2)
        func revokedAt(_ hash: UInt8, tenant: String = "t1") throws -> Date? {
            try s.read { try $0.refreshTokens.get(tenantID: tenant, tokenHash: [UInt8](repeating: hash, count: 32)) }?
                .revokedAt
        }
        #expect(try revokedAt(1) == now)
        #expect(try revokedAt(2) == now)
        #expect(try revokedAt(3) == nil)
        #expect(try revokedAt(4) == nil)
        #expect(try revokedAt(5, tenant: "t2") == nil)
        #expect(try s.write { try $0.refreshTokens.revokeAll(tenantID: "t1", passkeyID: "passkey|a", at: now) } == 0)
    }

    // MARK: Auth events

    @Test(arguments: StoreKind.allCases) func authEvents(_ kind: StoreKind) throws {
        let s = try kind.make()
        let events = [Fixture.event("e3", at: 3), Fixture.event("e1", at: 1), Fixture.event("e2", at: 2)]
        try s.write { try $0.authEvents.insert(events) }
        try s.write { try $0.authEvents.insert([Fixture.event("e1", tenant: "t2", at: 5)]) }
        try s.write { try $0.authEvents.insert([]) }
        try s.read { tx throws in
            #expect(
                try tx.authEvents.since(tenantID: "t1", since: Fixture.time(0), limit: 10).map(\.id) == [
                    "e1", "e2", "e3",
                ])
            #expect(
                try tx.authEvents.since(tenantID: "t1", since: Fixture.time(2), limit: 10) == [events[2], events[0]])
            #expect(
                try tx.authEvents.since(tenantID: "t1", since: Fixture.time(0), limit: 2).map(\.id) == ["e1", "e2"])
            #expect(try tx.authEvents.since(tenantID: "t1", since: Fixture.time(0), limit: 0) == [])
            #expect(try tx.authEvents.since(tenantID: "t2", since: Fixture.time(0), limit: 10).map(\.id) == ["e1"])
        }
        // A batch with one duplicate writes none of its events.
        #expect(throws: StoreError.conflict(.authEventID)) {
            try s.write { try $0.authEvents.insert([Fixture.event("e4", at: 4), Fixture.event("e1", at: 4)]) }
        }
        #expect(throws: StoreError.conflict(.authEventID)) {
            try s.write { try $0.authEvents.insert([Fixture.event("e5", at: 4), Fixture.event("e5", at: 4)]) }
        }
        #expect(try s.read { try $0.authEvents.since(tenantID: "t1", since: Fixture.time(0), limit: 10) }.count == 3)
    }

    // MARK: Transactions

    @Test(arguments: StoreKind.allCases) func throwingWriteLeavesNothing(_ kind: StoreKind) throws {
        let s = try kind.make()
        #expect(throws: Abort()) {
            try s.store.write(.durable) { tx throws in
                try tx.tenants.insert(Fixture.tenant())
                try tx.users.insert(Fixture.user())
                try tx.authEvents.insert([Fixture.event("e1", at: 1)])
                throw Abort()
            }
        }
        try s.read { tx throws in
            #expect(try tx.tenants.all() == [])
            #expect(try tx.tenants.get(host: "login.example.com") == nil)
            #expect(try tx.users.get(tenantID: "t1", id: "sesame|01") == nil)
            #expect(try tx.authEvents.since(tenantID: "t1", since: .distantPast, limit: 10) == [])
        }
        // The store still works afterwards.
        try s.write { try $0.tenants.insert(Fixture.tenant()) }
        #expect(try s.read { try $0.tenants.all() }.count == 1)
    }

    @Test(arguments: StoreKind.allCases) func failedOperationLeavesNoPartialWrite(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { try $0.tenants.insert(Fixture.tenant(custom: ["taken.example.com"])) }
        try s.write { try $0.users.insert(Fixture.user()) }
        // The body catches each conflict and commits the rest: the failed operations left nothing behind.
        let outcome = try s.write { tx -> [StoreError] in
            var errors: [StoreError] = []
            do {
                try tx.tenants.insert(Fixture.tenant("t2", domain: "free.example.com", custom: ["taken.example.com"]))
            } catch let error as StoreError { errors.append(error) }
            do {
                try tx.authEvents.insert([Fixture.event("e1", at: 1), Fixture.event("e1", at: 2)])
            } catch let error as StoreError { errors.append(error) }
            do {
                try tx.users.delete(tenantID: "t1", id: "sesame|99")
            } catch let error as StoreError { errors.append(error) }
            try tx.clients.insert(Fixture.client())
            return errors
        }
        #expect(outcome == [.conflict(.tenantHost), .conflict(.authEventID), .notFound("user sesame|99")])
        try s.read { tx throws in
            #expect(try tx.tenants.get(id: "t2") == nil)
            #expect(try tx.tenants.get(host: "free.example.com") == nil)
            #expect(try tx.authEvents.since(tenantID: "t1", since: .distantPast, limit: 10) == [])
            #expect(try tx.clients.get(tenantID: "t1", id: "c1") == Fixture.client())
            #expect(try tx.users.get(tenantID: "t1", id: "sesame|01") == Fixture.user())
        }
    }

    @Test(arguments: StoreKind.allCases) func readTransactionRefusesWrites(_ kind: StoreKind) throws {
        let s = try kind.make()
        #expect(throws: StoreError.unavailable("write in a read transaction")) {
            try s.read { try $0.tenants.insert(Fixture.tenant()) }
        }
        #expect(throws: StoreError.unavailable("write in a read transaction")) {
            try s.read { try $0.refreshTokens.revokeFamily(tenantID: "t1", familyID: "f1", at: Fixture.t0) }
        }
        #expect(try s.read { try $0.tenants.all() } == [])
    }

    @Test(arguments: StoreKind.allCases) func transactionEndsWithItsBody(_ kind: StoreKind) throws {
        let s = try kind.make()
        let escaped = try s.write { tx -> any StoreTransaction in
            try tx.tenants.insert(Fixture.tenant())
            return tx
        }
        #expect(throws: StoreError.unavailable("the transaction has ended")) { try escaped.tenants.all() }
        #expect(throws: StoreError.unavailable("the transaction has ended")) {
            try escaped.clients.insert(Fixture.client())
        }
    }

    @Test(arguments: StoreKind.allCases) func nestedWriteThrowsInsteadOfWaiting(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { tx in
            try tx.clients.insert(Fixture.client("c1"))
            #expect(throws: StoreError.unavailable("a write transaction is already open on this thread")) {
                try s.write { try $0.clients.insert(Fixture.client("c2")) }
            }
        }
        #expect(try s.read { try $0.clients.list(tenantID: "t1", page: Page()) }.map(\.id) == ["c1"])
    }

    @Test(arguments: StoreKind.allCases) func readsSeeASnapshot(_ kind: StoreKind) throws {
        let s = try kind.make()
        try s.write { try $0.clients.insert(Fixture.client("c1")) }
        try s.read { tx throws in
            #expect(try tx.clients.list(tenantID: "t1", page: Page()).count == 1)
            // A write committed while this read is open is not seen by it.
            try s.write { try $0.clients.insert(Fixture.client("c2", at: 1)) }
            #expect(try tx.clients.list(tenantID: "t1", page: Page()).count == 1)
        }
        #expect(try s.read { try $0.clients.list(tenantID: "t1", page: Page()) }.count == 2)
    }

    @Test(arguments: StoreKind.allCases) func concurrentWritesAllLand(_ kind: StoreKind) throws {
        let s = try kind.make()
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 {
                do {
                    let credential = [UInt8(thread), UInt8(index)]
                    let durability: Durability = index % 10 == 0 ? .durable : .relaxed
                    try s.store.write(durability) { tx throws in
                        try tx.passkeys.insert(
                            Fixture.passkey("passkey|\(thread)-\(index)", credential: credential, at: Double(index)))
                    }
                    let read = try s.read { try $0.passkeys.get(tenantID: "t1", credentialID: credential) }
                    if read?.id != "passkey|\(thread)-\(index)" { failures.add("lost \(thread)-\(index)") }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.entries == [])
        #expect(try s.read { try $0.passkeys.list(tenantID: "t1", userID: "sesame|01") }.count == 400)
    }
}

/// Failures collected from several threads.
final class FailureLog: Sendable {
    private let stored = Mutex<[String]>([])
    func add(_ entry: String) { stored.withLock { $0.append(entry) } }
    var entries: [String] { stored.withLock { $0 } }
}

// MARK: Audit log

extension StoreConformanceTests {
    static func auditEvent(
        _ n: Int, tenant: String = "t1", type: AuditEventType = .successLogin, user: String? = "u1",
        client: String? = "c1"
    ) -> AuditEventRecord {
        AuditEventRecord(
            tenantID: tenant, id: "log_" + String(format: "%012x", n * 1_000) + "0000000000000000",
            at: Fixture.time(Double(n)), type: type, clientID: client, userID: user, userName: "ada@example.com",
            connectionID: "con_1", ip: "203.0.113.7", userAgent: "Test/1.0",
            details: AuditDetails(
                method: .password, reason: type.isFailure ? .wrongPassword : nil, requestMethod: .patch,
                requestPath: "/api/v2/clients/c1", status: 200, target: "c1", scope: "openid"))
    }

    @Test(arguments: StoreKind.allCases) func auditLogAppendsListsFiltersAndPrunes(_ kind: StoreKind) throws {
        let s = try kind.make()
        let events = [
            Self.auditEvent(1), Self.auditEvent(2, type: .failedPassword), Self.auditEvent(3, user: "u2"),
            Self.auditEvent(4, type: .successAPIOperation, user: nil, client: "c2"),
            Self.auditEvent(5, type: .failedPassword, user: "u2"),
        ]
        try s.write { try $0.auditEvents.append(Array(events.prefix(3))) }
        try s.write { tx in
            try tx.auditEvents.append(Array(events.suffix(2)))
            try tx.auditEvents.append([Self.auditEvent(1, tenant: "t2")])
        }
        // Round trip of every field, and the tenant scoping of get.
        #expect(try s.read { try $0.auditEvents.get(tenantID: "t1", id: events[1].id) } == events[1])
        #expect(try s.read { try $0.auditEvents.get(tenantID: "t3", id: events[1].id) } == nil)
        // Newest first with offset paging; totals.
        let all = try s.read { try $0.auditEvents.list(tenantID: "t1", query: AuditQuery(), page: Page()) }
        #expect(all.map(\.id) == events.reversed().map(\.id))
        let second = try s.read {
            try $0.auditEvents.list(tenantID: "t1", query: AuditQuery(), page: Page(offset: 1, limit: 2))
        }
        #expect(second.map(\.id) == [events[3].id, events[2].id])
        #expect(try s.read { try $0.auditEvents.count(tenantID: "t1", query: AuditQuery()) } == 5)
        #expect(try s.read { try $0.auditEvents.count(tenantID: "t2", query: AuditQuery()) } == 1)
        // Filters: type, user, client, time range, and all together.
        func ids(_ query: AuditQuery) throws -> [String] {
            try s.read { try $0.auditEvents.list(tenantID: "t1", query: query, page: Page()) }.map(\.id)
        }
        #expect(try ids(AuditQuery(types: [.failedPassword])) == [events[4].id, events[1].id])
        #expect(
            try ids(AuditQuery(types: [.failedPassword, .successAPIOperation]))
                == [events[4].id, events[3].id, events[1].id])
        #expect(try ids(AuditQuery(userID: "u2")) == [events[4].id, events[2].id])
        #expect(try ids(AuditQuery(clientID: "c2")) == [events[3].id])
        #expect(try ids(AuditQuery(from: Fixture.time(2), to: Fixture.time(4))) == [events[2].id, events[1].id])
        #expect(try ids(AuditQuery(types: [.failedPassword], userID: "u2", from: Fixture.time(5))) == [events[4].id])
        #expect(try s.read { try $0.auditEvents.count(tenantID: "t1", query: AuditQuery(userID: "u2")) } == 2)
        // Checkpoint paging: oldest first after an id.
        let first = try s.read { try $0.auditEvents.list(tenantID: "t1", query: AuditQuery(), after: nil, limit: 2) }
        #expect(first.map(\.id) == [events[0].id, events[1].id])
        let next = try s.read {
            try $0.auditEvents.list(tenantID: "t1", query: AuditQuery(), after: first.last?.id, limit: 100)
        }
        #expect(next.map(\.id) == events.suffix(3).map(\.id))
        let filtered = try s.read {
            try $0.auditEvents.list(tenantID: "t1", query: AuditQuery(userID: "u2"), after: events[2].id, limit: 5)
        }
        #expect(filtered.map(\.id) == [events[4].id])
        // Append-only: a taken id is a conflict and writes nothing of its batch.
        #expect(throws: StoreError.conflict(.auditEventID)) {
            try s.write { try $0.auditEvents.append([Self.auditEvent(9), Self.auditEvent(2)]) }
        }
        #expect(try s.read { try $0.auditEvents.get(tenantID: "t1", id: Self.auditEvent(9).id) } == nil)
        // Retention: bounded batches, only the tenant named, only entries before the cut.
        #expect(try s.write { try $0.auditEvents.deleteOlder(tenantID: "t1", than: Fixture.time(4), limit: 2) } == 2)
        #expect(try ids(AuditQuery()) == [events[4].id, events[3].id, events[2].id])
        #expect(try s.write { try $0.auditEvents.deleteOlder(tenantID: "t1", than: Fixture.time(4), limit: 10) } == 1)
        #expect(try s.write { try $0.auditEvents.deleteOlder(tenantID: "t1", than: Fixture.time(4), limit: 10) } == 0)
        #expect(try ids(AuditQuery()) == [events[4].id, events[3].id])
        #expect(try s.read { try $0.auditEvents.count(tenantID: "t2", query: AuditQuery()) } == 1)
    }
}

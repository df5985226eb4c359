import Foundation
import SesameSQL
import SesameStore
import Testing

@testable import SesameSQLite

/// What only the SQLite store has: a file, a schema history, pragmas, and rows that can be damaged.
@Suite struct SQLiteStoreTests {
    @Test func reopeningKeepsDataAndDoesNotRerunMigrations() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let firstMigrations: [(version: Int, appliedAt: String)]
        do {
            let store = try SQLiteStore(path: path)
            try store.write(.durable) { tx in
                try tx.tenants.insert(Fixture.tenant())
                try tx.users.insert(Fixture.user())
            }
            firstMigrations = try store.appliedMigrations()
        }
        #expect(firstMigrations.map(\.version) == Array(1...Migrations.all.count))
        let reopened = try SQLiteStore(path: path)
        #expect(try reopened.read { try $0.tenants.get(host: "login.example.com") } == Fixture.tenant())
        #expect(try reopened.read { try $0.users.get(tenantID: "t1", id: "sesame|01") } == Fixture.user())
        let again = try reopened.appliedMigrations()
        #expect(again.map(\.version) == firstMigrations.map(\.version))
        #expect(again.map(\.appliedAt) == firstMigrations.map(\.appliedAt))
    }

    /// Migration 2: a full management grant of the first release also gets the client-key scopes
    /// that secret rotation needs since; a narrower grant is left as it was.
    @Test func migrationTwoGivesFullGrantsTheClientKeyScopes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let audience = "https://login.example.com/api/v2/"
        let full = Migrations.firstReleaseScopes.sorted()
        var admin = Fixture.client("admin")
        admin.grants = [ClientGrantSettings(audience: audience, scopes: full)]
        var reader = Fixture.client("reader")
        reader.grants = [ClientGrantSettings(audience: audience, scopes: ["read:users"])]
        do {
            let store = try SQLiteStore(path: path)
            try store.write(.durable) { tx in
                try tx.tenants.insert(Fixture.tenant())
                try tx.clients.insert(admin)
                try tx.clients.insert(reader)
            }
            // As if migration 2 had never run (its data step is all this test needs).
            try store.executeRaw("DELETE FROM schema_migrations WHERE version = 2")
        }
        let upgraded = try SQLiteStore(path: path)
        #expect(try upgraded.appliedMigrations().map(\.version) == Array(1...Migrations.all.count))
        let adminAfter = try #require(try upgraded.read { try $0.clients.get(tenantID: "t1", id: "admin") })
        #expect(adminAfter.grants.first?.scopes == full + ["read:client_keys", "update:client_keys"])
        #expect(try upgraded.read { try $0.clients.get(tenantID: "t1", id: "reader") } == reader)
    }

    /// Migration 21: usernames stored before RFC 8265's width mapping are found by their mapped
    /// form; one whose mapped form another user of the connection holds keeps its old column.
    @Test func migrationTwentyOneMapsStoredUsernames() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        do {
            let store = try SQLiteStore(path: path)
            try store.write(.durable) { tx in
                try tx.tenants.insert(Fixture.tenant())
                try tx.users.insert(Fixture.user("sesame|01", handle: 1, email: nil, phone: nil, username: "ada"))
                try tx.users.insert(Fixture.user("sesame|02", handle: 2, email: nil, phone: nil, username: "grace"))
                try tx.users.insert(Fixture.user("sesame|03", handle: 3, email: nil, phone: nil, username: "lin"))
            }
            // As an older Sesame stored them: lower-cased only, fullwidth kept.
            try store.executeRaw("UPDATE users SET username_lower = 'ｇｒａｃｅ' WHERE id = 'sesame|02'")
            try store.executeRaw("UPDATE users SET username_lower = 'ａｄａ' WHERE id = 'sesame|03'")
            try store.executeRaw("DELETE FROM schema_migrations WHERE version = 21")
        }
        let upgraded = try SQLiteStore(path: path)
        #expect(try upgraded.appliedMigrations().map(\.version) == Array(1...Migrations.all.count))
        func found(_ username: String) throws -> [String] {
            try upgraded.read {
                try $0.users.withIdentifiers(
                    tenantID: "t1", connectionID: "con1", email: nil, phoneNumber: nil, username: username)
            }.map(\.id)
        }
        #expect(try found("GRACE") == ["sesame|02"])
        #expect(try found("ｇｒａｃｅ") == ["sesame|02"])
        // 'ａｄａ' maps to 'ada', which sesame|01 holds: sesame|03 keeps its old column.
        #expect(try found("ada") == ["sesame|01"])
    }

    /// Migration 5: a grant that held every Management API scope before it also gets the
    /// resource-server scopes; a narrower grant is left as it was.
    @Test func migrationFiveGivesFullGrantsTheResourceServerScopes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let audience = "https://login.example.com/api/v2/"
        let full = Migrations.firstReleaseScopes.sorted() + ["read:client_keys", "update:client_keys"]
        var admin = Fixture.client("admin")
        admin.grants = [ClientGrantSettings(audience: audience, scopes: full)]
        var old = Fixture.client("old")
        old.grants = [ClientGrantSettings(audience: audience, scopes: Migrations.firstReleaseScopes.sorted())]
        do {
            let store = try SQLiteStore(path: path)
            try store.write(.durable) { tx in
                try tx.tenants.insert(Fixture.tenant())
                try tx.clients.insert(admin)
                try tx.clients.insert(old)
            }
            try store.executeRaw("DELETE FROM schema_migrations WHERE version = 5")
        }
        let upgraded = try SQLiteStore(path: path)
        #expect(try upgraded.appliedMigrations().map(\.version) == Array(1...Migrations.all.count))
        let adminAfter = try #require(try upgraded.read { try $0.clients.get(tenantID: "t1", id: "admin") })
        #expect(adminAfter.grants.first?.scopes == full + Migrations.resourceServerScopes)
        #expect(try upgraded.read { try $0.clients.get(tenantID: "t1", id: "old") } == old)
    }

    // MARK: Record versions and the typed vocabulary

    /// Replaces the stored JSON of client `id` with `body` (members changed or removed by `edit`).
    static func rewriteClient(
        _ store: SQLiteStore, id: String, _ edit: (inout [String: Any]) -> Void
    ) throws {
        let encoder = JSONEncoder()
        let record = try #require(try store.read { try $0.clients.get(tenantID: "t1", id: id) })
        var json = try #require(try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any])
        edit(&json)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        try store.executeRaw(
            "UPDATE clients SET data = CAST('\(text.replacingOccurrences(of: "'", with: "''"))' AS BLOB) WHERE id = '\(id)'"
        )
    }

    /// A client written by the first release (version 1: strings, `authorization_code` granted by
    /// default) reads as the current version, its vocabulary typed and the grant it never chose
    /// dropped (so no old client gains the code flow unseen).
    @Test func aVersionOneClientIsUpgradedWhenRead() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        try store.write(.durable) { tx in
            try tx.tenants.insert(Fixture.tenant())
            try tx.clients.insert(Fixture.client("c1"))
        }
        try Self.rewriteClient(store, id: "c1") { json in
            json["version"] = 1
            json["appType"] = "spa"
            json["grantTypes"] = ["urn:okta:params:oauth:grant-type:webauthn", "authorization_code", "refresh_token"]
            json["tokenEndpointAuthMethod"] = "none"
            json["jwtAlgorithm"] = "EdDSA"
        }
        let upgraded = try #require(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") })
        #expect(upgraded.version == ClientRecord.currentVersion)
        #expect(upgraded.allowedLogoutURLs.isEmpty)
        #expect(upgraded.appType == .spa)
        #expect(upgraded.grantTypes == [.webAuthn, .refreshToken])
        #expect(upgraded.tokenEndpointAuthMethod == .none)
        #expect(upgraded.jwtAlgorithm == .edDSA)
        #expect(upgraded.callbacks == Fixture.client("c1").callbacks)
        // Written back, it is a current row.
        try store.write(.durable) { try $0.clients.update(upgraded) }
        #expect(try store.read { try $0.clients.get(tenantID: "t1", id: "c1") } == upgraded)
    }

    @Test func theVersionOneConversionIsAPlainFunction() throws {
        let converted = try ClientRecordUpgrade.fromVersion1(
            .init(
                appType: "non_interactive", grantTypes: ["client_credentials", "authorization_code"],
                tokenEndpointAuthMethod: "client_secret_basic", jwtAlgorithm: "RS256"))
        #expect(converted.appType == .nonInteractive)
        #expect(converted.grantTypes == [.clientCredentials])
        #expect(converted.tokenEndpointAuthMethod == .clientSecretBasic)
        #expect(converted.jwtAlgorithm == .rs256)
        #expect(throws: DecodingError.self) {
            try ClientRecordUpgrade.fromVersion1(
                .init(
                    appType: "native", grantTypes: ["implicit"], tokenEndpointAuthMethod: "none", jwtAlgorithm: "RS256")
            )
        }
    }

    /// An unknown stored value never falls back to a default: the read fails, naming the field.
    @Test(arguments: [
        ("jwtAlgorithm", #""HS256""#, "field jwtAlgorithm"),
        ("grantTypes", #"["refresh_token","implicit"]"#, "field grantTypes[1]"),
        ("version", "4", "newer than this Sesame reads"),
        ("appType", #""tv""#, "field appType"),
    ])
    func anUnknownStoredValueIsCorrupt(field: String, value json: String, mentions: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        try store.write(.durable) { tx in
            try tx.tenants.insert(Fixture.tenant())
            try tx.clients.insert(Fixture.client("c1"))
        }
        try Self.rewriteClient(store, id: "c1") { $0[field] = value }
        do {
            _ = try store.read { try $0.clients.get(tenantID: "t1", id: "c1") }
            Issue.record("a client with \(field) = \(value) was read")
        } catch let error as StoreError {
            guard case .corrupt(let message) = error else {
                Issue.record("expected corrupt, got \(error)")
                return
            }
            #expect(message.hasPrefix("a row of clients does not decode: "), "\(message)")
            #expect(message.contains(mentions), "\(message)")
        }
    }

    /// Every record's version is read: a user row from a newer Sesame is refused, not half-read.
    @Test func aRowFromANewerSesameIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        try store.write(.durable) { try $0.users.insert(Fixture.user()) }
        let record = try #require(try store.read { try $0.users.get(tenantID: "t1", id: "sesame|01") })
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        json["version"] = 9
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        try store.executeRaw("UPDATE users SET data = CAST('\(text)' AS BLOB) WHERE id = 'sesame|01'")
        #expect(
            throws: StoreError.corrupt(
                "a row of users has version 9, newer than this Sesame reads (\(UserRecord.currentVersion))")
        ) { try store.read { try $0.users.get(tenantID: "t1", id: "sesame|01") } }
    }

    /// The review's example: a "Required" typo in a connection's user verification used to become
    /// "preferred"; now the connection does not read at all.
    @Test func aConnectionWithAnUnknownUserVerificationIsCorrupt() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        try store.write(.durable) { try $0.connections.insert(Fixture.connection()) }
        let record = try #require(try store.read { try $0.connections.get(tenantID: "t1", id: "con1") })
        var json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        var passkey = try #require(json["passkey"] as? [String: Any])
        passkey["userVerification"] = "Required"
        json["passkey"] = passkey
        let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        try store.executeRaw("UPDATE connections SET data = CAST('\(text)' AS BLOB) WHERE id = 'con1'")
        #expect(
            throws: StoreError.corrupt(
                "a row of connections does not decode: field passkey.userVerification: "
                    + "Cannot initialize UserVerificationPolicy from invalid String value Required")
        ) { try store.read { try $0.connections.get(tenantID: "t1", id: "con1") } }
    }

    @Test func newerSchemaIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        do {
            let store = try SQLiteStore(path: path)
            try store.executeRaw("INSERT INTO schema_migrations (version, applied_at) VALUES (999, 'later')")
        }
        #expect(
            throws: StoreError.unavailable(
                "the database has schema version 999 but this Sesame knows versions up to \(Migrations.all.count): "
                    + "run a newer Sesame")
        ) { try SQLiteStore(path: path) }
    }

    @Test func fileIsPrivateAndInWALMode() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let store = try SQLiteStore(path: path)
        try store.write(.durable) { try $0.tenants.insert(Fixture.tenant()) }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let walAttributes = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        #expect((walAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func durableWriteRestoresNormalSynchronous() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        #expect(try store.writerSynchronous() == 1)
        let levels = try store.write(.durable) { tx in
            try tx.tenants.insert(Fixture.tenant())
            return try (tx as? SQLTransaction)?.synchronousLevel()
        }
        #expect(levels == 2)
        #expect(try store.writerSynchronous() == 1)
        #expect(try store.write(.relaxed) { try ($0 as? SQLTransaction)?.synchronousLevel() } == 1)
        #expect(throws: Abort()) { try store.write(.durable) { _ in throw Abort() } }
        #expect(try store.writerSynchronous() == 1)
    }

    /// Inserts `count` users, one commit each (every commit appends at least one WAL frame).
    private func insertUsers(_ count: Int, from first: Int = 0, into store: SQLiteStore) throws {
        for index in first..<(first + count) {
            try store.write(.relaxed) { tx in
                try tx.users.insert(
                    Fixture.user(
                        "sesame|\(index)", handle: UInt8(index), email: "u\(index)@example.com", phone: nil,
                        username: nil))
            }
        }
    }

    private func fileSize(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }

    /// A commit past the threshold leaves the checkpoint (the copy into the database and its sync)
    /// to the background thread: while that thread is held back, the database file does not change.
    @Test func theCheckpointRunsOffTheWriter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let store = try SQLiteStore(path: path, checkpointPages: 32)
        try store.write(.durable) { try $0.tenants.insert(Fixture.tenant()) }
        store.checkpointer.drain()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        store.checkpointer.suspend()
        try insertUsers(60, into: store)  // at least 60 frames: past 32, far from the backstop (512)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(store.checkpointer.runs.inline == 0)
        let backgroundBefore = store.checkpointer.runs.background
        store.checkpointer.resume()
        store.checkpointer.drain()
        #expect(store.checkpointer.runs.background == backgroundBefore + 1)  // one queued, not one per commit
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != before)
        #expect(store.checkpointer.runs.inline == 0)
        // The next commit starts the WAL again from its beginning, and every row reads back.
        try insertUsers(1, from: 60, into: store)
        let emails = try (0...60).map { index in
            try store.read { try $0.users.get(tenantID: "t1", id: "sesame|\(index)")?.profile.email }
        }
        #expect(emails == (0...60).map { "u\($0)@example.com" })
    }

    /// A checkpoint that cannot copy the whole WAL (a reader holds an older snapshot here; under
    /// steady load, the frames that arrive while it runs) leaves the WAL past the threshold. The
    /// writer then asks again every eighth of the threshold, not at every commit: a passive
    /// checkpoint syncs the database file every time it runs.
    @Test func aCheckpointThatCannotCatchUpIsNotAskedForAtEveryCommit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let store = try SQLiteStore(path: path, checkpointPages: 256)
        #expect(store.checkpointer.retry == 32)
        try store.write(.durable) { try $0.tenants.insert(Fixture.tenant()) }
        store.checkpointer.drain()
        try insertUsers(1, into: store)  // the WAL starts again if the migrations filled it
        let start = Int(store.checkpointer.walPages)
        let snapshot = try SQLiteConnection(path: path, reader: true)
        try snapshot.execute("BEGIN")
        _ = try snapshot.query("SELECT count(*) FROM users") { $0.integer(0) }
        let before = store.checkpointer.runs.background
        for index in 1...120 {
            try insertUsers(1, from: index, into: store)
            store.checkpointer.drain()  // each checkpoint asked for has run before the next commit
        }
        let pages = Int(store.checkpointer.walPages)
        let runs = store.checkpointer.runs.background - before
        #expect(pages >= 120 + start)  // no commit started the WAL again
        #expect(pages >= 512)
        #expect(runs >= 1 + (pages - 256) / 64)
        #expect(runs <= 2 + (pages - 256) / 32)  // at every commit it would be about (pages - 256) / 9
        // In the last threshold before the backstop (4,096 pages), at every commit again, so the
        // inline checkpoint there has little left to copy.
        var touches = 0
        func touch() throws {
            touches += 1
            try store.write(.relaxed) { tx in
                try tx.users.touch(
                    tenantID: "t1", id: "sesame|\(touches % 100)",
                    lastLoginAt: Date(timeIntervalSince1970: 2_000_000_000 + Double(touches)))
            }
            store.checkpointer.drain()
        }
        while store.checkpointer.walPages < 4_096 - 256, touches < 20_000 { try touch() }
        let bandRuns = store.checkpointer.runs.background
        for _ in 0..<10 { try touch() }
        #expect(store.checkpointer.walPages < 4_096)
        #expect(store.checkpointer.runs.background - bandRuns == 10)
        // With the reader gone, the next checkpoint copies everything, and the WAL starts again.
        try snapshot.execute("COMMIT")
        for index in 121...140 {
            try insertUsers(1, from: index, into: store)
            store.checkpointer.drain()
        }
        #expect(store.checkpointer.walPages < 256)
        #expect(store.checkpointer.runs.inline == 0)
        let emails = try (0...140).map { index in
            try store.read { try $0.users.get(tenantID: "t1", id: "sesame|\(index)")?.profile.email }
        }
        #expect(emails == (0...140).map { "u\($0)@example.com" })
        let touched = try store.read { try $0.users.get(tenantID: "t1", id: "sesame|\(touches % 100)")?.lastLoginAt }
        #expect(touched == Date(timeIntervalSince1970: 2_000_000_000 + Double(touches)))
    }

    /// The checkpoint thread runs at nice 10, so on a busy core the requests' threads come first.
    @Test func theCheckpointThreadYieldsToRequests() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        #expect(store.checkpointer.threadNiceness == WALCheckpointer.niceness)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0)  // this thread's is unchanged
    }

    /// A background thread that falls behind does not let the WAL grow without bound: at 16 times
    /// the threshold, the writer checkpoints inline again.
    @Test func theWriterCheckpointsInlineWhenTheBackgroundFallsBehind() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let store = try SQLiteStore(path: path, checkpointPages: 4)
        try store.write(.durable) { try $0.tenants.insert(Fixture.tenant()) }
        store.checkpointer.drain()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        store.checkpointer.suspend()
        defer { store.checkpointer.resume() }
        try insertUsers(120, into: store)  // at least 120 frames, past the backstop of 64
        let inline = store.checkpointer.runs.inline
        #expect(inline >= 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != before)
        // Bounded: the WAL starts again after each inline checkpoint, so another 120 commits do
        // not make it longer (by more than a commit's own pages).
        let wal = try fileSize(path + "-wal")
        try insertUsers(120, from: 120, into: store)
        #expect(store.checkpointer.runs.inline > inline)
        #expect(try fileSize(path + "-wal") <= wal + 16 * 4_120)
    }

    @Test func corruptRowIsReported() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        try store.write(.relaxed) { try $0.users.insert(Fixture.user()) }
        try store.executeRaw("UPDATE users SET data = CAST('{\"id\": 1' AS BLOB)")
        #expect {
            try store.read { try $0.users.get(tenantID: "t1", id: "sesame|01") }
        } throws: { error in
            guard case .corrupt(let message) = error as? StoreError else { return false }
            return message.hasPrefix("a row of users does not decode")
        }
    }

    @Test func unopenablePathIsUnavailable() throws {
        let directory = try TemporaryDirectory()
        #expect {
            try SQLiteStore(path: directory.file("missing/sesame.db"))
        } throws: { error in
            guard case .unavailable(let message) = error as? StoreError else { return false }
            return message.hasPrefix("cannot create \(directory.file("missing/sesame.db"))")
        }
    }

    @Test func otherSQLiteFailuresAreUnavailable() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        try store.executeRaw("DROP TABLE signing_keys")
        #expect {
            try store.read { try $0.signingKeys.list(tenantID: "t1") }
        } throws: { error in
            guard case .unavailable(let message) = error as? StoreError else { return false }
            return message.contains("no such table: signing_keys")
        }
        // The failed read returned its connection in a usable state.
        #expect(try store.read { try $0.tenants.all() } == [])
    }

    /// Not a timing assertion: prints what a point read costs and checks every read returns the record.
    @Test func pointReadCost() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        let passkeys = (0..<200).map { Fixture.passkey("passkey|\($0)", credential: [UInt8($0), 1], at: Double($0)) }
        try store.write(.relaxed) { tx in for passkey in passkeys { try tx.passkeys.insert(passkey) } }
        let rounds = 20_000
        var mismatches = 0
        let start = ContinuousClock.now
        try store.read { tx in
            for round in 0..<rounds {
                let wanted = passkeys[round % passkeys.count]
                if try tx.passkeys.get(tenantID: "t1", credentialID: wanted.credentialID) != wanted { mismatches += 1 }
            }
        }
        let inOneRead = ContinuousClock.now - start
        let start2 = ContinuousClock.now
        for round in 0..<2_000 {
            let wanted = passkeys[round % passkeys.count]
            if try store.read({ try $0.passkeys.get(tenantID: "t1", id: wanted.id) }) != wanted { mismatches += 1 }
        }
        let ownRead = ContinuousClock.now - start2
        // The JSON decode alone, for the breakdown.
        let json = try JSONEncoder().encode(passkeys[0])
        let decoder = JSONDecoder()
        let start3 = ContinuousClock.now
        for _ in 0..<rounds where try decoder.decode(PasskeyRecord.self, from: json) != passkeys[0] { mismatches += 1 }
        let decodeOnly = ContinuousClock.now - start3
        #expect(mismatches == 0)
        print(
            "SQLiteStore point read (decode included): \(inOneRead / rounds) each inside one read transaction, "
                + "\(ownRead / 2_000) each as its own read transaction; JSON decode alone \(decodeOnly / rounds) "
                + "(\(json.count) bytes)")
    }
}

import Foundation
import SesameSQL
import SesameStore
import SesameTesting
import Testing

@testable import SesamePostgres
@testable import SesameSQLite

/// The configuration records (tenant, client, connection, API, signing key) in the binary form.
@Suite("The binary form of the configuration records")
struct ConfigurationRecordBinaryTests {
    static func fullTenant() -> TenantRecord {
        var tenant = Fixture.tenant(custom: ["id.example.com", "ログイン.example.jp"])
        tenant.signupUserExistsError = false
        return tenant
    }

    static func sparseClient() -> ClientRecord {
        ClientRecord(
            tenantID: "t1", id: "c2", name: "", appType: .spa, grantTypes: [], createdAt: Fixture.time(-1),
            updatedAt: Fixture.time(0))
    }

    static func resourceServer() -> ResourceServerRecord {
        ResourceServerRecord(
            tenantID: "t1", id: "rs_01", identifier: "https://api.example.com/", name: "Orders ✨",
            scopes: [
                ResourceServerScope(value: "read:orders", description: "Read orders"),
                ResourceServerScope(value: "write:orders", description: ""),
            ],
            signingAlgorithm: .es256, tokenLifetime: 600, allowOfflineAccess: true,
            skipConsentForVerifiableFirstPartyClients: false, createdAt: Fixture.time(3), updatedAt: Fixture.time(4))
    }

    func roundTrip<R: BinaryCodedRecord & Equatable>(_ record: R, _ table: String) throws {
        #expect(try RecordBinary.decode(R.self, from: RecordBinary.encode(record), table: table) == record)
    }

    @Test func everyFieldRoundTrips() throws {
        for tenant in [Fixture.tenant(), Self.fullTenant()] { try roundTrip(tenant, "tenants") }
        var noDefaults = Fixture.tenant()
        noDefaults.defaultConnectionID = nil
        noDefaults.signupUserExistsError = true
        try roundTrip(noDefaults, "tenants")
        for client in [Fixture.client(), Self.sparseClient()] { try roundTrip(client, "clients") }
        try roundTrip(Fixture.connection(), "connections")
        try roundTrip(
            ConnectionRecord(tenantID: "t1", id: "con2", name: "x", createdAt: .distantPast, updatedAt: .distantFuture),
            "connections")
        try roundTrip(Self.resourceServer(), "resource_servers")
        var key = Fixture.signingKey()
        try roundTrip(key, "signing_keys")
        key.rotatedAt = nil
        key.state = .revoked
        try roundTrip(key, "signing_keys")
    }

    @Test func everyTruncationIsCorruptNamingAField() throws {
        let forms: [(String, [UInt8], (Array<UInt8>) throws -> Void)] = [
            (
                "tenants", RecordBinary.encode(Self.fullTenant()),
                { _ = try RecordBinary.decode(TenantRecord.self, from: $0, table: "tenants") }
            ),
            (
                "clients", RecordBinary.encode(Fixture.client()),
                { _ = try RecordBinary.decode(ClientRecord.self, from: $0, table: "clients") }
            ),
            (
                "connections", RecordBinary.encode(Fixture.connection()),
                { _ = try RecordBinary.decode(ConnectionRecord.self, from: $0, table: "connections") }
            ),
            (
                "resource_servers", RecordBinary.encode(Self.resourceServer()),
                { _ = try RecordBinary.decode(ResourceServerRecord.self, from: $0, table: "resource_servers") }
            ),
            (
                "signing_keys", RecordBinary.encode(Fixture.signingKey()),
                { _ = try RecordBinary.decode(SigningKeyRecord.self, from: $0, table: "signing_keys") }
            ),
        ]
        for (table, bytes, decode) in forms {
            try decode(bytes)
            for length in 0..<bytes.count {
                do {
                    try decode(Array(bytes.prefix(length)))
                    Issue.record("\(table) truncated to \(length) bytes decoded")
                } catch let error as StoreError {
                    guard case .corrupt(let message) = error else {
                        Issue.record("\(table): \(error)")
                        continue
                    }
                    #expect(message.hasPrefix("a row of \(table) does not decode: field "), "\(message)")
                }
            }
        }
    }

    @Test func anUnknownVocabularyValueIsRefusedNotDefaulted() throws {
        var client = Fixture.client()
        client.jwtAlgorithm = .es256
        var bytes = RecordBinary.encode(client)
        // The algorithm's raw value "ES256" sits after the fields before it; spell it "XS256".
        let raw = Array("ES256".utf8)
        let at = try #require(
            (0...(bytes.count - raw.count)).first { Array(bytes[$0..<($0 + raw.count)]) == raw })
        bytes[at] = UInt8(ascii: "X")
        #expect(
            throws: StoreError.corrupt(
                "a row of clients does not decode: field jwtAlgorithm: unknown value \"XS256\"")
        ) { _ = try RecordBinary.decode(ClientRecord.self, from: bytes, table: "clients") }

        var grants = RecordBinary.encode(Fixture.client())
        let grant = Array("refresh_token".utf8)
        let grantAt = try #require(
            (0...(grants.count - grant.count)).first { Array(grants[$0..<($0 + grant.count)]) == grant })
        grants[grantAt] = UInt8(ascii: "R")
        #expect(
            throws: StoreError.corrupt(
                "a row of clients does not decode: field grantTypes[1]: unknown value \"Refresh_token\"")
        ) { _ = try RecordBinary.decode(ClientRecord.self, from: grants, table: "clients") }
    }

    @Test func aBinaryClientBeforeVersionTwoIsCorrupt() {
        var bytes = RecordBinary.encode(Fixture.client())
        bytes[1] = 1
        bytes[2] = 0
        #expect(
            throws: StoreError.corrupt(
                "a row of clients does not decode: field version: version 1 has no binary form")
        ) { _ = try RecordBinary.decode(ClientRecord.self, from: bytes, table: "clients") }
    }

    /// A database from before migration 11 holds configuration as JSON (a client even as
    /// version 1): the migration rewrites every row in the binary form, and each reads the same.
    @Test func migrationElevenRewritesConfigurationRows() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let tenant = Self.fullTenant()
        let client = Fixture.client()
        let connection = Fixture.connection()
        let api = Self.resourceServer()
        let key = Fixture.signingKey()
        do {
            let store = try SQLiteStore(path: path)
            try store.write(.durable) { tx in
                try tx.tenants.insert(tenant)
                try tx.clients.insert(client)
                try tx.connections.insert(connection)
                try tx.resourceServers.insert(api)
                try tx.signingKeys.insert(key)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            // The client as the first release wrote it: version 1, its vocabulary as strings.
            var old = try #require(
                try JSONSerialization.jsonObject(with: encoder.encode(client)) as? [String: Any])
            old["version"] = 1
            old["grantTypes"] = ["urn:okta:params:oauth:grant-type:webauthn", "authorization_code", "refresh_token"]
            let oldClient = String(decoding: try JSONSerialization.data(withJSONObject: old), as: UTF8.self)
            try store.executeRaw("UPDATE tenants SET data = CAST('\(try Fixture.legacyJSON(tenant))' AS BLOB)")
            try store.executeRaw("UPDATE clients SET version = 1, data = CAST('\(oldClient)' AS BLOB)")
            try store.executeRaw("UPDATE connections SET data = CAST('\(try Fixture.legacyJSON(connection))' AS BLOB)")
            try store.executeRaw("UPDATE resource_servers SET data = CAST('\(try Fixture.legacyJSON(api))' AS BLOB)")
            try store.executeRaw("UPDATE signing_keys SET data = CAST('\(try Fixture.legacyJSON(key))' AS BLOB)")
            try store.executeRaw("DELETE FROM schema_migrations WHERE version = 11")
        }
        let upgraded = try SQLiteStore(path: path)
        #expect(try upgraded.appliedMigrations().map(\.version) == Array(1...Migrations.all.count))
        for table in ["tenants", "clients", "connections", "resource_servers", "signing_keys"] {
            #expect(
                try upgraded.rawBytes("SELECT data FROM \(table)").allSatisfy { RecordBinary.isBinary($0) }, "\(table)")
        }
        #expect(try upgraded.rawBytes("SELECT version FROM clients").count == 1)
        try upgraded.read { tx throws in
            #expect(try tx.tenants.get(id: "t1") == tenant)
            #expect(try tx.clients.get(tenantID: "t1", id: "c1") == client)
            #expect(try tx.connections.get(tenantID: "t1", id: "con1") == connection)
            #expect(try tx.resourceServers.get(tenantID: "t1", id: api.id) == api)
            #expect(try tx.signingKeys.list(tenantID: "t1") == [key])
        }
    }
}

/// PostgreSQL migration 4 is SQLite 11: the same rewrite, on a real server.
@Suite("PostgreSQL migration 4", .enabled(if: TestPostgres.dsn != nil))
struct PostgresConfigurationMigrationTests {
    @Test func migrationFourRewritesConfigurationRows() throws {
        let schema = try PostgresTestSchema()
        let tenant = ConfigurationRecordBinaryTests.fullTenant()
        let client = Fixture.client()
        let api = ConfigurationRecordBinaryTests.resourceServer()
        do {
            let store = try PostgresStore(dsn: schema.dsn)
            try store.write(.durable) { tx in
                try tx.tenants.insert(tenant)
                try tx.clients.insert(client)
                try tx.resourceServers.insert(api)
                try tx.signingKeys.insert(Fixture.signingKey())
            }
        }
        let raw = try PostgresConnection(dsn: schema.dsn)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try raw.execute("UPDATE tenants SET data = ?", [.blob(Array(try encoder.encode(tenant)))])
        try raw.execute("UPDATE clients SET data = ?", [.blob(Array(try encoder.encode(client)))])
        try raw.execute("UPDATE resource_servers SET data = ?", [.blob(Array(try encoder.encode(api)))])
        try raw.execute("DELETE FROM schema_migrations WHERE version = 4")
        #expect(try raw.query("SELECT data FROM clients", []) { $0.bytes(0) }.allSatisfy { !RecordBinary.isBinary($0) })

        let upgraded = try PostgresStore(dsn: schema.dsn)
        for table in ["tenants", "clients", "connections", "resource_servers", "signing_keys"] {
            #expect(
                try raw.query("SELECT data FROM \(table)", []) { $0.bytes(0) }.allSatisfy { RecordBinary.isBinary($0) },
                "\(table)")
        }
        #expect(try raw.query("SELECT version FROM schema_migrations WHERE version = 4", []) { $0.integer(0) } == [4])
        try upgraded.read { tx throws in
            #expect(try tx.tenants.get(id: "t1") == tenant)
            #expect(try tx.clients.get(tenantID: "t1", id: "c1") == client)
            #expect(try tx.resourceServers.get(tenantID: "t1", id: api.id) == api)
        }
    }
}

import Foundation
import SesameSQL
import SesameStore
import Testing

@testable import SesameSQLite

@Suite("The binary form of the hot records")
struct RecordBinaryTests {
    static func fullUser() -> UserRecord {
        var user = Fixture.user()
        user.profile = UserProfile(
            email: "ada@example.com", emailVerified: true, phoneNumber: "+15550001", username: "ada", name: "Ada",
            givenName: "Ada", familyName: "Lovelace", nickname: "ada ✨", picture: "https://example.com/a.png")
        user.userMetadata = ["plan": "pro", "team": "🚀", "": "empty key"]
        user.blocked = true
        user.lastLoginAt = Fixture.time(123.456)
        user.passkeyPromptSnoozedUntil = Fixture.time(86_400)
        user.passkeyPlatforms = [.ios, .web]
        return user
    }

    static func fullPasskey() -> PasskeyRecord {
        var passkey = Fixture.passkey()
        passkey.signCount = .max
        passkey.backupEligible = true
        passkey.backupState = true
        passkey.transports = ["internal", "hybrid"]
        passkey.name = "iCloud Keychain"
        passkey.attestationFormat = .packed
        passkey.lastUsedAt = Fixture.time(1e9 + 0.125)
        return passkey
    }

    static func fullToken() -> RefreshTokenRecord {
        var token = Fixture.refreshToken()
        token.passkeyID = "passkey|01"
        token.usedAt = Fixture.time(-5)
        token.revokedAt = Fixture.time(6)
        token.dpopJKT = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        return token
    }

    @Test func everyFieldRoundTrips() throws {
        for user in [Fixture.user(email: nil, phone: nil, username: nil, name: nil), Self.fullUser()] {
            #expect(try RecordBinary.decode(UserRecord.self, from: RecordBinary.encode(user), table: "users") == user)
        }
        for passkey in [Fixture.passkey(), Self.fullPasskey()] {
            #expect(
                try RecordBinary.decode(PasskeyRecord.self, from: RecordBinary.encode(passkey), table: "passkeys")
                    == passkey)
        }
        for token in [Fixture.refreshToken(), Self.fullToken()] {
            #expect(
                try RecordBinary.decode(
                    RefreshTokenRecord.self, from: RecordBinary.encode(token), table: "refresh_tokens")
                    == token)
        }
    }

    @Test func authEventsRoundTrip() throws {
        var full = Fixture.event("e1", at: 12.5)
        full.clientID = "c1"
        full.userID = "sesame|01"
        full.platform = .iosOrWeb
        full.connectionID = "con1"
        full.passkeyKind = .deviceBound
        full.aaguid = Array(0..<16)
        full.clientPlatform = .android
        for event in [Fixture.event("e2", at: 0), full] {
            #expect(
                try RecordBinary.decode(AuthEventRecord.self, from: RecordBinary.encode(event), table: "auth_events")
                    == event)
        }
    }

    @Test func deviceKeysAndMigrationRulesRoundTrip() throws {
        var key = StoreConformanceTests.deviceKey("k1", at: 1)
        key.state = .migrated
        key.migratedAt = Fixture.time(2)
        key.migratedToPasskeyID = "passkey|01"
        key.expiresAt = Fixture.time(3)
        key.lastUsedAt = Fixture.time(2)
        for record in [StoreConformanceTests.deviceKey("k2", at: 0), key] {
            #expect(
                try RecordBinary.decode(DeviceKeyRecord.self, from: RecordBinary.encode(record), table: "k") == record)
        }
        var connection = ConnectionRecord(
            tenantID: "t1", id: "con1", name: "db", createdAt: Fixture.t0, updatedAt: Fixture.t0)
        connection.passkey.migration = PasskeyMigrationPolicy(
            minIOSVersion: "17", minAndroidVersion: "10", minIOSWebViewVersion: "17.1", minAndroidWebViewVersion: "14",
            deviceKeyGraceDays: 7, promptSnoozeDays: 3)
        #expect(
            try RecordBinary.decode(ConnectionRecord.self, from: RecordBinary.encode(connection), table: "c")
                == connection)
    }

    @Test func theSameRecordAlwaysGivesTheSameBytes() {
        #expect(RecordBinary.encode(Self.fullUser()) == RecordBinary.encode(Self.fullUser()))
        #expect(RecordBinary.encode(Self.fullUser()).first == RecordBinary.marker)
        #expect(!RecordBinary.isBinary(Array(#"{"id":"x"}"#.utf8)))
    }

    /// Every truncation of a valid row is refused as corrupt, naming a field; never a crash or a
    /// half-read record.
    @Test func everyTruncationIsCorrupt() throws {
        let bytes = RecordBinary.encode(Self.fullPasskey())
        for length in 0..<bytes.count {
            do {
                _ = try RecordBinary.decode(PasskeyRecord.self, from: Array(bytes.prefix(length)), table: "passkeys")
                Issue.record("a row cut to \(length) bytes was read")
            } catch let error as StoreError {
                guard case .corrupt(let message) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(message.hasPrefix("a row of passkeys does not decode: field "), "\(message)")
            }
        }
    }

    @Test func damageIsReportedByTheFieldItHits() throws {
        var user = Self.fullUser()
        var bytes = RecordBinary.encode(user)
        bytes.append(0)
        #expect(throws: StoreError.corrupt("a row of users does not decode: field end: bytes follow the last field")) {
            _ = try RecordBinary.decode(UserRecord.self, from: bytes, table: "users")
        }
        // The blocked flag is the byte after the metadata: make it neither 0 nor 1. (After it, in
        // a row of version 4: two dates, no last login, no password, no factors, no snooze, no
        // passkey platforms, no replacement of the password, no time of it.)
        user.lastLoginAt = nil
        user.password = nil
        user.passkeyPromptSnoozedUntil = nil
        user.passkeyPlatforms = []
        bytes = RecordBinary.encode(user, asVersion: 4)
        bytes[bytes.count - 1 - 4 - 4 - 1 - 4 - 1 - 1 - 8 - 8 - 1] = 7
        #expect(throws: StoreError.corrupt("a row of users does not decode: field blocked: not a boolean")) {
            _ = try RecordBinary.decode(UserRecord.self, from: bytes, table: "users")
        }
        // A passkey whose attestation format is unknown is refused, never read as "none".
        var writer = RecordWriter()
        writer.byte(RecordBinary.marker)
        writer.uint16(1)
        let passkey = Fixture.passkey()
        for text in [passkey.tenantID, passkey.id, passkey.userID] { writer.string(text) }
        writer.bytes(passkey.credentialID)
        writer.bytes(passkey.publicKey)
        writer.uint32(0)
        writer.bytes(passkey.aaguid)
        writer.bool(false)
        writer.bool(false)
        writer.strings([])
        writer.string("Key")
        writer.string("fido-u2f-typo")
        writer.date(Fixture.time(0))
        writer.optionalDate(nil)
        #expect(
            throws: StoreError.corrupt(
                #"a row of passkeys does not decode: field attestationFormat: unknown value "fido-u2f-typo""#)
        ) { _ = try RecordBinary.decode(PasskeyRecord.self, from: writer.bytes, table: "passkeys") }
        // Invalid UTF-8 in a string.
        var token = RecordBinary.encode(Fixture.refreshToken())
        token[3 + 4] = 0xFF
        #expect(throws: StoreError.corrupt("a row of refresh_tokens does not decode: field tenantID: not UTF-8")) {
            _ = try RecordBinary.decode(RefreshTokenRecord.self, from: token, table: "refresh_tokens")
        }
    }

    @Test func aRowFromANewerSesameIsRefused() {
        var bytes = RecordBinary.encode(Fixture.user())
        let newer = UserRecord.currentVersion + 1
        bytes[1] = UInt8(newer)
        #expect(
            throws: StoreError.corrupt(
                "a row of users has version \(newer), newer than this Sesame reads (\(UserRecord.currentVersion))")
        ) {
            _ = try RecordBinary.decode(UserRecord.self, from: bytes, table: "users")
        }
    }

    /// A database from before migration 10 holds hot records as JSON: the migration moves their
    /// changing fields into the columns and rewrites them in the binary form, and they read the same.
    @Test func migrationTenRewritesJSONRowsAndFillsTheColumns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sesame.db")
        let user = Self.fullUser()
        let passkey = Self.fullPasskey()
        let token = Self.fullToken()
        do {
            let store = try SQLiteStore(path: path)
            try store.write(.durable) { tx in
                try tx.users.insert(user)
                try tx.passkeys.insert(passkey)
                try tx.refreshTokens.insert(token)
            }
            // Put the rows back as a Sesame before migration 10 left them: JSON, columns at their defaults.
            try store.executeRaw(
                "UPDATE users SET last_login_at = NULL, data = CAST('\(try Fixture.legacyJSON(user))' AS BLOB)")
            try store.executeRaw(
                "UPDATE passkeys SET sign_count = 0, backup_state = 0, last_used_at = NULL, "
                    + "data = CAST('\(try Fixture.legacyJSON(passkey))' AS BLOB)")
            try store.executeRaw(
                "UPDATE refresh_tokens SET used_at = NULL, revoked_at = NULL, data = CAST('\(try Fixture.legacyJSON(token))' AS BLOB)"
            )
            try store.executeRaw("DELETE FROM schema_migrations WHERE version = 10")
        }
        let upgraded = try SQLiteStore(path: path)
        #expect(try upgraded.appliedMigrations().map(\.version) == Array(1...Migrations.all.count))
        #expect(try upgraded.read { try $0.users.get(tenantID: "t1", id: user.id) } == user)
        #expect(try upgraded.read { try $0.passkeys.get(tenantID: "t1", id: passkey.id) } == passkey)
        #expect(try upgraded.read { try $0.refreshTokens.get(tenantID: "t1", tokenHash: token.tokenHash) } == token)
        for table in ["users", "passkeys", "refresh_tokens"] {
            #expect(
                try upgraded.rawBytes("SELECT data FROM \(table)").allSatisfy { RecordBinary.isBinary($0) }, "\(table)")
        }
    }
}

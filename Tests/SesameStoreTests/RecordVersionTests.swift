import Foundation
import SesameStore
import Testing

/// Rows in an older binary version, written field by field as that version wrote them, read as
/// records of the current version with the later fields at their defaults.
@Suite("Older binary versions read as the current one")
struct RecordVersionTests {
    static func row(version: UInt16, _ body: (inout RecordWriter) -> Void) -> [UInt8] {
        var writer = RecordWriter()
        writer.byte(RecordBinary.marker)
        writer.uint16(version)
        body(&writer)
        return writer.bytes
    }

    @Test func aUserOfVersionOne() throws {
        let user = Fixture.user()
        let bytes = Self.row(version: 1) { writer in
            writer.string(user.tenantID)
            writer.string(user.id)
            writer.string(user.connectionID)
            writer.bytes(user.userHandle)
            for value in [user.profile.email] { writer.optionalString(value) }
            writer.bool(user.profile.emailVerified)
            for value in [
                user.profile.phoneNumber, user.profile.username, user.profile.name, user.profile.givenName,
                user.profile.familyName, user.profile.nickname, user.profile.picture,
            ] { writer.optionalString(value) }
            writer.stringMap(user.userMetadata)
            writer.bool(user.blocked)
            writer.date(user.createdAt)
            writer.date(user.updatedAt)
            writer.optionalDate(user.lastLoginAt)
        }
        var expected = user
        expected.password = nil
        let read = try RecordBinary.decode(UserRecord.self, from: bytes, table: "users")
        #expect(read == expected)
        #expect(read.version == UserRecord.currentVersion)
    }

    @Test func aUserOfVersionThree() throws {
        var user = Fixture.user()
        user.passkeyPromptSnoozedUntil = Fixture.time(50)
        user.passkeyPlatforms = [.android]
        let read = try RecordBinary.decode(
            UserRecord.self, from: RecordBinary.encode(user, asVersion: 3), table: "users")
        #expect(read == user)
    }

    @Test func aConnectionOfVersionOneKeptAMinimumLength() throws {
        let bytes = Self.row(version: 1) { writer in
            for text in ["t1", "con1", "db", "required", "disabled", "optional"] { writer.string(text) }
            writer.bool(true)
            writer.string("both")
            writer.bool(true)
            writer.bool(false)
            writer.string("preferred")
            writer.int(20)
            writer.bool(true)
            writer.int(12)
            writer.strings(["c1"])
            writer.date(Fixture.time(1))
            writer.date(Fixture.time(2))
        }
        let read = try RecordBinary.decode(ConnectionRecord.self, from: bytes, table: "connections")
        var expected = ConnectionRecord(
            tenantID: "t1", id: "con1", name: "db", createdAt: Fixture.time(1), updatedAt: Fixture.time(2))
        expected.passkey.localEnrollmentEnabled = false
        expected.password = PasswordPolicy(enabled: true, rules: PasswordPolicy.rules(minLength: 12))
        expected.enabledClients = ["c1"]
        #expect(read == expected)
        #expect(read.version == ConnectionRecord.currentVersion)
    }

    @Test func anAuthEventOfVersionOne() throws {
        let event = Fixture.event("e1", at: 3)
        let bytes = Self.row(version: 1) { writer in
            writer.string(event.tenantID)
            writer.string(event.id)
            writer.date(event.at)
            writer.string(event.type.rawValue)
            writer.string(event.method.rawValue)
            writer.string(event.outcome.rawValue)
            writer.optionalString(event.clientID)
            writer.optionalString(event.userID)
            writer.optionalString(event.platform?.rawValue)
        }
        #expect(try RecordBinary.decode(AuthEventRecord.self, from: bytes, table: "auth_events") == event)
    }

    @Test func aTenantOfVersionOne() throws {
        let tenant = Fixture.tenant()
        var current = RecordBinary.encode(tenant)
        current[1] = 1
        // Version 1 ends at updatedAt; everything after it came with later versions.
        let versionOneLength = Self.row(version: 1) { writer in
            for text in [tenant.id, tenant.name, tenant.domain] { writer.string(text) }
            writer.strings(tenant.customDomains)
            writer.string(tenant.rpID)
            writer.string(tenant.publicURL)
            writer.strings(tenant.allowedOrigins)
            writer.strings(tenant.relatedOrigins)
            for value in [
                tenant.accessTokenLifetime, tenant.idTokenLifetime, tenant.refreshTokenLifetime,
                tenant.refreshTokenIdleLifetime,
            ] { writer.int(value) }
            writer.optionalString(tenant.defaultConnectionID)
            writer.optionalBool(tenant.signupUserExistsError)
            writer.date(tenant.createdAt)
            writer.date(tenant.updatedAt)
        }.count
        let read = try RecordBinary.decode(
            TenantRecord.self, from: Array(current.prefix(versionOneLength)), table: "tenants")
        #expect(read == tenant)
        #expect(read.version == TenantRecord.currentVersion)
    }

    @Test func aClientOfVersionTwoHasNoLogoutURLs() throws {
        var client = Fixture.client()
        client.allowedLogoutURLs = []
        let versionTwo = RecordBinary.encode(client, asVersion: 2)
        // Version 3 appended the logout URLs: an empty list is 4 bytes.
        #expect(versionTwo.count == RecordBinary.encode(client, asVersion: 3).count - 4)
        #expect(try RecordBinary.decode(ClientRecord.self, from: versionTwo, table: "clients") == client)
    }
}

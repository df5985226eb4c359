import Foundation
import SesameSQL
import SesameStore
import Testing

/// JSON rows exactly as the first releases wrote them, before passwords, second factors and the
/// password rules existed: they still read, with the new fields at their defaults.
@Suite("Rows from the first releases")
struct LegacyRecordTests {
    @Test func aUserWithoutPasswordOrFactorsReads() throws {
        let json = """
            {"blocked":false,"connectionID":"con1","createdAt":0,"id":"sesame|01",\
            "profile":{"email":"ada@example.com","emailVerified":true},"tenantID":"t1","updatedAt":1,\
            "userHandle":"AQIDBA==","userMetadata":{},"version":1}
            """
        let user = try RecordJSON().decode(UserRecord.self, from: Data(json.utf8), table: "users")
        #expect(user.password == nil)
        #expect(user.mfa.isEmpty)
        #expect(user.profile.email == "ada@example.com")
        // Stored again, it is the current version and reads back the same.
        let again = try RecordBinary.decode(UserRecord.self, from: RecordBinary.encode(user), table: "users")
        #expect(again.version == UserRecord.currentVersion)
        #expect(again.mfa == user.mfa && again.password == user.password && again.profile == user.profile)
    }

    @Test func aConnectionWithAMinimumLengthGetsRules() throws {
        let json = """
            {"createdAt":0,"enabledClients":[],"id":"con1",\
            "identifiers":{"email":"required","phoneNumber":"disabled","username":"optional"},"name":"Members",\
            "passkey":{"challengeUI":"both","enabled":true,"localEnrollmentEnabled":true,"maxPasskeysPerUser":20,\
            "progressiveEnrollmentEnabled":true,"userVerification":"preferred"},\
            "password":{"enabled":true,"minLength":14},"tenantID":"t1","updatedAt":1,"version":1}
            """
        let connection = try RecordJSON().decode(ConnectionRecord.self, from: Data(json.utf8), table: "connections")
        #expect(connection.password.enabled)
        #expect(connection.password.rules == "minlength: 14; maxlength: 64; allowed: ascii-printable;")
        #expect(connection.password.hashing == Argon2Parameters())
    }

    @Test func aTenantWithoutMFAOrBreachSettingsReads() throws {
        let json = """
            {"accessTokenLifetime":86400,"allowedOrigins":[],"createdAt":0,"customDomains":[],\
            "domain":"login.example.com","id":"t1","idTokenLifetime":36000,"name":"t","publicURL":"https://login.example.com",\
            "refreshTokenIdleLifetime":1296000,"refreshTokenLifetime":2592000,"relatedOrigins":[],"rpID":"login.example.com",\
            "updatedAt":1,"version":1}
            """
        let tenant = try RecordJSON().decode(TenantRecord.self, from: Data(json.utf8), table: "tenants")
        #expect(tenant.mfa == MFASettings())
        #expect(tenant.breachedPasswords == BreachedPasswordSettings())
    }
}

import Foundation
import SesameStore
import Testing

/// The stored bytes of every binary record, pinned. Rows already written must read the same after
/// any change to how the codec is declared, so a sample with every field set is encoded as the
/// version named (the current one when it was pinned) and its length and FNV-1a digest compared
/// with the values that version has always written. A later version adds fields; it never changes these.
@Suite("The stored bytes of every record stay the same")
struct RecordBytesTests {
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\(bytes.count):" + String(hash, radix: 16)
    }

    /// The version each record was at when its bytes were pinned.
    static let pinnedVersions: [ObjectIdentifier: Int] = [
        ObjectIdentifier(UserRecord.self): 4, ObjectIdentifier(TenantRecord.self): 5,
        ObjectIdentifier(ConnectionRecord.self): 6, ObjectIdentifier(ClientRecord.self): 3,
        ObjectIdentifier(AuthEventRecord.self): 2,
    ]

    static func pinned<R: BinaryCodedRecord & Equatable>(
        _ record: R, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = RecordBinary.encode(record, asVersion: pinnedVersions[ObjectIdentifier(R.self)] ?? 1)
        #expect(digest(bytes) == expected, "\(R.self)", sourceLocation: sourceLocation)
        #expect(try RecordBinary.decode(R.self, from: bytes, table: "t") == record)
    }

    static func fullUser() -> UserRecord {
        var user = RecordBinaryTests.fullUser()
        user.mfa = [
            MFAEnrollment(
                id: "totp|1", factor: .otp, active: true, createdAt: Fixture.time(7), sealedSecret: [1, 2, 3],
                lastUsedStep: -4, phoneNumber: nil, codeHash: []),
            MFAEnrollment(
                id: "sms|2", factor: .sms, active: false, createdAt: Fixture.time(8), phoneNumber: "+15550002",
                codeHash: [9, 9]),
        ]
        user.passwordReplacement = .passkey
        user.passwordReplacedAt = Fixture.time(9)
        return user
    }

    static func fullTenant() -> TenantRecord {
        var tenant = Fixture.tenant(custom: ["id.example.com", "ログイン.example.jp"])
        tenant.signupUserExistsError = false
        tenant.mfa = MFASettings(factors: [.otp, .sms], policy: .allApplications)
        tenant.breachedPasswords = BreachedPasswordSettings(
            enabled: true, shields: [.block, .userNotification], adminNotificationFrequency: [.daily],
            method: .enhanced, signupShields: [.block], changePasswordShields: [], rangeURL: "https://range.example")
        tenant.sessionLifetime = 1234
        tenant.idleSessionLifetime = 567
        tenant.adminUserIDs = ["sesame|01", "sesame|02"]
        tenant.branding = BrandingSettings(
            primaryColor: "#123456", pageBackground: nil, logoURL: "https://example.com/l.png",
            texts: ["ja": ["title": "ようこそ"], "en": ["title": "Welcome", "button": "Go"]])
        tenant.auditRetentionDays = 40
        tenant.deletedPasskeyRetentionDays = 12
        return tenant
    }

    static func fullConnection() -> ConnectionRecord {
        var connection = Fixture.connection()
        connection.passkey.migration = PasskeyMigrationPolicy(
            minIOSVersion: "17", minAndroidVersion: "10", minIOSWebViewVersion: "17.1", minAndroidWebViewVersion: "14",
            deviceKeyGraceDays: 7, promptSnoozeDays: 3)
        connection.strategy = .apple
        connection.upgrades = UpgradePolicy(allowed: [.passkey], maxAuthAge: 99, stepUp: .always)
        connection.apple = AppleSettings(
            teamID: "TEAM", keyID: "KEY", servicesID: "com.example.web", appIDs: ["com.example.app"],
            sealedKey: [4, 5, 6])
        connection.passkey.attestationRequirement = .fidoCertifiedL2
        connection.passkey.onePerProvider = true
        return connection
    }

    @Test func theHotRecords() throws {
        try Self.pinned(Self.fullUser(), "523:af0108ccf5a022eb")
        try Self.pinned(Fixture.user(email: nil, phone: nil, username: nil, name: nil), "306:4d593a79ba99fb39")
        try Self.pinned(RecordBinaryTests.fullPasskey(), "150:2170849e3affed8b")
        try Self.pinned(RecordBinaryTests.fullToken(), "257:7dfe4af7e90eef18")
        var event = Fixture.event("e1", at: 12.5)
        event.connectionID = "con1"
        event.passkeyKind = .deviceBound
        event.aaguid = Array(0..<16)
        event.clientPlatform = .android
        event.conditional = true
        try Self.pinned(event, "151:e08589fda72e944")
        try Self.pinned(
            OutboxMessageRecord(
                tenantID: "t1", id: "m1", createdAt: Fixture.time(3), channel: .sms, template: .passwordReset,
                recipient: "+15550001", sealedText: [7, 7, 7]), "68:a6e832b3d022ae6a")
    }

    @Test func theConfigurationRecords() throws {
        try Self.pinned(Self.fullTenant(), "585:c9992df668dc416e")
        try Self.pinned(Fixture.tenant(), "314:9f82fafe60c6a4d9")
        try Self.pinned(Fixture.client(), "343:325ad6459822538")
        var client = Fixture.client()
        client.ios = nil
        client.android = nil
        client.secretHash = nil
        client.allowedLogoutURLs = ["https://app.example.com/bye"]
        try Self.pinned(client, "301:13883a39ae992fb0")
        try Self.pinned(Self.fullConnection(), "508:70355587d5322822")
        try Self.pinned(Fixture.connection(), "326:908604b9a65c3cd6")
        try Self.pinned(ConfigurationRecordBinaryTests.resourceServer(), "149:52db2158a0b3181c")
        try Self.pinned(Fixture.signingKey(), "123:1f3067b2aedcc4dd")
    }

    @Test func theOtherRecords() throws {
        var key = StoreConformanceTests.deviceKey("k1", at: 1)
        key.state = .migrated
        key.model = "iPhone15,2"
        key.migratedAt = Fixture.time(2)
        key.migratedToPasskeyID = "passkey|01"
        key.expiresAt = Fixture.time(3)
        key.lastUsedAt = Fixture.time(2)
        try Self.pinned(key, "227:9f82cab2efe6d3b8")
        try Self.pinned(
            SSOSessionRecord(
                tenantID: "t1", id: "s1", cookieHash: [1, 2], userID: "sesame|01", connectionID: "con1",
                createdAt: Fixture.time(1), lastSeenAt: Fixture.time(2), idleExpiresAt: Fixture.time(3),
                expiresAt: Fixture.time(4), authTime: Fixture.time(1), amr: ["pwd", "mfa"], userAgent: "Safari",
                clientAddress: "127.0.0.1", clientIDs: ["c1", "c2"]), "139:5955a66fbfc2bbfd")
        try Self.pinned(
            AuditEventRecord(
                tenantID: "t1", id: "a1", at: Fixture.time(5), type: .successLogin, clientID: "c1",
                userID: "sesame|01", userName: "ada", connectionID: "con1", ip: "127.0.0.1", userAgent: "curl",
                details: AuditDetails(
                    method: .password, reason: nil, requestMethod: nil, requestPath: "/oauth/token", status: 200,
                    target: "x", scope: "openid")), "146:347ed458a21a92da")
        try Self.pinned(
            AuditEventRecord(tenantID: "t1", id: "a2", at: Fixture.time(6), type: .failedLogin), "41:c2719c3647cf57a4")
        try Self.pinned(
            LinkedIdentityRecord(
                tenantID: "t1", connectionID: "con1", provider: .apple, subject: "001.abc", userID: "sesame|01",
                email: "a@privaterelay.appleid.com", emailVerified: true, isPrivateEmail: true,
                createdAt: Fixture.time(1), lastLoginAt: Fixture.time(2)), "100:813ae948a448d27c")
        try Self.pinned(
            AuthenticatorMetadataRecord(
                aaguid: "ee882879-721c-4913-9775-3dfcce97072a", attestationKeyIdentifiers: ["ab"],
                description: "YubiKey 5", icon: "data:image/png;base64,AA==", authenticatorVersion: 50100,
                protocolFamily: .fido2, attestationTypes: [.basicFull, .attCA],
                attestationRootCertificates: [[0x30, 1], [0x30, 2, 3]],
                statusReports: [
                    MetadataStatusReport(status: .known(.fidoCertified), effectiveDate: "2020-01-01"),
                    MetadataStatusReport(status: .unrecognized("SOMETHING_NEW"), certificateNumber: "N1"),
                ],
                timeOfLastStatusChange: "2021-02-03"), "236:bf7b14fc6d65b21a")
        try Self.pinned(
            MetadataBLOBRecord(
                serial: 77, nextUpdate: "2027-01-01", legalHeader: "Retrieval and use…", entryCount: 3,
                sha256: [UInt8](repeating: 0xEE, count: 32), importedAt: Fixture.time(10)), "101:23b619def695d66")
    }

    /// Every record's full sample, cut at every length and with every byte flipped, is refused as
    /// corrupt naming a field, or (a flip inside a value) read as some record: never a crash.
    @Test func damageToAnyRecordIsAnErrorNotACrash() throws {
        func damage<R: BinaryCodedRecord>(_ record: R) {
            let bytes = RecordBinary.encode(record)
            for length in 0..<bytes.count {
                do {
                    _ = try RecordBinary.decode(R.self, from: Array(bytes.prefix(length)), table: "t")
                    Issue.record("\(R.self) cut to \(length) bytes was read")
                } catch {
                    #expect("\(error)".contains("does not decode: field "), "\(R.self): \(error)")
                }
            }
            for index in 3..<bytes.count {
                var flipped = bytes
                flipped[index] ^= 0xFF
                do {
                    _ = try RecordBinary.decode(R.self, from: flipped, table: "t")
                } catch {
                    #expect("\(error)".contains("does not decode: field "), "\(R.self): \(error)")
                }
            }
        }
        damage(Self.fullUser())
        damage(RecordBinaryTests.fullPasskey())
        damage(RecordBinaryTests.fullToken())
        damage(Self.fullTenant())
        damage(Self.fullConnection())
        damage(Fixture.client())
        damage(ConfigurationRecordBinaryTests.resourceServer())
        damage(Fixture.signingKey())
    }
}

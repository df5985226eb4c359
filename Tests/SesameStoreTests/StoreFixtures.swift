import Foundation
import SesamePostgres
import SesameSQLite
import SesameStore
import SesameTesting

/// The implementations the conformance suite runs against: PostgreSQL too when
/// `SESAME_TEST_POSTGRES_DSN` names a server (`make test` starts one; scripts/postgres.sh).
enum StoreKind: String, CaseIterable, Sendable {
    case memory
    case sqlite
    /// SQLite behind the configuration cache the server uses: the contract must hold through it.
    case cachedSQLite
    /// PostgreSQL, each test in a schema of its own.
    case postgres

    static var allCases: [StoreKind] {
        [.memory, .sqlite, .cachedSQLite] + (TestPostgres.dsn == nil ? [] : [.postgres])
    }

    /// A fresh, empty store of this kind.
    func make() throws -> TestStore {
        switch self {
        case .memory: return TestStore(store: InMemoryStore(), directory: nil)
        case .sqlite:
            let directory = try TemporaryDirectory()
            return TestStore(store: try SQLiteStore(path: directory.file("sesame.db")), directory: directory)
        case .cachedSQLite:
            let directory = try TemporaryDirectory()
            return TestStore(
                store: CachingStore(try SQLiteStore(path: directory.file("sesame.db"))), directory: directory)
        case .postgres:
            let schema = try PostgresTestSchema()
            return TestStore(store: try PostgresStore(dsn: schema.dsn), directory: nil, schema: schema)
        }
    }
}

/// Keeps a test's store and removes its files when the test is done with it.
final class TestStore: Sendable {
    let store: any SesameStore
    let directory: TemporaryDirectory?
    let schema: PostgresTestSchema?
    init(store: any SesameStore, directory: TemporaryDirectory?, schema: PostgresTestSchema? = nil) {
        self.store = store
        self.directory = directory
        self.schema = schema
    }

    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T { try store.read(body) }
    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T { try store.write(.relaxed, body) }
}

/// A directory under the system temporary directory, removed on deinit.
final class TemporaryDirectory: Sendable {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Records with every field set (dates with sub-millisecond parts, so exact round trips are checked).
enum Fixture {
    static let t0 = Date(timeIntervalSinceReferenceDate: 770_000_000.123_456_7)

    static func time(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// `value` as an older Sesame stored it (JSON, sorted keys), quoted for a SQL string literal.
    static func legacyJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self).replacingOccurrences(of: "'", with: "''")
    }

    static func tenant(_ id: String = "t1", domain: String = "login.example.com", custom: [String] = []) -> TenantRecord
    {
        TenantRecord(
            id: id, name: "Tenant \(id)", domain: domain, customDomains: custom, rpID: "example.com",
            publicURL: "https://\(domain)", allowedOrigins: ["https://app.example.com"],
            relatedOrigins: ["https://example.org"], accessTokenLifetime: 3600, idTokenLifetime: 600,
            refreshTokenLifetime: 7200, refreshTokenIdleLifetime: 1800, defaultConnectionID: "con1", createdAt: t0,
            updatedAt: time(1))
    }

    static func client(_ id: String = "c1", tenant: String = "t1", at seconds: Double = 0) -> ClientRecord {
        ClientRecord(
            tenantID: tenant, id: id, name: "App \(id)", appType: .native,
            grantTypes: [.webAuthn, .refreshToken],
            callbacks: ["com.example.app://callback"], allowedOrigins: ["https://app.example.com"], isFirstParty: false,
            tokenEndpointAuthMethod: .clientSecretPost, secretHash: [1, 2, 3, 255], jwtAlgorithm: .es256,
            ios: IOSAppSettings(teamID: "ABCDE12345", bundleIdentifier: "com.example.app"),
            android: AndroidAppSettings(packageName: "com.example.app", sha256CertFingerprints: ["AB:CD"]),
            grants: [ClientGrantSettings(audience: "https://api.example.com", scopes: ["read:users"])],
            createdAt: time(seconds), updatedAt: time(seconds + 1))
    }

    static func connection(
        _ id: String = "con1", name: String = "Passkeys", tenant: String = "t1", at seconds: Double = 0
    )
        -> ConnectionRecord
    {
        ConnectionRecord(
            tenantID: tenant, id: id, name: name,
            identifiers: IdentifierPolicy(email: .optional, phoneNumber: .optional, username: .required),
            passkey: PasskeyPolicy(
                enabled: true, challengeUI: .button, progressiveEnrollmentEnabled: false,
                localEnrollmentEnabled: false,
                userVerification: .required, maxPasskeysPerUser: 5),
            password: PasswordPolicy(
                enabled: true, rules: "minlength: 16; required: lower;",
                hashing: Argon2Parameters(memoryKiB: 47_104, iterations: 1, parallelism: 2)),
            enabledClients: ["c1"], createdAt: time(seconds),
            updatedAt: time(seconds + 1))
    }

    static func user(
        _ id: String = "sesame|01", tenant: String = "t1", connection: String = "con1", handle: UInt8 = 1,
        email: String? = "Ada@Example.com", phone: String? = "+15550001", username: String? = "Ada",
        name: String? = "Ada Lovelace", at seconds: Double = 0
    ) -> UserRecord {
        UserRecord(
            tenantID: tenant, id: id, connectionID: connection, userHandle: [UInt8](repeating: handle, count: 32),
            profile: UserProfile(
                email: email, emailVerified: true, phoneNumber: phone, username: username, name: name,
                givenName: "Ada", familyName: "Lovelace", nickname: "ada", picture: "https://example.com/ada.png"),
            userMetadata: ["theme": "dark"], blocked: false, createdAt: time(seconds), updatedAt: time(seconds + 1),
            lastLoginAt: time(seconds + 2),
            password: PasswordCredential(
                id: "password|\(id)", scheme: .bcrypt,
                hash: "$2b$04$abcdefghijklmnopqrstuu5VeI2ANjQ3VmkyJ0xVL3pHIJ3OaTD5G",
                createdAt: time(seconds), changedAt: time(seconds + 3)))
    }

    static func passkey(
        _ id: String = "passkey|01", tenant: String = "t1", user: String = "sesame|01",
        credential: [UInt8] = [9, 9, 9],
        at seconds: Double = 0
    ) -> PasskeyRecord {
        PasskeyRecord(
            tenantID: tenant, id: id, userID: user, credentialID: credential, publicKey: [0xA5, 1, 2, 3, 0],
            signCount: 4_000_000_000, aaguid: [UInt8](repeating: 0xAD, count: 16), backupEligible: true,
            backupState: true, transports: ["internal", "hybrid"], name: "iPhone", attestationFormat: .none,
            createdAt: time(seconds), lastUsedAt: time(seconds + 5))
    }

    static func signingKey(_ id: String = "k1", tenant: String = "t1", at seconds: Double = 0) -> SigningKeyRecord {
        SigningKeyRecord(
            tenantID: tenant, id: id, algorithm: .es256, sealedPrivateKey: [UInt8](repeating: 7, count: 60),
            publicKeySPKI: [0x30, 0x59, 0], state: .current, createdAt: time(seconds), rotatedAt: time(seconds + 9))
    }

    static func refreshToken(
        _ id: String = "r1", tenant: String = "t1", hash: UInt8 = 1, family: String = "f1", user: String = "sesame|01"
    ) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tenantID: tenant, id: id, tokenHash: [UInt8](repeating: hash, count: 32), familyID: family, clientID: "c1",
            userID: user, scope: "openid offline_access", audience: "https://api.example.com", amr: ["passkey"],
            authTime: t0, createdAt: time(1), expiresAt: time(7200), idleExpiresAt: time(1800))
    }

    static func event(_ id: String, tenant: String = "t1", at seconds: Double) -> AuthEventRecord {
        AuthEventRecord(
            tenantID: tenant, id: id, at: time(seconds), type: .login, method: .passkey, outcome: .success,
            clientID: "c1", userID: "sesame|01", platform: .iosOrWeb)
    }
}

/// An error a test body throws on purpose.
struct Abort: Error, Equatable {}

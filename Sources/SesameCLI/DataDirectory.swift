import Foundation
import SesameCrypto
import SesamePostgres
import SesameSQLite
import SesameService
import SesameStore

/// The data directory of `sesame serve` and `sesame init`: the SQLite database, the master key.
struct DataDirectory {
    let path: String

    var databasePath: String { (path as NSString).appendingPathComponent("sesame.db") }

    /// Creates the directory (0700) when missing.
    func create() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DataDirectoryError("\(path) exists and is not a directory") }
            return
        }
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The master key: `SESAME_MASTER_KEY`, or `master.key` in the directory (created on first use).
    func masterKey(variables: [String: String]) throws -> MasterKey {
        try MasterKey.load(environment: variables, dataDirectory: path)
    }

    /// The master key and the store of `init` and `serve`. The directory is made only when
    /// something is kept in it: the SQLite database, or `master.key` when `SESAME_MASTER_KEY` is
    /// not set. PostgreSQL with the key in the environment leaves the working directory alone.
    func open(_ location: StoreLocation, variables: [String: String]) throws -> (MasterKey, any SesameStore) {
        if location == .sqlite || variables[MasterKey.environmentVariable] == nil { try create() }
        return (try masterKey(variables: variables), try openStore(location))
    }

    func openStore() throws -> SQLiteStore {
        try SQLiteStore(path: databasePath)
    }

    /// The store `--store` names (a PostgreSQL URI), or SQLite in this directory without one.
    func openStore(_ location: StoreLocation) throws -> any SesameStore {
        switch location {
        case .sqlite: return try openStore()
        case .postgres(let dsn): return try PostgresStore(dsn: dsn)
        }
    }

    /// Whether the store already holds a tenant.
    static func isInitialised(_ store: any SesameStore) throws -> Bool {
        try store.read { try !$0.tenants.all().isEmpty }
    }

    /// Bootstraps an empty store: tenant, connection, clients, and the tenant's signing keys.
    static func initialise(
        store: any SesameStore, masterKey: MasterKey, publicURL: String, now: Date
    ) throws -> BootstrapResult {
        var (result, tenant) = try Bootstrap.initialize(
            store: store, publicURL: publicURL, random: SystemRandom(), now: now)
        try SigningKeyRing(store: store, masterKey: masterKey, clock: SystemClock()).ensureKeys(tenantID: tenant.id)
        let link = try AdminAccess(store: store, clock: SystemClock(), random: SystemRandom()).newSetupLink(
            tenant: tenant)
        result.adminSetupURL = tenant.publicURL + link
        return result
    }

    /// The human summary `init` and a first `serve` print. The secret is shown only here.
    static func summary(_ result: BootstrapResult, publicURL: String) -> String {
        """
        Initialised a new Sesame tenant.
          tenant:                    \(result.tenant)
          RP ID:                     \(result.rpID)
          public URL:                \(publicURL)
          connection (realm):        \(result.connection)
          native client_id:          \(result.clientID)
          management client_id:      \(result.managementClientID)
          management client_secret:  \(result.managementClientSecret)
        Make yourself the administrator (once, within 7 days), then manage clients at /admin:
          \(result.adminSetupURL ?? "(no setup link)")
        The management secret is shown once; store it now. Get a Management API token with:
          curl -s \(publicURL)/oauth/token -H 'Content-Type: application/json' -d '{"grant_type":"client_credentials",
            "client_id":"\(result.managementClientID)","client_secret":"<secret>","audience":"\(Bootstrap.issuer(publicURL: publicURL))api/v2/"}'

        """
    }
}

/// Where the records live: `--store postgres://…` (or `SESAME_STORE`), else SQLite in `--data`.
enum StoreLocation: Equatable {
    case sqlite
    case postgres(String)

    /// Parses `--store`; a value that is not a PostgreSQL URI is a usage error.
    static func parse(_ value: String?) throws(UsageError) -> StoreLocation {
        guard let value, !value.isEmpty else { return .sqlite }
        guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
            throw UsageError("--store must be a postgres:// or postgresql:// URI (without it, SQLite in --data)")
        }
        return .postgres(value)
    }

    /// Whether several processes may share it (auth sessions then live in the store).
    var isShared: Bool { self != .sqlite }
}

struct DataDirectoryError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import SesamePostgres
import SesameSQLite
import SesameStore

/// The stores tests run on: in memory, SQLite as `sesame serve` uses it, and PostgreSQL when
/// `SESAME_TEST_POSTGRES_DSN` names a server (`make test` starts one; scripts/postgres.sh).
public enum TestStoreKind: String, CaseIterable, Sendable {
    case memory
    case sqlite
    case postgres

    /// The kinds this test run has: PostgreSQL only with a test server.
    public static var allCases: [TestStoreKind] { [.memory, .sqlite] + (TestPostgres.dsn == nil ? [] : [.postgres]) }
}

/// A fresh, empty store of one kind, and what it needs removed afterwards (the SQLite file's
/// directory, the PostgreSQL schema), removed when the database is released.
public final class TestDatabase: Sendable {
    public let kind: TestStoreKind
    public let store: any SesameStore
    /// The SQLite database's directory; nil for the other kinds.
    public let directory: URL?
    /// The PostgreSQL schema; nil for the other kinds.
    public let schema: PostgresTestSchema?

    public init(_ kind: TestStoreKind, prefix: String = "sesame-test") throws {
        self.kind = kind
        switch kind {
        case .memory:
            store = InMemoryStore()
            directory = nil
            schema = nil
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "\(prefix)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try SQLiteStore(path: directory.appendingPathComponent("sesame.db").path)
            self.directory = directory
            schema = nil
        case .postgres:
            let created = try PostgresTestSchema(prefix: "h_")
            store = try PostgresStore(dsn: created.dsn)
            schema = created
            directory = nil
        }
    }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

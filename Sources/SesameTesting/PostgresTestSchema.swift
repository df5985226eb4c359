import Foundation
import SesamePostgres
import SesameStore

/// The PostgreSQL server the tests may use: `SESAME_TEST_POSTGRES_DSN` (`make test` starts one with
/// scripts/postgres.sh and sets it); nil when there is none, and the PostgreSQL cases are left out.
public enum TestPostgres {
    public static let dsn = ProcessInfo.processInfo.environment["SESAME_TEST_POSTGRES_DSN"].flatMap {
        $0.isEmpty ? nil : $0
    }
}

/// A fresh schema on the test server, first on the search path of `dsn`, dropped on deinit: each
/// test gets an empty database of its own.
public final class PostgresTestSchema: Sendable {
    public let name: String
    /// The server's DSN with the schema first on the search path.
    public let dsn: String
    private let base: String

    /// A schema named `prefix` plus a random suffix; throws when there is no test server.
    public init(prefix: String = "t_") throws {
        guard let base = TestPostgres.dsn else { throw StoreError.unavailable("no SESAME_TEST_POSTGRES_DSN") }
        self.base = base
        name = prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresStore.createSchema(name, dsn: base)
        dsn =
            base.contains("://")
            ? base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)"
            : base + " options='-csearch_path=\(name)'"
    }

    deinit { try? PostgresStore.dropSchema(name, dsn: base) }
}

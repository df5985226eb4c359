import Foundation
import SesameSQL
import SesameTesting
import Testing

@testable import SesamePostgres
@testable import SesameSQLite

/// The one description of the tables (`SQLSchema`), from which both backends' migrations render
/// their DDL, against the schemas those migrations actually build: every table and column, with
/// its type in the dialect and its nullability, and nothing the description does not name.
@Suite("The SQL schema description")
struct SQLSchemaTests {
    /// "table.column TYPE NULL|NOT NULL" for every column the description ends with.
    static func described(in dialect: SQLDialect) -> Set<String> {
        Set(
            SQLSchema.columns.flatMap { table, columns in
                columns.map {
                    "\(table).\($0.name) \($0.type.name(in: dialect)) \($0.nullable ? "NULL" : "NOT NULL")"
                }
            })
    }

    @Test func theSQLiteSchemaIsTheDescription() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        let built = Set(
            try store.rawBytes(
                """
                SELECT CAST(m.name || '.' || c.name || ' ' || c.type
                    || CASE WHEN c."notnull" = 1 OR c.pk > 0 AND c.type = 'INTEGER' THEN ' NOT NULL' ELSE ' NULL' END
                    AS BLOB)
                FROM sqlite_master m JOIN pragma_table_info(m.name) c
                WHERE m.type = 'table' AND m.name <> 'schema_migrations'
                """
            ).map { String(decoding: $0, as: UTF8.self) })
        // A rowid alias (metadata_blob.id) never holds NULL, whatever its declaration says.
        let expected = Set(
            Self.described(in: .sqlite).map {
                $0 == "metadata_blob.id INTEGER NULL" ? "metadata_blob.id INTEGER NOT NULL" : $0
            })
        #expect(built.subtracting(expected).sorted() == [], "built but not described")
        #expect(expected.subtracting(built).sorted() == [], "described but not built")
    }

    @Test(.enabled(if: TestPostgres.dsn != nil)) func thePostgreSQLSchemaIsTheDescription() throws {
        let schema = try PostgresTestSchema()
        _ = try PostgresStore(dsn: schema.dsn)
        let connection = try PostgresConnection(dsn: schema.dsn)
        let built = Set(
            try connection.query(
                """
                SELECT table_name || '.' || column_name || ' ' || upper(data_type)
                    || CASE is_nullable WHEN 'YES' THEN ' NULL' ELSE ' NOT NULL' END
                FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
                """, []
            ) { String(decoding: $0.bytes(0), as: UTF8.self) })
        // PostgreSQL makes a primary key's columns NOT NULL, whatever their declaration says.
        let expected = Set(
            Self.described(in: .postgres).map {
                $0 == "metadata_blob.id INTEGER NULL" ? "metadata_blob.id INTEGER NOT NULL" : $0
            })
        #expect(built.subtracting(expected).sorted() == [], "built but not described")
        #expect(expected.subtracting(built).sorted() == [], "described but not built")
    }

    @Test func aTableRendersInEachDialect() {
        let table = SQLTable(
            "things", [.column("id", .text), .column("at", .real), .nullable("raw", .blob, "DEFAULT NULL")],
            primaryKey: ["id"], unique: [("at", ["at"])],
            indexes: [.index("things_at", "at DESC", where: "raw IS NULL")],
            withoutRowID: true)
        #expect(
            table.statements(in: .sqlite) == [
                """
                CREATE TABLE things (
                    id TEXT NOT NULL,
                    at REAL NOT NULL,
                    raw BLOB DEFAULT NULL,
                    CONSTRAINT things_pkey PRIMARY KEY (id),
                    CONSTRAINT things_at_key UNIQUE (at)
                ) WITHOUT ROWID
                """,
                "CREATE INDEX things_at ON things (at DESC) WHERE raw IS NULL",
            ])
        #expect(
            table.statements(in: .postgres).first?.contains("at DOUBLE PRECISION NOT NULL,\n    raw BYTEA DEFAULT NULL")
                == true)
        #expect(table.statements(in: .postgres).first?.hasSuffix("\n)") == true, "no WITHOUT ROWID")
    }
}

import Foundation
import SesameSQL
import SesameStore
import SesameTesting
import Testing

@testable import SesamePostgres
@testable import SesameSQLite

/// The one description of where each unique rule lives (`UniqueRule.sqlKey`), which both
/// backends' conflict maps come from, against the schemas the migrations actually build.
@Suite("Unique rules and the SQL schemas")
struct UniqueRuleSchemaTests {
    @Test func everyRuleIsAUniqueKeyOfTheSQLiteSchema() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("sesame.db"))
        let keys = Set(
            try store.rawBytes(
                """
                SELECT CAST(m.name || '|' || (SELECT group_concat(name, ',') FROM
                    (SELECT ii.name FROM pragma_index_info(il.name) ii ORDER BY ii.seqno)) AS BLOB)
                FROM sqlite_master m JOIN pragma_index_list(m.name) il
                WHERE m.type = 'table' AND il."unique" = 1
                """
            ).map { String(decoding: $0, as: UTF8.self) })
        for rule in UniqueRule.allCases {
            let key = rule.sqlKey
            #expect(keys.contains("\(key.table)|\(key.columns.joined(separator: ","))"), "\(rule)")
        }
        #expect(UniqueRule.sqliteConflicts.count == UniqueRule.allCases.count, "no two rules share columns")
    }

    @Test(.enabled(if: TestPostgres.dsn != nil)) func everyRuleIsANamedConstraintOfThePostgreSQLSchema() throws {
        let schema = try PostgresTestSchema()
        _ = try PostgresStore(dsn: schema.dsn)
        let connection = try PostgresConnection(dsn: schema.dsn)
        let constraints = Set(
            try connection.query(
                """
                SELECT c.conname || '|' || rel.relname || '|' || string_agg(a.attname, ',' ORDER BY k.ord)
                FROM pg_constraint c JOIN pg_class rel ON rel.oid = c.conrelid
                JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord) ON true
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                WHERE c.contype IN ('p', 'u') AND rel.relnamespace = current_schema()::regnamespace
                GROUP BY c.conname, rel.relname
                """, []
            ) { String(decoding: $0.bytes(0), as: UTF8.self) })
        for rule in UniqueRule.allCases {
            let key = rule.sqlKey
            #expect(
                constraints.contains(
                    "\(key.postgresConstraint)|\(key.table)|\(key.columns.joined(separator: ","))"),
                "\(rule): \(constraints.filter { $0.hasPrefix(key.table) }.sorted())")
        }
    }
}

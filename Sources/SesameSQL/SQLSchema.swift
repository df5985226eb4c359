/// The SQL dialects Sesame stores in. A table is described once (`SQLTable`) and each backend's
/// migrations render it in their own dialect, so SQLite's and PostgreSQL's schemas cannot drift
/// apart where the two agree; only what they do differently (triggers) is written per dialect.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres
}

/// A column's type, named in each dialect.
public enum SQLColumnType: Sendable {
    case text
    /// A 64-bit integer (SQLite's INTEGER, PostgreSQL's BIGINT).
    case integer
    /// A 32-bit integer in PostgreSQL (the singleton tables' `id`); INTEGER in SQLite.
    case smallInteger
    /// A double: every stored time, as the seconds since 2001 that `Date` holds.
    case real
    case blob

    public func name(in dialect: SQLDialect) -> String {
        switch (self, dialect) {
        case (.text, _): "TEXT"
        case (.integer, .sqlite), (.smallInteger, _): "INTEGER"
        case (.integer, .postgres): "BIGINT"
        case (.real, .sqlite): "REAL"
        case (.real, .postgres): "DOUBLE PRECISION"
        case (.blob, .sqlite): "BLOB"
        case (.blob, .postgres): "BYTEA"
        }
    }
}

/// One column: its name, type, whether it may be NULL, and what else its definition says (a
/// default, a reference, a check), which both dialects spell alike.
public struct SQLColumn: Sendable {
    public let name: String
    public let type: SQLColumnType
    public let nullable: Bool
    public let constraints: String?

    public static func column(_ name: String, _ type: SQLColumnType, _ constraints: String? = nil) -> SQLColumn {
        SQLColumn(name: name, type: type, nullable: false, constraints: constraints)
    }

    public static func nullable(_ name: String, _ type: SQLColumnType, _ constraints: String? = nil) -> SQLColumn {
        SQLColumn(name: name, type: type, nullable: true, constraints: constraints)
    }

    func definition(in dialect: SQLDialect) -> String {
        [name, type.name(in: dialect), nullable ? nil : "NOT NULL", constraints].compactMap(\.self)
            .joined(separator: " ")
    }
}

/// An index on a table's columns (`columns` may carry `DESC`), optionally partial.
public struct SQLIndex: Sendable {
    public let name: String
    public let columns: [String]
    public let predicate: String?

    public static func index(_ name: String, _ columns: String..., where predicate: String? = nil) -> SQLIndex {
        SQLIndex(name: name, columns: columns, predicate: predicate)
    }

    func statement(on table: String) -> String {
        "CREATE INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))"
            + (predicate.map { " WHERE \($0)" } ?? "")
    }
}

/// A table as first created: its columns, primary key, unique keys and indexes. Keys are named as
/// PostgreSQL would name them (`<table>_pkey`, `<table>_<name>_key`), the names `UniqueRule.sqlKey`
/// maps a conflict from; SQLite reports the columns instead, which the same key gives.
public struct SQLTable: Sendable {
    public let name: String
    public let columns: [SQLColumn]
    public let primaryKey: [String]
    /// Unique keys other than the primary key: the name part and the columns.
    public let uniqueKeys: [(name: String, columns: [String])]
    public let indexes: [SQLIndex]
    /// Stored in SQLite without a rowid (a table whose primary key is the only way in).
    public let withoutRowID: Bool

    public init(
        _ name: String, _ columns: [SQLColumn], primaryKey: [String],
        unique uniqueKeys: [(name: String, columns: [String])] = [], indexes: [SQLIndex] = [],
        withoutRowID: Bool = false
    ) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.uniqueKeys = uniqueKeys
        self.indexes = indexes
        self.withoutRowID = withoutRowID
    }

    /// The CREATE TABLE and CREATE INDEX statements in `dialect`.
    public func statements(in dialect: SQLDialect) -> [String] {
        let keys =
            ["CONSTRAINT \(name)_pkey PRIMARY KEY (\(primaryKey.joined(separator: ", ")))"]
            + uniqueKeys.map { "CONSTRAINT \(name)_\($0.name)_key UNIQUE (\($0.columns.joined(separator: ", ")))" }
        let body = (columns.map { $0.definition(in: dialect) } + keys).map { "    " + $0 }.joined(separator: ",\n")
        let suffix = withoutRowID && dialect == .sqlite ? " WITHOUT ROWID" : ""
        return ["CREATE TABLE \(name) (\n\(body)\n)\(suffix)"] + indexes.map { $0.statement(on: name) }
    }
}

/// A schema step both dialects take alike: tables to create, columns to add, indexes to make.
public enum SQLSchemaStep: Sendable {
    case create([SQLTable])
    case addColumns(table: String, [SQLColumn])
    case indexes(table: String, [SQLIndex])
    /// Statements written once that both dialects accept as they are.
    case statements([String])
    /// What the two dialects spell differently (triggers), written once for each.
    case perDialect(sqlite: [String], postgres: [String])

    public func statements(in dialect: SQLDialect) -> [String] {
        switch self {
        case .create(let tables): tables.flatMap { $0.statements(in: dialect) }
        case .addColumns(let table, let columns):
            columns.map { "ALTER TABLE \(table) ADD COLUMN \($0.definition(in: dialect))" }
        case .indexes(let table, let indexes): indexes.map { $0.statement(on: table) }
        case .statements(let statements): statements
        case .perDialect(let sqlite, let postgres): dialect == .sqlite ? sqlite : postgres
        }
    }

    /// The step as one script (statements separated by `;`).
    public func script(in dialect: SQLDialect) -> String {
        statements(in: dialect).map { $0 + ";" }.joined(separator: "\n")
    }
}

import Foundation
import SesameStore

/// One row of a query result, read by column index.
public protocol SQLRow {
    /// A BLOB/BYTEA column (empty for NULL).
    func bytes(_ index: Int32) -> [UInt8]
    /// The same as `Data`.
    func data(_ index: Int32) -> Data
    /// A text column; nil for NULL.
    func text(_ index: Int32) -> String?
    /// An integer column (0 for NULL).
    func integer(_ index: Int32) -> Int64
    /// A floating-point column (0 for NULL).
    func double(_ index: Int32) -> Double
    /// True when the column is NULL.
    func isNull(_ index: Int32) -> Bool
}

extension SQLRow {
    /// A time column (seconds since 2001-01-01, as `Date` holds them); nil for NULL.
    func optionalDate(_ index: Int32) -> Date? {
        isNull(index) ? nil : Date(timeIntervalSinceReferenceDate: double(index))
    }
}

/// A database connection as `SQLTransaction` uses it: SQL with `?` or `?N` parameters (a backend
/// with another placeholder syntax rewrites them), errors already mapped to `StoreError` (a unique
/// violation to its `UniqueRule`), and records as JSON in a `data` column.
public protocol SQLConnection: AnyObject {
    /// Runs a statement; returns the number of rows it changed.
    @discardableResult func execute(_ sql: String, _ values: [SQLValue]) throws -> Int
    /// Runs a statement that can violate no constraint (it sets columns no unique rule covers, or
    /// deletes): a backend that guards each changing statement with a savepoint may skip it.
    @discardableResult func executeNarrow(_ sql: String, _ values: [SQLValue]) throws -> Int
    /// Runs a statement whose failure changes nothing that matters (a rollback after an error).
    func executeIgnoringErrors(_ sql: String)
    /// Runs a query and maps each row.
    func query<R>(_ sql: String, _ values: [SQLValue], row: (any SQLRow) throws -> R) throws -> [R]
    /// The record in column `index` of `row`; `corrupt` naming the table and field when it does not decode.
    func decode<T: Decodable>(_ type: T.Type, _ row: any SQLRow, column index: Int32, table: String) throws -> T
}

extension SQLConnection {
    @discardableResult public func execute(_ sql: String) throws -> Int { try execute(sql, []) }
    @discardableResult public func executeNarrow(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try execute(sql, values)
    }
    public func query<R>(_ sql: String, row: (any SQLRow) throws -> R) throws -> [R] { try query(sql, [], row: row) }
}

/// Reads records as Sesames before SQLite migration 11 / PostgreSQL migration 4 stored them: JSON
/// with dates as the `Double` seconds `Date` holds. Every record is now written in its binary form
/// (`StoredRecord`), and those migrations rewrite the JSON rows, so this only reads a row a
/// migration has not reached yet. One per connection (not thread-safe).
public final class RecordJSON {
    private let decoder = JSONDecoder()

    public init() {
        decoder.dateDecodingStrategy = .deferredToDate
    }

    /// The record in `data`; `corrupt` naming the table and the field when it does not decode.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, table: String) throws -> T {
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw StoreError.corrupt("a row of \(table) does not decode: \(RecordDecodingFailure.describe(error))")
        }
    }
}

internal import CSQLite
import Foundation
import SesameSQL

/// Tells SQLite to copy a bound value before the bind call returns.
private var transientDestructor: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// The one owner of a prepared statement (`sqlite3_stmt*`); finalizes it in `deinit`.
/// Belongs to one `SQLiteConnection` and is reused: bind, step, reset.
final class SQLiteStatement: SQLRow {
    private let handle: OpaquePointer

    /// Prepares `sql` (one statement) on `db`.
    init(db: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw StoreErrorMapping.error(db: db, code: rc)
        }
        handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1…n.
    func bind(_ values: [SQLValue], db: OpaquePointer) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .text(let string):
                var string = string
                rc = string.withUTF8 { buffer in
                    // A nil pointer would bind NULL, so an empty string gets a real (empty) one.
                    guard let base = buffer.baseAddress, buffer.count > 0 else {
                        return sqlite3_bind_text(handle, index, "", 0, transientDestructor)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        sqlite3_bind_text(handle, index, $0, Int32(buffer.count), transientDestructor)
                    }
                }
            case .blob(let bytes):
                rc = bytes.withUnsafeBytes { Self.bindBlob(handle, index, $0) }
            case .data(let data):
                rc = data.withUnsafeBytes { Self.bindBlob(handle, index, $0) }
            case .integer(let number):
                rc = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                rc = sqlite3_bind_double(handle, index, number)
            case .null:
                rc = sqlite3_bind_null(handle, index)
            }
            guard rc == SQLITE_OK else { throw StoreErrorMapping.error(db: db, code: rc) }
        }
    }

    private static func bindBlob(_ handle: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
        return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), transientDestructor)
    }

    /// Steps once: true when a row is ready, false when the statement is done.
    func step(db: OpaquePointer) throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw StoreErrorMapping.error(db: db, code: rc)
    }

    /// Readies the statement for its next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Column `index` of the current row as bytes (empty for NULL).
    func bytes(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let base = sqlite3_column_blob(handle, index) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Column `index` of the current row as `Data` (empty for NULL).
    func data(_ index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let base = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: base, count: count)
    }

    /// Column `index` of the current row as text; nil for NULL.
    func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let text = sqlite3_column_text(handle, index) else {
            return nil
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` of the current row as a floating-point number (0 for NULL).
    func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// True when column `index` of the current row is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` of the current row as an integer (0 for NULL).
    func integer(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }
}

internal import CSQLite
import SesameSQL
import SesameStore

/// Turns SQLite result codes into `StoreError`: a UNIQUE or PRIMARY KEY violation becomes
/// `conflict` naming the rule (the same names `InMemoryStore` uses); anything else `unavailable`.
enum StoreErrorMapping {
    /// Extended result codes (C macros built with `|`, which Swift does not import).
    static let constraintPrimaryKey: Int32 = 19 | (6 << 8)
    static let constraintUnique: Int32 = 19 | (8 << 8)

    /// The column lists SQLite names in "UNIQUE constraint failed: …", and the rule each stands for
    /// (from `UniqueRule.sqlKey`, which PostgreSQL's names come from too).
    static var conflictNames: [String: UniqueRule] { UniqueRule.sqliteConflicts }

    /// The error for result code `code` on connection `db`.
    static func error(db: OpaquePointer?, code: Int32) -> StoreError {
        let extended = db.map { sqlite3_extended_errcode($0) } ?? code
        let message =
            db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        if extended == constraintUnique || extended == constraintPrimaryKey {
            let prefix = "UNIQUE constraint failed: "
            if message.hasPrefix(prefix), let rule = conflictNames[String(message.dropFirst(prefix.count))] {
                return .conflict(rule)
            }
            // A unique index the contract does not know: a schema bug, never the caller's conflict.
            return .unavailable("unexpected constraint violation: \(message)")
        }
        return .unavailable("\(message) (SQLite \(extended))")
    }
}

internal import CPostgres
import Foundation
import SesameSQL
import SesameStore

/// Errors the store retries (the whole transaction) rather than reports.
struct PostgresRetry: Error {
    let sqlState: String
}

/// A pooled connection that broke before its transaction began (the server restarted): the
/// store opens a new one and begins again, since nothing has run yet.
struct PostgresReconnect: Error {}

/// The one owner of a libpq connection (`PGconn*`): closes it in `deinit`. Runs statements with
/// the extended protocol, prepared once per connection and kept; parameters go as text (bytea as
/// binary) and results come back in binary. Used by one thread at a time (the pool hands it out).
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    private let connection: OpaquePointer
    private var prepared: [String: String] = [:]
    /// Inside a write transaction every changing statement runs in its own savepoint, so that a
    /// failed one (a unique violation the caller catches) leaves the transaction usable, as the
    /// store contract promises and as SQLite behaves.
    var guardsStatements = false
    private let json = RecordJSON()

    /// Connects with a libpq connection string or URI (`postgres://…`, `host=… dbname=…`); the
    /// DSN's `sslmode` and every other libpq setting are libpq's.
    init(dsn: String) throws {
        guard let handle = PQconnectdb(dsn) else {
            throw StoreError.unavailable("libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(handle))
            PQfinish(handle)
            throw StoreError.unavailable("cannot connect to PostgreSQL: \(message)")
        }
        connection = handle
    }

    deinit { PQfinish(connection) }

    /// Whether the connection still works (a restarted server breaks it; the pool drops it).
    var isHealthy: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Begins a transaction with `sql` (one message, possibly several statements); returns the
    /// first column of the last statement's first row, if it has one. `PostgresReconnect` when the
    /// connection turns out to be broken.
    @discardableResult func begin(_ sql: String) throws -> String? {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        if PQstatus(connection) != CONNECTION_OK { throw PostgresReconnect() }
        try check(result, sql: sql)
        guard PQntuples(result) > 0, PQgetisnull(result, 0, 0) == 0 else { return nil }
        return Self.text(PQgetvalue(result, 0, 0))
    }

    /// A statement that can violate no constraint runs without the savepoint (one round trip
    /// instead of three): if it fails at all, the whole transaction fails with it.
    @discardableResult func executeNarrow(_ sql: String, _ values: [SQLValue]) throws -> Int {
        let result = try run(sql, values)
        defer { PQclear(result) }
        return Int(Self.text(PQcmdTuples(result))) ?? 0
    }

    /// A statement without parameters, possibly several (`BEGIN`, migrations): the simple protocol.
    func script(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    @discardableResult func execute(_ sql: String, _ values: [SQLValue]) throws -> Int {
        let result = try guarded(sql) { () throws -> OpaquePointer? in
            guard values.isEmpty else { return try run(sql, values) }
            // Transaction control and other parameterless statements: the simple protocol.
            return try checked(PQexec(connection, sql), sql: sql)
        }
        defer { PQclear(result) }
        return Int(Self.text(PQcmdTuples(result))) ?? 0
    }

    private func guarded(_ sql: String, _ body: () throws -> OpaquePointer?) throws -> OpaquePointer? {
        let changes = guardsStatements && !sql.drop { $0 == " " || $0 == "\n" }.uppercased().hasPrefix("SELECT")
        guard changes, !sql.hasPrefix("SAVEPOINT"), !sql.hasPrefix("RELEASE"), !sql.hasPrefix("ROLLBACK") else {
            return try body()
        }
        try script("SAVEPOINT sesame_statement")
        do {
            let result = try body()
            try script("RELEASE SAVEPOINT sesame_statement")
            return result
        } catch {
            executeIgnoringErrors("ROLLBACK TO SAVEPOINT sesame_statement")
            executeIgnoringErrors("RELEASE SAVEPOINT sesame_statement")
            throw error
        }
    }

    func executeIgnoringErrors(_ sql: String) {
        PQclear(PQexec(connection, sql))
    }

    func query<R>(_ sql: String, _ values: [SQLValue], row: (any SQLRow) throws -> R) throws -> [R] {
        let result = try guarded(sql) { try run(sql, values) }
        defer { PQclear(result) }
        let count = PQntuples(result)
        var rows: [R] = []
        rows.reserveCapacity(Int(count))
        for index in 0..<count {
            rows.append(try row(PostgresRow(result: result, row: index)))
        }
        return rows
    }

    func decode<T: Decodable>(_ type: T.Type, _ row: any SQLRow, column index: Int32, table: String) throws -> T {
        try json.decode(T.self, from: row.data(index), table: table)
    }

    // MARK: Statements

    private func run(_ sql: String, _ values: [SQLValue]) throws -> OpaquePointer? {
        let name = try statementName(sql, count: values.count)
        var buffers: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for value in values {
            switch value {
            case .text(let text):
                buffers.append(Array(text.utf8CString))
                lengths.append(0)
                formats.append(0)
            case .integer(let number):
                buffers.append(Array(String(number).utf8CString))
                lengths.append(0)
                formats.append(0)
            case .real(let number):
                buffers.append(Array(Self.exact(number).utf8CString))
                lengths.append(0)
                formats.append(0)
            case .blob(let bytes):
                buffers.append(bytes.map { CChar(bitPattern: $0) })
                lengths.append(Int32(bytes.count))
                formats.append(1)
            case .data(let data):
                buffers.append(data.map { CChar(bitPattern: $0) })
                lengths.append(Int32(data.count))
                formats.append(1)
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            }
        }
        let result = Self.withPointers(buffers) { pointers in
            PQexecPrepared(connection, name, Int32(values.count), pointers, lengths, formats, 1)
        }
        return try checked(result, sql: sql)
    }

    /// The prepared statement for `sql`, prepared on first use (parameter types inferred by the
    /// server from the statement).
    private func statementName(_ sql: String, count: Int) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count + 1)"
        let result = PQprepare(connection, name, Self.numbered(sql), Int32(count), nil)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    /// Calls `body` with a C copy of each buffer (NULL for nil), freed afterwards.
    private static func withPointers<R>(_ buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = buffers.map { buffer in
            guard let buffer else { return nil }
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, buffer.count))
            copy.initialize(repeating: 0, count: max(1, buffer.count))
            buffer.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { copy.update(from: base, count: buffer.count) }
            }
            return copy
        }
        defer { for copy in copies { copy?.deallocate() } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    /// `?` → `$1, $2, …` and `?N` → `$N`, outside quoted strings and identifiers.
    static func numbered(_ sql: String) -> String {
        var out = ""
        var next = 1
        var quote: Character?
        var characters = Array(sql)[...]
        while let character = characters.popFirst() {
            if let open = quote {
                out.append(character)
                if character == open { quote = nil }
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                out.append(character)
                continue
            }
            guard character == "?" else {
                out.append(character)
                continue
            }
            var digits = ""
            while let digit = characters.first, digit.isASCII, digit.isNumber {
                digits.append(digit)
                characters.removeFirst()
            }
            if digits.isEmpty {
                out += "$\(next)"
                next += 1
            } else {
                out += "$" + digits
            }
        }
        return out
    }

    /// A Double as text that parses back to the same bits.
    private static func exact(_ value: Double) -> String { "\(value)" }

    /// Maps a failed result to `StoreError` (a unique violation to its rule) or a retry.
    /// `result`, checked: a failed one is cleared before its error is thrown.
    private func checked(_ result: OpaquePointer?, sql: String) throws -> OpaquePointer? {
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    private func check(_ result: OpaquePointer?, sql: String) throws {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK { return }
        let state =
            result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        if state == "40001" || state == "40P01" { throw PostgresRetry(sqlState: state) }
        if state == "23505" {
            let constraint =
                result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "n"))) }.map { String(cString: $0) } ?? ""
            if let rule = PostgresMigrations.uniqueRules[constraint] { throw StoreError.conflict(rule) }
            throw StoreError.unavailable("unexpected constraint violation: \(constraint)")
        }
        // The primary message only: the detail can quote the values of a row.
        let message =
            result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
            ?? Self.text(PQerrorMessage(connection))
        throw StoreError.unavailable("PostgreSQL \(state.isEmpty ? "error" : state): \(message)")
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
}

/// One row of a binary-format result.
struct PostgresRow: SQLRow {
    let result: OpaquePointer?
    let row: Int32

    private func raw(_ index: Int32) -> UnsafeRawBufferPointer? {
        guard PQgetisnull(result, row, index) == 0, let value = PQgetvalue(result, row, index) else { return nil }
        return UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, row, index)))
    }

    func bytes(_ index: Int32) -> [UInt8] { raw(index).map { Array($0) } ?? [] }

    func isNull(_ index: Int32) -> Bool { PQgetisnull(result, row, index) != 0 }

    func data(_ index: Int32) -> Data { raw(index).map { Data($0) } ?? Data() }

    func text(_ index: Int32) -> String? { raw(index).map { String(decoding: $0, as: UTF8.self) } }

    func integer(_ index: Int32) -> Int64 {
        guard let bytes = raw(index) else { return 0 }
        var value: Int64 = 0
        for byte in bytes { value = value << 8 | Int64(byte) }
        // Sign-extend 2- and 4-byte integers.
        switch bytes.count {
        case 2: return Int64(Int16(truncatingIfNeeded: value))
        case 4: return Int64(Int32(truncatingIfNeeded: value))
        default: return value
        }
    }

    func double(_ index: Int32) -> Double {
        guard let bytes = raw(index) else { return 0 }
        var bits: UInt64 = 0
        for byte in bytes { bits = bits << 8 | UInt64(byte) }
        return bytes.count == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
    }
}

import Foundation

/// A record in the binary form: the form of every stored record since SQLite migration 11 /
/// PostgreSQL migration 4. Foundation's `JSONDecoder` cost about 40 µs per record on the login
/// path (docs/BENCHMARKS.md); this form costs a few hundred nanoseconds and checks every field as
/// it goes.
///
/// The form: the marker byte `RecordBinary.marker` (never `{`, so a row written as JSON by an older
/// Sesame is told apart by its first byte), the record's version as a UInt16, then the fields of
/// the record's table (`recordFields`) in order, each as its `RecordValue` writes it. A new field
/// is appended to the table with `since:` the version it bumps to.
public protocol BinaryCodedRecord: VersionedRecord, RecordTabled {
    var version: Int { get set }
}

/// Encoding and decoding of `BinaryCodedRecord`s.
public enum RecordBinary {
    /// The first byte of a binary record (format 1).
    public static let marker: UInt8 = 0xB1

    /// True when `bytes` hold a binary record (else, JSON from an older Sesame).
    public static func isBinary(_ bytes: some Collection<UInt8>) -> Bool { bytes.first == marker }

    /// The binary form of `record`. It carries the current version whatever `record.version` says:
    /// `encode(to:)` writes every field of the current version, so a record read from an older
    /// row is stored upgraded.
    public static func encode<R: BinaryCodedRecord>(_ record: R) -> [UInt8] {
        var writer = RecordWriter()
        writer.byte(marker)
        writer.uint16(UInt16(clamping: R.currentVersion))
        record.write(to: &writer)
        return writer.bytes
    }

    /// `record` as a row of the older `version` held it: that version's fields only (tests that
    /// read old rows, and pin the bytes each version wrote).
    public static func encode<R: BinaryCodedRecord>(_ record: R, asVersion version: Int) -> [UInt8] {
        var writer = RecordWriter()
        writer.byte(marker)
        writer.uint16(UInt16(clamping: version))
        R.recordFields.write(record, to: &writer, version: version)
        return writer.bytes
    }

    /// The record in `bytes`; `corrupt` naming `table` and the field that does not read, or the
    /// version when the row comes from a newer Sesame.
    public static func decode<R: BinaryCodedRecord>(_ type: R.Type, from bytes: [UInt8], table: String) throws -> R {
        var reader = RecordReader(bytes)
        do {
            guard try reader.byte("format") == marker else {
                throw RecordReader.Failure(field: "format", why: "unknown")
            }
            let version = Int(try reader.uint16("version"))
            guard version <= R.currentVersion else {
                throw StoreError.corrupt(
                    "a row of \(table) has version \(version), newer than this Sesame reads (\(R.currentVersion))")
            }
            var record = try R.read(from: &reader, version: version)
            // Read from an older row, it is the current version now (its later fields at their defaults).
            record.version = R.currentVersion
            guard reader.isAtEnd else { throw RecordReader.Failure(field: "end", why: "bytes follow the last field") }
            return record
        } catch let failure as RecordReader.Failure {
            throw StoreError.corrupt("a row of \(table) does not decode: field \(failure.field): \(failure.why)")
        }
    }
}

/// Appends fields in the binary record form: integers little-endian, a length (UInt32) before
/// strings, byte strings and lists, a presence byte before optionals, dates as the bit pattern of
/// the `Double` seconds `Date` holds (so they round-trip exactly).
public struct RecordWriter {
    public private(set) var bytes: [UInt8] = []

    public init() { bytes.reserveCapacity(256) }

    public mutating func byte(_ value: UInt8) { bytes.append(value) }
    public mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    public mutating func uint16(_ value: UInt16) { littleEndian(UInt64(value), count: 2) }
    public mutating func uint32(_ value: UInt32) { littleEndian(UInt64(value), count: 4) }
    public mutating func uint64(_ value: UInt64) { littleEndian(value, count: 8) }
    public mutating func date(_ value: Date) { uint64(value.timeIntervalSinceReferenceDate.bitPattern) }

    public mutating func bytes(_ value: [UInt8]) {
        uint32(UInt32(clamping: value.count))
        bytes.append(contentsOf: value)
    }

    public mutating func string(_ value: String) {
        let utf8 = value.utf8
        uint32(UInt32(clamping: utf8.count))
        bytes.append(contentsOf: utf8)
    }

    public mutating func strings(_ values: [String]) {
        uint32(UInt32(clamping: values.count))
        for value in values { string(value) }
    }

    /// A string map, keys in sorted order (the same record always gives the same bytes).
    public mutating func stringMap(_ map: [String: String]) {
        uint32(UInt32(clamping: map.count))
        for key in map.keys.sorted() {
            string(key)
            string(map[key] ?? "")
        }
    }

    public mutating func optionalString(_ value: String?) {
        guard let value else { return bool(false) }
        bool(true)
        string(value)
    }

    public mutating func optionalDate(_ value: Date?) {
        guard let value else { return bool(false) }
        bool(true)
        date(value)
    }

    /// A signed integer (lifetimes, limits) as its 64-bit two's complement.
    public mutating func int(_ value: Int) { uint64(UInt64(bitPattern: Int64(value))) }

    public mutating func optionalBool(_ value: Bool?) {
        guard let value else { return bool(false) }
        bool(true)
        bool(value)
    }

    /// A list of `count` then each element as `element` writes it.
    public mutating func list<Element>(_ elements: [Element], _ element: (inout RecordWriter, Element) -> Void) {
        uint32(UInt32(clamping: elements.count))
        for item in elements { element(&self, item) }
    }

    private mutating func littleEndian(_ value: UInt64, count: Int) {
        for shift in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }
}

/// Reads fields written by `RecordWriter`, each by name, so a damaged row is reported by the field
/// that does not read. Every length is checked against what remains; strings must be UTF-8.
public struct RecordReader {
    /// Why a field does not read.
    public struct Failure: Error, Equatable {
        public let field: String
        public let why: String
        public init(field: String, why: String) {
            self.field = field
            self.why = why
        }
    }

    private let input: [UInt8]
    private var offset = 0

    public init(_ input: [UInt8]) { self.input = input }

    public var isAtEnd: Bool { offset == input.count }

    public mutating func byte(_ field: String) throws(Failure) -> UInt8 {
        guard offset < input.count else { throw Failure(field: field, why: "the row ends early") }
        defer { offset += 1 }
        return input[offset]
    }

    public mutating func bool(_ field: String) throws(Failure) -> Bool {
        switch try byte(field) {
        case 0: return false
        case 1: return true
        default: throw Failure(field: field, why: "not a boolean")
        }
    }

    public mutating func uint16(_ field: String) throws(Failure) -> UInt16 {
        UInt16(truncatingIfNeeded: try littleEndian(field, count: 2))
    }
    public mutating func uint32(_ field: String) throws(Failure) -> UInt32 {
        UInt32(truncatingIfNeeded: try littleEndian(field, count: 4))
    }
    public mutating func uint64(_ field: String) throws(Failure) -> UInt64 { try littleEndian(field, count: 8) }

    public mutating func date(_ field: String) throws(Failure) -> Date {
        let seconds = Double(bitPattern: try uint64(field))
        guard seconds.isFinite else { throw Failure(field: field, why: "not a time") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    public mutating func bytes(_ field: String) throws(Failure) -> [UInt8] {
        let count = Int(try uint32(field))
        guard count <= input.count - offset else { throw Failure(field: field, why: "the row ends early") }
        defer { offset += count }
        return Array(input[offset..<offset + count])
    }

    public mutating func string(_ field: String) throws(Failure) -> String {
        let count = Int(try uint32(field))
        guard count <= input.count - offset else { throw Failure(field: field, why: "the row ends early") }
        defer { offset += count }
        let slice = input[offset..<offset + count]
        // ASCII (ids, most names) is valid as it is; the generic validation is the slow path.
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw Failure(field: field, why: "not UTF-8")
        }
        return text
    }

    public mutating func strings(_ field: String) throws(Failure) -> [String] {
        let count = Int(try uint32(field))
        // Each string takes at least its 4-byte length: a count beyond that is damage, not a list.
        guard count <= (input.count - offset) / 4 else { throw Failure(field: field, why: "the row ends early") }
        var values: [String] = []
        values.reserveCapacity(count)
        for index in 0..<count { values.append(try string("\(field)[\(index)]")) }
        return values
    }

    public mutating func stringMap(_ field: String) throws(Failure) -> [String: String] {
        let count = Int(try uint32(field))
        guard count <= (input.count - offset) / 8 else { throw Failure(field: field, why: "the row ends early") }
        var map: [String: String] = [:]
        map.reserveCapacity(count)
        for _ in 0..<count {
            let key = try string(field)
            map[key] = try string("\(field).\(key)")
        }
        return map
    }

    public mutating func int(_ field: String) throws(Failure) -> Int {
        let value = Int64(bitPattern: try uint64(field))
        guard let int = Int(exactly: value) else { throw Failure(field: field, why: "out of range") }
        return int
    }

    /// A list written by `RecordWriter.list`; each element takes at least `minimumBytes`.
    public mutating func list<Element>(
        _ field: String, minimumBytes: Int, _ element: (inout RecordReader, String) throws(Failure) -> Element
    ) throws(Failure) -> [Element] {
        let count = Int(try uint32(field))
        guard count <= (input.count - offset) / max(1, minimumBytes) else {
            throw Failure(field: field, why: "the row ends early")
        }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for index in 0..<count { elements.append(try element(&self, "\(field)[\(index)]")) }
        return elements
    }

    /// A closed vocabulary value by its raw value; an unknown one is a failure, never a default.
    public mutating func value<Value: RawRepresentable>(_ type: Value.Type, _ field: String) throws(Failure) -> Value
    where Value.RawValue == String {
        let raw = try string(field)
        guard let value = Value(rawValue: raw) else {
            throw Failure(field: field, why: "unknown value \(String(reflecting: String(raw.prefix(64))))")
        }
        return value
    }

    private mutating func littleEndian(_ field: String, count: Int) throws(Failure) -> UInt64 {
        guard count <= input.count - offset else { throw Failure(field: field, why: "the row ends early") }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(input[offset + index]) << (8 * UInt64(index)) }
        offset += count
        return value
    }
}

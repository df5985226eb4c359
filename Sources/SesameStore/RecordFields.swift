import Foundation

/// A value with a form in the binary records (`RecordBinary`). A record's field table is a list
/// of these, each reached by a key path.
public protocol RecordValue: Sendable {
    /// The fewest bytes the form takes: a list's count is checked against it before reading.
    static var recordMinimumBytes: Int { get }
    func write(to writer: inout RecordWriter)
    /// Reads the value; a failure names `field`, or its own part of it.
    static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self
}

extension String: RecordValue {
    public static var recordMinimumBytes: Int { 4 }
    public func write(to writer: inout RecordWriter) { writer.string(self) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.string(field)
    }
}

extension Bool: RecordValue {
    public static var recordMinimumBytes: Int { 1 }
    public func write(to writer: inout RecordWriter) { writer.bool(self) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.bool(field)
    }
}

extension Date: RecordValue {
    public static var recordMinimumBytes: Int { 8 }
    public func write(to writer: inout RecordWriter) { writer.date(self) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.date(field)
    }
}

extension Int: RecordValue {
    public static var recordMinimumBytes: Int { 8 }
    public func write(to writer: inout RecordWriter) { writer.int(self) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.int(field)
    }
}

extension Int64: RecordValue {
    public static var recordMinimumBytes: Int { 8 }
    public func write(to writer: inout RecordWriter) { writer.uint64(UInt64(bitPattern: self)) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        Int64(bitPattern: try reader.uint64(field))
    }
}

extension UInt32: RecordValue {
    public static var recordMinimumBytes: Int { 4 }
    public func write(to writer: inout RecordWriter) { writer.uint32(self) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.uint32(field)
    }
}

extension UInt8: RecordValue {
    public static var recordMinimumBytes: Int { 1 }
    public func write(to writer: inout RecordWriter) { writer.byte(self) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.byte(field)
    }
}

/// A presence byte, then the value when there is one.
extension Optional: RecordValue where Wrapped: RecordValue {
    public static var recordMinimumBytes: Int { 1 }
    public func write(to writer: inout RecordWriter) {
        guard let self else { return writer.bool(false) }
        writer.bool(true)
        self.write(to: &writer)
    }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.bool(field) ? try Wrapped.read(from: &reader, field: field) : nil
    }
}

/// A count, then each element; bytes and strings take their own faster paths to the same form.
extension Array: RecordValue where Element: RecordValue {
    public static var recordMinimumBytes: Int { 4 }
    public func write(to writer: inout RecordWriter) {
        if Element.self == UInt8.self { return writer.bytes(unsafeBitCast(self, to: [UInt8].self)) }
        writer.list(self) { writer, element in element.write(to: &writer) }
    }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        if Element.self == UInt8.self { return unsafeBitCast(try reader.bytes(field), to: Self.self) }
        if Element.self == String.self { return unsafeBitCast(try reader.strings(field), to: Self.self) }
        return try reader.list(field, minimumBytes: Element.recordMinimumBytes) {
            (reader: inout RecordReader, name: String) throws(RecordReader.Failure) in
            try Element.read(from: &reader, field: name)
        }
    }
}

/// A string map, keys sorted.
extension Dictionary: RecordValue where Key == String, Value == String {
    public static var recordMinimumBytes: Int { 4 }
    public func write(to writer: inout RecordWriter) { writer.stringMap(self) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.stringMap(field)
    }
}

/// A closed vocabulary, stored by its raw value; an unknown value is a failure, never a default.
public protocol RecordVocabulary: RecordValue, RawRepresentable where RawValue == String {}

extension RecordVocabulary {
    public static var recordMinimumBytes: Int { 4 }
    public func write(to writer: inout RecordWriter) { writer.string(rawValue) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try reader.value(Self.self, field)
    }
}

/// A value stored as its field table says: a record, or a part of one (a password, a second
/// factor, an app's iOS settings).
public protocol RecordTabled: RecordValue {
    static var recordFields: RecordFields<Self> { get }
    /// The fields that a row of `version` holds.
    static func read(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) -> Self
}

// These are the witnesses of every tabled type, so each is compiled for the type: the table's
// loops run specialized, not through generic value witnesses.
extension RecordTabled {
    public static var recordMinimumBytes: Int { recordFields.minimumBytes }
    public func write(to writer: inout RecordWriter) { Self.recordFields.write(self, to: &writer) }
    public static func read(from reader: inout RecordReader, field: String) throws(RecordReader.Failure) -> Self {
        try recordFields.read(from: &reader, version: .max, within: field)
    }
    /// The fields that a row of `version` holds (a record's entry point).
    public static func read(from reader: inout RecordReader, version: Int) throws(RecordReader.Failure) -> Self {
        try recordFields.read(from: &reader, version: version)
    }
}

/// One field of a record's binary form: its name (what a damaged row is reported by), the
/// versions that hold it, and how it is written from and read into the record.
public struct RecordField<Root>: Sendable {
    public let name: String
    /// The versions whose rows hold the field; a field still written ends at `Int.max`.
    public let versions: ClosedRange<Int>
    let minimumBytes: Int
    // Both take the record by address, so a record is not copied once per field.
    let write: @Sendable (UnsafeRawPointer, inout RecordWriter) -> Void
    let read: @Sendable (UnsafeMutableRawPointer, inout RecordReader, String) throws(RecordReader.Failure) -> Void

    /// Whether the current version writes it.
    public var isCurrent: Bool { versions.upperBound == .max }

    /// The value at `path`, in rows from version `since` on.
    ///
    /// A stored property (most fields) is reached at its offset in the record, which the key path
    /// gives once: applying a key path costs about a hundred nanoseconds a field, and a login reads
    /// and writes a few records. A computed property (a default kept as nil, say) goes through the
    /// key path. (A property wrapper's value is stored: name it as `\._bytes.wrappedValue`.)
    public static func field<Value: RecordValue>(
        _ name: String, _ path: WritableKeyPath<Root, Value> & Sendable, since: Int = 1
    ) -> Self {
        guard let offset = MemoryLayout<Root>.offset(of: path) else {
            return RecordField(
                name: name, versions: since...Int.max, minimumBytes: Value.recordMinimumBytes,
                write: { root, writer in
                    root.assumingMemoryBound(to: Root.self).pointee[keyPath: path].write(to: &writer)
                },
                read: { root, reader, name throws(RecordReader.Failure) in
                    root.assumingMemoryBound(to: Root.self).pointee[keyPath: path] = try Value.read(
                        from: &reader, field: name)
                })
        }
        return RecordField(
            name: name, versions: since...Int.max, minimumBytes: Value.recordMinimumBytes,
            write: { root, writer in
                root.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee.write(to: &writer)
            },
            read: { root, reader, name throws(RecordReader.Failure) in
                root.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee = try Value.read(
                    from: &reader, field: name)
            })
    }

    /// An optional value kept as nil when it is `absent` (a default, an empty list), stored as the
    /// value itself: nil is written as `absent`, and `absent` reads back as nil.
    public static func field<Value: RecordValue & Equatable>(
        _ name: String, _ path: WritableKeyPath<Root, Value?> & Sendable, nilIs absent: Value, since: Int = 1
    ) -> Self {
        let access = Access(path)
        return RecordField(
            name: name, versions: since...Int.max, minimumBytes: Value.recordMinimumBytes,
            write: { root, writer in (access.get(root) ?? absent).write(to: &writer) },
            read: { root, reader, name throws(RecordReader.Failure) in
                let value = try Value.read(from: &reader, field: name)
                access.set(root, value == absent ? nil : value)
            })
    }

    /// An optional value stored as a list of none or one.
    public static func field<Value: RecordValue>(
        _ name: String, listOfOne path: WritableKeyPath<Root, Value?> & Sendable, since: Int = 1
    ) -> Self {
        let access = Access(path)
        return RecordField(
            name: name, versions: since...Int.max, minimumBytes: 4,
            write: { root, writer in (access.get(root).map { [$0] } ?? []).write(to: &writer) },
            read: { root, reader, name throws(RecordReader.Failure) in
                access.set(root, try [Value].read(from: &reader, field: name).first)
            })
    }

    /// How a field reaches its value in a record: at its offset when it is stored, else through
    /// the key path.
    struct Access<Value>: Sendable {
        let offset: Int?
        let path: WritableKeyPath<Root, Value> & Sendable

        init(_ path: WritableKeyPath<Root, Value> & Sendable) {
            self.path = path
            offset = MemoryLayout<Root>.offset(of: path)
        }

        func get(_ root: UnsafeRawPointer) -> Value {
            guard let offset else { return root.assumingMemoryBound(to: Root.self).pointee[keyPath: path] }
            return root.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
        }

        func set(_ root: UnsafeMutableRawPointer, _ value: Value) {
            guard let offset else { return root.assumingMemoryBound(to: Root.self).pointee[keyPath: path] = value }
            root.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee = value
        }
    }

    /// A field that only the rows of `versions` hold, read into the record by `apply` and never
    /// written again.
    public static func retired<Value: RecordValue>(
        _ name: String, _ type: Value.Type, versions: ClosedRange<Int>,
        apply: @escaping @Sendable (inout Root, Value) -> Void
    ) -> Self {
        precondition(versions.upperBound != .max, "a retired field ends at a version")
        return RecordField(
            name: name, versions: versions, minimumBytes: 0, write: { _, _ in },
            read: { root, reader, name throws(RecordReader.Failure) in
                apply(&root.assumingMemoryBound(to: Root.self).pointee, try Value.read(from: &reader, field: name))
            })
    }

    /// A field with a form of its own (for a shape no `RecordValue` has, kept for old rows).
    public static func custom(
        _ name: String, since: Int = 1, minimumBytes: Int,
        write: @escaping @Sendable (Root, inout RecordWriter) -> Void,
        read: @escaping @Sendable (inout Root, inout RecordReader, String) throws(RecordReader.Failure) -> Void
    ) -> Self {
        RecordField(
            name: name, versions: since...Int.max, minimumBytes: minimumBytes,
            write: { root, writer in write(root.assumingMemoryBound(to: Root.self).pointee, &writer) },
            read: { root, reader, name throws(RecordReader.Failure) in
                try read(&root.assumingMemoryBound(to: Root.self).pointee, &reader, name)
            })
    }
}

/// A record's field table: the fields in the order the binary form holds them, and the blank
/// value reading starts from, so a field that an older row lacks keeps the blank's default.
public final class RecordFields<Root: Sendable>: Sendable {
    public let blank: Root
    public let fields: [RecordField<Root>]
    /// The oldest version with a binary form (before it, rows were JSON).
    public let oldestVersion: Int
    private let written: ContiguousArray<RecordField<Root>>
    let minimumBytes: Int

    public init(blank: Root, oldestVersion: Int = 1, _ fields: [RecordField<Root>]) {
        precondition(Set(fields.map(\.name)).count == fields.count, "a field name is declared twice")
        self.blank = blank
        self.fields = fields
        self.oldestVersion = oldestVersion
        written = ContiguousArray(fields.filter(\.isCurrent))
        minimumBytes = written.reduce(0) { $0 + $1.minimumBytes }
    }

    /// Writes the fields a row of `version` holds, as that version wrote them (tests of old rows).
    /// A retired field is not written: its old value cannot be derived, so a version that held one
    /// is written by hand in a test (`RecordVersionTests`).
    public func write(_ root: Root, to writer: inout RecordWriter, version: Int) {
        withUnsafePointer(to: root) { pointer in
            for field in fields where field.versions.contains(version) {
                field.write(UnsafeRawPointer(pointer), &writer)
            }
        }
    }

    /// Writes every field of the current version.
    public func write(_ root: Root, to writer: inout RecordWriter) {
        withUnsafePointer(to: root) { pointer in
            let address = UnsafeRawPointer(pointer)
            written.withUnsafeBufferPointer { fields in
                for index in fields.indices { fields[index].write(address, &writer) }
            }
        }
    }

    /// Reads the fields that a row of `version` holds; a failure names the field, inside `within`
    /// when this is a part of a larger record.
    public func read(from reader: inout RecordReader, version: Int, within prefix: String = "")
        throws(RecordReader.Failure) -> Root
    {
        guard version >= oldestVersion else {
            throw RecordReader.Failure(field: "version", why: "version \(version) has no binary form")
        }
        var root = blank
        try withUnsafeMutablePointer(to: &root) { (pointer) throws(RecordReader.Failure) in
            let address = UnsafeMutableRawPointer(pointer)
            for field in fields where field.versions.contains(version) {
                do throws(RecordReader.Failure) {
                    try field.read(address, &reader, field.name)
                } catch {
                    throw prefix.isEmpty
                        ? error : RecordReader.Failure(field: prefix + "." + error.field, why: error.why)
                }
            }
        }
        return root
    }
}

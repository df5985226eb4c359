/// An ordered list of HTTP header fields with case-insensitive lookup by name.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    /// The fields in the order they were received or added.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates a header list from name/value pairs, keeping their order.
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Creates a header list from a literal, e.g. `["Content-Type": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the named field (any letter case), or nil.
    public subscript(name: String) -> String? {
        for field in fields where Self.sameName(field.name, name) { return field.value }
        return nil
    }

    /// Every value of the named field (any letter case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// True when at least one field has this name (any letter case).
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) { fields.append((name: name, value: value)) }

    /// Replaces every field of this name by a single one.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    /// Removes every field of this name.
    public mutating func remove(name: String) { fields.removeAll { Self.sameName($0.name, name) } }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Two lists are equal when they hold the same fields in the same order (names compared as
    /// written: equality is for tests, lookups ignore case).
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison of two field names.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8
        let y = b.utf8
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p != q {
            let lp = (p >= 65 && p <= 90) ? p + 32 : p
            let lq = (q >= 65 && q <= 90) ? q + 32 : q
            if lp != lq { return false }
        }
        return true
    }
}

/// A JSON value (RFC 8259) as the core reads it: objects keep member order, numbers keep their text.
public indirect enum JSONValue: Sendable, Hashable {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    /// The number's text exactly as sent (validated against the RFC 8259 grammar).
    case number(String)
    case bool(Bool)
    case null

    /// The member named `key` of an object (the first, though the reader rejects duplicates).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == key }?.value
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var name: String
    public var value: JSONValue
    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }
}

/// A strict, bounded JSON reader for the small documents WebAuthn exchanges (credential JSON,
/// clientDataJSON). Foundation's JSONSerialization costs about 7 µs on a 600-byte assertion, most
/// of it in bridging to NSDictionary; this reader builds Swift values directly and is several times
/// cheaper, which matters on the login path.
///
/// Strictness: RFC 8259 grammar only (no comments, no trailing commas, no leading zeros, no
/// NaN), valid UTF-8 everywhere, escapes checked (a lone surrogate is an error), duplicate member
/// names rejected, and nothing but whitespace after the value. `Limits` bound the nesting, the
/// members of one object and the values of the whole document. Every check is linear in the
/// input, so a hostile document costs about what a benign one of the same size does.
public struct JSONReader {
    /// How much structure a document may have.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of objects and arrays.
        public var maxDepth: Int
        /// The most members one object may have.
        public var maxMembers: Int
        /// The most values (of any kind, at any depth) in the whole document.
        public var maxValues: Int

        /// Limits with every field given.
        public init(maxDepth: Int, maxMembers: Int, maxValues: Int) {
            self.maxDepth = maxDepth
            self.maxMembers = maxMembers
            self.maxValues = maxValues
        }

        /// For the documents WebAuthn exchanges (credential JSON, clientDataJSON).
        public static let standard = Limits(maxDepth: 32, maxMembers: 256, maxValues: 16_384)
        /// For API request bodies: no Sesame route reads deeper than 6 levels or more than
        /// about 1,100 values (a connection's 1,000 `enabled_clients`).
        public static let requestBody = Limits(maxDepth: 10, maxMembers: 256, maxValues: 2_048)
    }

    /// The standard limits' nesting depth.
    public static let maxDepth = Limits.standard.maxDepth
    /// The standard limits' members per object.
    public static let maxMembers = Limits.standard.maxMembers
    /// Objects with more members than this find duplicates through a set instead of a scan.
    static let linearScanLimit = 16

    private let bytes: [UInt8]
    private let limits: Limits
    private var index = 0
    private var values = 0

    /// Parses one JSON document within `limits`.
    public static func parse(_ bytes: [UInt8], limits: Limits = .standard) throws(WebAuthnError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, limits: limits)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected bytes after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    private func error(_ message: String) -> WebAuthnError {
        WebAuthnError(.malformed, "JSON: \(message) at byte \(index)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func readValue(depth: Int) throws(WebAuthnError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        values += 1
        guard values <= limits.maxValues else { throw error("the document has more than \(limits.maxValues) values") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(WebAuthnError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw error("unexpected end of input") }
        let matches = literal.withUTF8Buffer { expected in
            var offset = 0
            while offset < count {
                if bytes[index + offset] != expected[offset] { return false }
                offset += 1
            }
            return true
        }
        guard matches else { throw error("invalid literal") }
        index += count
    }

    private mutating func readObject(depth: Int) throws(WebAuthnError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw error("nesting deeper than \(limits.maxDepth)") }
        index += 1  // {
        var members: [JSONMember] = []
        // Small objects (all real ones) scan for duplicates; larger ones keep a set, so a body of
        // thousands of distinct names costs linear time, not quadratic.
        var names: Set<String>?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name")
            }
            guard members.count < limits.maxMembers else {
                throw error("an object has more than \(limits.maxMembers) members")
            }
            let name = try readString()
            let duplicate: Bool
            if let insertion = names?.insert(name) {
                duplicate = !insertion.inserted
            } else if members.count < JSONReader.linearScanLimit {
                duplicate = members.contains(where: { $0.name == name })
            } else {
                var seen = Set(members.map(\.name))
                duplicate = !seen.insert(name).inserted
                names = seen
            }
            if duplicate {
                throw error("duplicate member \"\(name.prefix(64))\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try readValue(depth: depth)
            members.append(JSONMember(name: name, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    private mutating func readArray(depth: Int) throws(WebAuthnError) -> JSONValue {
        guard depth <= limits.maxDepth else { throw error("nesting deeper than \(limits.maxDepth)") }
        index += 1  // [
        var values: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try readValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            return .array(values)
        }
    }

    /// A string; the fast path (no escapes) validates the UTF-8 slice in place.
    private mutating func readString() throws(WebAuthnError) -> String {
        index += 1  // opening quote
        let start = index
        var hasEscape = false
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw error("control character in a string") }
            if byte >= 0x80 { isASCII = false }
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                index += 2
                continue
            }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        let end = index
        index += 1  // closing quote
        // ASCII needs no validation (the generic `String(validating:)` costs about a microsecond
        // a call in metadata lookups, and a login reads some fifty strings).
        if !hasEscape, isASCII { return String(decoding: bytes[start..<end], as: UTF8.self) }
        if !hasEscape {
            guard let string = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw error("string is not valid UTF-8")
            }
            return string
        }
        return try unescape(start..<end)
    }

    private func unescape(_ range: Range<Int>) throws(WebAuthnError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                position += 1
                continue
            }
            guard position + 1 < range.upperBound else { throw error("truncated escape") }
            let escaped = bytes[position + 1]
            position += 2
            switch escaped {
            case UInt8(ascii: "\""): output.append(0x22)
            case UInt8(ascii: "\\"): output.append(0x5C)
            case UInt8(ascii: "/"): output.append(0x2F)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: position, end: range.upperBound)
                position += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard position + 6 <= range.upperBound, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate in \\u escape") }
                    let low = try hex4(at: position + 2, end: range.upperBound)
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                UTF8.encode(unicode) { output.append($0) }
            default:
                throw error("invalid escape")
            }
        }
        guard let string = String(validating: output, as: UTF8.self) else {
            throw error("string is not valid UTF-8")
        }
        return string
    }

    private func hex4(at position: Int, end: Int) throws(WebAuthnError) -> UInt32 {
        guard position + 4 <= end else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// RFC 8259 §6: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
    private mutating func readNumber() throws(WebAuthnError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in a number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid fraction") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        guard index - start <= 64 else { throw error("number longer than 64 characters") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

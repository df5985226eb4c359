/// Hard limits the decoder enforces; every length is also checked against the bytes that remain.
public struct CBORLimits: Sendable, Hashable {
    /// Deepest nesting of arrays, maps and tags.
    public var maxDepth: Int
    /// Most data items in one decode, counting every nested item.
    public var maxItems: Int
    /// Longest byte or text string.
    public var maxLength: Int

    /// Limits that comfortably fit every WebAuthn structure.
    public init(maxDepth: Int = 16, maxItems: Int = 4096, maxLength: Int = 1 << 20) {
        self.maxDepth = maxDepth
        self.maxItems = maxItems
        self.maxLength = maxLength
    }
}

/// A bounded CBOR decoder (RFC 8949) for the definite-length subset WebAuthn allows.
///
/// It rejects indefinite lengths, reserved additional information (28–30), simple values
/// encoded in two bytes below 32, invalid UTF-8 in text, duplicate map keys, and anything beyond
/// its limits. Non-shortest integer and length encodings are accepted, because real authenticators
/// emit them; `CBOREncoder` always writes the shortest form.
public struct CBORDecoder: Sendable {
    /// The limits applied to every decode.
    public var limits: CBORLimits

    /// A decoder with the given limits.
    public init(limits: CBORLimits = CBORLimits()) { self.limits = limits }

    /// Decodes exactly one item; trailing bytes are an error.
    public func decode(_ bytes: [UInt8]) throws(WebAuthnError) -> CBORValue {
        let (value, used) = try decodePrefix(bytes[...])
        if used != bytes.count {
            throw WebAuthnError(.malformed, "CBOR: \(bytes.count - used) trailing bytes after the item")
        }
        return value
    }

    /// Decodes one item from the start of `bytes` and returns it with the number of bytes used.
    public func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (CBORValue, Int) {
        var reader = CBORReader(bytes: bytes, limits: limits)
        let value = try reader.readItem(depth: 0)
        return (value, reader.position - bytes.startIndex)
    }
}

/// The bounds-checked cursor behind `CBORDecoder`. Every read checks `position` against `end`.
struct CBORReader {
    let bytes: ArraySlice<UInt8>
    let limits: CBORLimits
    private(set) var position: Int
    private var items = 0

    init(bytes: ArraySlice<UInt8>, limits: CBORLimits) {
        self.bytes = bytes
        self.limits = limits
        self.position = bytes.startIndex
    }

    private var remaining: Int { bytes.endIndex - position }

    private func fail(_ message: String) -> WebAuthnError {
        WebAuthnError(.malformed, "CBOR: \(message) at offset \(position - bytes.startIndex)")
    }

    private mutating func readByte() throws(WebAuthnError) -> UInt8 {
        guard position < bytes.endIndex else { throw fail("unexpected end of input") }
        let byte = bytes[position]
        position += 1
        return byte
    }

    private mutating func readUInt(byteCount: Int) throws(WebAuthnError) -> UInt64 {
        guard remaining >= byteCount else { throw fail("unexpected end of input in a \(byteCount)-byte argument") }
        var value: UInt64 = 0
        for offset in 0..<byteCount {
            value = value << 8 | UInt64(bytes[position + offset])
        }
        position += byteCount
        return value
    }

    /// Reads the argument that follows an initial byte with additional information `info`.
    private mutating func readArgument(_ info: UInt8, major: UInt8) throws(WebAuthnError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try readUInt(byteCount: 1)
        case 25: return try readUInt(byteCount: 2)
        case 26: return try readUInt(byteCount: 4)
        case 27: return try readUInt(byteCount: 8)
        case 31:
            position -= 1
            throw fail(major == 7 ? "unexpected break code" : "indefinite-length item (not allowed in WebAuthn)")
        default:
            position -= 1
            throw fail("reserved additional information \(info)")
        }
    }

    /// Converts a length argument to Int after checking it against the limit and the bytes left.
    private func checkedLength(_ length: UInt64, what: String) throws(WebAuthnError) -> Int {
        guard length <= UInt64(limits.maxLength) else {
            throw fail("\(what) of \(length) bytes exceeds the \(limits.maxLength)-byte limit")
        }
        guard length <= UInt64(remaining) else {
            throw fail("\(what) claims \(length) bytes but only \(remaining) remain")
        }
        return Int(length)
    }

    private mutating func countItem() throws(WebAuthnError) {
        items += 1
        if items > limits.maxItems {
            throw fail("more than \(limits.maxItems) items")
        }
    }

    mutating func readItem(depth: Int) throws(WebAuthnError) -> CBORValue {
        try countItem()
        let initial = try readByte()
        let major = initial >> 5
        let info = initial & 0x1F
        let argument = try readArgument(info, major: major)
        switch major {
        case 0:
            return .unsigned(argument)
        case 1:
            return .negative(argument)
        case 2:
            let length = try checkedLength(argument, what: "byte string")
            let value = Array(bytes[position..<position + length])
            position += length
            return .bytes(value)
        case 3:
            let length = try checkedLength(argument, what: "text string")
            let slice = bytes[position..<position + length]
            guard let text = String(validating: slice, as: UTF8.self) else {
                throw fail("text string is not valid UTF-8")
            }
            position += length
            return .text(text)
        case 4:
            guard depth < limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth)") }
            // Every item takes at least one byte, so a count above the bytes left is a lie.
            guard argument <= UInt64(remaining) else {
                throw fail("array claims \(argument) items but only \(remaining) bytes remain")
            }
            let count = Int(argument)
            var array = [CBORValue]()
            array.reserveCapacity(count)
            for _ in 0..<count {
                array.append(try readItem(depth: depth + 1))
            }
            return .array(array)
        case 5:
            guard depth < limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth)") }
            guard argument <= UInt64(remaining / 2) else {
                throw fail("map claims \(argument) pairs but only \(remaining) bytes remain")
            }
            let count = Int(argument)
            var entries = [CBORMapEntry]()
            entries.reserveCapacity(count)
            var seen = Set<CBORValue>()
            for _ in 0..<count {
                let keyOffset = position - bytes.startIndex
                let key = try readItem(depth: depth + 1)
                let isDuplicate: Bool
                if count <= 8 {
                    isDuplicate = entries.contains { $0.key == key }
                } else {
                    isDuplicate = !seen.insert(key).inserted
                }
                if isDuplicate {
                    throw WebAuthnError(.malformed, "CBOR: duplicate map key at offset \(keyOffset)")
                }
                let value = try readItem(depth: depth + 1)
                entries.append(CBORMapEntry(key: key, value: value))
            }
            return .map(entries)
        case 6:
            guard depth < limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth)") }
            return .tagged(argument, try readItem(depth: depth + 1))
        default:
            return try simpleOrFloat(info: info, argument: argument)
        }
    }

    private func simpleOrFloat(info: UInt8, argument: UInt64) throws(WebAuthnError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            guard argument >= 32 else {
                throw fail("simple value \(argument) must use the one-byte form")
            }
            return .simple(UInt8(truncatingIfNeeded: argument))
        case 25: return .double(CBORFloat.halfToDouble(UInt16(truncatingIfNeeded: argument)))
        case 26: return .double(Double(Float(bitPattern: UInt32(truncatingIfNeeded: argument))))
        case 27: return .double(Double(bitPattern: argument))
        default: return .simple(info)  // 0–19
        }
    }
}

/// Half-precision conversions done by bit manipulation, so they work on every platform.
enum CBORFloat {
    /// Widens an IEEE 754 binary16 bit pattern to Double (exact).
    static func halfToDouble(_ half: UInt16) -> Double {
        let exponent = Int(half >> 10 & 0x1F)
        let mantissa = Double(half & 0x3FF)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = Double(sign: .plus, exponent: -24, significand: mantissa)
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = Double(sign: .plus, exponent: exponent - 25, significand: mantissa + 1024)
        }
        return half & 0x8000 != 0 ? -magnitude : magnitude
    }

    /// The binary16 bit pattern that holds `value` exactly, or nil when none does.
    /// NaN maps to the canonical quiet NaN 0x7E00.
    static func exactHalf(_ value: Double) -> UInt16? {
        if value.isNaN { return 0x7E00 }
        let sign: UInt16 = value.sign == .minus ? 0x8000 : 0
        if value.isInfinite { return sign | 0x7C00 }
        if value == 0 { return sign }
        let magnitude = value.magnitude
        let exponent = Int(magnitude.exponent)
        if exponent >= -14 && exponent <= 15 {
            // Normal half: 10 explicit mantissa bits, so the low 42 of Double's 52 must be zero.
            let significand = magnitude.significandBitPattern
            guard significand & ((1 << 42) - 1) == 0 else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(significand >> 42)
        }
        if exponent >= -24 && exponent < -14 {
            // Subnormal half: value = m × 2^-24 with an integer m below 1024.
            let scaled = Double(sign: .plus, exponent: 24, significand: magnitude)
            guard scaled == scaled.rounded(.towardZero), scaled < 1024 else { return nil }
            return sign | UInt16(scaled)
        }
        return nil
    }
}

/// A decoded CBOR data item (RFC 8949).
public indirect enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// The value -1 - n.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBORValue])
    /// Pairs in the order they were encoded. Duplicate keys are a decoding error.
    case map([CBORMapEntry])
    /// Major type 6: a tag number and its content.
    case tagged(UInt64, CBORValue)
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null
    /// Simple value 23.
    case undefined
    /// Any other simple value (0–19, 32–255).
    case simple(UInt8)
    /// A half-, single- or double-precision float, widened to Double.
    case double(Double)

    /// The CBOR integer for a Swift `Int` (non-negative → unsigned, negative → negative).
    public init(_ integer: Int) {
        if integer >= 0 {
            self = .unsigned(UInt64(integer))
        } else {
            // -1 - integer is in 0...Int.max for every negative Int, so this never overflows.
            self = .negative(UInt64(-1 - integer))
        }
    }

    /// The value for `key` when this is a map.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        for entry in entries where entry.key == key {
            return entry.value
        }
        return nil
    }

    /// Integer keys, as COSE uses them.
    public subscript(intKey key: Int) -> CBORValue? {
        self[CBORValue(key)]
    }

    /// Text keys, as attestation statements use them.
    public subscript(textKey key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        for entry in entries {
            if case .text(let text) = entry.key, text == key {
                return entry.value
            }
        }
        return nil
    }

    /// The integer value when it fits in Int64.
    public var intValue: Int64? {
        switch self {
        case .unsigned(let n):
            return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n):
            return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default:
            return nil
        }
    }

    /// The bytes of a byte string.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The string of a text string.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of an array.
    public var arrayValue: [CBORValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The entries of a map, in encoded order.
    public var mapValue: [CBORMapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Sendable, Hashable {
    /// The key item.
    public var key: CBORValue
    /// The value item.
    public var value: CBORValue

    /// Pairs a key with its value.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}

/// The CTAP2 canonical CBOR encoder (RFC 8949 §4.2.3 length-first map key order; shortest forms).
///
/// Integers and lengths use the shortest head; floats use the shortest of half, single and double
/// precision that holds the value exactly (NaN becomes 0xF97E00); map entries are sorted by the
/// encoded bytes of their keys, shorter first, then bytewise.
public enum CBOREncoder {
    /// Encodes one item canonically.
    public static func encode(_ value: CBORValue) -> [UInt8] {
        var out = [UInt8]()
        append(value, to: &out)
        return out
    }

    private static func appendHead(major: UInt8, argument: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            out.append(type | UInt8(argument))
        case 24...0xFF:
            out.append(type | 24)
            out.append(UInt8(argument))
        case 0x100...0xFFFF:
            out.append(type | 25)
            appendBigEndian(argument, byteCount: 2, to: &out)
        case 0x1_0000...0xFFFF_FFFF:
            out.append(type | 26)
            appendBigEndian(argument, byteCount: 4, to: &out)
        default:
            out.append(type | 27)
            appendBigEndian(argument, byteCount: 8, to: &out)
        }
    }

    private static func appendBigEndian(_ value: UInt64, byteCount: Int, to out: inout [UInt8]) {
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8)))
        }
    }

    private static func append(_ value: CBORValue, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n):
            appendHead(major: 0, argument: n, to: &out)
        case .negative(let n):
            appendHead(major: 1, argument: n, to: &out)
        case .bytes(let bytes):
            appendHead(major: 2, argument: UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        case .text(let text):
            let utf8 = Array(text.utf8)
            appendHead(major: 3, argument: UInt64(utf8.count), to: &out)
            out.append(contentsOf: utf8)
        case .array(let items):
            appendHead(major: 4, argument: UInt64(items.count), to: &out)
            for item in items {
                append(item, to: &out)
            }
        case .map(let entries):
            appendHead(major: 5, argument: UInt64(entries.count), to: &out)
            let encoded = entries.map { (key: encode($0.key), value: $0.value) }
            let sorted = encoded.sorted { lhs, rhs in
                if lhs.key.count != rhs.key.count { return lhs.key.count < rhs.key.count }
                return lhs.key.lexicographicallyPrecedes(rhs.key)
            }
            for entry in sorted {
                out.append(contentsOf: entry.key)
                append(entry.value, to: &out)
            }
        case .tagged(let tag, let content):
            appendHead(major: 6, argument: tag, to: &out)
            append(content, to: &out)
        case .bool(let flag):
            out.append(flag ? 0xF5 : 0xF4)
        case .null:
            out.append(0xF6)
        case .undefined:
            out.append(0xF7)
        case .simple(let n):
            if n < 24 {
                out.append(0xE0 | n)
            } else {
                out.append(0xF8)
                out.append(n)
            }
        case .double(let number):
            appendFloat(number, to: &out)
        }
    }

    private static func appendFloat(_ number: Double, to out: inout [UInt8]) {
        if let half = CBORFloat.exactHalf(number) {
            out.append(0xF9)
            appendBigEndian(UInt64(half), byteCount: 2, to: &out)
            return
        }
        let single = Float(number)
        if Double(single) == number {
            out.append(0xFA)
            appendBigEndian(UInt64(single.bitPattern), byteCount: 4, to: &out)
            return
        }
        out.append(0xFB)
        appendBigEndian(number.bitPattern, byteCount: 8, to: &out)
    }
}

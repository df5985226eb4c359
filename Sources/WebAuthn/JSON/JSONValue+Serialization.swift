extension JSONValue {
    /// The value as compact JSON text (RFC 8259), with strings escaped minimally and numbers as read.
    public var serialized: [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    private func append(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): JSONValue.appendString(text, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.appendString(member.name, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the JSON string literal for `text` to `out` (the escaping of `quoted`), for callers
    /// that write JSON straight into bytes.
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) { appendString(text, to: &out) }

    /// A JSON string literal for `text` (RFC 8259 §7: quote, backslash and control characters
    /// escaped; U+2028 and U+2029 too, so the text is also safe inside a script; everything else
    /// as UTF-8).
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        appendString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings (tokens, ids, URLs) need no escape at all: one tight scan, one copy.
            if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 }) {
                out.append(contentsOf: bytes)
                return
            }
            // Copy runs of bytes that need no escape in one go; only the quote, the backslash,
            // control characters and U+2028/U+2029 (E2 80 A8/A9) break a run.
            var runStart = 0
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                let escape: [UInt8]?
                var width = 1
                switch byte {
                case 0x22: escape = [0x5C, 0x22]
                case 0x5C: escape = [0x5C, 0x5C]
                case 0x0A: escape = [0x5C, UInt8(ascii: "n")]
                case 0x0D: escape = [0x5C, UInt8(ascii: "r")]
                case 0x09: escape = [0x5C, UInt8(ascii: "t")]
                case 0..<0x20: escape = unicodeEscape(UInt32(byte))
                case 0xE2
                where index + 2 < count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                    width = 3
                default: escape = nil
                }
                if let escape {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    out.append(contentsOf: escape)
                    index += width
                    runStart = index
                } else {
                    index += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `\uXXXX` for a code point below U+10000.
    private static func unicodeEscape(_ value: UInt32) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return [0x5C, UInt8(ascii: "u")] + [12, 8, 4, 0].map { hex[Int(value >> UInt32($0) & 0xF)] }
    }
}

import WebAuthn

/// A JSON value whose object members keep the order they were built in, so the command line's
/// JSON output has stable keys in a stable order.
enum JSONOutput: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    /// A string, or null when nil.
    static func optional(_ value: String?) -> JSONOutput {
        value.map(JSONOutput.string) ?? .null
    }

    /// A boolean, or null when nil.
    static func optional(_ value: Bool?) -> JSONOutput {
        value.map(JSONOutput.bool) ?? .null
    }

    static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The JSON text: two-space indentation when `pretty`, otherwise one line.
    func rendered(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, indent: pretty ? 0 : nil)
        return out
    }

    private func write(to out: inout String, indent: Int?) {
        switch self {
        case .string(let text):
            JSONOutput.writeString(text, to: &out)
        case .integer(let number):
            out += String(number)
        case .bool(let flag):
            out += flag ? "true" : "false"
        case .null:
            out += "null"
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (position, item) in items.enumerated() {
                if position > 0 { out += indent == nil ? ", " : "," }
                JSONOutput.newline(&out, indent.map { $0 + 1 })
                item.write(to: &out, indent: indent.map { $0 + 1 })
            }
            JSONOutput.newline(&out, indent)
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (position, (key, value)) in members.enumerated() {
                if position > 0 { out += indent == nil ? ", " : "," }
                JSONOutput.newline(&out, indent.map { $0 + 1 })
                JSONOutput.writeString(key, to: &out)
                out += ": "
                value.write(to: &out, indent: indent.map { $0 + 1 })
            }
            JSONOutput.newline(&out, indent)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int?) {
        guard let indent else { return }
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// RFC 8259 §7 string escaping; non-ASCII characters are written as they are (UTF-8).
    private static func writeString(_ text: String, to out: inout String) {
        out += JSONValue.quoted(text)
    }
}

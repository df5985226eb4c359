import WebAuthn

/// CBOR diagnostic notation (RFC 8949 §8), for showing extension outputs.
enum CBORDiagnostic {
    /// One-line diagnostic text, e.g. `{"credProtect": 2}`; byte strings longer than
    /// `maxBytes` are shortened.
    static func describe(_ value: CBORValue, maxBytes: Int = 64) -> String {
        switch value {
        case .unsigned(let number):
            return String(number)
        case .negative(let number):
            return number == UInt64.max ? "-18446744073709551616" : "-" + String(number + 1)
        case .bytes(let bytes):
            let shown = bytes.prefix(maxBytes).map { byte in
                let hex = String(byte, radix: 16)
                return byte < 0x10 ? "0" + hex : hex
            }.joined()
            return "h'\(shown)\(bytes.count > maxBytes ? "…" : "")'"
        case .text(let text):
            return JSONOutput.string(text).rendered(pretty: false)
        case .array(let items):
            return "[" + items.map { describe($0, maxBytes: maxBytes) }.joined(separator: ", ") + "]"
        case .map(let entries):
            let members = entries.map {
                describe($0.key, maxBytes: maxBytes) + ": " + describe($0.value, maxBytes: maxBytes)
            }
            return "{" + members.joined(separator: ", ") + "}"
        case .tagged(let tag, let content):
            return "\(tag)(\(describe(content, maxBytes: maxBytes)))"
        case .bool(let flag):
            return flag ? "true" : "false"
        case .null:
            return "null"
        case .undefined:
            return "undefined"
        case .simple(let number):
            return "simple(\(number))"
        case .double(let number):
            return String(number)
        }
    }
}

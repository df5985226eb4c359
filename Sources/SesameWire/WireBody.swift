/// A JSON request body written by member declarations, not by names typed again: the SDK builds
/// each body it sends from the same `WireField`s the server's tables read (docs/ARCHITECTURE.md,
/// "Every field declared once"). Absent values are left out; the text has sorted keys.
public struct WireBody: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var members: [String: WireValue] = [:]

    public init() {}

    /// The members whose values are not nil.
    public init(dictionaryLiteral elements: (WireField, WireValue?)...) {
        for (field, value) in elements { self[field] = value }
    }

    /// The value of `field`; nil removes it.
    public subscript(field: WireField) -> WireValue? {
        get { members[field.name] }
        set { members[field.name] = newValue }
    }

    public var isEmpty: Bool { members.isEmpty }

    /// The members' names, sorted.
    public var names: [String] { members.keys.sorted() }

    /// Compact JSON text, keys sorted.
    public var json: String {
        "{"
            + members.sorted { $0.key < $1.key }.map { WireValue.quoted($0.key) + ":" + $0.value.json }
            .joined(separator: ",") + "}"
    }
}

/// The value of one member of a `WireBody`.
public indirect enum WireValue: Sendable, Equatable, ExpressibleByStringLiteral {
    case string(String)
    case array([WireValue])
    case object(WireBody)
    /// A map whose member names are data (metadata, a name's parts), not declarations.
    case map([String: WireValue])
    /// A JSON document embedded as it is; the caller has checked that it is JSON (a credential).
    case verbatim(String)

    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// A string, or nothing for nil (an optional parameter the caller did not give).
    public static func text(_ value: String?) -> WireValue? {
        value.map(WireValue.string)
    }

    /// A map of strings, or nothing for nil.
    public static func strings(_ values: [String: String]?) -> WireValue? {
        values.map { .map($0.mapValues(WireValue.string)) }
    }

    /// Compact JSON text.
    public var json: String {
        switch self {
        case .string(let value): return Self.quoted(value)
        case .verbatim(let json): return json
        case .array(let elements): return "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .object(let body): return body.json
        case .map(let members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.json }
                .joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

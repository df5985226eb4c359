import Foundation

/// A request body: strings, objects, and JSON already validated (a credential), written out with
/// sorted keys.
enum JSONBody: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral {
    case string(String)
    case object([String: JSONBody])
    case array([JSONBody])
    /// A JSON document embedded as it is (validated by `raw(_:what:)`).
    case verbatim(String)

    init(stringLiteral value: String) {
        self = .string(value)
    }

    init(dictionaryLiteral elements: (String, JSONBody)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// A JSON object from `data`, to embed verbatim; throws when it is not a JSON object.
    static func raw(_ data: Data, what: String) throws(AuthenticationError) -> JSONBody {
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw AuthenticationError.passkey("\(what) is not a JSON object")
        }
        return .verbatim(String(decoding: data, as: UTF8.self))
    }

    /// The JSON of an `Encodable` value (a wire type), embedded as it is.
    static func encoded(_ value: some Encodable, what: String) throws(AuthenticationError) -> JSONBody {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return .verbatim(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            throw AuthenticationError.invalidResponse("cannot encode \(what): \(error)")
        }
    }

    /// A string-to-string object.
    static func strings(_ values: [String: String]) -> JSONBody {
        .object(values.mapValues(JSONBody.string))
    }

    /// Compact JSON text.
    var text: String {
        switch self {
        case .string(let value): return JSONString.quoted(value)
        case .verbatim(let json): return json
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { JSONString.quoted($0.key) + ":" + $0.value.text }
                .joined(separator: ",") + "}"
        }
    }
}

import Foundation
import SesameService
import WebAuthn

/// A request body read strictly: JSON object (or, where allowed, an urlencoded form), members by
/// name, unknown members refused, each type error naming its field.
struct RequestBody {
    private let members: [String: JSONValue]
    private let order: [String]

    /// A JSON object body; any other media type is 415.
    static func json(_ request: HTTPRequest) throws -> RequestBody {
        guard request.mediaType == "application/json" else {
            throw HTTPError(
                status: 415, error: "unsupported_media_type", description: "Content-Type must be application/json")
        }
        return try parseJSON(request.body)
    }

    /// A JSON object or an `application/x-www-form-urlencoded` body (the token endpoints).
    static func jsonOrForm(_ request: HTTPRequest) throws -> RequestBody {
        switch request.mediaType {
        case "application/json": return try parseJSON(request.body)
        case "application/x-www-form-urlencoded": return try parseForm(request.body)
        default:
            throw HTTPError(
                status: 415, error: "unsupported_media_type",
                description: "Content-Type must be application/json or application/x-www-form-urlencoded")
        }
    }

    /// An empty object (routes that take no body).
    static let empty = RequestBody(members: [:], order: [])

    private init(members: [String: JSONValue], order: [String]) {
        self.members = members
        self.order = order
    }

    private static func parseJSON(_ body: [UInt8]) throws -> RequestBody {
        let value: JSONValue
        do {
            value = try JSONReader.parse(body)
        } catch {
            throw ServiceError.invalidRequest("the body is not valid JSON: \(error.message)")
        }
        guard case .object(let list) = value else {
            throw ServiceError.invalidRequest("the body must be a JSON object")
        }
        var members: [String: JSONValue] = [:]
        for member in list { members[member.name] = member.value }
        return RequestBody(members: members, order: list.map(\.name))
    }

    private static func parseForm(_ body: [UInt8]) throws -> RequestBody {
        guard let text = String(validating: body, as: UTF8.self) else {
            throw ServiceError.invalidRequest("the form body is not valid UTF-8")
        }
        var members: [String: JSONValue] = [:]
        var order: [String] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeFormComponent(parts[0]),
                let value = decodeFormComponent(parts.count > 1 ? parts[1] : "")
            else {
                throw ServiceError.invalidRequest("the form body has a malformed percent-escape")
            }
            guard members[name] == nil else { throw ServiceError.invalidRequest("\(name.prefix(64)) is given twice") }
            members[name] = .string(value)
            order.append(name)
        }
        return RequestBody(members: members, order: order)
    }

    private static func decodeFormComponent(_ component: Substring) -> String? {
        component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Refuses members outside `allowed` (API.md: extra fields are invalid_request).
    func allowOnly(_ allowed: Set<String>) throws {
        if let unknown = order.first(where: { !allowed.contains($0) }) {
            throw ServiceError.invalidRequest("unknown field \(field(String(unknown.prefix(64))))")
        }
    }

    func has(_ name: String) -> Bool { members[name] != nil }

    /// A string member; absent or null → nil; any other type → 400 naming it.
    func string(_ name: String, maxLength: Int = 4_096) throws -> String? {
        guard let value = members[name], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw ServiceError.invalidRequest("\(field(name)) must be a string") }
        guard string.utf8.count <= maxLength else {
            throw ServiceError.invalidRequest("\(field(name)) is longer than \(maxLength) bytes")
        }
        return string
    }

    func requiredString(_ name: String, maxLength: Int = 4_096) throws -> String {
        guard let value = try string(name, maxLength: maxLength), !value.isEmpty else {
            throw ServiceError.invalidRequest("\(field(name)) is required")
        }
        return value
    }

    func bool(_ name: String) throws -> Bool? {
        guard let value = members[name], !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw ServiceError.invalidRequest("\(field(name)) must be a boolean") }
        return bool
    }

    /// An integer member.
    func int(_ name: String) throws -> Int? {
        guard let value = members[name], !value.isNull else { return nil }
        guard case .number(let text) = value, let number = Int(text) else {
            throw ServiceError.invalidRequest("\(field(name)) must be an integer")
        }
        return number
    }

    /// An array of strings.
    func strings(_ name: String, maxCount: Int = 100, maxLength: Int = 2_048) throws -> [String]? {
        guard let value = members[name], !value.isNull else { return nil }
        guard let array = value.arrayValue, array.count <= maxCount else {
            throw ServiceError.invalidRequest("\(field(name)) must be an array of at most \(maxCount) strings")
        }
        return try array.map { element in
            guard let string = element.stringValue, string.utf8.count <= maxLength else {
                throw ServiceError.invalidRequest("\(field(name)) must be an array of strings")
            }
            return string
        }
    }

    /// A nested object, read with the same rules.
    func object(_ name: String) throws -> RequestBody? {
        guard let value = members[name], !value.isNull else { return nil }
        guard case .object(let list) = value else { throw ServiceError.invalidRequest("\(field(name)) must be an object") }
        var nested: [String: JSONValue] = [:]
        for member in list { nested[member.name] = member.value }
        return RequestBody(members: nested, order: list.map(\.name)).prefixed(field(name))
    }

    /// A member kept as JSON bytes (an object, or a string holding JSON in a form body).
    func json(_ name: String) throws -> [UInt8]? {
        guard let value = members[name], !value.isNull else { return nil }
        switch value {
        case .object: return value.serialized
        case .string(let text): return Array(text.utf8)
        default: throw ServiceError.invalidRequest("\(field(name)) must be an object")
        }
    }

    /// Every member as a string (e.g. user_metadata); any other type → 400.
    func stringMap(field: String) throws -> [String: String] {
        var map: [String: String] = [:]
        for name in order {
            guard let string = members[name]?.stringValue else {
                throw ServiceError.invalidRequest("\(field).\(name.prefix(64)) must be a string")
            }
            map[name] = string
        }
        return map
    }

    private var prefix: String = ""

    private func prefixed(_ name: String) -> RequestBody {
        var copy = self
        copy.prefix = name
        return copy
    }

    /// Field names of a nested object are reported with their parent, e.g. `user_profile.email`.
    func field(_ name: String) -> String { prefix.isEmpty ? name : "\(prefix).\(name)" }
}

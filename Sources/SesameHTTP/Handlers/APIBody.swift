import Foundation
import SesameService
import SesameWire
import WebAuthn

/// A request body read strictly: a JSON object (or, for the OAuth endpoints, an urlencoded form)
/// whose members are read by name, unknown members refused, every type error naming the full path
/// of its field (`mobile.android.sha256_cert_fingerprints[0]`), and JSON `null` told apart from
/// absence for PATCH.
struct APIBody {
    /// The most fields an urlencoded form body may have (the OAuth endpoints read fewer than 15).
    static let maxFormFields = 64
    private let members: [JSONMember]
    private let path: String
    /// The table the body was checked against (`read(_:_:)`), whose limits the reads then use.
    private let schema: WireObject?

    /// The body of `request`: `application/json` (else 415) holding one object (else 400).
    static func json(_ request: HTTPRequest) throws -> APIBody {
        guard request.mediaType == "application/json" else {
            throw HTTPError(
                status: 415, error: "unsupported_media_type", description: "Content-Type must be application/json")
        }
        return try parsedJSON(request)
    }

    /// The body as one JSON object, its media type already checked.
    private static func parsedJSON(_ request: HTTPRequest) throws -> APIBody {
        let value: JSONValue
        do {
            value = try JSONReader.parse(request.body, limits: .requestBody)
        } catch {
            throw ServiceError.invalidRequest("the body is not valid JSON: \(error.message)")
        }
        guard case .object(let members) = value else {
            throw ServiceError.invalidRequest("the body must be a JSON object")
        }
        return APIBody(members: members, path: "")
    }

    /// A body that is one JSON array of strings (Auth0's `PUT /guardian/policies`).
    static func jsonStrings(_ request: HTTPRequest, maxCount: Int = 16, maxLength: Int = 64) throws -> [String] {
        guard request.mediaType == "application/json" else {
            throw HTTPError(
                status: 415, error: "unsupported_media_type", description: "Content-Type must be application/json")
        }
        let value: JSONValue
        do {
            value = try JSONReader.parse(request.body, limits: .requestBody)
        } catch {
            throw ServiceError.invalidRequest("the body is not valid JSON: \(error.message)")
        }
        guard let array = value.arrayValue, array.count <= maxCount else {
            throw ServiceError.invalidRequest("the body must be a JSON array of at most \(maxCount) strings")
        }
        return try array.enumerated().map { index, element in
            try Self.string(element, "[\(index)]", maxLength: maxLength)
        }
    }

    /// A JSON object or an `application/x-www-form-urlencoded` body (the OAuth endpoints, RFC 6749).
    static func jsonOrForm(_ request: HTTPRequest) throws -> APIBody {
        switch request.mediaType {
        case "application/json": return try parsedJSON(request)
        case "application/x-www-form-urlencoded": return try form(request.body)
        default:
            throw HTTPError(
                status: 415, error: "unsupported_media_type",
                description: "Content-Type must be application/json or application/x-www-form-urlencoded")
        }
    }

    /// An `application/x-www-form-urlencoded` body (a hosted page's form); else 415.
    static func form(_ request: HTTPRequest) throws -> APIBody {
        guard request.mediaType == "application/x-www-form-urlencoded" else {
            throw HTTPError(
                status: 415, error: "unsupported_media_type",
                description: "Content-Type must be application/x-www-form-urlencoded")
        }
        return try form(request.body)
    }

    /// The name-value pairs of a form body, in order (`POST /authorize`).
    static func formPairs(_ request: HTTPRequest) throws -> [(String, String)] {
        try form(request).members.compactMap { member in member.value.stringValue.map { (member.name, $0) } }
    }

    /// Reads the form byte by byte (splitting and percent-decoding in one linear pass each).
    private static func form(_ body: [UInt8]) throws -> APIBody {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw ServiceError.invalidRequest("the form body is not valid UTF-8")
        }
        var members: [JSONMember] = []
        var names = Set<String>()
        var start = body.startIndex
        while start < body.endIndex {
            let end = body[start...].firstIndex(of: UInt8(ascii: "&")) ?? body.endIndex
            let pair = body[start..<end]
            start = end + 1
            if pair.isEmpty { continue }
            guard members.count < maxFormFields else {
                throw ServiceError.invalidRequest("the form body has more than \(maxFormFields) fields")
            }
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(parts[0], plusAsSpace: true),
                let value = PercentDecoding.decode(parts.count > 1 ? parts[1] : [], plusAsSpace: true)
            else {
                throw ServiceError.invalidRequest("the form body has a malformed percent-escape")
            }
            guard names.insert(name).inserted else {
                throw ServiceError.invalidRequest("\(name.prefix(64)) is given twice")
            }
            members.append(JSONMember(name: name, value: .string(value)))
        }
        return APIBody(members: members, path: "")
    }

    private init(members: [JSONMember], path: String, schema: WireObject? = nil) {
        self.members = members
        self.path = path
        self.schema = schema
    }

    /// The body of `request` as its route declares it: the media type (else 415), one object
    /// (else 400), then every member checked against the table (`checked(against:)`).
    static func read(_ request: HTTPRequest, _ declared: RequestBody) throws -> APIBody {
        let body: APIBody
        switch declared.media {
        case .json: body = try json(request)
        case .jsonOrForm: body = try jsonOrForm(request)
        case .form: body = try form(request)
        }
        guard declared.isChecked else {
            // Read member by member with the table's limits; nothing else is refused up front.
            return APIBody(members: body.members, path: body.path, schema: declared.schema)
        }
        return try body.checked(against: declared.schema)
    }

    /// This body after checking it against `schema`: a member the table does not name (when it is
    /// closed), a required member absent, null or empty, a `null` where the table allows none, a
    /// wrong type, a string over its length or a list over its count is refused, with the member's
    /// full name. Nested objects are checked by their own tables.
    func checked(against schema: WireObject) throws -> APIBody {
        if schema.isClosed { try allowOnly(schema.nameSet) }
        let body = APIBody(members: members, path: path, schema: schema)
        for field in schema.fields {
            guard let value = body.value(field.name), !value.isNull else {
                if field.isRequired { throw ServiceError.invalidRequest("\(body.field(field.name)) is required") }
                if body.has(field.name), !field.isNullable { try body.refuseNull(field) }
                continue
            }
            try body.check(field, value)
        }
        return body
    }

    /// A list given with fewer than `minimum` elements.
    private static func requireCount(_ count: Int, _ minimum: Int, _ field: String) throws {
        guard count >= minimum else {
            throw ServiceError.invalidRequest("\(field) must hold at least \(minimum) value\(minimum == 1 ? "" : "s")")
        }
    }

    /// A `null` where `field` allows none: the message its type's reader gives.
    private func refuseNull(_ field: WireField) throws {
        switch field.type {
        case .object, .named: throw ServiceError.invalidRequest("\(self.field(field.name)) must be an object")
        case .boolean: throw ServiceError.invalidRequest("\(self.field(field.name)) must be a boolean")
        case .integer: throw ServiceError.invalidRequest("\(self.field(field.name)) must be an integer")
        case .array(.object, _, _):
            throw ServiceError.invalidRequest("\(self.field(field.name)) must be an array of objects")
        case .array: throw ServiceError.invalidRequest("\(self.field(field.name)) must be an array of strings")
        case .string, .characters, .displayText, .oneOf, .either, .stringOrArray, .map, .component, .refused:
            throw ServiceError.invalidRequest("\(self.field(field.name)) must be a string")
        }
    }

    /// Checks one present, non-null member by its type, through the same reads a handler uses.
    private func check(_ field: WireField, _ value: JSONValue) throws {
        let name = field.name
        switch field.type {
        case .string, .characters, .displayText, .oneOf:
            let text = try Self.string(value, self.field(name), maxLength: field.type.maxLength ?? 4_096)
            if field.isRequired, text.isEmpty { throw ServiceError.invalidRequest("\(self.field(name)) is required") }
        case .boolean: _ = try bool(name)
        case .integer: _ = try int(name)
        case .array(.object(let element), let maxItems, let minItems):
            let items = try objects(name, maxCount: maxItems) ?? []
            try Self.requireCount(items.count, minItems, self.field(name))
            for item in items { _ = try item.checked(against: element) }
        case .array(let element, let maxItems, let minItems):
            let items = try strings(name, maxCount: maxItems, maxLength: element.maxLength ?? 4_096) ?? []
            try Self.requireCount(items.count, minItems, self.field(name))
        case .stringOrArray(let maxLength, let maxItems):
            _ = try stringOrStrings(name, maxCount: maxItems, maxLength: maxLength)
        case .object(let nested), .named(_, let nested):
            _ = try object(name)?.checked(against: nested)
        case .map(let element, let maxMembers, let nullableValues, _):
            guard let map = try object(name) else { return }
            if let maxMembers, map.members.count > maxMembers {
                throw ServiceError.invalidRequest("\(self.field(name)) holds at most \(maxMembers) values")
            }
            for member in map.members where !(nullableValues && member.value.isNull) {
                try map.check(WireField(member.name, element), member.value)
            }
        case .component, .either(.object, .object), .either(.named, .named):
            // A component is parsed by the service; for two tables, which applies depends on
            // another member, and the handler checks it.
            guard case .object = value else {
                throw ServiceError.invalidRequest("\(self.field(name)) must be an object")
            }
        case .either(let first, let second):
            do {
                try check(WireField(name, first), value)
            } catch {
                try check(WireField(name, second), value)
            }
        case .refused:
            break  // the handler refuses it with its own message
        }
    }

    /// The byte limit of member `name`: `given`, else its table's, else 4,096.
    private func limit(_ name: String, _ given: Int?) -> Int {
        given ?? schema?.field(name)?.type.maxLength ?? 4_096
    }

    /// The count limit of list member `name`: `given`, else its table's, else 100.
    private func countLimit(_ name: String, _ given: Int?) -> Int {
        given ?? schema?.field(name)?.type.maxItems ?? 100
    }

    /// The table of nested member `name`, when this body has one.
    private func nestedSchema(_ name: String) -> WireObject? {
        switch schema?.field(name)?.type {
        case .object(let nested)?, .named(_, let nested)?: nested
        default: nil
        }
    }

    /// The full name of member `name`, e.g. `mobile.ios.team_id`.
    func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    private func value(_ name: String) -> JSONValue? { members.first { $0.name == name }?.value }

    /// Refuses members outside `allowed`.
    func allowOnly(_ allowed: Set<String>) throws {
        if let unknown = members.first(where: { !allowed.contains($0.name) }) {
            throw ServiceError.invalidRequest("unknown field \(field(String(unknown.name.prefix(64))))")
        }
    }

    /// The members' names, in order.
    var memberNames: [String] { members.map(\.name) }

    /// True when the member is present (even as null).
    func has(_ name: String) -> Bool { value(name) != nil }

    /// A string member; absent → nil; null or another type → 400.
    func string(_ name: String, maxLength: Int? = nil) throws -> String? {
        guard let value = value(name) else { return nil }
        return try Self.string(value, field(name), maxLength: limit(name, maxLength))
    }

    /// A string member of a public endpoint, where SDKs may send `null` for an absent value:
    /// absent or null → nil; another type → 400.
    func optionalString(_ name: String, maxLength: Int? = nil) throws -> String? {
        guard let value = value(name), !value.isNull else { return nil }
        return try Self.string(value, field(name), maxLength: limit(name, maxLength))
    }

    /// A required, non-empty string member.
    func requiredString(_ name: String, maxLength: Int? = nil) throws -> String {
        guard let value = try optionalString(name, maxLength: maxLength), !value.isEmpty else {
            throw ServiceError.invalidRequest("\(field(name)) is required")
        }
        return value
    }

    /// A nullable string member for PATCH: absent → keep, null → remove.
    func nullableString(_ name: String, maxLength: Int? = nil) throws -> FieldChange<String> {
        guard let value = value(name) else { return .keep }
        if value.isNull { return .remove }
        return .set(try Self.string(value, field(name), maxLength: limit(name, maxLength)))
    }

    /// A boolean member; absent → nil; null or another type → 400.
    func bool(_ name: String) throws -> Bool? {
        guard let value = value(name) else { return nil }
        guard let bool = value.boolValue else { throw ServiceError.invalidRequest("\(field(name)) must be a boolean") }
        return bool
    }

    /// An integer member; absent → nil; null, a fraction or another type → 400.
    func int(_ name: String) throws -> Int? {
        guard let value = value(name) else { return nil }
        guard case .number(let text) = value, let number = Int(text) else {
            throw ServiceError.invalidRequest("\(field(name)) must be an integer")
        }
        return number
    }

    /// An array of strings; each bad element is named by index.
    func strings(_ name: String, maxCount: Int? = nil, maxLength: Int? = nil) throws -> [String]? {
        guard let value = value(name) else { return nil }
        let maxCount = countLimit(name, maxCount)
        let maxLength = maxLength ?? schema?.field(name)?.type.elementMaxLength ?? 2_048
        guard let array = value.arrayValue else {
            throw ServiceError.invalidRequest("\(field(name)) must be an array of strings")
        }
        guard array.count <= maxCount else {
            throw ServiceError.invalidRequest("\(field(name)) holds at most \(maxCount) values")
        }
        return try array.enumerated().map { index, element in
            try Self.string(element, "\(field(name))[\(index)]", maxLength: maxLength)
        }
    }

    /// One string or an array of them (Auth0 holds some of these as a string); absent → nil.
    func stringOrStrings(_ name: String, maxCount: Int? = nil, maxLength: Int? = nil) throws -> [String]? {
        guard let value = value(name) else { return nil }
        let maxCount = countLimit(name, maxCount)
        let maxLength = limit(name, maxLength)
        if value.arrayValue != nil { return try strings(name, maxCount: maxCount, maxLength: maxLength) }
        guard let one = try string(name, maxLength: maxLength) else { return nil }
        return [one]
    }

    /// A nested object read with the same rules; absent → nil; null or another type → 400.
    func object(_ name: String) throws -> APIBody? {
        guard let value = value(name) else { return nil }
        guard case .object(let nested) = value else {
            throw ServiceError.invalidRequest("\(field(name)) must be an object")
        }
        return APIBody(members: nested, path: field(name), schema: nestedSchema(name))
    }

    /// An array of objects, each read with the same rules and named by index; absent → nil.
    func objects(_ name: String, maxCount: Int? = nil) throws -> [APIBody]? {
        guard let value = value(name) else { return nil }
        let maxCount = countLimit(name, maxCount)
        var table: WireObject?
        if case .array(.object(let elementTable), _, _)? = schema?.field(name)?.type { table = elementTable }
        guard let array = value.arrayValue else {
            throw ServiceError.invalidRequest("\(field(name)) must be an array of objects")
        }
        guard array.count <= maxCount else {
            throw ServiceError.invalidRequest("\(field(name)) holds at most \(maxCount) values")
        }
        return try array.enumerated().map { index, element in
            guard case .object(let nested) = element else {
                throw ServiceError.invalidRequest("\(field(name))[\(index)] must be an object")
            }
            return APIBody(members: nested, path: "\(field(name))[\(index)]", schema: table)
        }
    }

    /// A nullable nested object for PATCH: absent → keep, null → remove.
    func nullableObject(_ name: String) throws -> FieldChange<APIBody> {
        guard let value = value(name) else { return .keep }
        if value.isNull { return .remove }
        guard case .object(let nested) = value else {
            throw ServiceError.invalidRequest("\(field(name)) must be an object or null")
        }
        return .set(APIBody(members: nested, path: field(name), schema: nestedSchema(name)))
    }

    /// Every member as a string or null (a metadata merge); any other type → 400 naming it.
    func nullableStringMap(maxLength: Int = 4_096) throws -> [String: String?] {
        var map: [String: String?] = [:]
        for member in members {
            let name = field(String(member.name.prefix(64)))
            if member.value.isNull {
                map[member.name] = String?.none
            } else {
                map[member.name] = try Self.string(member.value, name, maxLength: maxLength)
            }
        }
        return map
    }

    /// Every member as a string (e.g. `user_metadata` at signup); any other type → 400 naming it.
    func stringMap(maxLength: Int = 4_096) throws -> [String: String] {
        var map: [String: String] = [:]
        for member in members {
            map[member.name] = try Self.string(
                member.value, field(String(member.name.prefix(64))), maxLength: maxLength)
        }
        return map
    }

    /// A WebAuthn credential member (`authn_response`): the object as parsed, or the JSON text a
    /// form body carries as a string; nil when absent or null.
    func credentialJSON(_ name: String) throws -> CredentialJSONInput? {
        guard let value = value(name), !value.isNull else { return nil }
        switch value {
        case .object: return .value(value)
        case .string(let text): return .bytes(Array(text.utf8))
        default: throw ServiceError.invalidRequest("\(field(name)) must be an object")
        }
    }

    /// The member's raw JSON bytes (e.g. `authn_response`), which must be an object.
    func rawObject(_ name: String) throws -> [UInt8]? {
        guard let value = value(name) else { return nil }
        guard case .object = value else { throw ServiceError.invalidRequest("\(field(name)) must be an object") }
        return value.serialized
    }

    private static func string(_ value: JSONValue, _ field: String, maxLength: Int) throws -> String {
        guard let string = value.stringValue else { throw ServiceError.invalidRequest("\(field) must be a string") }
        guard string.utf8.count <= maxLength else {
            throw ServiceError.invalidRequest("\(field) is longer than \(maxLength) bytes")
        }
        return string
    }
}

/// The token endpoint's grants read their fields from the body by their own tables.
extension APIBody: TokenFieldSource {
    func text(_ name: String, maxLength: Int) throws(ServiceError) -> String? {
        try Self.typed { try optionalString(name, maxLength: maxLength) }
    }

    func credential(_ name: String) throws(ServiceError) -> CredentialJSONInput? {
        try Self.typed { try credentialJSON(name) }
    }

    /// The body's reads throw only `ServiceError`; this says so to the compiler.
    private static func typed<T>(_ read: () throws -> T) throws(ServiceError) -> T {
        do {
            return try read()
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .invalidRequest("the request body could not be read")
        }
    }
}

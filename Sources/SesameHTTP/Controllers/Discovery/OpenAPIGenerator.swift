import SesameWire
import WebAuthn

/// Renders what the code declares into the OpenAPI document: each route's request body from its
/// table (`RequestBody`) and its query parameters from theirs (`RequestQuery`). The committed
/// `openapi.json` is this function's output, and a test keeps it so (`OpenAPIGenerationTests`;
/// `make openapi` writes it again after a table changes).
///
/// Paths and methods are checked against the router by `OpenAPIDocumentTests`; path parameters,
/// responses and descriptions are still written in the document by hand.
enum OpenAPIGenerator {
    /// `document` with the request body and the query parameters of every routed operation that
    /// declares them rendered from their tables. Operations are found by method and path, path
    /// parameters compared by position.
    static func generated(_ document: JSONValue, router: Router) -> JSONValue {
        let bodies = Dictionary(
            router.requestBodies.map { (Key($0.key.method.rawValue.lowercased(), $0.key.pattern), $0.value) },
            uniquingKeysWith: { first, _ in first })
        let queries = Dictionary(
            router.requestQueries.map { (Key($0.key.method.rawValue.lowercased(), $0.key.pattern), $0.value) },
            uniquingKeysWith: { first, _ in first })
        let named = router.requestBodies.values.reduce(into: [String: WireObject]()) { named, body in
            collectNamed(.object(body.schema), into: &named)
        }
        return document.replacingMember("paths") { paths in
            paths.mappingMembers { pattern, item in
                item.mappingMembers { method, operation in
                    var operation = operation
                    if let body = bodies[Key(method, pattern)] {
                        operation = operation.settingMember("requestBody", to: requestBody(body))
                    }
                    if let query = queries[Key(method, pattern)] {
                        operation = operation.settingMember(
                            "parameters", to: parameters(query, after: operation["parameters"]?.arrayValue ?? []))
                    }
                    return operation
                }
            }
        }.replacingMember("components") { components in
            components.replacingMember("schemas") { schemas in
                named.sorted { $0.key < $1.key }.reduce(schemas) { schemas, entry in
                    schemas.settingMember(entry.key, to: objectSchema(entry.value, nullable: false))
                }
            }
        }
    }

    /// An operation's parameters: those of `written` that are not in the query (the path's), then
    /// one per member of `query`'s table.
    static func parameters(_ query: RequestQuery, after written: [JSONValue]) -> JSONValue {
        let kept = written.filter { $0["in"]?.stringValue != "query" }
        return .array(
            kept
                + query.fields.map { field in
                    var members = [
                        JSONMember(name: "name", value: .string(field.name)),
                        JSONMember(name: "in", value: .string("query")),
                        JSONMember(name: "required", value: .bool(field.isDocumentedRequired)),
                        JSONMember(name: "schema", value: typeSchema(field.type, nullable: false)),
                    ]
                    if let description = field.description {
                        members.append(JSONMember(name: "description", value: .string(description)))
                    }
                    return .object(members)
                })
    }

    /// Every named object inside `type`, by name.
    static func collectNamed(_ type: WireType, into named: inout [String: WireObject]) {
        switch type {
        case .named(let name, let object):
            named[name] = object
            for field in object.fields { collectNamed(field.type, into: &named) }
        case .object(let object):
            for field in object.fields { collectNamed(field.type, into: &named) }
        case .array(let element, _, _), .map(let element, _, _, _): collectNamed(element, into: &named)
        case .either(let first, let second):
            collectNamed(first, into: &named)
            collectNamed(second, into: &named)
        default: break
        }
    }

    /// An operation's key: the lower-case method and the path with its parameters unnamed.
    struct Key: Hashable {
        let method: String
        let path: String
        init(_ method: String, _ path: String) {
            self.method = method
            self.path = path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix("{") && segment.hasSuffix("}") ? "{}" : String(segment)
            }.joined(separator: "/")
        }
    }

    /// An operation's `requestBody`: required, one schema per media type.
    static func requestBody(_ body: RequestBody) -> JSONValue {
        /// In a form, a member the table does not name is still one string, given once.
        func schema(form: Bool) -> JSONValue {
            if let root = body.arrayRoot {
                typeSchema(root, nullable: false)
            } else if let variants = body.variants {
                JSONValue.object([
                    JSONMember(
                        name: "oneOf", value: .array(variants.map { objectSchema($0, nullable: false, form: form) }))
                ])
            } else {
                objectSchema(body.schema, nullable: false, form: form)
            }
        }
        return .object([
            JSONMember(name: "required", value: .bool(true)),
            JSONMember(
                name: "content",
                value: .object(
                    body.media.types.map { type in
                        let form = type == "application/x-www-form-urlencoded"
                        return JSONMember(
                            name: type, value: .object([JSONMember(name: "schema", value: schema(form: form))]))
                    })),
        ])
    }

    /// The JSON Schema of an object's table; `form`: a form's, whose unnamed members are strings.
    static func objectSchema(_ object: WireObject, nullable: Bool, form: Bool = false) -> JSONValue {
        var members = [JSONMember(name: "type", value: typeName("object", nullable: nullable))]
        members.append(
            JSONMember(
                name: "properties",
                value: .object(object.fields.map { JSONMember(name: $0.name, value: fieldSchema($0)) })))
        let required = object.fields.filter(\.isDocumentedRequired).map { JSONValue.string($0.name) }
        if !required.isEmpty { members.append(JSONMember(name: "required", value: .array(required))) }
        if object.isClosed {
            members.append(JSONMember(name: "additionalProperties", value: .bool(false)))
        } else if form {
            members.append(
                JSONMember(
                    name: "additionalProperties", value: .object([JSONMember(name: "type", value: .string("string"))])))
        }
        if let description = object.description {
            members.append(JSONMember(name: "description", value: .string(description)))
        }
        return .object(members)
    }

    /// The JSON Schema of one member, with its description.
    static func fieldSchema(_ field: WireField) -> JSONValue {
        var schema = typeSchema(field.type, nullable: field.isNullable, required: field.isDocumentedRequired)
        if let description = field.description {
            schema = schema.settingMember("description", to: .string(description))
        }
        return schema
    }

    /// The JSON Schema of a type. A required string has at least one byte (an empty one is
    /// refused as missing).
    static func typeSchema(_ type: WireType, nullable: Bool, required: Bool = false) -> JSONValue {
        switch type {
        case .string(let maxLength, let minLength, let pattern, let format):
            var members = [JSONMember(name: "type", value: typeName("string", nullable: nullable))]
            let minimum = max(minLength, required ? 1 : 0)
            if minimum > 0 { members.append(JSONMember(name: "minLength", value: number(minimum))) }
            members.append(JSONMember(name: "maxLength", value: number(maxLength)))
            if let pattern { members.append(JSONMember(name: "pattern", value: .string(pattern))) }
            if let format { members.append(JSONMember(name: "format", value: .string(format))) }
            return .object(members)
        case .oneOf(let values):
            var choices = values.map(JSONValue.string)
            if nullable { choices.append(.null) }
            return .object([JSONMember(name: "enum", value: .array(choices))])
        case .boolean:
            return .object([JSONMember(name: "type", value: typeName("boolean", nullable: nullable))])
        case .integer(let range):
            var members = [JSONMember(name: "type", value: typeName("integer", nullable: nullable))]
            if let range {
                members.append(JSONMember(name: "minimum", value: number(range.lowerBound)))
                members.append(JSONMember(name: "maximum", value: number(range.upperBound)))
            }
            return .object(members)
        case .array(let element, let maxItems, let minItems):
            var members = [
                JSONMember(name: "type", value: typeName("array", nullable: nullable)),
                JSONMember(name: "items", value: typeSchema(element, nullable: false)),
            ]
            if minItems > 0 { members.append(JSONMember(name: "minItems", value: number(minItems))) }
            members.append(JSONMember(name: "maxItems", value: number(maxItems)))
            return .object(members)
        case .stringOrArray(let maxLength, let maxItems):
            let one = typeSchema(.string(maxLength: maxLength), nullable: false)
            let many = typeSchema(.array(.string(maxLength: maxLength), maxItems: maxItems), nullable: false)
            var choices = [one, many]
            if nullable { choices.append(.object([JSONMember(name: "type", value: .string("null"))])) }
            return .object([JSONMember(name: "oneOf", value: .array(choices))])
        case .object(let object):
            return objectSchema(object, nullable: nullable)
        case .map(let element, let maxMembers, let nullableValues, let keys):
            var members = [
                JSONMember(name: "type", value: typeName("object", nullable: nullable)),
                JSONMember(name: "additionalProperties", value: typeSchema(element, nullable: nullableValues)),
            ]
            if let keys { members.append(JSONMember(name: "propertyNames", value: typeSchema(keys, nullable: false))) }
            if let maxMembers { members.append(JSONMember(name: "maxProperties", value: number(maxMembers))) }
            return .object(members)
        case .characters(let count):
            var members = [JSONMember(name: "type", value: typeName("string", nullable: nullable))]
            if required { members.append(JSONMember(name: "minLength", value: number(1))) }
            members.append(JSONMember(name: "maxLength", value: number(count)))
            return .object(members)
        case .displayText(let count):
            return .object([
                JSONMember(name: "type", value: typeName("string", nullable: nullable)),
                JSONMember(name: "minLength", value: number(1)), JSONMember(name: "maxLength", value: number(count)),
                JSONMember(name: "pattern", value: .string(UnsafeText.pattern)),
            ])
        case .either(let first, let second):
            var choices = [typeSchema(first, nullable: false), typeSchema(second, nullable: false, required: required)]
            if nullable { choices.append(.object([JSONMember(name: "type", value: .string("null"))])) }
            return .object([JSONMember(name: "oneOf", value: .array(choices))])
        case .named(let name, _), .component(let name):
            let reference = JSONValue.object([
                JSONMember(name: "$ref", value: .string("#/components/schemas/\(name)"))
            ])
            guard nullable else { return reference }
            return .object([
                JSONMember(
                    name: "oneOf",
                    value: .array([reference, .object([JSONMember(name: "type", value: .string("null"))])]))
            ])
        case .refused(let description):
            return .object([
                JSONMember(name: "not", value: .object([])),
                JSONMember(name: "description", value: .string(description)),
            ])
        }
    }

    private static func typeName(_ name: String, nullable: Bool) -> JSONValue {
        nullable ? .array([.string(name), .string("null")]) : .string(name)
    }

    private static func number(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The document as the repository keeps it: one member per line, one space of indent per
    /// level, and a final newline.
    static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, to: &out)
        out += "\n"
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, to out: inout String) {
        let inner = String(repeating: " ", count: indent + 1)
        let closing = String(repeating: " ", count: indent)
        switch value {
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += inner + JSONValue.quoted(member.name) + ": "
                write(member.value, indent: indent + 1, to: &out)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += closing + "}"
        case .array(let values) where !values.isEmpty:
            out += "[\n"
            for (index, element) in values.enumerated() {
                out += inner
                write(element, indent: indent + 1, to: &out)
                out += index == values.count - 1 ? "\n" : ",\n"
            }
            out += closing + "]"
        default:
            out += String(decoding: value.serialized, as: UTF8.self)
        }
    }
}

extension JSONValue {
    /// This object with member `name` replaced by `change` of it (unchanged when absent).
    fileprivate func replacingMember(_ name: String, _ change: (JSONValue) -> JSONValue) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.map { $0.name == name ? JSONMember(name: name, value: change($0.value)) : $0 })
    }

    /// This object with every member's value replaced by `change(name, value)`.
    fileprivate func mappingMembers(_ change: (String, JSONValue) -> JSONValue) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.map { JSONMember(name: $0.name, value: change($0.name, $0.value)) })
    }

    /// This object with member `name` set to `value`, in its place when present, else last.
    fileprivate func settingMember(_ name: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.name == name }) {
            members[index] = JSONMember(name: name, value: value)
        } else {
            members.append(JSONMember(name: name, value: value))
        }
        return .object(members)
    }
}

import WebAuthn

/// One JSON value inside a JWT claims set: enough for OIDC and RFC 9068 claims and anything the
/// service adds (strings, integers, booleans, arrays, nested objects). Floating-point numbers and
/// `null` are not claim values Sesame issues, so a payload containing them does not decode.
public indirect enum JWTClaimValue: Sendable, Hashable {
    /// A JSON string.
    case string(String)
    /// A JSON integer (NumericDate claims such as `exp` are integers).
    case int(Int64)
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON array.
    case array([JWTClaimValue])
    /// A JSON object.
    case object([String: JWTClaimValue])

    /// An array of strings, e.g. `amr` or a multi-valued `aud`.
    public static func strings(_ values: [String]) -> JWTClaimValue { .array(values.map { .string($0) }) }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is one.
    public var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The strings, if this is an array of strings only.
    public var stringsValue: [String]? {
        guard case .array(let values) = self else { return nil }
        var out: [String] = []
        out.reserveCapacity(values.count)
        for value in values {
            guard case .string(let text) = value else { return nil }
            out.append(text)
        }
        return out
    }
}

extension JWTClaimValue {
    /// The claim value of a JSON value the core's reader produced; nil for `null`, a number that is
    /// not an integer fitting in 64 bits, or anything containing one.
    public init?(json: JSONValue) {
        switch json {
        case .string(let text): self = .string(text)
        case .bool(let flag): self = .bool(flag)
        case .number(let text):
            guard let number = Int64(text) else { return nil }
            self = .int(number)
        case .array(let values):
            var out: [JWTClaimValue] = []
            out.reserveCapacity(values.count)
            for value in values {
                guard let claim = JWTClaimValue(json: value) else { return nil }
                out.append(claim)
            }
            self = .array(out)
        case .object(let members):
            var out: [String: JWTClaimValue] = [:]
            out.reserveCapacity(members.count)
            for member in members {
                guard let claim = JWTClaimValue(json: member.value) else { return nil }
                out[member.name] = claim
            }
            self = .object(out)
        case .null: return nil
        }
    }
}

extension JWTClaimValue: Codable {
    /// Decodes one JSON value; numbers must be integers that fit in 64 bits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            self = .int(number)
        } else if let values = try? container.decode([JWTClaimValue].self) {
            self = .array(values)
        } else if let members = try? container.decode([String: JWTClaimValue].self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a claim value is a string, integer, boolean, array or object")
        }
    }

    /// Encodes the value as plain JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JWTClaimValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// A string claim from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer claim from a literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A boolean claim from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

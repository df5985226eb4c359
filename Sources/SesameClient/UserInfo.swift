import Foundation
import SesameWire

/// The claims `GET /userinfo` returns for an access token.
public struct UserInfo: Sendable, Equatable {
    /// The user id (`sub`).
    public let sub: String
    /// `email`.
    public let email: String?
    /// `email_verified`.
    public let emailVerified: Bool?
    /// `name`.
    public let name: String?
    /// `given_name`.
    public let givenName: String?
    /// `family_name`.
    public let familyName: String?
    /// `middle_name`.
    public let middleName: String?
    /// `nickname`.
    public let nickname: String?
    /// `picture`.
    public let picture: String?
    /// `phone_number`.
    public let phoneNumber: String?
    /// Every claim as text: strings as they are, booleans and numbers written out, arrays and
    /// objects as compact JSON.
    public let raw: [String: String]

    /// User info from its claims as text (`raw`); the typed members are read from it.
    public init(raw: [String: String]) throws(AuthenticationError) {
        guard let sub = raw["sub"], !sub.isEmpty else {
            throw AuthenticationError.invalidResponse("userinfo has no sub claim")
        }
        self.sub = sub
        email = raw["email"]
        emailVerified = raw["email_verified"].flatMap { $0 == "true" ? true : $0 == "false" ? false : nil }
        name = raw["name"]
        givenName = raw["given_name"]
        familyName = raw["family_name"]
        middleName = raw["middle_name"]
        nickname = raw["nickname"]
        picture = raw["picture"]
        phoneNumber = raw["phone_number"]
        self.raw = raw
    }

    /// Reads a userinfo JSON object.
    public init(json: Data) throws(AuthenticationError) {
        let claims = try APIClient.decode([String: Claim].self, from: json, status: nil)
        try self.init(raw: claims.mapValues(\.text))
    }
}

/// One claim value of any JSON type, written back as text.
private enum Claim: Decodable {
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case null
    case array([Claim])
    case object([String: Claim])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([Claim].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: Claim].self))
        }
    }

    /// Strings as they are, everything else as compact JSON.
    var text: String {
        switch self {
        case .string(let value): return value
        default: return json
        }
    }

    var json: String {
        switch self {
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return WireValue.quoted(value)
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { WireValue.quoted($0.key) + ":" + $0.value.json }
                .joined(separator: ",") + "}"
        }
    }
}

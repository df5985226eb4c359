import Foundation
import SesameCrypto
import Testing
import WebAuthn

/// One recorded ceremony from Tests/Data/conformance (see its README for the schema).
struct ConformanceVector: CustomTestStringConvertible, Sendable {
    let name: String
    let json: JSONValue

    var testDescription: String { name }

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/conformance")

    /// Every vector of one kind ("registration" or "authentication"), sorted by name.
    static func all(_ kind: String) -> [ConformanceVector] {
        let folder = directory.appendingPathComponent(kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let json = try? JSONDecoder().decode(JSONValue.self, from: data)
            else { return nil }
            return ConformanceVector(name: "\(kind)/\(name)", json: json)
        }
    }

    var rpID: String { json["rp_id"]?.string ?? "" }
    var origin: String { json["expected_origin"]?.string ?? "" }
    var challenge: String { json["expected_challenge"]?.string ?? "" }
    var requireUserVerification: Bool { json["require_user_verification"]?.bool ?? false }
    var requireUserPresence: Bool { json["require_user_presence"]?.bool ?? true }
    var allowCrossOrigin: Bool? { json["allow_cross_origin"]?.bool }
    var expect: JSONValue { json["expect"] ?? .null }
    var expectOK: Bool { expect["ok"]?.bool ?? false }
    var expectCode: String? { expect["code"]?.string }
    var expectPolicy: String? { expect["policy"]?.string }
    /// The response as JSON. Three py_webauthn TPM samples were recorded with standard base64
    /// (`+`, `/`) in `attestationObject`; Sesame's base64url decoder is strict by design (the wire
    /// format is base64url), so those values are converted here, and only here.
    var responseJSON: [UInt8] {
        guard var response = json["response"] else { return [] }
        if case .object(var object) = response, case .object(var inner)? = object["response"],
            let attestation = inner["attestationObject"]?.string,
            attestation.contains(where: { $0 == "+" || $0 == "/" })
        {
            inner["attestationObject"] = .string(
                attestation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
            object["response"] = .object(inner)
            response = .object(object)
        }
        return response.encoded
    }

    /// The README's clock rule: `verify_at`, else the middle of `x5c_validity`, else the real time.
    var now: Date {
        if let at = json["verify_at"]?.string, let date = ConformanceVector.parseDate(at) { return date }
        if let validity = json["x5c_validity"],
            let notBefore = validity["not_before"]?.string.flatMap(ConformanceVector.parseDate),
            let notAfter = validity["not_after"]?.string.flatMap(ConformanceVector.parseDate)
        {
            return notBefore.addingTimeInterval(notAfter.timeIntervalSince(notBefore) / 2)
        }
        return Date()
    }

    /// Trust anchors per format from `attestation_roots_pem`.
    func trustAnchors() throws -> [String: [X509Certificate]] {
        guard let roots = json["attestation_roots_pem"]?.object else { return [:] }
        var anchors: [String: [X509Certificate]] = [:]
        for (format, value) in roots {
            let pems = value.array?.compactMap(\.string) ?? []
            anchors[format] = try pems.flatMap { try X509Certificate.certificates(pem: $0) }
        }
        return anchors
    }

    static func parseDate(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        return ISO8601DateFormatter().date(from: text)
    }
}

/// A JSON value decoded with JSONDecoder (so booleans and numbers stay apart on every platform).
enum JSONValue: Decodable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var int: Int? { if case .number(let value) = self { Int(exactly: value) } else { nil } }
    var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// Back to JSON bytes.
    var encoded: [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: foundation, options: [.fragmentsAllowed])) ?? Data())
    }

    private var foundation: Any {
        switch self {
        case .string(let value): return value
        case .number(let value): return Int(exactly: value).map { $0 as Any } ?? value
        case .bool(let value): return value
        case .null: return NSNull()
        case .array(let values): return values.map(\.foundation)
        case .object(let object): return object.mapValues(\.foundation)
        }
    }
}

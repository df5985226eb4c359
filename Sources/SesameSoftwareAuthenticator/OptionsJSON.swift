import WebAuthn

/// Reads WebAuthn options JSON (creation or request options, as the server sends them) with errors
/// that name the member. Binary members are base64url strings.
struct OptionsJSON {
    /// The most an options document may weigh; real ones are well under a kilobyte or two.
    static let maxSize = 256 * 1024

    /// The options object itself: the document, or its `authn_params_public_key` (the
    /// Auth0-compatible challenge response) or `publicKey` (the `navigator.credentials` argument).
    static func publicKeyOptions(_ json: [UInt8]) throws(AuthenticatorError) -> JSONValue {
        guard json.count <= maxSize else {
            throw AuthenticatorError(.invalidOptions, "options JSON is larger than \(maxSize) bytes")
        }
        let document: JSONValue
        do {
            document = try JSONReader.parse(json)
        } catch {
            throw AuthenticatorError(.invalidOptions, "options are not valid JSON: \(error.message)")
        }
        guard case .object = document else {
            throw AuthenticatorError(.invalidOptions, "options must be a JSON object")
        }
        for wrapper in ["authn_params_public_key", "publicKey"] {
            if let inner = document[wrapper] {
                guard case .object = inner else {
                    throw AuthenticatorError(.invalidOptions, "\(wrapper) must be a JSON object")
                }
                return inner
            }
        }
        return document
    }

    /// A member that must be an object when present.
    static func object(_ value: JSONValue, _ name: String, path: String) throws(AuthenticatorError) -> JSONValue? {
        guard let member = value[name], !member.isNull else { return nil }
        guard case .object = member else {
            throw AuthenticatorError(.invalidOptions, "\(path) must be an object")
        }
        return member
    }

    /// A required string member.
    static func string(_ value: JSONValue, _ name: String, path: String) throws(AuthenticatorError) -> String {
        guard let member = value[name] else { throw AuthenticatorError(.invalidOptions, "\(path) is missing") }
        guard let text = member.stringValue else {
            throw AuthenticatorError(.invalidOptions, "\(path) must be a string")
        }
        return text
    }

    /// An optional string member (absent or null → nil).
    static func optionalString(_ value: JSONValue, _ name: String, path: String) throws(AuthenticatorError)
        -> String?
    {
        guard let member = value[name], !member.isNull else { return nil }
        guard let text = member.stringValue else {
            throw AuthenticatorError(.invalidOptions, "\(path) must be a string")
        }
        return text
    }

    /// A required base64url member. `lenient` ignores non-zero unused trailing bits (user handles
    /// some relying parties derive from text).
    static func bytes(_ value: JSONValue, _ name: String, path: String, lenient: Bool = false)
        throws(AuthenticatorError) -> [UInt8]
    {
        let text = try string(value, name, path: path)
        do {
            return lenient ? try Base64URL.decodeIgnoringTrailingBits(text) : try Base64URL.decode(text)
        } catch {
            throw AuthenticatorError(.invalidOptions, "\(path) is not valid base64url: \(error.message)")
        }
    }

    /// An optional array member (absent or null → empty).
    static func array(_ value: JSONValue, _ name: String, path: String) throws(AuthenticatorError) -> [JSONValue] {
        guard let member = value[name], !member.isNull else { return [] }
        guard let items = member.arrayValue else {
            throw AuthenticatorError(.invalidOptions, "\(path) must be an array")
        }
        return items
    }

    /// The `id` of each `{"type","id"}` credential descriptor whose type is "public-key" (others
    /// are ignored, WebAuthn §5.8.3).
    static func credentialIDs(_ value: JSONValue, _ name: String) throws(AuthenticatorError) -> [[UInt8]] {
        var ids: [[UInt8]] = []
        for (index, item) in try array(value, name, path: name).enumerated() {
            let path = "\(name)[\(index)]"
            guard case .object = item else { throw AuthenticatorError(.invalidOptions, "\(path) must be an object") }
            let type = try string(item, "type", path: "\(path).type")
            guard type == "public-key" else { continue }
            ids.append(try bytes(item, "id", path: "\(path).id"))
        }
        return ids
    }

    /// A `UserVerificationRequirement` member; absent or unknown values mean `preferred` (§5.8.6:
    /// clients ignore unknown enumeration values).
    static func userVerification(_ value: JSONValue?, path: String) throws(AuthenticatorError)
        -> UserVerificationRequirement
    {
        guard let value, let text = try optionalString(value, "userVerification", path: path) else {
            return .preferred
        }
        return UserVerificationRequirement(rawValue: text) ?? .preferred
    }
}

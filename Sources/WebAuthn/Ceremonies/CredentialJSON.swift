/// Reads a `PublicKeyCredential` in its WebAuthn JSON form (§5.1.8 `toJSON()`): the common members
/// and the `response` object, with every binary member base64url-decoded.
struct CredentialJSON {
    let rawID: [UInt8]
    let response: JSONValue
    let authenticatorAttachment: String?

    /// The most a credential JSON may weigh; real ones are a few kilobytes.
    static let maxSize = 64 * 1024

    init(_ json: [UInt8]) throws(WebAuthnError) {
        guard json.count <= CredentialJSON.maxSize else {
            throw WebAuthnError(.malformed, "credential JSON is larger than \(CredentialJSON.maxSize) bytes")
        }
        try self.init(value: try JSONReader.parse(json))
    }

    init(_ input: CredentialJSONInput) throws(WebAuthnError) {
        switch input {
        case .bytes(let json): try self.init(json)
        case .value(let value): try self.init(value: value)
        }
    }

    /// The credential in an already parsed JSON value (a member of a larger body, read with that
    /// body's limits).
    init(value credential: JSONValue) throws(WebAuthnError) {
        guard case .object = credential else {
            throw WebAuthnError(.malformed, "credential must be a JSON object")
        }
        if let type = credential["type"] {
            guard type.stringValue == "public-key" else {
                throw WebAuthnError(.malformed, "credential.type must be \"public-key\"")
            }
        }
        guard let rawIDText = (credential["rawId"] ?? credential["id"])?.stringValue else {
            throw WebAuthnError(.malformed, "credential.rawId must be a base64url string")
        }
        let rawID = try CredentialJSON.decode(rawIDText, "credential.rawId")
        // §5.1: id is the base64url encoding of rawId; a mismatch means the JSON was tampered with.
        if let idMember = credential["id"] {
            guard let idText = idMember.stringValue else {
                throw WebAuthnError(.malformed, "credential.id must be a base64url string")
            }
            guard try CredentialJSON.decode(idText, "credential.id") == rawID else {
                throw WebAuthnError(.malformed, "credential.id does not match credential.rawId")
            }
        }
        guard !rawID.isEmpty else { throw WebAuthnError(.malformed, "credential.rawId is empty") }
        guard let response = credential["response"], case .object = response else {
            throw WebAuthnError(.malformed, "credential.response must be an object")
        }
        var attachment: String?
        if let member = credential["authenticatorAttachment"], !member.isNull {
            guard let text = member.stringValue else {
                throw WebAuthnError(.malformed, "credential.authenticatorAttachment must be a string")
            }
            attachment = text
        }
        self.rawID = rawID
        self.response = response
        self.authenticatorAttachment = attachment
    }

    /// A required base64url member of `response`.
    func bytes(_ name: String) throws(WebAuthnError) -> [UInt8] {
        guard let text = response[name]?.stringValue else {
            throw WebAuthnError(.malformed, "response.\(name) must be a base64url string")
        }
        return try CredentialJSON.decode(text, "response.\(name)")
    }

    /// The optional `userHandle` member of `response` (absent, null or empty string mean absent).
    func userHandle(_ name: String = "userHandle") throws(WebAuthnError) -> [UInt8]? {
        guard let member = response[name], !member.isNull else { return nil }
        guard let text = member.stringValue else {
            throw WebAuthnError(.malformed, "response.\(name) must be a base64url string")
        }
        if text.isEmpty { return nil }
        // The user handle is opaque and only compared as bytes with the stored one; some relying
        // parties set it from a string, so non-zero unused bits in the last character are ignored.
        do {
            return try Base64URL.decodeIgnoringTrailingBits(text)
        } catch {
            throw WebAuthnError(.malformed, "response.\(name) is not valid base64url: \(error.message)")
        }
    }

    /// An optional array of strings in `response`.
    func strings(_ name: String) throws(WebAuthnError) -> [String] {
        guard let member = response[name], !member.isNull else { return [] }
        guard let values = member.arrayValue else {
            throw WebAuthnError(.malformed, "response.\(name) must be an array of strings")
        }
        var strings: [String] = []
        for value in values {
            guard let string = value.stringValue else {
                throw WebAuthnError(.malformed, "response.\(name) must be an array of strings")
            }
            strings.append(string)
        }
        return strings
    }

    private static func decode(_ text: String, _ field: String) throws(WebAuthnError) -> [UInt8] {
        do {
            return try Base64URL.decode(text)
        } catch {
            throw WebAuthnError(.malformed, "\(field) is not valid base64url: \(error.message)")
        }
    }
}

/// A credential in its WebAuthn JSON form: the bytes as received, or the value a request body's
/// parse already produced (so the member is not written back out and read again).
public enum CredentialJSONInput: Sendable, Hashable {
    case bytes([UInt8])
    case value(JSONValue)
}

/// The result of `navigator.credentials.create()` as the relying party receives it.
public struct RegistrationCredential: Sendable, Hashable {
    /// The credential ID (`rawId`).
    public var id: [UInt8]
    public var clientDataJSON: [UInt8]
    public var attestationObject: [UInt8]
    /// `response.transports` as reported by the client ("internal", "hybrid", "usb", …).
    public var transports: [String]
    public var authenticatorAttachment: String?

    public init(
        id: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8], transports: [String] = [],
        authenticatorAttachment: String? = nil
    ) {
        self.id = id
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
        self.authenticatorAttachment = authenticatorAttachment
    }

    /// Parses the WebAuthn JSON form (`RegistrationResponseJSON`).
    public init(json: [UInt8]) throws(WebAuthnError) { try self.init(json: .bytes(json)) }

    /// Reads the WebAuthn JSON form (`RegistrationResponseJSON`), as bytes or as a parsed value.
    public init(json: CredentialJSONInput) throws(WebAuthnError) {
        let parsed = try CredentialJSON(json)
        self.init(
            id: parsed.rawID, clientDataJSON: try parsed.bytes("clientDataJSON"),
            attestationObject: try parsed.bytes("attestationObject"), transports: try parsed.strings("transports"),
            authenticatorAttachment: parsed.authenticatorAttachment)
    }
}

/// The result of `navigator.credentials.get()` as the relying party receives it.
public struct AuthenticationCredential: Sendable, Hashable {
    /// The credential ID (`rawId`).
    public var id: [UInt8]
    public var clientDataJSON: [UInt8]
    public var authenticatorData: [UInt8]
    public var signature: [UInt8]
    /// The user handle a discoverable credential returns.
    public var userHandle: [UInt8]?
    public var authenticatorAttachment: String?

    public init(
        id: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]? = nil, authenticatorAttachment: String? = nil
    ) {
        self.id = id
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.authenticatorAttachment = authenticatorAttachment
    }

    /// Parses the WebAuthn JSON form (`AuthenticationResponseJSON`).
    public init(json: [UInt8]) throws(WebAuthnError) { try self.init(json: .bytes(json)) }

    /// Reads the WebAuthn JSON form (`AuthenticationResponseJSON`), as bytes or as a parsed value.
    public init(json: CredentialJSONInput) throws(WebAuthnError) {
        let parsed = try CredentialJSON(json)
        self.init(
            id: parsed.rawID, clientDataJSON: try parsed.bytes("clientDataJSON"),
            authenticatorData: try parsed.bytes("authenticatorData"), signature: try parsed.bytes("signature"),
            userHandle: try parsed.userHandle(), authenticatorAttachment: parsed.authenticatorAttachment)
    }
}

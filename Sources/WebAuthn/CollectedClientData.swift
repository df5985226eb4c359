/// CollectedClientData (WebAuthn §5.8.1), parsed as JSON; unknown members are ignored.
public struct CollectedClientData: Sendable, Hashable {
    /// "webauthn.create" or "webauthn.get" (checked by the verifier, not here).
    public var type: String
    /// The challenge, base64url-decoded.
    public var challenge: [UInt8]
    /// The origin the browser reported.
    public var origin: String
    /// True when the ceremony ran in a cross-origin iframe; nil when the member is absent.
    public var crossOrigin: Bool?
    /// The top-level origin for cross-origin ceremonies; nil when absent.
    public var topOrigin: String?
    /// `tokenBinding.status` when the client sent a tokenBinding object (WebAuthn Level 2; Level 3
    /// dropped the member). A non-object value (some old browsers sent the string "unused") is
    /// ignored; an object without a string status reads as "(missing)", which the verifier refuses.
    public var tokenBindingStatus: String?
    /// The exact JSON bytes (hashed into the signature).
    public var raw: [UInt8]

    /// Parses clientDataJSON. Requires string `type`, `challenge` (base64url) and `origin`; an
    /// optional `crossOrigin` must be a boolean and `topOrigin` a string. Failures throw `.malformed`.
    public init(json: [UInt8]) throws(WebAuthnError) {
        let document: JSONValue
        do {
            document = try JSONReader.parse(json)
        } catch {
            throw WebAuthnError(.malformed, "clientDataJSON: not valid JSON (\(error.message))")
        }
        guard case .object = document else {
            throw WebAuthnError(.malformed, "clientDataJSON: not a JSON object")
        }
        let type = try Self.required(document, "type")
        let challengeText = try Self.required(document, "challenge")
        let origin = try Self.required(document, "origin")
        var crossOrigin: Bool?
        if let member = document["crossOrigin"] {
            guard let value = member.boolValue else {
                throw WebAuthnError(.malformed, "clientDataJSON: crossOrigin is not a boolean")
            }
            crossOrigin = value
        }
        var topOrigin: String?
        if let member = document["topOrigin"] {
            guard let value = member.stringValue else {
                throw WebAuthnError(.malformed, "clientDataJSON: topOrigin is not a string")
            }
            topOrigin = value
        }
        let challenge: [UInt8]
        do {
            challenge = try Base64URL.decode(challengeText)
        } catch {
            throw WebAuthnError(.malformed, "clientDataJSON: challenge is not base64url (\(error.message))")
        }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        if let tokenBinding = document["tokenBinding"], case .object = tokenBinding {
            self.tokenBindingStatus = tokenBinding["status"]?.stringValue ?? "(missing)"
        }
        self.raw = json
    }

    private static func required(_ document: JSONValue, _ name: String) throws(WebAuthnError) -> String {
        guard let member = document[name] else {
            throw WebAuthnError(.malformed, "clientDataJSON: \(name) is missing")
        }
        guard let value = member.stringValue else {
            throw WebAuthnError(.malformed, "clientDataJSON: \(name) is not a string")
        }
        return value
    }
}

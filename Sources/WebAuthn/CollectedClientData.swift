import Foundation

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
    /// The exact JSON bytes (hashed into the signature).
    public var raw: [UInt8]

    /// Parses clientDataJSON. Requires string `type`, `challenge` (base64url) and `origin`; an
    /// optional `crossOrigin` must be a boolean and `topOrigin` a string. Failures throw `.malformed`.
    public init(json: [UInt8]) throws(WebAuthnError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(json))
        } catch let error as WebAuthnError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw WebAuthnError(.malformed, "clientDataJSON: not a JSON object")
        } catch {
            throw WebAuthnError(.malformed, "clientDataJSON: not valid JSON")
        }
        let challenge: [UInt8]
        do {
            challenge = try Base64URL.decode(wire.challenge)
        } catch {
            throw WebAuthnError(.malformed, "clientDataJSON: challenge is not base64url (\(error.message))")
        }
        self.type = wire.type
        self.challenge = challenge
        self.origin = wire.origin
        self.crossOrigin = wire.crossOrigin
        self.topOrigin = wire.topOrigin
        self.raw = json
    }

    /// The JSON members, decoded one by one so each failure names its member.
    private struct Wire: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
        var topOrigin: String?

        private enum Key: String, CodingKey {
            case type, challenge, origin, crossOrigin, topOrigin
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            type = try Self.required(container, .type)
            challenge = try Self.required(container, .challenge)
            origin = try Self.required(container, .origin)
            crossOrigin = try Self.optional(container, .crossOrigin, as: Bool.self, kind: "a boolean")
            topOrigin = try Self.optional(container, .topOrigin, as: String.self, kind: "a string")
        }

        private static func required(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> String {
            guard container.contains(key) else {
                throw WebAuthnError(.malformed, "clientDataJSON: \(key.rawValue) is missing")
            }
            guard let value = try? container.decode(String.self, forKey: key) else {
                throw WebAuthnError(.malformed, "clientDataJSON: \(key.rawValue) is not a string")
            }
            return value
        }

        private static func optional<T: Decodable>(
            _ container: KeyedDecodingContainer<Key>, _ key: Key, as: T.Type, kind: String
        ) throws -> T? {
            guard container.contains(key) else { return nil }
            guard let value = try? container.decode(T.self, forKey: key) else {
                throw WebAuthnError(.malformed, "clientDataJSON: \(key.rawValue) is not \(kind)")
            }
            return value
        }
    }
}

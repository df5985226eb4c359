/// A JWS in compact serialization (RFC 7515 §7.1), split and base64url-decoded but not verified:
/// the carrier of an `android-safetynet` response.
public struct CompactJWS: Sendable, Hashable {
    /// The decoded JOSE header (JSON bytes).
    public var header: [UInt8]
    /// The decoded payload.
    public var payload: [UInt8]
    /// The decoded signature.
    public var signature: [UInt8]
    /// The bytes the signature covers: ASCII(BASE64URL(header) "." BASE64URL(payload)).
    public var signingInput: [UInt8]

    /// Splits `compact` into exactly three non-empty, unpadded base64url parts and decodes them.
    public init(compact: [UInt8]) throws(WebAuthnError) {
        let dot = UInt8(ascii: ".")
        let parts = compact.split(separator: dot, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw WebAuthnError(.malformed, "JWS: compact serialization needs 3 parts, found \(parts.count)")
        }
        let names = ["header", "payload", "signature"]
        var decoded: [[UInt8]] = []
        for (part, name) in zip(parts, names) {
            guard !part.isEmpty else {
                throw WebAuthnError(.malformed, "JWS: the \(name) part is empty")
            }
            // RFC 7515 §2: base64url without padding.
            guard !part.contains(UInt8(ascii: "=")) else {
                throw WebAuthnError(.malformed, "JWS: the \(name) part is padded")
            }
            do {
                decoded.append(try Base64URL.decode(part))
            } catch {
                throw WebAuthnError(.malformed, "JWS: the \(name) part is not base64url: \(error.message)")
            }
        }
        guard decoded.count == 3, let headerPart = parts.first, parts.count == 3 else {
            throw WebAuthnError(.malformed, "JWS: compact serialization needs 3 parts")
        }
        header = decoded[0]
        payload = decoded[1]
        signature = decoded[2]
        signingInput = Array(headerPart) + [dot] + Array(parts[1])
    }
}

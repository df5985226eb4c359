import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// Signs compact JWS tokens (RFC 7515) with one private key: RS256, ES256 (raw r ‖ s) or EdDSA.
///
/// The protected header `{"alg","kid","typ"}` is encoded once per `JWTType` when the signer is made,
/// so signing costs one JSON encode of the claims, two base64url encodings and the signature.
public final class JWTSigner: Sendable {
    /// The algorithm every token from this signer names in its header.
    public let algorithm: JWTAlgorithm
    /// The `kid` every token from this signer names in its header.
    public let keyID: String
    private let privateKey: PrivateKey
    /// base64url(header JSON) ‖ "." for id tokens and for access tokens.
    private let idTokenPrefix: [UInt8]
    private let accessTokenPrefix: [UInt8]

    /// A signer for `privateKey`; throws `CryptoError.unsupportedAlgorithm` if the key does not fit
    /// `algorithm` (ES256 needs P-256, EdDSA Ed25519, RS256 RSA of at least 2048 bits).
    public init(privateKey: PrivateKey, algorithm: JWTAlgorithm, keyID: String) throws {
        guard algorithm.fits(privateKey.type) else {
            throw CryptoError.unsupportedAlgorithm("\(algorithm.rawValue) does not fit this key")
        }
        self.privateKey = privateKey
        self.algorithm = algorithm
        self.keyID = keyID
        idTokenPrefix = try Self.headerPrefix(algorithm: algorithm, keyID: keyID, type: .idToken)
        accessTokenPrefix = try Self.headerPrefix(algorithm: algorithm, keyID: keyID, type: .accessToken)
    }

    /// Signs a claims set given as JSON values. Keys are emitted sorted, slashes unescaped.
    public func sign(_ claims: [String: JWTClaimValue], type: JWTType) throws -> String {
        try sign(encodedClaims: try Self.encodeClaims(claims), type: type)
    }

    /// Signs any `Encodable` claims type (it must encode as a JSON object).
    public func sign<Claims: Encodable>(claims: Claims, type: JWTType) throws -> String {
        try sign(encodedClaims: try Self.encodeClaims(claims), type: type)
    }

    /// Signs claims already encoded as a JSON object (UTF-8). The caller vouches for the JSON.
    public func sign(encodedClaims: [UInt8], type: JWTType) throws -> String {
        var signingInput = type == .idToken ? idTokenPrefix : accessTokenPrefix
        let payload = Base64URL.encode(encodedClaims).utf8
        signingInput.reserveCapacity(signingInput.count + payload.count + 1 + 344)
        signingInput.append(contentsOf: payload)
        let signature = try privateKey.signature(
            for: signingInput, algorithm: algorithm.signatureAlgorithm, format: .raw)
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(signature).utf8)
        return String(decoding: signingInput, as: UTF8.self)
    }

    /// The claims as compact JSON with sorted keys, written directly (Foundation's JSONEncoder cost
    /// ~23 µs per token on the login path; this is a few µs). Same form as the Encodable path.
    static func encodeClaims(_ claims: [String: JWTClaimValue]) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        append(object: claims, to: &out)
        return out
    }

    private static func append(object members: [String: JWTClaimValue], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.appendQuoted(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            append(member.value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func append(_ value: JWTClaimValue, to out: inout [UInt8]) {
        switch value {
        case .string(let string): JSONValue.appendQuoted(string, to: &out)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members): append(object: members, to: &out)
        }
    }

    /// The deterministic JSON form Sesame uses for claims: sorted keys, `/` not escaped.
    static func encodeClaims<Claims: Encodable>(_ claims: Claims) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(claims)
        guard data.first == UInt8(ascii: "{") else {
            throw CryptoError.invalidInput("JWT claims must encode as a JSON object")
        }
        return [UInt8](data)
    }

    private static func headerPrefix(algorithm: JWTAlgorithm, keyID: String, type: JWTType) throws -> [UInt8] {
        let header: [String: JWTClaimValue] = [
            "alg": .string(algorithm.rawValue), "kid": .string(keyID), "typ": .string(type.rawValue),
        ]
        var prefix = Array(Base64URL.encode(try encodeClaims(header)).utf8)
        prefix.append(UInt8(ascii: "."))
        return prefix
    }
}

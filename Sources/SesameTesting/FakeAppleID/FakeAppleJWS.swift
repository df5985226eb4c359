import Foundation
import SesameCrypto
import SesameService
import WebAuthn

/// Compact JWS (RFC 7515) as the fake writes it: the header exactly as given (Apple's is
/// `{"kid","alg"}`, with no `typ`), JSON with sorted keys, and any signature a test needs,
/// including the ones a verifier must refuse (`none`, HS256).
enum FakeAppleJWS {
    /// A token signed with `key`. ECDSA signatures are JOSE's raw r ‖ s unless `format` says DER.
    static func signed(
        header: [String: JWTClaimValue], claims: [String: JWTClaimValue], key: PrivateKey,
        algorithm: SignatureAlgorithm, format: ECDSASignatureFormat = .raw
    ) throws -> String {
        let input = try signingInput(header: header, claims: claims)
        let signature = try key.signature(for: Array(input.utf8), algorithm: algorithm, format: format)
        return input + "." + Base64URL.encode(signature)
    }

    /// A token with an HMAC-SHA-256 signature under `secret`.
    static func hs256(header: [String: JWTClaimValue], claims: [String: JWTClaimValue], secret: [UInt8]) throws
        -> String
    {
        let input = try signingInput(header: header, claims: claims)
        return input + "." + Base64URL.encode(HMAC.authenticationCode(for: Array(input.utf8), key: secret))
    }

    /// A token with an empty signature (`alg: none`, RFC 7519 §6).
    static func unsecured(header: [String: JWTClaimValue], claims: [String: JWTClaimValue]) throws -> String {
        try signingInput(header: header, claims: claims) + "."
    }

    /// The header and claims of a compact JWS, decoded without checking anything; nil when it is
    /// not three base64url parts of which the first two are JSON objects of claim values.
    static func peek(_ token: String) -> (header: [String: JWTClaimValue], claims: [String: JWTClaimValue])? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = object(parts[0]), let claims = object(parts[1]) else { return nil }
        return (header, claims)
    }

    /// Sorted keys, `/` unescaped.
    static func json(_ object: [String: JWTClaimValue]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(object))
    }

    private static func signingInput(header: [String: JWTClaimValue], claims: [String: JWTClaimValue]) throws
        -> String
    {
        Base64URL.encode(try json(header)) + "." + Base64URL.encode(try json(claims))
    }

    private static func object(_ part: Substring) -> [String: JWTClaimValue]? {
        guard let bytes = try? Base64URL.decode(part.utf8) else { return nil }
        return try? JSONDecoder().decode([String: JWTClaimValue].self, from: Data(bytes))
    }
}

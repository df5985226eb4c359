import Foundation
import SesameStore

/// A token whose signature and registered claims checked out.
public struct VerifiedJWT: Sendable {
    /// The header's algorithm (equal to the key's).
    public let algorithm: JWTAlgorithm
    /// The header's `kid`.
    public let keyID: String
    /// The header's `typ`, if any.
    public let type: String?
    /// Every claim of the payload.
    public let claims: [String: JWTClaimValue]
    /// The payload JSON exactly as signed, for callers that decode their own claims type.
    public let payload: [UInt8]

    /// The `iss` claim (always present after verification).
    public var issuer: String { claims["iss"]?.stringValue ?? "" }
    /// The `sub` claim, if present as a string.
    public var subject: String? { claims["sub"]?.stringValue }
    /// The `aud` claim as a list (a single string becomes one element).
    public var audiences: [String] {
        if let single = claims["aud"]?.stringValue { return [single] }
        return claims["aud"]?.stringsValue ?? []
    }
    /// The `exp` claim (always present after verification).
    public var expiresAt: Date { Date(timeIntervalSince1970: TimeInterval(claims["exp"]?.intValue ?? 0)) }
    /// The `iat` claim, if present.
    public var issuedAt: Date? { claims["iat"]?.intValue.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
    /// The `scope` claim split on spaces (RFC 9068 §2.2.3); empty when absent.
    public var scopes: [String] {
        guard let scope = claims["scope"]?.stringValue else { return [] }
        return scope.split(separator: " ").map(String.init)
    }
    /// A string claim by name.
    public func string(_ name: String) -> String? { claims[name]?.stringValue }

    /// Decodes the payload into the caller's own claims type.
    public func decode<Claims: Decodable>(_ type: Claims.Type) throws -> Claims {
        try JSONDecoder().decode(type, from: Data(payload))
    }
}

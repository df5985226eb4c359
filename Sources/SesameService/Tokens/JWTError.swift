/// Why a JWT was refused. Every case means `invalid_token` on the wire (RFC 6750 §3.1); the
/// description says which check failed and never echoes the token.
public enum JWTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a compact JWS: wrong number of parts, bad base64url, header or payload not a JSON object.
    case malformed(String)
    /// The header's `alg` is missing, `none`, or not among the allowed algorithms.
    case unsupportedAlgorithm(String)
    /// The header's `kid` is missing or names no published key of the tenant.
    case unknownKey
    /// The header's `alg` is not the algorithm of the key its `kid` names.
    case algorithmMismatch(header: String, key: String)
    /// The header carries a `crit` parameter (no extensions are understood).
    case unsupportedCriticalHeader
    /// The signature does not verify.
    case invalidSignature
    /// The `typ` header is missing or not the expected one.
    case wrongType(expected: String)
    /// A required claim is missing or has the wrong JSON type.
    case invalidClaim(String)
    /// `exp` has passed (beyond the leeway).
    case expired
    /// `nbf` or `iat` lies in the future (beyond the leeway).
    case notYetValid
    /// `iss` is not the expected issuer.
    case wrongIssuer
    /// `aud` does not contain the expected audience.
    case wrongAudience

    public var description: String {
        switch self {
        case .malformed(let why): return "malformed token: \(why)"
        case .unsupportedAlgorithm(let alg): return "unsupported token algorithm \"\(alg)\""
        case .unknownKey: return "the token's kid names no published signing key"
        case .algorithmMismatch(let header, let key):
            return "the token header says \(header) but its key is an \(key) key"
        case .unsupportedCriticalHeader: return "the token header has a crit parameter, which is not supported"
        case .invalidSignature: return "the token signature does not verify"
        case .wrongType(let expected): return "the token typ header is not \(expected)"
        case .invalidClaim(let why): return "invalid token claim: \(why)"
        case .expired: return "the token has expired"
        case .notYetValid: return "the token is not valid yet"
        case .wrongIssuer: return "the token was issued by another issuer"
        case .wrongAudience: return "the token is not meant for this audience"
        }
    }
}

import SesameCrypto
import SesameStore

/// What the signer and verifier need of each algorithm (the enum itself is the stored vocabulary,
/// in SesameStore).
extension JWTAlgorithm {
    /// The key type Sesame generates for this algorithm.
    public var generatedKeyType: KeyType {
        switch self {
        case .rs256: return .rsa(bits: 2048)
        case .es256: return .ec(.p256)
        case .edDSA: return .ed25519
        }
    }

    /// The SesameCrypto signature scheme.
    var signatureAlgorithm: SignatureAlgorithm {
        switch self {
        case .rs256: return .rsaPKCS1v15(.sha256)
        case .es256: return .ecdsa(.sha256)
        case .edDSA: return .ed25519
        }
    }

    /// Whether a key of `type` may be used with this algorithm (ES256 needs P-256 exactly).
    public func fits(_ type: KeyType) -> Bool {
        switch (self, type) {
        case (.rs256, .rsa(let bits)): return bits >= 2048
        case (.es256, .ec(.p256)): return true
        case (.edDSA, .ed25519): return true
        default: return false
        }
    }
}

/// The JWT `typ` header: plain id tokens and RFC 9068 access tokens are told apart by it.
public enum JWTType: String, Sendable, Hashable, CaseIterable {
    /// An OIDC id token ("JWT").
    case idToken = "JWT"
    /// An RFC 9068 access token ("at+jwt").
    case accessToken = "at+jwt"
}

import SesameCrypto

/// COSE algorithm identifiers (IANA registry) that the core knows. Codable as the integer identifier.
public enum COSEAlgorithm: Int, Sendable, Hashable, CaseIterable, Codable {
    /// ECDSA with SHA-256 on P-256.
    case es256 = -7
    /// ECDSA with SHA-384 on P-384.
    case es384 = -35
    /// ECDSA with SHA-512 on P-521.
    case es512 = -36
    /// Ed25519 (EdDSA on the OKP curve Ed25519).
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = -258
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = -259
    /// RSASSA-PSS with SHA-256.
    case ps256 = -37
    /// RSASSA-PSS with SHA-384.
    case ps384 = -38
    /// RSASSA-PSS with SHA-512.
    case ps512 = -39
    /// RSASSA-PKCS1-v1_5 with SHA-1: legacy TPM/packed attestation only, never for credentials by default.
    case rs1 = -65535

    /// Spec name, e.g. "ES256".
    public var name: String {
        switch self {
        case .es256: return "ES256"
        case .es384: return "ES384"
        case .es512: return "ES512"
        case .edDSA: return "EdDSA"
        case .rs256: return "RS256"
        case .rs384: return "RS384"
        case .rs512: return "RS512"
        case .ps256: return "PS256"
        case .ps384: return "PS384"
        case .ps512: return "PS512"
        case .rs1: return "RS1"
        }
    }

    /// The algorithm with this spec name ("ES256", "EdDSA", …), nil when unknown.
    public init?(name: String) {
        guard let match = COSEAlgorithm.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The SesameCrypto signature algorithm.
    public var signatureAlgorithm: SignatureAlgorithm {
        switch self {
        case .es256: return .ecdsa(.sha256)
        case .es384: return .ecdsa(.sha384)
        case .es512: return .ecdsa(.sha512)
        case .edDSA: return .ed25519
        case .rs256: return .rsaPKCS1v15(.sha256)
        case .rs384: return .rsaPKCS1v15(.sha384)
        case .rs512: return .rsaPKCS1v15(.sha512)
        case .ps256: return .rsaPSS(.sha256)
        case .ps384: return .rsaPSS(.sha384)
        case .ps512: return .rsaPSS(.sha512)
        case .rs1: return .rsaPKCS1v15(.legacySHA1)
        }
    }

    /// The COSE key type a key for this algorithm must have.
    public var keyType: COSEKey.KeyType {
        switch self {
        case .es256, .es384, .es512: return .ec2
        case .edDSA: return .okp
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .rs1: return .rsa
        }
    }

    /// The curve an ECDSA algorithm requires, nil for the others.
    public var requiredCurve: Curve? {
        switch self {
        case .es256: return .p256
        case .es384: return .p384
        case .es512: return .p521
        default: return nil
        }
    }
}

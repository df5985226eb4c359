internal import COpenSSL

/// Named elliptic curves.
public enum Curve: String, Sendable, Hashable, CaseIterable {
    /// NIST P-256 (secp256r1): ES256 passkeys.
    case p256 = "P-256"
    /// NIST P-384 (secp384r1).
    case p384 = "P-384"
    /// NIST P-521 (secp521r1).
    case p521 = "P-521"

    /// Size of one coordinate / scalar in bytes (32, 48, 66).
    public var coordinateSize: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }

    /// The group name libcrypto reports for keys on this curve.
    var groupName: StaticString {
        switch self {
        case .p256: return "prime256v1"
        case .p384: return "secp384r1"
        case .p521: return "secp521r1"
        }
    }

    /// libcrypto's NID for the curve.
    var nid: Int32 {
        switch self {
        case .p256: return NID_X9_62_prime256v1
        case .p384: return NID_secp384r1
        case .p521: return NID_secp521r1
        }
    }

    /// The curve for a libcrypto group name ("prime256v1") or NIST name ("P-256").
    init?(groupName: String) {
        switch groupName {
        case "prime256v1", "P-256", "secp256r1": self = .p256
        case "secp384r1", "P-384": self = .p384
        case "secp521r1", "P-521": self = .p521
        default: return nil
        }
    }
}

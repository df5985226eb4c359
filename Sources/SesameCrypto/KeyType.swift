/// What kind of key a `PublicKey` or `PrivateKey` holds.
public enum KeyType: Sendable, Hashable {
    /// An ECDSA key on a named curve.
    case ec(Curve)
    /// An EdDSA key on edwards25519.
    case ed25519
    /// An RSA key with a modulus of `bits` bits.
    case rsa(bits: Int)
}

extension KeyType {
    /// A readable name for error messages ("EC P-256", "Ed25519", "RSA-2048").
    var name: String {
        switch self {
        case .ec(let curve): return "EC \(curve.rawValue)"
        case .ed25519: return "Ed25519"
        case .rsa(let bits): return "RSA-\(bits)"
        }
    }

    /// RSA modulus sizes accepted for keys this server creates or signs with.
    static let rsaSigningBits = 2048...4096
    /// RSA modulus sizes accepted for credential keys given as components or JWK (verify only).
    static let rsaCredentialBits = 2048...8192
    /// RSA modulus sizes accepted from SPKI / X.509 (legacy attestation certificates, verify only).
    static let rsaCertificateBits = 1024...8192
}

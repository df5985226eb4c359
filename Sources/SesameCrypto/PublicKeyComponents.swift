/// The public parameters of a key, as raw big-endian integers / points.
public enum PublicKeyComponents: Sendable, Hashable {
    /// An EC point; `x` and `y` are exactly `curve.coordinateSize` bytes.
    case ec(curve: Curve, x: [UInt8], y: [UInt8])
    /// A 32-byte Ed25519 public key.
    case ed25519([UInt8])
    /// An RSA modulus and public exponent (big-endian; keys store them without leading zeros).
    case rsa(modulus: [UInt8], exponent: [UInt8])
}

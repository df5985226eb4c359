import SesameCrypto

/// A JWK Set (RFC 7517 §5): the body of `/.well-known/jwks.json`.
public struct JWKSet: Codable, Sendable, Hashable {
    /// The published public keys, each with `kid`, `alg` and `use` "sig".
    public var keys: [JWK]

    /// A set of `keys`.
    public init(keys: [JWK]) {
        self.keys = keys
    }
}

import SesameCrypto

/// The crypto of the floor: what `sesame-loadgen` times as the floor of a login (one ES256 verify
/// of an assertion and two ES256 JWT signatures) and of a refresh (two signatures), and what
/// `sesame-floor-server` does per request. One definition, so the two cannot drift apart. The keys
/// are made and imported once.
public final class FloorWork {
    private let key: PrivateKey
    private let publicKey: PublicKey
    /// An assertion's signed data: 37 bytes of authenticator data and a 32-byte hash.
    private let assertionMessage: [UInt8]
    private let assertionSignature: [UInt8]
    /// A JWT signing input of typical size (header.payload, about 450 bytes).
    private let jwtMessage: [UInt8]

    public init() throws {
        key = try PrivateKey.generate(.ec(.p256))
        publicKey = key.publicKey
        assertionMessage = (0..<69).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        assertionSignature = try key.signature(for: assertionMessage, algorithm: .ecdsa(.sha256))
        jwtMessage = Array(String(repeating: "eyJhbGciOiJFUzI1NiJ9", count: 23).utf8)
    }

    /// One ES256 verify of the assertion; false if it did not verify.
    public func verify() throws -> Bool {
        try publicKey.isValidSignature(assertionSignature, for: assertionMessage, algorithm: .ecdsa(.sha256))
    }

    /// One ES256 signature of the JWT signing input, in JOSE's raw form.
    public func sign() throws {
        _ = try key.signature(for: jwtMessage, algorithm: .ecdsa(.sha256), format: .raw)
    }
}

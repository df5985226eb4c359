import SesameCrypto
import SesameStore

/// A published public key a `JWTVerifier` may check signatures with, bound to one algorithm.
public struct JWTVerificationKey: Sendable {
    /// The JWK `kid` tokens name in their header.
    public let keyID: String
    /// The only algorithm this key verifies (a header naming another is refused).
    public let algorithm: JWTAlgorithm
    /// The imported key (imported once, reused for every token).
    public let publicKey: PublicKey

    /// Binds `publicKey` to `algorithm`; throws `CryptoError.unsupportedAlgorithm` if they do not fit.
    public init(keyID: String, algorithm: JWTAlgorithm, publicKey: PublicKey) throws {
        guard algorithm.fits(publicKey.type) else {
            throw CryptoError.unsupportedAlgorithm("\(algorithm.rawValue) does not fit this key")
        }
        self.keyID = keyID
        self.algorithm = algorithm
        self.publicKey = publicKey
    }
}

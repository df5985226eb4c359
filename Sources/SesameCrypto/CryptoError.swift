/// Why a SesameCrypto operation failed. Every failure that input can cause ends in one of these;
/// nothing in this module traps on bad input.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Key bytes, a JWK or a PEM that does not describe a valid key of the stated type.
    case invalidKey(String)
    /// The algorithm does not fit the key, or is not supported.
    case unsupportedAlgorithm(String)
    /// Input of the wrong size or shape (a nonce, a salt, a signature encoding).
    case invalidInput(String)
    /// A certificate that cannot be parsed or lacks what was asked of it.
    case certificate(String)
    /// A certificate chain that does not verify to the given roots at the given time.
    case chainVerification(String)
    /// AEAD open failed: wrong key, wrong associated data, or tampered ciphertext.
    case authenticationFailed
    /// libcrypto or libargon2 reported a failure that is not the caller's fault.
    case library(String)

    public var description: String {
        switch self {
        case .invalidKey(let why): return "invalid key: \(why)"
        case .unsupportedAlgorithm(let why): return "unsupported algorithm: \(why)"
        case .invalidInput(let why): return "invalid input: \(why)"
        case .certificate(let why): return "certificate: \(why)"
        case .chainVerification(let why): return "certificate chain: \(why)"
        case .authenticationFailed: return "authentication failed: the ciphertext, key or associated data is wrong"
        case .library(let why): return "libcrypto: \(why)"
        }
    }
}

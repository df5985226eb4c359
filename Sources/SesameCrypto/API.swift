// PUBLIC SURFACE OF SesameCrypto — stubs to be replaced by real implementations (one main type per
// file). Signatures here are the contract other modules compile against; keep them.
import Foundation

/// Hash functions. SHA-1 exists only for legacy attestation formats and is named so.
public enum HashAlgorithm: Sendable, Hashable {
    case legacySHA1
    case sha256
    case sha384
    case sha512

    /// The digest length in bytes.
    public var outputSize: Int {
        switch self {
        case .legacySHA1: return 20
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }
}

/// One-shot digests.
public enum Digest {
    public static func sha256(_ data: [UInt8]) -> [UInt8] { fatalStub() }
    public static func sha384(_ data: [UInt8]) -> [UInt8] { fatalStub() }
    public static func sha512(_ data: [UInt8]) -> [UInt8] { fatalStub() }
    /// SHA-1, for legacy attestation formats (TPM, old packed) only.
    public static func legacySHA1(_ data: [UInt8]) -> [UInt8] { fatalStub() }
    public static func hash(_ data: [UInt8], with algorithm: HashAlgorithm) -> [UInt8] { fatalStub() }
}

/// HMAC and constant-time comparison.
public enum HMAC {
    public static func authenticationCode(for message: [UInt8], key: [UInt8], hash: HashAlgorithm = .sha256) -> [UInt8] { fatalStub() }
    /// Constant-time check of a received MAC.
    public static func isValid(_ mac: [UInt8], for message: [UInt8], key: [UInt8], hash: HashAlgorithm = .sha256) -> Bool { fatalStub() }
}

/// Constant-time equality for secrets (lengths are not secret).
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool { fatalStub() }

/// A source of random bytes. Production uses `SystemRandom`; tests inject their own.
public protocol RandomSource: Sendable {
    func bytes(count: Int) throws -> [UInt8]
}

/// libcrypto's CSPRNG (RAND_bytes).
public struct SystemRandom: RandomSource {
    public init() {}
    public func bytes(count: Int) throws -> [UInt8] { fatalStub() }
}

/// Named elliptic curves.
public enum Curve: String, Sendable, Hashable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"
    /// Size of one coordinate / scalar in bytes (32, 48, 66).
    public var coordinateSize: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }
}

/// What kind of key a `PublicKey` or `PrivateKey` holds.
public enum KeyType: Sendable, Hashable {
    case ec(Curve)
    case ed25519
    case rsa(bits: Int)
}

/// A signature scheme. For ECDSA the curve comes from the key.
public enum SignatureAlgorithm: Sendable, Hashable {
    case ecdsa(HashAlgorithm)
    case ed25519
    case rsaPKCS1v15(HashAlgorithm)
    /// RSASSA-PSS with MGF1 using the same hash and a salt as long as the hash.
    case rsaPSS(HashAlgorithm)
}

/// How an ECDSA signature is encoded: ASN.1 DER (WebAuthn, X.509) or fixed-width r‖s (JOSE).
public enum ECDSASignatureFormat: Sendable, Hashable {
    case der
    case raw
}

/// The public parameters of a key, as raw big-endian integers / points.
public enum PublicKeyComponents: Sendable, Hashable {
    case ec(curve: Curve, x: [UInt8], y: [UInt8])
    case ed25519([UInt8])
    case rsa(modulus: [UInt8], exponent: [UInt8])
}

/// A JSON Web Key (RFC 7517/7518/8037). Private members are set only for private keys.
public struct JWK: Codable, Sendable, Hashable {
    public var kty: String
    public var crv: String?
    public var x: String?
    public var y: String?
    public var n: String?
    public var e: String?
    public var d: String?
    public var kid: String?
    public var alg: String?
    public var use: String?
    public init(kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil, d: String? = nil, kid: String? = nil, alg: String? = nil, use: String? = nil) {
        self.kty = kty; self.crv = crv; self.x = x; self.y = y; self.n = n; self.e = e; self.d = d; self.kid = kid; self.alg = alg; self.use = use
    }
}

/// A public key (EC P-256/384/521, Ed25519, RSA 2048–4096 for new keys; RSA down to 1024 accepted
/// for verifying legacy attestation certificates only via `init(spkiDER:)`).
public final class PublicKey: Sendable {
    public var type: KeyType { fatalStub() }
    public init(components: PublicKeyComponents) throws { fatalStub() }
    /// 0x04 ‖ x ‖ y (fido-u2f, TPM).
    public convenience init(curve: Curve, uncompressedPoint: [UInt8]) throws { fatalStub() }
    public init(spkiDER: [UInt8]) throws { fatalStub() }
    public convenience init(pem: String) throws { fatalStub() }
    public convenience init(jwk: JWK) throws { fatalStub() }
    public var components: PublicKeyComponents { fatalStub() }
    public var spkiDER: [UInt8] { fatalStub() }
    public var pem: String { fatalStub() }
    public var jwk: JWK { fatalStub() }
    /// True when `signature` is a valid signature of `message`. A malformed signature is `false`;
    /// an algorithm that does not fit the key throws `unsupportedAlgorithm`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8], algorithm: SignatureAlgorithm, format: ECDSASignatureFormat = .der) throws -> Bool { fatalStub() }
}

/// A private key that can sign.
public final class PrivateKey: Sendable {
    public static func generate(_ type: KeyType) throws -> PrivateKey { fatalStub() }
    /// An EC key from its private scalar (big-endian, padded to the curve size).
    public init(curve: Curve, scalar: [UInt8]) throws { fatalStub() }
    /// An Ed25519 key from its 32-byte seed.
    public init(ed25519Seed: [UInt8]) throws { fatalStub() }
    public init(pkcs8DER: [UInt8]) throws { fatalStub() }
    public convenience init(pem: String) throws { fatalStub() }
    public convenience init(jwk: JWK) throws { fatalStub() }
    public var type: KeyType { fatalStub() }
    public var publicKey: PublicKey { fatalStub() }
    public var pkcs8DER: [UInt8] { fatalStub() }
    public var pem: String { fatalStub() }
    public var jwk: JWK { fatalStub() }
    public func signature(for message: [UInt8], algorithm: SignatureAlgorithm, format: ECDSASignatureFormat = .der) throws -> [UInt8] { fatalStub() }
}

/// AES-256-GCM with a 12-byte nonce and a 16-byte tag.
public enum AES256GCM {
    /// Returns nonce ‖ ciphertext ‖ tag. The nonce is drawn from `random`.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = [], random: any RandomSource = SystemRandom()) throws -> [UInt8] { fatalStub() }
    /// Opens nonce ‖ ciphertext ‖ tag; throws `authenticationFailed` on any tampering.
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws -> [UInt8] { fatalStub() }
}

/// Argon2id password hashing in the PHC string format ($argon2id$v=19$m=…,t=…,p=…$salt$hash).
public struct PasswordHasher: Sendable {
    public var memoryKiB: UInt32
    public var iterations: UInt32
    public var parallelism: UInt32
    /// OWASP's Argon2id recommendation: 19 MiB, 2 iterations, 1 lane.
    public init(memoryKiB: UInt32 = 19_456, iterations: UInt32 = 2, parallelism: UInt32 = 1) {
        self.memoryKiB = memoryKiB; self.iterations = iterations; self.parallelism = parallelism
    }
    public func hash(password: [UInt8], random: any RandomSource = SystemRandom()) throws -> String { fatalStub() }
    /// Constant-time verification against a PHC string; a malformed string throws `invalidInput`.
    public func verify(password: [UInt8], phc: String) throws -> Bool { fatalStub() }
}

@inline(never)
func fatalStub(_ function: StaticString = #function) -> Never {
    fatalError("SesameCrypto: \(function) is not implemented yet")
}

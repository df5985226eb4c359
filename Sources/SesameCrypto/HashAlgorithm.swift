internal import COpenSSL

/// Hash functions. SHA-1 exists only for legacy attestation formats and is named so.
public enum HashAlgorithm: Sendable, Hashable {
    /// SHA-1: only for verifying legacy attestation (TPM, old packed, fido-u2f era certificates).
    case legacySHA1
    /// SHA-256.
    case sha256
    /// SHA-384.
    case sha384
    /// SHA-512.
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

    /// A readable name for error messages ("SHA-256").
    var name: String {
        switch self {
        case .legacySHA1: return "SHA-1"
        case .sha256: return "SHA-256"
        case .sha384: return "SHA-384"
        case .sha512: return "SHA-512"
        }
    }

    /// libcrypto's digest, fetched once per process from the default provider.
    var messageDigest: OpaquePointer? {
        switch self {
        case .legacySHA1: return FetchedDigest.sha1.pointer
        case .sha256: return FetchedDigest.sha256.pointer
        case .sha384: return FetchedDigest.sha384.pointer
        case .sha512: return FetchedDigest.sha512.pointer
        }
    }
}

/// Owns one explicitly fetched `EVP_MD*`. Fetching once avoids libcrypto's implicit per-call fetch.
///
/// `@unchecked Sendable`: a fetched `EVP_MD` is immutable and libcrypto allows sharing it.
final class FetchedDigest: @unchecked Sendable {
    /// nil only if the default provider lacks the digest; callers then fail with a thrown error.
    let pointer: OpaquePointer?

    init(_ name: String) {
        pointer = EVP_MD_fetch(nil, name, nil)
        if pointer == nil { OpenSSLError.clear() }
    }

    deinit {
        if let pointer { EVP_MD_free(pointer) }
    }

    static let sha1 = FetchedDigest("SHA1")
    static let sha256 = FetchedDigest("SHA2-256")
    static let sha384 = FetchedDigest("SHA2-384")
    static let sha512 = FetchedDigest("SHA2-512")
}

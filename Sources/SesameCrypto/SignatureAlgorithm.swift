internal import COpenSSL

/// A signature scheme. For ECDSA the curve comes from the key.
public enum SignatureAlgorithm: Sendable, Hashable {
    /// ECDSA over the key's curve with the given hash (ES256/384/512; SHA-1 for legacy only).
    case ecdsa(HashAlgorithm)
    /// Pure Ed25519 (EdDSA), no pre-hash.
    case ed25519
    /// RSASSA-PKCS1-v1_5 (RS256/384/512; RS1 for legacy TPM/packed attestation only).
    case rsaPKCS1v15(HashAlgorithm)
    /// RSASSA-PSS with MGF1 using the same hash and a salt as long as the hash.
    case rsaPSS(HashAlgorithm)
}

extension SignatureAlgorithm {
    /// A readable name for error messages ("ECDSA with SHA-256").
    var name: String {
        switch self {
        case .ecdsa(let hash): return "ECDSA with \(hash.name)"
        case .ed25519: return "Ed25519"
        case .rsaPKCS1v15(let hash): return "RSA PKCS#1 v1.5 with \(hash.name)"
        case .rsaPSS(let hash): return "RSA-PSS with \(hash.name)"
        }
    }
}

/// How an ECDSA signature is encoded: ASN.1 DER (WebAuthn, X.509) or fixed-width r‖s (JOSE).
public enum ECDSASignatureFormat: Sendable, Hashable {
    /// ASN.1 DER `ECDSA-Sig-Value` (WebAuthn, X.509).
    case der
    /// Fixed-width big-endian r ‖ s, each as long as a curve coordinate (JOSE / JWS).
    case raw
}

/// How to drive libcrypto for one (algorithm, key) pair; built before any C call.
struct SignaturePlan {
    /// The digest, or nil for Ed25519.
    var digest: OpaquePointer?
    /// RSA padding mode, or nil for non-RSA keys.
    var rsaPadding: Int32?
    /// Coordinate size for ECDSA raw conversion.
    var ecdsaCoordinateSize: Int?

    /// Throws `unsupportedAlgorithm` when `algorithm` does not fit `keyType`.
    init(algorithm: SignatureAlgorithm, keyType: KeyType) throws {
        switch (algorithm, keyType) {
        case (.ecdsa(let hash), .ec(let curve)):
            digest = try Self.digest(hash)
            ecdsaCoordinateSize = curve.coordinateSize
        case (.ed25519, .ed25519):
            digest = nil
        case (.rsaPKCS1v15(let hash), .rsa):
            digest = try Self.digest(hash)
            rsaPadding = RSA_PKCS1_PADDING
        case (.rsaPSS(let hash), .rsa):
            guard hash != .legacySHA1 else {
                throw CryptoError.unsupportedAlgorithm("RSA-PSS with SHA-1 is not supported")
            }
            digest = try Self.digest(hash)
            rsaPadding = RSA_PKCS1_PSS_PADDING
        default:
            throw CryptoError.unsupportedAlgorithm("\(algorithm.name) does not fit an \(keyType.name) key")
        }
    }

    private static func digest(_ hash: HashAlgorithm) throws -> OpaquePointer {
        guard let md = hash.messageDigest else {
            throw CryptoError.library("digest \(hash) is not available")
        }
        return md
    }

    /// Applies the RSA padding (and for PSS: salt = hash length, MGF1 with the same hash) to the
    /// key context of an initialised sign or verify operation.
    func configure(_ keyContext: OpaquePointer?) throws {
        guard let padding = rsaPadding else { return }
        guard let keyContext, EVP_PKEY_CTX_set_rsa_padding(keyContext, padding) > 0 else {
            throw OpenSSLError.library("EVP_PKEY_CTX_set_rsa_padding")
        }
        if padding == RSA_PKCS1_PSS_PADDING {
            guard EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) > 0,
                EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, digest) > 0
            else { throw OpenSSLError.library("configuring RSA-PSS") }
        }
    }
}

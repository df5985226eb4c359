internal import COpenSSL

/// One-shot digests.
public enum Digest {
    /// SHA-256 of `data`.
    public static func sha256(_ data: [UInt8]) -> [UInt8] { hash(data, with: .sha256) }
    /// SHA-384 of `data`.
    public static func sha384(_ data: [UInt8]) -> [UInt8] { hash(data, with: .sha384) }
    /// SHA-512 of `data`.
    public static func sha512(_ data: [UInt8]) -> [UInt8] { hash(data, with: .sha512) }
    /// SHA-1, for legacy attestation formats (TPM, old packed) only.
    public static func legacySHA1(_ data: [UInt8]) -> [UInt8] { hash(data, with: .legacySHA1) }

    /// The digest of `data` with `algorithm`. Returns an empty array only if libcrypto cannot
    /// allocate (never for any input); callers comparing digests treat that as a mismatch.
    public static func hash(_ data: [UInt8], with algorithm: HashAlgorithm) -> [UInt8] {
        guard let md = algorithm.messageDigest else { return [] }
        var out = [UInt8](repeating: 0, count: algorithm.outputSize)
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer { output in
            withNonNullBytes(data) { input, count in
                EVP_Digest(input, count, output.baseAddress, &length, md, nil)
            }
        }
        guard ok == 1, Int(length) == algorithm.outputSize else {
            OpenSSLError.clear()
            return []
        }
        return out
    }
}

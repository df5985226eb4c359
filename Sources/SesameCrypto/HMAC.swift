internal import COpenSSL

/// HMAC and constant-time comparison.
public enum HMAC {
    /// HMAC of `message` under `key`. Returns an empty array only if libcrypto cannot allocate.
    public static func authenticationCode(
        for message: [UInt8], key: [UInt8], hash: HashAlgorithm = .sha256
    ) -> [UInt8] {
        guard let md = hash.messageDigest else { return [] }
        // RFC 2104: a key longer than the block size is hashed first, so hashing an
        // (absurdly) long key ourselves gives the same MAC and keeps the length in an Int32.
        let usableKey = key.count > Int(Int32.max) ? Digest.hash(key, with: hash) : key
        guard let keyLength = Int32(exactly: usableKey.count) else { return [] }
        var out = [UInt8](repeating: 0, count: hash.outputSize)
        var length: UInt32 = 0
        let result = out.withUnsafeMutableBufferPointer { output in
            withNonNullBytes(usableKey) { keyBytes, _ in
                withNonNullBytes(message) { messageBytes, messageCount in
                    COpenSSL.HMAC(md, keyBytes, keyLength, messageBytes, messageCount, output.baseAddress, &length)
                }
            }
        }
        guard result != nil, Int(length) == hash.outputSize else {
            OpenSSLError.clear()
            return []
        }
        return out
    }

    /// Constant-time check of a received MAC.
    public static func isValid(
        _ mac: [UInt8], for message: [UInt8], key: [UInt8], hash: HashAlgorithm = .sha256
    ) -> Bool {
        let expected = authenticationCode(for: message, key: key, hash: hash)
        guard expected.count == hash.outputSize else { return false }
        return constantTimeEquals(expected, mac)
    }
}

/// Constant-time equality for secrets (lengths are not secret): different lengths are unequal,
/// equal lengths are compared in full with `CRYPTO_memcmp`, never stopping at the first difference.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return withNonNullBytes(a) { left, count in
        withNonNullBytes(b) { right, _ in CRYPTO_memcmp(left, right, count) == 0 }
    }
}

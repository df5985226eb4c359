import SesameClient
import SesameCrypto

/// SHA-256 from libcrypto (SesameCrypto), for `WebAuth`'s PKCE where CryptoKit is not (Linux).
public struct SesameCryptoDigest: PKCEDigest {
    public init() {}
    public func sha256(_ bytes: [UInt8]) -> [UInt8] { Digest.sha256(bytes) }
}

/// The SHA-256 the SDK uses when the app gives none: CryptoKit's on Apple platforms, none on
/// Linux (pass `SesameCryptoDigest` from SesameSoftwarePasskey, or another `PKCEDigest`).
enum PlatformDigest {
    static var `default`: (any PKCEDigest)? {
        #if canImport(CryptoKit)
            return CryptoKitDigest()
        #else
            return nil
        #endif
    }

    /// `digest`, else the platform's; throws `no_digest` when there is neither.
    static func resolve(_ digest: (any PKCEDigest)?) throws(AuthenticationError) -> any PKCEDigest {
        guard let digest = digest ?? Self.default else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "no_digest",
                errorDescription: "a device key signs SHA-256(client_id): pass a digest (SesameCryptoDigest on Linux)")
        }
        return digest
    }
}

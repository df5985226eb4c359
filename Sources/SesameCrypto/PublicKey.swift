internal import COpenSSL

/// A public key (EC P-256/384/521, Ed25519, RSA) that verifies signatures.
///
/// RSA moduli: 2048–8192 bits from components or JWK (credential keys); 1024–8192 bits from SPKI or
/// PEM, because legacy attestation certificates use small keys. Keys are only ever used to verify.
public final class PublicKey: Sendable {
    /// The owned libcrypto key.
    let key: EVPKey
    /// What kind of key this is.
    public let type: KeyType
    /// The public parameters (RSA values without leading zeros).
    public let components: PublicKeyComponents

    private init(key: EVPKey, type: KeyType, components: PublicKeyComponents) {
        self.key = key
        self.type = type
        self.components = components
    }

    /// A key from raw components, e.g. a COSE key (fast path: EVP_PKEY_fromdata, no DER).
    /// Throws `invalidKey` for wrong sizes, a point not on the curve, or an unacceptable RSA key.
    public convenience init(components: PublicKeyComponents) throws {
        switch components {
        case .ec(let curve, let x, let y):
            guard x.count == curve.coordinateSize, y.count == curve.coordinateSize else {
                throw CryptoError.invalidKey("\(curve.rawValue) coordinates are \(curve.coordinateSize) bytes")
            }
            let key = try EVPKey.ecPublic(curve: curve, uncompressedPoint: [0x04] + x + y)
            self.init(key: key, type: .ec(curve), components: components)
        case .ed25519(let raw):
            self.init(key: try EVPKey.ed25519Public(raw), type: .ed25519, components: components)
        case .rsa(let modulus, let exponent):
            let rsa = try RSAPublicNumbers(
                modulus: modulus, exponent: exponent, allowedBits: KeyType.rsaCredentialBits)
            let key = try EVPKey.rsaPublic(modulus: rsa.modulus, exponent: rsa.exponent)
            self.init(
                key: key, type: .rsa(bits: rsa.bits), components: .rsa(modulus: rsa.modulus, exponent: rsa.exponent))
        }
    }

    /// 0x04 ‖ x ‖ y (fido-u2f, TPM).
    public convenience init(curve: Curve, uncompressedPoint: [UInt8]) throws {
        let size = curve.coordinateSize
        guard uncompressedPoint.count == 1 + 2 * size, uncompressedPoint.first == 0x04 else {
            throw CryptoError.invalidKey("an uncompressed \(curve.rawValue) point is 0x04 ‖ x ‖ y")
        }
        let x = Array(uncompressedPoint.dropFirst().prefix(size))
        let y = Array(uncompressedPoint.suffix(size))
        try self.init(components: .ec(curve: curve, x: x, y: y))
    }

    /// A key from a DER SubjectPublicKeyInfo (no trailing bytes allowed).
    public convenience init(spkiDER: [UInt8]) throws {
        let parsed: OpaquePointer? = spkiDER.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let made = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
            guard cursor == base + buffer.count else {
                EVP_PKEY_free(made)
                return nil
            }
            return made
        }
        guard let parsed else {
            throw OpenSSLError.wrap("not a DER SubjectPublicKeyInfo") { .invalidKey($0) }
        }
        try self.init(owning: parsed)
    }

    /// Takes ownership of an `EVP_PKEY*` (for example from X509_get_pubkey) — also when it throws.
    /// Accepts EC P-256/384/521, Ed25519 and RSA 1024–8192 bits; EC points are checked.
    convenience init(owning pkey: OpaquePointer) throws {
        let key = EVPKey(owning: pkey)
        let (type, components) = try key.publicComponents(rsaBits: KeyType.rsaCertificateBits)
        if case .ec = type { try key.checkPublicQuick() }
        self.init(key: key, type: type, components: components)
    }

    /// A key from a PEM "PUBLIC KEY" block.
    public convenience init(pem: String) throws {
        let block = try PEM.decode(pem)
        guard block.label == "PUBLIC KEY" else {
            throw CryptoError.invalidKey("expected a PUBLIC KEY PEM block, found \(block.label)")
        }
        try self.init(spkiDER: block.der)
    }

    /// A key from a public JWK (private members, if any, are ignored).
    public convenience init(jwk: JWK) throws {
        try self.init(components: try jwk.publicComponents())
    }

    /// The DER SubjectPublicKeyInfo. Empty only if libcrypto cannot allocate.
    public var spkiDER: [UInt8] {
        (try? derEncoding("i2d_PUBKEY") { i2d_PUBKEY(key.pointer, $0) }) ?? []
    }

    /// The PEM "PUBLIC KEY" form of `spkiDER`.
    public var pem: String { PEM.encode(spkiDER, label: "PUBLIC KEY") }

    /// The public JWK (no kid, alg or use).
    public var jwk: JWK { JWK(components: components) }

    /// True when `signature` is a valid signature of `message`. A malformed signature is `false`;
    /// an algorithm that does not fit the key throws `unsupportedAlgorithm`.
    public func isValidSignature(
        _ signature: [UInt8], for message: [UInt8], algorithm: SignatureAlgorithm, format: ECDSASignatureFormat = .der
    ) throws -> Bool {
        let plan = try SignaturePlan(algorithm: algorithm, keyType: type)
        var encoded = signature
        if let size = plan.ecdsaCoordinateSize, format == .raw {
            guard let parsed = ECDSASignature(raw: signature, coordinateSize: size), let der = try? parsed.der() else {
                OpenSSLError.clear()
                return false
            }
            encoded = der
        }
        let context = try DigestContext()
        var keyContext: OpaquePointer? = nil
        guard EVP_DigestVerifyInit(context.pointer, &keyContext, plan.digest, nil, key.pointer) == 1 else {
            throw OpenSSLError.library("EVP_DigestVerifyInit")
        }
        try plan.configure(keyContext)
        let result = withNonNullBytes(encoded) { signatureBytes, signatureCount in
            withNonNullBytes(message) { messageBytes, messageCount in
                EVP_DigestVerify(context.pointer, signatureBytes, signatureCount, messageBytes, messageCount)
            }
        }
        guard result == 1 else {
            OpenSSLError.clear()
            return false
        }
        return true
    }
}

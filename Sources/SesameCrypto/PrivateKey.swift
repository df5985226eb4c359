internal import COpenSSL

/// A private key that can sign: EC P-256/384/521, Ed25519, or RSA 2048–4096 bits.
public final class PrivateKey: Sendable {
    /// The owned libcrypto key.
    let key: EVPKey
    /// What kind of key this is.
    public let type: KeyType
    /// The matching public key (a separate, public-only libcrypto key).
    public let publicKey: PublicKey

    private init(key: EVPKey) throws {
        let (type, components) = try key.publicComponents(rsaBits: KeyType.rsaSigningBits)
        self.key = key
        self.type = type
        self.publicKey = try PublicKey(components: components)
    }

    /// A fresh key from libcrypto's CSPRNG. RSA sizes must be 2048–4096 bits.
    public static func generate(_ type: KeyType) throws -> PrivateKey {
        let context: KeyContext
        switch type {
        case .ec(let curve):
            context = try KeyContext(algorithm: "EC")
            guard EVP_PKEY_keygen_init(context.pointer) == 1,
                EVP_PKEY_CTX_set_group_name(context.pointer, staticCString(curve.groupName)) == 1
            else { throw OpenSSLError.library("EC key generation setup") }
        case .ed25519:
            context = try KeyContext(algorithm: "ED25519")
            guard EVP_PKEY_keygen_init(context.pointer) == 1 else {
                throw OpenSSLError.library("Ed25519 key generation setup")
            }
        case .rsa(let bits):
            guard KeyType.rsaSigningBits.contains(bits), bits % 8 == 0, let bits32 = Int32(exactly: bits) else {
                throw CryptoError.invalidInput("RSA keys are 2048–4096 bits, a multiple of 8")
            }
            context = try KeyContext(algorithm: "RSA")
            guard EVP_PKEY_keygen_init(context.pointer) == 1,
                EVP_PKEY_CTX_set_rsa_keygen_bits(context.pointer, bits32) == 1
            else { throw OpenSSLError.library("RSA key generation setup") }
        }
        var made: OpaquePointer? = nil
        guard EVP_PKEY_generate(context.pointer, &made) == 1, let made else {
            throw OpenSSLError.library("EVP_PKEY_generate")
        }
        return try PrivateKey(key: EVPKey(owning: made))
    }

    /// An EC key from its private scalar (big-endian, padded to the curve size). The scalar must be
    /// in [1, n-1]; the public point is computed from it.
    public convenience init(curve: Curve, scalar: [UInt8]) throws {
        guard scalar.count == curve.coordinateSize else {
            throw CryptoError.invalidKey("a \(curve.rawValue) scalar is \(curve.coordinateSize) bytes")
        }
        let group = try ECGroup(curve: curve)
        let secret = try BigNumber(bytes: scalar)
        guard let order = EC_GROUP_get0_order(group.pointer) else {
            throw OpenSSLError.library("EC_GROUP_get0_order")
        }
        guard BN_is_zero(secret.pointer) == 0, BN_cmp(secret.pointer, order) < 0 else {
            throw CryptoError.invalidKey("the \(curve.rawValue) scalar is out of range")
        }
        let point = try ECPoint(group: group)
        guard EC_POINT_mul(group.pointer, point.pointer, secret.pointer, nil, nil, nil) == 1 else {
            throw OpenSSLError.library("EC_POINT_mul")
        }
        var encoded = [UInt8](repeating: 0, count: 1 + 2 * curve.coordinateSize)
        let written = encoded.withUnsafeMutableBufferPointer {
            EC_POINT_point2oct(
                group.pointer, point.pointer, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, $0.count, nil)
        }
        guard written == encoded.count else { throw OpenSSLError.library("EC_POINT_point2oct") }
        let builder = try ParameterBuilder()
        try builder.push("group", string: curve.groupName)
        try builder.push("priv", bigEndian: scalar)
        try builder.push("pub", octets: encoded)
        try self.init(key: EVPKey.fromData(algorithm: "EC", selection: KeySelection.keyPair, builder))
    }

    /// An Ed25519 key from its 32-byte seed.
    public convenience init(ed25519Seed: [UInt8]) throws {
        guard ed25519Seed.count == 32 else { throw CryptoError.invalidKey("an Ed25519 seed is 32 bytes") }
        let made = ed25519Seed.withUnsafeBufferPointer {
            EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count)
        }
        guard let made else { throw OpenSSLError.wrap("Ed25519 seed") { .invalidKey($0) } }
        try self.init(key: EVPKey(owning: made))
    }

    /// A key from a DER PKCS#8 PrivateKeyInfo (unencrypted, no trailing bytes). EC and RSA keys are
    /// checked for private/public consistency.
    public convenience init(pkcs8DER: [UInt8]) throws {
        let info = try PrivateKeyInfo(der: pkcs8DER)
        guard let made = EVP_PKCS82PKEY(info.pointer) else {
            throw OpenSSLError.wrap("unsupported or malformed PKCS#8 key") { .invalidKey($0) }
        }
        let key = EVPKey(owning: made)
        if key.baseID != EVP_PKEY_ED25519 { try key.checkPairwise() }
        try self.init(key: key)
    }

    /// A key from PEM: "PRIVATE KEY" (PKCS#8), or the traditional "EC PRIVATE KEY" /
    /// "RSA PRIVATE KEY". Encrypted PEM is refused.
    public convenience init(pem: String) throws {
        let block = try PEM.decode(pem)
        switch block.label {
        case "PRIVATE KEY":
            try self.init(pkcs8DER: block.der)
        case "EC PRIVATE KEY", "RSA PRIVATE KEY":
            let kind = block.label == "EC PRIVATE KEY" ? EVP_PKEY_EC : EVP_PKEY_RSA
            let parsed: OpaquePointer? = block.der.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                var cursor: UnsafePointer<UInt8>? = base
                guard let made = d2i_PrivateKey(kind, nil, &cursor, buffer.count) else { return nil }
                guard cursor == base + buffer.count else {
                    EVP_PKEY_free(made)
                    return nil
                }
                return made
            }
            guard let parsed else { throw OpenSSLError.wrap("malformed \(block.label)") { .invalidKey($0) } }
            let key = EVPKey(owning: parsed)
            try key.checkPairwise()
            try self.init(key: key)
        default:
            throw CryptoError.invalidKey("expected a PRIVATE KEY PEM block, found \(block.label)")
        }
    }

    /// A key from a private JWK. The public members must match the private ones.
    public convenience init(jwk: JWK) throws {
        let components = try jwk.publicComponents()
        switch components {
        case .ec(let curve, _, _):
            let scalar = try JWK.member(jwk.d, "d", size: curve.coordinateSize)
            try self.init(curve: curve, scalar: scalar)
        case .ed25519:
            try self.init(ed25519Seed: try JWK.member(jwk.d, "d", size: 32))
        case .rsa(let modulus, let exponent):
            let builder = try ParameterBuilder()
            try builder.push("n", bigEndian: modulus)
            try builder.push("e", bigEndian: exponent)
            try builder.push("d", bigEndian: try JWK.member(jwk.d, "d"))
            try builder.push("rsa-factor1", bigEndian: try JWK.member(jwk.p, "p"))
            try builder.push("rsa-factor2", bigEndian: try JWK.member(jwk.q, "q"))
            try builder.push("rsa-exponent1", bigEndian: try JWK.member(jwk.dp, "dp"))
            try builder.push("rsa-exponent2", bigEndian: try JWK.member(jwk.dq, "dq"))
            try builder.push("rsa-coefficient1", bigEndian: try JWK.member(jwk.qi, "qi"))
            let key = try EVPKey.fromData(algorithm: "RSA", selection: KeySelection.keyPair, builder)
            try key.checkPairwise()
            try self.init(key: key)
        }
        guard publicKey.components == (try PublicKey(components: components)).components else {
            throw CryptoError.invalidKey("JWK public members do not match the private key")
        }
    }

    /// The DER PKCS#8 PrivateKeyInfo. Empty only if libcrypto cannot allocate.
    public var pkcs8DER: [UInt8] {
        do {
            return try PrivateKeyInfo(key: key).der()
        } catch {
            return []
        }
    }

    /// The PEM "PRIVATE KEY" (PKCS#8) form.
    public var pem: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }

    /// The private JWK (all RSA CRT members included). Only the public members if libcrypto cannot
    /// allocate; use `privateJWK()` to get an error instead.
    public var jwk: JWK { (try? privateJWK()) ?? publicKey.jwk }

    /// The private JWK, or the libcrypto error that prevented building it.
    public func privateJWK() throws -> JWK {
        var jwk = publicKey.jwk
        let encode = { (bytes: [UInt8]) in Base64.encode(bytes, alphabet: .url) }
        switch type {
        case .ec(let curve):
            jwk.d = encode(try key.bigNumberParameter("priv", width: curve.coordinateSize))
        case .ed25519:
            jwk.d = encode(try key.rawEd25519(private: true))
        case .rsa:
            jwk.d = encode(try key.bigNumberParameter("d"))
            jwk.p = encode(try key.bigNumberParameter("rsa-factor1"))
            jwk.q = encode(try key.bigNumberParameter("rsa-factor2"))
            jwk.dp = encode(try key.bigNumberParameter("rsa-exponent1"))
            jwk.dq = encode(try key.bigNumberParameter("rsa-exponent2"))
            jwk.qi = encode(try key.bigNumberParameter("rsa-coefficient1"))
        }
        return jwk
    }

    /// Signs `message`. ECDSA signatures come as DER or raw r‖s per `format`. SHA-1 is refused
    /// (`unsupportedAlgorithm`): it exists only to verify legacy signatures.
    public func signature(
        for message: [UInt8], algorithm: SignatureAlgorithm, format: ECDSASignatureFormat = .der
    ) throws -> [UInt8] {
        switch algorithm {
        case .ecdsa(.legacySHA1), .rsaPKCS1v15(.legacySHA1), .rsaPSS(.legacySHA1):
            throw CryptoError.unsupportedAlgorithm("SHA-1 is only for verifying legacy signatures")
        default: break
        }
        let plan = try SignaturePlan(algorithm: algorithm, keyType: type)
        let context = try DigestContext()
        var keyContext: OpaquePointer? = nil
        guard EVP_DigestSignInit(context.pointer, &keyContext, plan.digest, nil, key.pointer) == 1 else {
            throw OpenSSLError.library("EVP_DigestSignInit")
        }
        try plan.configure(keyContext)
        let maximum = Int(EVP_PKEY_get_size(key.pointer))
        guard maximum > 0 else { throw OpenSSLError.library("EVP_PKEY_get_size") }
        var out = [UInt8](repeating: 0, count: maximum)
        var length = maximum
        let result = out.withUnsafeMutableBufferPointer { output in
            withNonNullBytes(message) { messageBytes, messageCount in
                EVP_DigestSign(context.pointer, output.baseAddress, &length, messageBytes, messageCount)
            }
        }
        guard result == 1, length > 0, length <= maximum else { throw OpenSSLError.library("EVP_DigestSign") }
        out.removeLast(maximum - length)
        if let size = plan.ecdsaCoordinateSize, format == .raw {
            guard let parsed = ECDSASignature(der: out) else {
                throw CryptoError.library("libcrypto produced an unreadable ECDSA signature")
            }
            return try parsed.raw(coordinateSize: size)
        }
        return out
    }
}

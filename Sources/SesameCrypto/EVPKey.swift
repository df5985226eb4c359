internal import COpenSSL

/// The single owner of one `EVP_PKEY*`; frees it in `deinit`.
///
/// `@unchecked Sendable`: after construction the key is only read (signing and verifying create
/// their own per-call contexts), and libcrypto documents `EVP_PKEY` as safe for concurrent
/// read-only use from several threads.
final class EVPKey: @unchecked Sendable {
    /// The owned key. Callers may use it only while this object is alive.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`: it is freed when this object goes away.
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// libcrypto's base type id (EVP_PKEY_EC, EVP_PKEY_ED25519, EVP_PKEY_RSA, …).
    var baseID: Int32 { EVP_PKEY_get_base_id(pointer) }

    /// The key size in bits as libcrypto reports it.
    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// The EC group name ("prime256v1", "secp384r1", …) or nil for other key types.
    var groupName: String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        let ok = buffer.withUnsafeMutableBufferPointer { raw -> Int32 in
            guard let base = raw.baseAddress else { return 0 }
            return EVP_PKEY_get_group_name(pointer, base, raw.count, &length)
        }
        guard ok == 1, length > 0, length < buffer.count else {
            OpenSSLError.clear()
            return nil
        }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A big-number parameter (for example "n", "e", "qx", "priv") as a big-endian byte string,
    /// left-padded to `width` bytes when given. Throws when the key does not have it.
    func bigNumberParameter(_ name: String, width: Int? = nil) throws -> [UInt8] {
        var bn: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(pointer, name, &bn) == 1, let number = bn else {
            throw OpenSSLError.library("reading key parameter \(name)")
        }
        defer { BN_clear_free(number) }
        return try BigNumber.bytes(of: number, width: width)
    }
}

/// Key selections for EVP_PKEY_fromdata (OSSL_KEYMGMT_SELECT_* combinations).
enum KeySelection {
    /// EVP_PKEY_PUBLIC_KEY (a compound macro Swift does not import).
    static let publicKey =
        Int32(OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) | Int32(OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)
        | Int32(OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
    /// EVP_PKEY_KEYPAIR.
    static let keyPair = publicKey | Int32(OSSL_KEYMGMT_SELECT_PRIVATE_KEY)
}

extension EVPKey {
    /// An EC public key from its uncompressed point; a point that is not on `curve` is refused.
    ///
    /// Fast path: the curve's domain parameters are built once per process (`ecTemplates`), each
    /// key is a duplicate of that template with the point set by EVP_PKEY_set1_encoded_public_key.
    /// Building the group anew per key (EVP_PKEY_fromdata with a group name) costs about 19 µs on
    /// our machines; the duplicate costs about 5 µs, and a login imports one key per assertion.
    /// The point is decoded with EC_POINT_oct2point, which refuses points off the curve, and
    /// 0x04 ‖ x ‖ y can never be the point at infinity (ECKeyTests.pointNotOnCurve pins this).
    static func ecPublic(curve: Curve, uncompressedPoint point: [UInt8]) throws -> EVPKey {
        guard point.count == 1 + 2 * curve.coordinateSize, point.first == 0x04 else {
            throw CryptoError.invalidKey("an uncompressed \(curve.rawValue) point is 0x04 ‖ x ‖ y")
        }
        guard let template = ecTemplates[curve] ?? nil else {
            throw OpenSSLError.library("EC domain parameters for \(curve.rawValue)")
        }
        guard let made = EVP_PKEY_dup(template.pointer) else {
            throw OpenSSLError.library("EVP_PKEY_dup")
        }
        let key = EVPKey(owning: made)
        let ok = point.withUnsafeBufferPointer { EVP_PKEY_set1_encoded_public_key(made, $0.baseAddress, $0.count) }
        guard ok == 1 else {
            throw OpenSSLError.wrap("not a point on \(curve.rawValue)") { .invalidKey($0) }
        }
        return key
    }

    /// Per-curve keys holding only domain parameters; duplicated for each imported public key.
    private static let ecTemplates: [Curve: EVPKey?] = Dictionary(
        uniqueKeysWithValues: Curve.allCases.map { ($0, try? ecDomainParameters($0)) })

    private static func ecDomainParameters(_ curve: Curve) throws -> EVPKey {
        let context = try KeyContext(algorithm: "EC")
        guard EVP_PKEY_fromdata_init(context.pointer) == 1 else {
            throw OpenSSLError.library("EVP_PKEY_fromdata_init")
        }
        var made: OpaquePointer? = nil
        let group = UnsafeMutablePointer(mutating: staticCString(curve.groupName))
        var params = [
            OSSL_PARAM_construct_utf8_string(staticCString("group"), group, 0),
            OSSL_PARAM_construct_end(),
        ]
        let ok = params.withUnsafeMutableBufferPointer {
            EVP_PKEY_fromdata(
                context.pointer, &made,
                Int32(OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) | Int32(OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS),
                $0.baseAddress)
        }
        guard ok == 1, let made else { throw OpenSSLError.library("EC domain parameters") }
        return EVPKey(owning: made)
    }

    /// A key built with EVP_PKEY_fromdata from the parameters in `builder`.
    static func fromData(algorithm: StaticString, selection: Int32, _ builder: ParameterBuilder) throws -> EVPKey {
        let context = try KeyContext(algorithm: algorithm)
        guard EVP_PKEY_fromdata_init(context.pointer) == 1 else {
            throw OpenSSLError.library("EVP_PKEY_fromdata_init")
        }
        var made: OpaquePointer? = nil
        let ok = try builder.withParameters { EVP_PKEY_fromdata(context.pointer, &made, selection, $0) }
        guard ok == 1, let made else {
            throw OpenSSLError.wrap("libcrypto refused the key parameters") { .invalidKey($0) }
        }
        return EVPKey(owning: made)
    }

    /// A raw Ed25519 public key (32 bytes).
    static func ed25519Public(_ raw: [UInt8]) throws -> EVPKey {
        guard raw.count == 32 else { throw CryptoError.invalidKey("an Ed25519 public key is 32 bytes") }
        let made = raw.withUnsafeBufferPointer {
            EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count)
        }
        guard let made else { throw OpenSSLError.wrap("Ed25519 public key") { .invalidKey($0) } }
        return EVPKey(owning: made)
    }

    /// An RSA public key from modulus and exponent (already validated).
    static func rsaPublic(modulus: [UInt8], exponent: [UInt8]) throws -> EVPKey {
        let builder = try ParameterBuilder()
        try builder.push("n", bigEndian: modulus)
        try builder.push("e", bigEndian: exponent)
        return try fromData(algorithm: "RSA", selection: KeySelection.publicKey, builder)
    }

    /// Cheap public-key validation (EC: not infinity, on the curve).
    func checkPublicQuick() throws {
        let context = try KeyContext(key: self)
        guard EVP_PKEY_public_check_quick(context.pointer) == 1 else {
            throw OpenSSLError.wrap("public key check failed") { .invalidKey($0) }
        }
    }

    /// Private/public consistency check (used for imported EC and RSA private keys).
    func checkPairwise() throws {
        let context = try KeyContext(key: self)
        guard EVP_PKEY_pairwise_check(context.pointer) == 1 else {
            throw OpenSSLError.wrap("the private and public parts do not match") { .invalidKey($0) }
        }
    }

    /// The raw Ed25519 public (or, with `private: true`, private) key bytes.
    func rawEd25519(private: Bool) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length = out.count
        let ok = out.withUnsafeMutableBufferPointer {
            `private`
                ? EVP_PKEY_get_raw_private_key(pointer, $0.baseAddress, &length)
                : EVP_PKEY_get_raw_public_key(pointer, $0.baseAddress, &length)
        }
        guard ok == 1, length == 32 else { throw OpenSSLError.library("reading raw Ed25519 key") }
        return out
    }

    /// The public components of this key (public or private), validating the key type and, for
    /// RSA, the modulus size against `rsaBits`.
    func publicComponents(rsaBits: ClosedRange<Int>) throws -> (KeyType, PublicKeyComponents) {
        switch baseID {
        case EVP_PKEY_EC:
            guard let name = groupName, let curve = Curve(groupName: name) else {
                throw CryptoError.invalidKey("unsupported elliptic curve")
            }
            let x = try bigNumberParameter("qx", width: curve.coordinateSize)
            let y = try bigNumberParameter("qy", width: curve.coordinateSize)
            return (.ec(curve), .ec(curve: curve, x: x, y: y))
        case EVP_PKEY_ED25519:
            return (.ed25519, .ed25519(try rawEd25519(private: false)))
        case EVP_PKEY_RSA:
            let rsa = try RSAPublicNumbers(
                modulus: try bigNumberParameter("n"), exponent: try bigNumberParameter("e"), allowedBits: rsaBits)
            return (.rsa(bits: rsa.bits), .rsa(modulus: rsa.modulus, exponent: rsa.exponent))
        default:
            throw CryptoError.invalidKey("unsupported key type (only EC P-256/384/521, Ed25519 and RSA)")
        }
    }
}

/// A validated RSA public modulus and exponent, minimal big-endian.
struct RSAPublicNumbers {
    var modulus: [UInt8]
    var exponent: [UInt8]
    var bits: Int

    /// Checks the modulus is odd and its size is in `allowedBits`, and that the exponent is odd,
    /// at least 3, at most 64 bits and smaller than the modulus.
    init(modulus rawModulus: [UInt8], exponent rawExponent: [UInt8], allowedBits: ClosedRange<Int>) throws {
        let modulus = Array(rawModulus.drop { $0 == 0 })
        let exponent = Array(rawExponent.drop { $0 == 0 })
        guard let top = modulus.first, let last = modulus.last else {
            throw CryptoError.invalidKey("RSA modulus is zero")
        }
        let bits = modulus.count * 8 - top.leadingZeroBitCount
        guard allowedBits.contains(bits) else {
            throw CryptoError.invalidKey("RSA modulus of \(bits) bits is outside \(allowedBits)")
        }
        guard last & 1 == 1 else { throw CryptoError.invalidKey("RSA modulus is even") }
        guard let exponentLast = exponent.last, exponentLast & 1 == 1, exponent.count <= 8,
            exponent.count > 1 || exponentLast >= 3, exponent.count < modulus.count
        else {
            throw CryptoError.invalidKey("RSA public exponent must be odd, at least 3 and at most 64 bits")
        }
        self.modulus = modulus
        self.exponent = exponent
        self.bits = bits
    }
}

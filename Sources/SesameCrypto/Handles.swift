internal import COpenSSL

// Small single owners for the short-lived libcrypto objects SesameCrypto uses. Each class owns one
// C handle and frees it in `deinit`; none of them ever leaves this module.

/// The DER an `i2d_…` function (`operation`) writes: asked for its length first, then written into
/// a buffer of that length.
func derEncoding(
    _ operation: String, _ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
) throws -> [UInt8] {
    let length = i2d(nil)
    guard length > 0 else { throw OpenSSLError.library(operation) }
    var out = [UInt8](repeating: 0, count: Int(length))
    let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var cursor = buffer.baseAddress
        return i2d(&cursor)
    }
    guard written == length else { throw OpenSSLError.library(operation) }
    return out
}

/// Owns one `BIGNUM*` and clears it when freed (it may hold private key material).
final class BigNumber {
    let pointer: OpaquePointer

    /// A number from big-endian bytes (an empty array is zero).
    init(bytes: [UInt8]) throws {
        let made: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let count = Int32(exactly: buffer.count) else { return nil }
            return BN_bin2bn(buffer.baseAddress, count, nil)
        }
        guard let made else { throw OpenSSLError.library("BN_bin2bn") }
        pointer = made
    }

    deinit { BN_clear_free(pointer) }

    /// Big-endian bytes of a `BIGNUM` this object does not own; left-padded to `width` when given,
    /// minimal otherwise (zero is one 0 byte). Throws when the number does not fit in `width`.
    static func bytes(of number: OpaquePointer, width: Int? = nil) throws -> [UInt8] {
        let minimal = (Int(BN_num_bits(number)) + 7) / 8
        let size = width ?? max(minimal, 1)
        guard minimal <= size, let size32 = Int32(exactly: size) else {
            throw CryptoError.invalidKey("a key parameter is larger than its field")
        }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(number, buffer.baseAddress, size32)
        }
        guard written == size32 else { throw OpenSSLError.library("BN_bn2binpad") }
        return out
    }
}

/// Owns one `EVP_MD_CTX*`.
final class DigestContext {
    let pointer: OpaquePointer

    init() throws {
        guard let made = EVP_MD_CTX_new() else { throw OpenSSLError.library("EVP_MD_CTX_new") }
        pointer = made
    }

    deinit { EVP_MD_CTX_free(pointer) }
}

/// Owns one `EVP_PKEY_CTX*`.
final class KeyContext {
    let pointer: OpaquePointer

    /// A context for the algorithm named `name` ("EC", "RSA", "ED25519").
    init(algorithm name: StaticString) throws {
        let made = name.withUTF8Buffer { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { EVP_PKEY_CTX_new_from_name(nil, $0.baseAddress, nil) }
        }
        guard let made else { throw OpenSSLError.library("EVP_PKEY_CTX_new_from_name") }
        pointer = made
    }

    /// A context working on an existing key.
    init(key: EVPKey) throws {
        guard let made = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw OpenSSLError.library("EVP_PKEY_CTX_new_from_pkey")
        }
        pointer = made
    }

    deinit { EVP_PKEY_CTX_free(pointer) }
}

/// Owns one `EVP_CIPHER_CTX*`.
final class CipherContext {
    let pointer: OpaquePointer

    init() throws {
        guard let made = EVP_CIPHER_CTX_new() else { throw OpenSSLError.library("EVP_CIPHER_CTX_new") }
        pointer = made
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }
}

/// Owns one memory `BIO*` reading from a copy of some bytes.
final class MemoryBIO {
    let pointer: OpaquePointer
    /// The bytes the BIO reads; `BIO_new_mem_buf` does not copy, so they live as long as the BIO.
    private let storage: UnsafeMutableBufferPointer<UInt8>

    init(reading bytes: [UInt8]) throws {
        guard let length = Int32(exactly: bytes.count), length > 0 else {
            throw CryptoError.invalidInput("empty or oversized PEM text")
        }
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
        guard let made = BIO_new_mem_buf(storage.baseAddress, length) else {
            storage.deallocate()
            throw OpenSSLError.library("BIO_new_mem_buf")
        }
        self.storage = storage
        pointer = made
    }

    deinit {
        BIO_free(pointer)
        storage.deallocate()
    }
}

/// Owns one `OSSL_PARAM_BLD*` and builds owned parameter arrays from it.
///
/// The builder keeps the key and value pointers it is given until the array is built, so keys
/// and string values are `StaticString`s and byte values are copied into storage owned here.
final class ParameterBuilder {
    let pointer: OpaquePointer
    /// Numbers and byte strings pushed so far: the builder only keeps pointers to them until
    /// the parameter array is built, so they live as long as the builder.
    private var numbers: [BigNumber] = []
    private var octets: [UnsafeMutableBufferPointer<UInt8>] = []

    init() throws {
        guard let made = OSSL_PARAM_BLD_new() else { throw OpenSSLError.library("OSSL_PARAM_BLD_new") }
        pointer = made
    }

    deinit {
        OSSL_PARAM_BLD_free(pointer)
        for buffer in octets {
            if let base = buffer.baseAddress { OPENSSL_cleanse(base, buffer.count) }
            buffer.deallocate()
        }
    }

    /// Adds an octet-string parameter.
    func push(_ key: StaticString, octets bytes: [UInt8]) throws {
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = storage.initialize(from: bytes)
        octets.append(storage)
        guard OSSL_PARAM_BLD_push_octet_string(pointer, staticCString(key), storage.baseAddress, bytes.count) == 1
        else {
            throw OpenSSLError.library("OSSL_PARAM_BLD_push_octet_string \(key)")
        }
    }

    /// Adds an unsigned big-endian integer parameter.
    func push(_ key: StaticString, bigEndian bytes: [UInt8]) throws {
        let number = try BigNumber(bytes: bytes)
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(pointer, staticCString(key), number.pointer) == 1 else {
            throw OpenSSLError.library("OSSL_PARAM_BLD_push_BN \(key)")
        }
    }

    /// Adds a UTF-8 string parameter.
    func push(_ key: StaticString, string: StaticString) throws {
        guard OSSL_PARAM_BLD_push_utf8_string(pointer, staticCString(key), staticCString(string), 0) == 1 else {
            throw OpenSSLError.library("OSSL_PARAM_BLD_push_utf8_string \(key)")
        }
    }

    /// Builds the parameter array and hands it to `body`.
    func withParameters<R>(_ body: (UnsafeMutablePointer<OSSL_PARAM>) throws -> R) throws -> R {
        guard let params = OSSL_PARAM_BLD_to_param(pointer) else {
            throw OpenSSLError.library("OSSL_PARAM_BLD_to_param")
        }
        defer { OSSL_PARAM_free(params) }
        return try body(params)
    }
}

/// Owns one `ECDSA_SIG*`: converts between DER and fixed-width r‖s.
final class ECDSASignature {
    let pointer: OpaquePointer

    /// From fixed-width r‖s; nil when the halves cannot be read.
    init?(raw: [UInt8], coordinateSize: Int) {
        guard coordinateSize > 0, raw.count == 2 * coordinateSize,
            let sig = ECDSA_SIG_new()
        else { return nil }
        let halves = raw.withUnsafeBufferPointer { buffer -> (OpaquePointer?, OpaquePointer?) in
            guard let base = buffer.baseAddress, let size = Int32(exactly: coordinateSize) else { return (nil, nil) }
            return (BN_bin2bn(base, size, nil), BN_bin2bn(base + coordinateSize, size, nil))
        }
        guard let r = halves.0, let s = halves.1, ECDSA_SIG_set0(sig, r, s) == 1 else {
            if let r = halves.0 { BN_free(r) }
            if let s = halves.1 { BN_free(s) }
            ECDSA_SIG_free(sig)
            OpenSSLError.clear()
            return nil
        }
        pointer = sig
    }

    /// From DER; nil when it is not exactly one well-formed ECDSA-Sig-Value.
    init?(der: [UInt8]) {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let length = Int(exactly: buffer.count) else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let sig = d2i_ECDSA_SIG(nil, &cursor, length)
            guard let sig else { return nil }
            guard cursor == base + buffer.count else {
                ECDSA_SIG_free(sig)
                return nil
            }
            return sig
        }
        guard let parsed else {
            OpenSSLError.clear()
            return nil
        }
        pointer = parsed
    }

    deinit { ECDSA_SIG_free(pointer) }

    /// The DER encoding.
    func der() throws -> [UInt8] {
        try derEncoding("i2d_ECDSA_SIG") { i2d_ECDSA_SIG(pointer, $0) }
    }

    /// r‖s, each left-padded to `coordinateSize`.
    func raw(coordinateSize: Int) throws -> [UInt8] {
        guard let r = ECDSA_SIG_get0_r(pointer), let s = ECDSA_SIG_get0_s(pointer) else {
            throw OpenSSLError.library("ECDSA_SIG_get0")
        }
        return try BigNumber.bytes(of: r, width: coordinateSize) + BigNumber.bytes(of: s, width: coordinateSize)
    }
}

/// Owns one `EC_GROUP*` for a named curve.
final class ECGroup {
    let pointer: OpaquePointer

    init(curve: Curve) throws {
        guard let made = EC_GROUP_new_by_curve_name(curve.nid) else {
            throw OpenSSLError.library("EC_GROUP_new_by_curve_name")
        }
        pointer = made
    }

    deinit { EC_GROUP_free(pointer) }
}

/// Owns one `EC_POINT*`.
final class ECPoint {
    let pointer: OpaquePointer

    init(group: ECGroup) throws {
        guard let made = EC_POINT_new(group.pointer) else { throw OpenSSLError.library("EC_POINT_new") }
        pointer = made
    }

    deinit { EC_POINT_free(pointer) }
}

/// Owns one `PKCS8_PRIV_KEY_INFO*`.
final class PrivateKeyInfo {
    let pointer: OpaquePointer

    /// Parses exactly one DER PrivateKeyInfo; throws `invalidKey` otherwise.
    init(der: [UInt8]) throws {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let info = d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, buffer.count) else { return nil }
            guard cursor == base + buffer.count else {
                PKCS8_PRIV_KEY_INFO_free(info)
                return nil
            }
            return info
        }
        guard let parsed else { throw OpenSSLError.wrap("not a PKCS#8 PrivateKeyInfo") { .invalidKey($0) } }
        pointer = parsed
    }

    /// The PrivateKeyInfo of `key`.
    init(key: EVPKey) throws {
        guard let made = EVP_PKEY2PKCS8(key.pointer) else { throw OpenSSLError.library("EVP_PKEY2PKCS8") }
        pointer = made
    }

    deinit { PKCS8_PRIV_KEY_INFO_free(pointer) }

    /// The DER encoding.
    func der() throws -> [UInt8] {
        try derEncoding("i2d_PKCS8_PRIV_KEY_INFO") { i2d_PKCS8_PRIV_KEY_INFO(pointer, $0) }
    }
}

/// A NUL-terminated C string with static lifetime (for OSSL_PARAM keys, which are kept by pointer).
@inline(__always)
func staticCString(_ string: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Calls `body` with a pointer to `bytes` that is never nil (libcrypto functions dislike a NULL
/// buffer even with length 0) and the length.
@inline(__always)
func withNonNullBytes<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { buffer in
        if let base = buffer.baseAddress { return try body(base, buffer.count) }
        var zero: UInt8 = 0
        return try withUnsafePointer(to: &zero) { try body($0, 0) }
    }
}

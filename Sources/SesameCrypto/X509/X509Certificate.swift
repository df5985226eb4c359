internal import COpenSSL
internal import CShims
import Foundation

/// An X.509 certificate parsed by libcrypto: names, validity, extensions, the subject key, and the
/// attestation extensions WebAuthn reads (see `X509Certificate+Attestation.swift`).
public final class X509Certificate: Sendable {
    /// The owned X509*. libcrypto only reads it after parsing (its extension cache is locked), so
    /// sharing across threads is safe.
    nonisolated(unsafe) let handle: OpaquePointer
    /// The certificate's DER encoding (exactly the bytes it was parsed from).
    public let der: [UInt8]
    /// notBefore.
    public let notBefore: Date
    /// notAfter.
    public let notAfter: Date

    /// Parses one DER certificate. The whole input must be the certificate: trailing bytes throw.
    public convenience init(der: [UInt8]) throws {
        guard !der.isEmpty else { throw CryptoError.certificate("empty certificate") }
        guard der.count <= Int(Int32.max) else { throw CryptoError.certificate("certificate too large") }
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let result = d2i_X509(nil, &cursor, buffer.count)
            if let cursor { consumed = cursor - base }
            return result
        }
        guard let parsed else {
            throw CryptoError.certificate(X509Support.takeError("not a DER X.509 certificate"))
        }
        guard consumed == der.count else {
            X509_free(parsed)
            throw CryptoError.certificate("trailing bytes after the certificate (\(der.count - consumed))")
        }
        try self.init(owning: parsed, der: der)
    }

    /// Takes ownership of `handle` (freed here even when this throws).
    init(owning handle: OpaquePointer, der: [UInt8]) throws {
        let validity: (Date, Date)
        do {
            validity = try X509Certificate.validity(of: handle)
        } catch {
            X509_free(handle)
            throw error
        }
        self.handle = handle
        self.der = der
        self.notBefore = validity.0
        self.notAfter = validity.1
    }

    deinit { X509_free(handle) }

    /// Every certificate in a PEM text, in order. Blocks that are not "CERTIFICATE" are skipped;
    /// each certificate block must hold exactly one DER certificate. Throws when there is none.
    public static func certificates(pem: String) throws -> [X509Certificate] {
        let text = Array(pem.utf8)
        guard text.count <= Int(Int32.max) else { throw CryptoError.certificate("PEM text too large") }
        return try text.withUnsafeBytes { raw -> [X509Certificate] in
            guard let base = raw.baseAddress, let bio = BIO_new_mem_buf(base, Int32(raw.count)) else {
                throw CryptoError.certificate("empty PEM text")
            }
            defer { BIO_free(bio) }
            ERR_clear_error()
            var certificates: [X509Certificate] = []
            while true {
                var name: UnsafeMutablePointer<CChar>? = nil
                var header: UnsafeMutablePointer<CChar>? = nil
                var data: UnsafeMutablePointer<UInt8>? = nil
                var length: Int = 0
                let found = PEM_read_bio(bio, &name, &header, &data, &length)
                defer {
                    sesame_OPENSSL_free(name)
                    sesame_OPENSSL_free(header)
                    sesame_OPENSSL_free(data)
                }
                guard found == 1 else {
                    let code = ERR_peek_last_error()
                    ERR_clear_error()
                    // "no start line" is how libcrypto reports the end of the text.
                    guard ERR_GET_LIB(code) == ERR_LIB_PEM, ERR_GET_REASON(code) == PEM_R_NO_START_LINE else {
                        throw CryptoError.certificate("malformed PEM block")
                    }
                    break
                }
                guard let name, String(cString: name) == "CERTIFICATE" else { continue }
                if let header, header.pointee != 0 {
                    throw CryptoError.certificate("PEM certificate with headers")
                }
                guard let data, length > 0 else { throw CryptoError.certificate("empty PEM certificate") }
                certificates.append(try X509Certificate(der: Array(UnsafeBufferPointer(start: data, count: length))))
            }
            guard !certificates.isEmpty else { throw CryptoError.certificate("no certificate in PEM text") }
            return certificates
        }
    }

    /// The X.509 version as people name it: 1, 2 or 3 (the encoded INTEGER plus one).
    public var version: Int { Int(X509_get_version(handle)) + 1 }

    /// serialNumber: the big-endian magnitude octets of the INTEGER.
    public var serialNumber: [UInt8] { X509Support.bytes(X509_get0_serialNumber(handle)) }

    /// The subject name.
    public var subject: DistinguishedName {
        DistinguishedName(attributes: X509Support.attributes(of: X509_get_subject_name(handle)))
    }

    /// The issuer name.
    public var issuer: DistinguishedName {
        DistinguishedName(attributes: X509Support.attributes(of: X509_get_issuer_name(handle)))
    }

    /// basicConstraints; nil when absent, malformed or repeated.
    public var basicConstraints: BasicConstraints? {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(handle, NID_basic_constraints, &critical, nil) else {
            ERR_clear_error()
            return nil
        }
        let constraints = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
        defer { BASIC_CONSTRAINTS_free(constraints) }
        var pathLength: Int?
        if let encoded = constraints.pointee.pathlen {
            let value = ASN1_INTEGER_get(encoded)
            pathLength = value >= 0 ? Int(value) : nil
        }
        return BasicConstraints(isCA: constraints.pointee.ca != 0, pathLength: pathLength)
    }

    /// Every extension, in certificate order.
    public var extensions: [X509Extension] {
        let count = X509_get_ext_count(handle)
        guard count > 0 else { return [] }
        var list: [X509Extension] = []
        for index in 0..<count {
            guard let ext = X509_get_ext(handle, index) else { continue }
            list.append(
                X509Extension(
                    oid: X509Support.dottedOID(X509_EXTENSION_get_object(ext)) ?? "",
                    critical: X509_EXTENSION_get_critical(ext) != 0,
                    value: X509Support.bytes(X509_EXTENSION_get_data(ext))))
        }
        return list
    }

    /// The first extension with this dotted OID, nil when absent.
    public func `extension`(oid: String) -> X509Extension? {
        extensions.first { $0.oid == oid }
    }

    /// The extension with this OID, nil when absent; throws when it appears more than once.
    func uniqueExtension(oid: String) throws(CryptoError) -> X509Extension? {
        let matches = extensions.filter { $0.oid == oid }
        guard matches.count <= 1 else { throw CryptoError.certificate("extension \(oid) appears more than once") }
        return matches.first
    }

    /// The subject public key (EC P-256/384/521, Ed25519, or RSA down to 1024 bits for legacy
    /// attestation certificates); throws `invalidKey` for other key types.
    public func publicKey() throws -> PublicKey {
        // X509_get_pubkey returns a new reference, which PublicKey takes over (also when it throws).
        guard let key = X509_get_pubkey(handle) else {
            throw CryptoError.certificate(X509Support.takeError("unreadable subject public key"))
        }
        return try PublicKey(owning: key)
    }

    /// The signature algorithm's dotted OID (e.g. "1.2.840.10045.4.3.2" for ecdsa-with-SHA256).
    public var signatureAlgorithmOID: String {
        var algorithm: UnsafePointer<X509_ALGOR>? = nil
        X509_get0_signature(nil, &algorithm, handle)
        var object: OpaquePointer? = nil
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        return X509Support.dottedOID(object) ?? ""
    }

    /// extendedKeyUsage OIDs, empty when absent; throws when malformed or repeated.
    public func extendedKeyUsage() throws -> [String] {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(handle, NID_ext_key_usage, &critical, nil) else {
            ERR_clear_error()
            if critical == -1 { return [] }
            throw CryptoError.certificate("malformed or repeated extendedKeyUsage")
        }
        let usages = OpaquePointer(raw)
        defer { EXTENDED_KEY_USAGE_free(usages) }
        let count = sesame_sk_ASN1_OBJECT_num(usages)
        guard count > 0 else { return [] }
        var oids: [String] = []
        for index in 0..<count {
            guard let oid = X509Support.dottedOID(sesame_sk_ASN1_OBJECT_value(usages, index)) else {
                throw CryptoError.certificate("unreadable extendedKeyUsage OID")
            }
            oids.append(oid)
        }
        return oids
    }

    /// Whether `issuer`'s key verifies this certificate's signature.
    public func isSigned(by issuer: X509Certificate) -> Bool {
        withExtendedLifetime(issuer) {
            guard let key = X509_get0_pubkey(issuer.handle) else {
                ERR_clear_error()
                return false
            }
            let result = X509_verify(handle, key)
            ERR_clear_error()
            return result == 1
        }
    }

    /// notBefore and notAfter as dates; throws when either cannot be read.
    private static func validity(of handle: OpaquePointer) throws -> (Date, Date) {
        guard let notBefore = date(X509_get0_notBefore(handle)), let notAfter = date(X509_get0_notAfter(handle))
        else {
            ERR_clear_error()
            throw CryptoError.certificate("unreadable validity period")
        }
        return (notBefore, notAfter)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

internal import COpenSSL
internal import CShims
import Foundation

/// Issues X.509 certificates with libcrypto (X509_new, X509V3_EXT_conf_nid, X509_sign): the test
/// PKI that signs test metadata BLOBs and attestation certificates. Sesame itself never issues a
/// certificate; this exists so tests need no hand-made DER and no checked-in private keys.
public enum X509CertificateIssuer {
    /// What one certificate says.
    public struct Profile: Sendable {
        /// Subject attributes in order, by libcrypto short name ("C", "O", "OU", "CN").
        public var subject: [(String, String)]
        public var serialNumber: Int
        public var notBefore: Date
        public var notAfter: Date
        /// basicConstraints CA:TRUE (critical) with keyCertSign/cRLSign key usage, else CA:FALSE.
        public var isCA: Bool
        /// The FIDO AAGUID extension (1.3.6.1.4.1.45724.1.1.4), 16 bytes, when non-nil.
        public var aaguid: [UInt8]?

        public init(
            subject: [(String, String)], serialNumber: Int = 1, notBefore: Date, notAfter: Date, isCA: Bool,
            aaguid: [UInt8]? = nil
        ) {
            self.subject = subject
            self.serialNumber = serialNumber
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.isCA = isCA
            self.aaguid = aaguid
        }
    }

    /// A certificate for `subjectKey` described by `profile`, signed by `issuerKey` as `issuer`
    /// (nil: self-signed with `subjectKey`). EC and RSA keys sign with SHA-256, Ed25519 plainly.
    public static func issue(
        _ profile: Profile, subjectKey: PublicKey, issuer: X509Certificate?, issuerKey: PrivateKey
    ) throws -> X509Certificate {
        guard let certificate = X509_new() else { throw CryptoError.library("X509_new failed") }
        defer { X509_free(certificate) }
        guard X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), profile.serialNumber) == 1,
            ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(profile.notBefore.timeIntervalSince1970)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(profile.notAfter.timeIntervalSince1970)) != nil
        else { throw CryptoError.library(X509Support.takeError("cannot set the version, serial or validity")) }

        guard let name = X509_NAME_new() else { throw CryptoError.library("X509_NAME_new failed") }
        defer { X509_NAME_free(name) }
        for (field, value) in profile.subject {
            let added = Array(value.utf8).withUnsafeBufferPointer { buffer in
                X509_NAME_add_entry_by_txt(
                    name, field, Int32(MBSTRING_FLAG), buffer.baseAddress, Int32(buffer.count), -1, 0)
            }
            guard added == 1 else { throw CryptoError.library(X509Support.takeError("cannot add \(field)")) }
        }
        guard X509_set_subject_name(certificate, name) == 1 else {
            throw CryptoError.library(X509Support.takeError("cannot set the subject"))
        }
        let issuerName = issuer.map { X509_get_subject_name($0.handle) } ?? X509_get_subject_name(certificate)
        guard X509_set_issuer_name(certificate, issuerName) == 1 else {
            throw CryptoError.library(X509Support.takeError("cannot set the issuer"))
        }
        guard X509_set_pubkey(certificate, subjectKey.key.pointer) == 1 else {
            throw CryptoError.library(X509Support.takeError("cannot set the public key"))
        }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.handle ?? certificate, certificate, nil, nil, 0)
        var extensions: [(Int32, String)] = [
            (NID_basic_constraints, profile.isCA ? "critical,CA:TRUE" : "critical,CA:FALSE"),
            (NID_subject_key_identifier, "hash"),
        ]
        if profile.isCA { extensions.append((NID_key_usage, "critical,keyCertSign,cRLSign")) }
        if issuer != nil { extensions.append((NID_authority_key_identifier, "keyid:always")) }
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw CryptoError.library(X509Support.takeError("cannot make extension \(nid)"))
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(certificate, ext, -1) == 1 else {
                throw CryptoError.library(X509Support.takeError("cannot add extension \(nid)"))
            }
        }
        if let aaguid = profile.aaguid { try addAAGUID(aaguid, to: certificate) }

        let digest: OpaquePointer? = issuerKey.type == .ed25519 ? nil : EVP_sha256()
        guard X509_sign(certificate, issuerKey.key.pointer, digest) > 0 else {
            throw CryptoError.library(X509Support.takeError("X509_sign failed"))
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_X509(certificate, &output)
        guard length > 0, let output else { throw CryptoError.library(X509Support.takeError("i2d_X509 failed")) }
        defer { sesame_OPENSSL_free(output) }
        return try X509Certificate(der: Array(UnsafeBufferPointer(start: output, count: Int(length))))
    }

    /// The AAGUID extension: an OCTET STRING holding the DER of an OCTET STRING of the 16 bytes.
    private static func addAAGUID(_ aaguid: [UInt8], to certificate: OpaquePointer) throws {
        guard aaguid.count == 16 else { throw CryptoError.invalidInput("an AAGUID is 16 bytes") }
        guard let inner = ASN1_OCTET_STRING_new() else { throw CryptoError.library("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(inner) }
        guard ASN1_OCTET_STRING_set(inner, aaguid, Int32(aaguid.count)) == 1 else {
            throw CryptoError.library("ASN1_OCTET_STRING_set")
        }
        var encoded: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ASN1_OCTET_STRING(inner, &encoded)
        guard length > 0, let encoded else { throw CryptoError.library("i2d_ASN1_OCTET_STRING") }
        defer { sesame_OPENSSL_free(encoded) }
        guard let outer = ASN1_OCTET_STRING_new() else { throw CryptoError.library("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(outer) }
        guard ASN1_OCTET_STRING_set(outer, encoded, length) == 1,
            let object = OBJ_txt2obj("1.3.6.1.4.1.45724.1.1.4", 1)
        else { throw CryptoError.library("cannot encode the AAGUID extension") }
        defer { ASN1_OBJECT_free(object) }
        guard let ext = X509_EXTENSION_create_by_OBJ(nil, object, 0, outer) else {
            throw CryptoError.library(X509Support.takeError("X509_EXTENSION_create_by_OBJ"))
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(certificate, ext, -1) == 1 else {
            throw CryptoError.library(X509Support.takeError("cannot add the AAGUID extension"))
        }
    }
}

extension X509Certificate {
    /// The certificate as a PEM "CERTIFICATE" block.
    public var pem: String { PEM.encode(der, label: "CERTIFICATE") }

    /// The subjectPublicKey BIT STRING's content (no unused-bits octet): what RFC 5280 §4.2.1.2
    /// method 1 hashes with SHA-1 for a key identifier, as FIDO metadata's
    /// `attestationCertificateKeyIdentifiers` do.
    public var subjectPublicKeyBits: [UInt8] {
        guard let bits = X509_get0_pubkey_bitstr(handle) else { return [] }
        return X509Support.bytes(bits)
    }

    /// The subjectKeyIdentifier extension's key identifier, nil when absent.
    public var subjectKeyIdentifier: [UInt8]? {
        guard let identifier = X509_get0_subject_key_id(handle) else { return nil }
        return X509Support.bytes(identifier)
    }
}

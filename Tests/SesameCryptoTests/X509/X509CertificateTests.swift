import Foundation
import Testing

@testable import SesameCrypto

@Suite("X509Certificate")
struct X509CertificateTests {
    @Test("YubiKey fido-u2f certificate: names, serial, version, validity")
    func yubiKeyFields() throws {
        let der = try X509Fixtures.bytes("yubikey-u2f-leaf.der")
        let certificate = try X509Certificate(der: der)
        #expect(certificate.der == der)
        #expect(certificate.version == 3)
        #expect(certificate.serialNumber == [0x2a, 0xe7, 0x62, 0x63])
        #expect(certificate.subject.values(of: "CN") == ["Yubico U2F EE Serial 719807075"])
        #expect(certificate.subject.values(of: "2.5.4.11") == ["Authenticator Attestation"])
        #expect(certificate.subject.values(of: "O") == ["Yubico AB"])
        #expect(
            certificate.subject.description
                == "C=SE, O=Yubico AB, OU=Authenticator Attestation, CN=Yubico U2F EE Serial 719807075")
        #expect(certificate.issuer.description == "CN=Yubico U2F Root CA Serial 457200631")
        #expect(certificate.issuer.attributes.first?.oid == "2.5.4.3")
        #expect(certificate.notBefore == (try X509Fixtures.date("2014-08-01T00:00:00Z")))
        #expect(certificate.notAfter == (try X509Fixtures.date("2050-09-04T00:00:00Z")))
        #expect(certificate.signatureAlgorithmOID == "1.2.840.113549.1.1.11")
    }

    @Test("extensions are listed in order with their critical flag and extnValue contents")
    func extensionList() throws {
        let certificate = try X509Fixtures.certificate("yubikey-u2f-leaf.der")
        let list = certificate.extensions
        #expect(
            list.map(\.oid) == [
                "1.3.6.1.4.1.41482.2", "1.3.6.1.4.1.45724.2.1.1", "1.3.6.1.4.1.45724.1.1.4", "2.5.29.19",
            ])
        #expect(list.map(\.critical) == [false, false, false, true])
        #expect(certificate.extension(oid: "2.5.29.19")?.value == [0x30, 0x00])
        #expect(certificate.extension(oid: "2.5.29.17") == nil)
        #expect(certificate.basicConstraints == BasicConstraints(isCA: false, pathLength: nil))
    }

    @Test("a CA certificate's basicConstraints")
    func caBasicConstraints() throws {
        let ca = try X509Fixtures.certificate("synthetic-ca.pem")
        #expect(ca.basicConstraints == BasicConstraints(isCA: true, pathLength: nil))
    }

    @Test("extendedKeyUsage: TPM AIK carries tcg-kp-AIKCertificate; absent means empty")
    func extendedKeyUsage() throws {
        let aik = try X509Fixtures.certificate("tpm-surface-pro-4-aik.der")
        #expect(try aik.extendedKeyUsage() == ["2.23.133.8.3"])
        let ca = try X509Fixtures.certificate("tpm-surface-pro-4-ca.der")
        #expect(try ca.extendedKeyUsage() == ["1.3.6.1.4.1.311.21.36", "2.23.133.8.3"])
        #expect(try X509Fixtures.certificate("yubikey-u2f-leaf.der").extendedKeyUsage() == [])
    }

    @Test("a TPM AIK certificate has an empty subject and a critical SAN")
    func tpmEmptySubject() throws {
        let aik = try X509Fixtures.certificate("tpm-surface-pro-4-aik.der")
        #expect(aik.subject.attributes.isEmpty)
        #expect(aik.extension(oid: "2.5.29.17")?.critical == true)
    }

    @Test("isSigned(by:) accepts the real issuer and rejects others")
    func signedBy() throws {
        let aik = try X509Fixtures.certificate("tpm-surface-pro-4-aik.der")
        let ca = try X509Fixtures.certificate("tpm-surface-pro-4-ca.der")
        #expect(aik.isSigned(by: ca))
        #expect(!aik.isSigned(by: aik))
        let apple = try X509Fixtures.certificate("apple-passkey-leaf.der")
        #expect(apple.isSigned(by: try X509Fixtures.certificate("apple-webauthn-ca1.der")))
        #expect(!apple.isSigned(by: ca))
    }

    @Test("PEM: every certificate in order, text between blocks ignored")
    func pemSequence() throws {
        let root = try X509Fixtures.text("spec-packed-root.pem")
        let other = try X509Fixtures.text("globalsign-r2-root.pem")
        let list = try X509Certificate.certificates(pem: "a comment\n" + root + "\nmore text\n" + other)
        #expect(list.count == 2)
        #expect(list.first?.subject.values(of: "OU") == ["Authenticator Attestation CA"])
        #expect(list.last?.subject.values(of: "CN") == ["GlobalSign"])
    }

    @Test("PEM without a certificate throws")
    func pemEmpty() throws {
        #expect(throws: CryptoError.certificate("no certificate in PEM text")) {
            try X509Certificate.certificates(pem: "no pem here\n")
        }
    }

    @Test("PEM cut before its END line throws")
    func pemTruncated() throws {
        let root = try X509Fixtures.text("spec-packed-root.pem")
        let cut = root.replacingOccurrences(of: "-----END CERTIFICATE-----", with: "")
        #expect(throws: CryptoError.certificate("malformed PEM block")) {
            try X509Certificate.certificates(pem: cut)
        }
    }

    @Test("garbage DER throws a certificate error")
    func garbage() throws {
        let error = try #require(throws: CryptoError.self) {
            try X509Certificate(der: [0x30, 0x03, 0x02, 0x01, 0x01])
        }
        guard case .certificate(let why) = error else {
            Issue.record("expected .certificate, got \(error)")
            return
        }
        #expect(why.hasPrefix("not a DER X.509 certificate"))
    }

    @Test("empty input throws")
    func empty() throws {
        #expect(throws: CryptoError.certificate("empty certificate")) { try X509Certificate(der: []) }
    }

    @Test("a valid certificate followed by one extra byte throws")
    func trailingBytes() throws {
        let der = try X509Fixtures.bytes("yubikey-u2f-leaf.der")
        #expect(throws: CryptoError.certificate("trailing bytes after the certificate (1)")) {
            try X509Certificate(der: der + [0x00])
        }
    }

    @Test("a valid certificate missing its last byte throws")
    func truncated() throws {
        let der = try X509Fixtures.bytes("yubikey-u2f-leaf.der")
        #expect(throws: CryptoError.self) { try X509Certificate(der: Array(der.dropLast())) }
    }
}

@Suite("X509Certificate public key")
struct X509CertificatePublicKeyTests {
    @Test("subject public keys: EC P-256 leaf, RSA 2048 TPM AIK")
    func keyTypes() throws {
        #expect(try X509Fixtures.certificate("apple-passkey-leaf.der").publicKey().type == .ec(.p256))
        #expect(try X509Fixtures.certificate("tpm-surface-pro-4-aik.der").publicKey().type == .rsa(bits: 2048))
    }

    @Test("the subject key's SubjectPublicKeyInfo is the one embedded in the certificate")
    func keyMatchesSPKI() throws {
        let certificate = try X509Fixtures.certificate("yubikey-u2f-leaf.der")
        let spki = try certificate.publicKey().spkiDER
        #expect(spki.count == 91)  // P-256 SubjectPublicKeyInfo
        let der = certificate.der
        try #require(spki.count <= der.count)
        let embedded = (0...(der.count - spki.count)).contains { Array(der[$0..<($0 + spki.count)]) == spki }
        #expect(embedded)
    }
}

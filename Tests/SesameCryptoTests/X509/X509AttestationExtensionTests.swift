import Foundation
import Testing

@testable import SesameCrypto

@Suite("X509Certificate attestation extensions")
struct X509AttestationExtensionTests {
    @Test("packed x5c sample: the AAGUID extension")
    func packedAAGUID() throws {
        let certificate = try X509Fixtures.certificate("packed-aaguid-leaf.der")
        #expect(try certificate.fidoAAGUID() == X509Fixtures.hex("ffd9f494eb734844bd68669381557ff7"))
        #expect(try certificate.appleNonce() == nil)
        #expect(try certificate.androidKeyDescription() == nil)
        #expect(try certificate.tpmDeviceAttributes() == nil)
    }

    @Test("YubiKey fido-u2f certificate: AAGUID extension")
    func yubiKeyAAGUID() throws {
        let certificate = try X509Fixtures.certificate("yubikey-u2f-leaf.der")
        #expect(try certificate.fidoAAGUID() == X509Fixtures.hex("6d44ba9bf6ec2e49b9300c8fe920cb73"))
    }

    @Test("no AAGUID extension gives nil")
    func absentAAGUID() throws {
        #expect(try X509Fixtures.certificate("apple-passkey-leaf.der").fidoAAGUID() == nil)
    }

    @Test("an AAGUID OCTET STRING of 15 bytes throws")
    func shortAAGUID() throws {
        let certificate = try X509Fixtures.certificate("synthetic-leaf-short-aaguid.pem")
        #expect(throws: CryptoError.certificate("AAGUID extension holds 15 bytes, not 16")) {
            try certificate.fidoAAGUID()
        }
    }

    @Test("an AAGUID extension with a byte after the OCTET STRING throws")
    func aaguidTrailing() throws {
        let value = try #require(
            try X509Fixtures.certificate("packed-aaguid-leaf.der").extension(oid: X509Certificate.fidoAAGUIDOID)?.value)
        #expect(throws: CryptoError.certificate("DER: trailing bytes after the AAGUID extension")) {
            try X509Certificate.fidoAAGUID(extensionValue: value + [0x00])
        }
    }

    @Test("Apple anonymous attestation: the nonce")
    func appleNonce() throws {
        let certificate = try X509Fixtures.certificate("apple-passkey-leaf.der")
        #expect(
            try certificate.appleNonce()
                == X509Fixtures.hex("e457e5bc292f1635210248ed2e776ba129c7cc469524a75356836caef2f058a0"))
    }

    @Test("Apple nonce under [2] instead of [1] throws")
    func appleNonceWrongTag() throws {
        var value = try #require(
            try X509Fixtures.certificate("apple-passkey-leaf.der").extension(oid: X509Certificate.appleNonceOID)?.value)
        #expect(value[2] == 0xa1)
        value[2] = 0xa2
        #expect(throws: CryptoError.certificate("DER: expected tag [1], found [2]")) {
            try X509Certificate.appleNonce(extensionValue: value)
        }
    }

    @Test("Android key attestation (Pixel 8a): KeyDescription")
    func androidKeyDescription() throws {
        let certificate = try X509Fixtures.certificate("android-pixel-8a-0.der")
        let description = try #require(try certificate.androidKeyDescription())
        #expect(description.attestationVersion == 300)
        #expect(description.attestationSecurityLevel == 1)
        #expect(description.keymasterVersion == 300)
        #expect(description.keymasterSecurityLevel == 1)
        // SHA-256 of the sample's clientDataJSON.
        #expect(
            description.attestationChallenge
                == X509Fixtures.hex("5652e2dc45549a96f96afa225502f87fadc08a60bc021392c0be8c5062fd5f5e"))
        #expect(description.uniqueID == [])
        #expect(description.teeEnforced.purpose == [2])
        #expect(description.teeEnforced.origin == 0)
        #expect(description.teeEnforced.allApplications == false)
        #expect(
            description.softwareEnforced == AndroidAuthorizationList(purpose: nil, origin: nil, allApplications: false))
    }

    /// The Pixel 8a KeyDescription, for negative tests that change one byte.
    private func pixelKeyDescription() throws -> [UInt8] {
        try #require(
            try X509Fixtures.certificate("android-pixel-8a-0.der").extension(oid: AndroidKeyDescription.oid)?.value)
    }

    @Test("KeyDescription with a byte after it throws")
    func androidTrailing() throws {
        let value = try pixelKeyDescription()
        #expect(throws: CryptoError.certificate("DER: trailing bytes after KeyDescription")) {
            try AndroidKeyDescription(der: value + [0x00])
        }
    }

    @Test("KeyDescription whose attestationSecurityLevel is INTEGER, not ENUMERATED, throws")
    func androidWrongTag() throws {
        var value = try pixelKeyDescription()
        // 30 82 01 57 | 02 02 01 2c | 0a 01 01 ...
        #expect(value[8] == 0x0a)
        value[8] = 0x02
        #expect(throws: CryptoError.certificate("DER: expected tag universal 10, found universal 2")) {
            try AndroidKeyDescription(der: value)
        }
    }

    @Test("KeyDescription whose length runs past the end throws")
    func androidLengthOverrun() throws {
        var value = try pixelKeyDescription()
        #expect(value[3] == 0x57)
        value[3] = 0x58
        #expect(throws: CryptoError.certificate("DER length 344 exceeds the 343 bytes left")) {
            try AndroidKeyDescription(der: value)
        }
    }

    @Test("AuthorizationList with [702] origin twice throws")
    func androidDuplicateField() throws {
        // SEQUENCE { [702] INTEGER 0, [702] INTEGER 0 }
        let list: [UInt8] = [
            0x30, 0x0e, 0xbf, 0x85, 0x3e, 0x03, 0x02, 0x01, 0x00, 0xbf, 0x85, 0x3e, 0x03, 0x02, 0x01, 0x00,
        ]
        var reader = try DERReader(list)
        let element = try reader.readElement(.sequence)
        #expect(throws: CryptoError.certificate("AuthorizationList: field [702] appears twice")) {
            try AndroidAuthorizationList(parsing: element)
        }
    }

    @Test("AuthorizationList: purpose, origin and allApplications; other fields skipped")
    func authorizationListFields() throws {
        // SEQUENCE { [1] SET { 2, 3 }, [600] NULL, [701] INTEGER 5, [702] INTEGER 0 }
        let body: [UInt8] = [
            0xa1, 0x08, 0x31, 0x06, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03,
            0xbf, 0x84, 0x58, 0x02, 0x05, 0x00,
            0xbf, 0x85, 0x3d, 0x03, 0x02, 0x01, 0x05,
            0xbf, 0x85, 0x3e, 0x03, 0x02, 0x01, 0x00,
        ]
        var reader = try DERReader([0x30, UInt8(body.count)] + body)
        let parsed = try AndroidAuthorizationList(parsing: reader.readElement(.sequence))
        #expect(parsed == AndroidAuthorizationList(purpose: [2, 3], origin: 0, allApplications: true))
    }

    @Test("TPM AIK (Surface Pro 4): manufacturer, model, version from three RDNs")
    func tpmThreeRDNs() throws {
        let certificate = try X509Fixtures.certificate("tpm-surface-pro-4-aik.der")
        #expect(
            try certificate.tpmDeviceAttributes()
                == TPMDeviceAttributes(manufacturer: "id:494E5443", model: "ICL", version: "id:00020000"))
    }

    @Test("TPM AIK (Windows Hello): the attributes in one multi-valued RDN")
    func tpmSingleRDN() throws {
        let certificate = try X509Fixtures.certificate("tpm-single-rdn-aik.der")
        #expect(
            try certificate.tpmDeviceAttributes()
                == TPMDeviceAttributes(manufacturer: "id:4E544300", model: "NPCT75x", version: "id:72"))
        #expect(try certificate.extendedKeyUsage() == ["2.23.133.8.3"])
    }

    @Test("no subjectAlternativeName gives nil TPM attributes")
    func tpmAbsent() throws {
        #expect(try X509Fixtures.certificate("yubikey-u2f-leaf.der").tpmDeviceAttributes() == nil)
    }
}

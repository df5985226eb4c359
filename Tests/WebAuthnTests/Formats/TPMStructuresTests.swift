import Testing
import WebAuthn

/// TPMS_ATTEST (certInfo) and TPMT_PUBLIC (pubArea) parsing: field layout, strictness, and that no
/// truncation or bad length can do anything but throw.
@Suite("TPM structures")
struct TPMStructuresTests {
    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }
    static func be32(_ value: UInt32) -> [UInt8] { be16(UInt16(value >> 16)) + be16(UInt16(value & 0xffff)) }
    static func be64(_ value: UInt64) -> [UInt8] { be32(UInt32(value >> 32)) + be32(UInt32(value & 0xffff_ffff)) }
    static func sized(_ bytes: [UInt8]) -> [UInt8] { be16(UInt16(bytes.count)) + bytes }

    static let extraData = [UInt8](repeating: 0xAB, count: 32)
    static let name = be16(0x000B) + [UInt8](repeating: 0xCD, count: 32)
    static let modulus = [UInt8](repeating: 0xC3, count: 256)
    static let x = [UInt8](repeating: 0x11, count: 32)
    static let y = [UInt8](repeating: 0x22, count: 32)

    static func certInfo(magic: UInt32 = 0xff54_4347, type: UInt16 = 0x8017, safe: UInt8 = 1) -> [UInt8] {
        be32(magic) + be16(type) + sized(be16(0x000B) + [UInt8](repeating: 0x01, count: 32)) + sized(extraData)
            + be64(0x0102_0304_0506_0708) + be32(7) + be32(9) + [safe] + be64(0x2000_0000_0001_0002)
            + sized(name) + sized([0x00, 0x0B] + [UInt8](repeating: 0xEF, count: 32))
    }

    static func rsaPubArea(exponent: UInt32 = 0, scheme: [UInt8] = be16(0x0010), symmetric: [UInt8] = be16(0x0010))
        -> [UInt8]
    {
        be16(0x0001) + be16(0x000B) + be32(0x0006_0472) + sized([]) + symmetric + scheme + be16(2048)
            + be32(exponent) + sized(modulus)
    }

    static func eccPubArea(curve: UInt16 = 0x0003, scheme: [UInt8] = be16(0x0018) + be16(0x000B)) -> [UInt8] {
        be16(0x0023) + be16(0x000B) + be32(0x0006_0472) + sized([0x5A, 0x5A]) + be16(0x0010) + scheme + be16(curve)
            + be16(0x0010) + sized(x) + sized(y)
    }

    static func code(_ body: () throws -> Void) -> WebAuthnError.Code? {
        FormatTestSupport.error(body)?.code
    }

    @Test func certInfoFields() throws {
        let info = try TPMStructures.CertifyInfo(bytes: Self.certInfo())
        #expect(info.magic == TPMStructures.generatedValue)
        #expect(info.type == TPMStructures.attestCertify)
        #expect(info.qualifiedSigner.count == 34)
        #expect(info.extraData == Self.extraData)
        #expect(info.clock == 0x0102_0304_0506_0708)
        #expect(info.resetCount == 7)
        #expect(info.restartCount == 9)
        #expect(info.safe)
        #expect(info.firmwareVersion == 0x2000_0000_0001_0002)
        #expect(info.attestedName == Self.name)
        #expect(info.attestedQualifiedName.count == 34)
    }

    @Test func certInfoWrongMagic() {
        #expect(
            Self.code { _ = try TPMStructures.CertifyInfo(bytes: Self.certInfo(magic: 0xff54_4348)) }
                == .attestationStatement)
    }

    @Test func certInfoWrongType() {
        // TPM_ST_ATTEST_QUOTE is a valid TPM attestation, but not the one WebAuthn signs.
        #expect(
            Self.code { _ = try TPMStructures.CertifyInfo(bytes: Self.certInfo(type: 0x8018)) } == .attestationStatement
        )
    }

    @Test func certInfoSafeIsAnyNonZeroByte() throws {
        // clockInfo is ignored by §8.3; the W3C spec vector carries arbitrary bytes there.
        #expect(try TPMStructures.CertifyInfo(bytes: Self.certInfo(safe: 0x33)).safe)
        #expect(try !TPMStructures.CertifyInfo(bytes: Self.certInfo(safe: 0)).safe)
    }

    @Test func certInfoTrailingByte() {
        #expect(Self.code { _ = try TPMStructures.CertifyInfo(bytes: Self.certInfo() + [0]) } == .attestationStatement)
    }

    @Test func certInfoEveryTruncationThrows() {
        let full = Self.certInfo()
        for length in 0..<full.count {
            #expect(
                Self.code { _ = try TPMStructures.CertifyInfo(bytes: Array(full.prefix(length))) }
                    == .attestationStatement)
        }
    }

    @Test func certInfoSizeBeyondEnd() {
        // extraData claims 0xFFFF bytes.
        var bytes = Self.certInfo()
        let extraDataSize = 4 + 2 + 2 + 34
        bytes[extraDataSize] = 0xFF
        bytes[extraDataSize + 1] = 0xFF
        #expect(Self.code { _ = try TPMStructures.CertifyInfo(bytes: bytes) } == .attestationStatement)
    }

    @Test func rsaPubAreaDefaultExponent() throws {
        let area = try TPMStructures.PublicArea(bytes: Self.rsaPubArea())
        #expect(area.type == TPMStructures.AlgorithmID.rsa)
        #expect(area.nameAlg == TPMStructures.AlgorithmID.sha256)
        #expect(area.objectAttributes == 0x0006_0472)
        #expect(area.authPolicy.isEmpty)
        #expect(area.symmetric == TPMStructures.AlgorithmID.null)
        #expect(area.scheme == TPMStructures.AlgorithmID.null)
        #expect(area.key == .rsa(keyBits: 2048, exponent: 65_537, modulus: Self.modulus))
    }

    @Test func rsaPubAreaExplicitExponentAndScheme() throws {
        let bytes = Self.rsaPubArea(exponent: 3, scheme: Self.be16(0x0014) + Self.be16(0x000B))
        let area = try TPMStructures.PublicArea(bytes: bytes)
        #expect(area.scheme == TPMStructures.AlgorithmID.rsassa)
        #expect(area.key == .rsa(keyBits: 2048, exponent: 3, modulus: Self.modulus))
    }

    @Test func rsaPubAreaSymmetricBlockCipherCarriesKeyBitsAndMode() throws {
        let aes = Self.be16(0x0006) + Self.be16(128) + Self.be16(0x0043)
        let area = try TPMStructures.PublicArea(bytes: Self.rsaPubArea(symmetric: aes))
        #expect(area.symmetric == TPMStructures.AlgorithmID.aes)
        #expect(area.key == .rsa(keyBits: 2048, exponent: 65_537, modulus: Self.modulus))
    }

    @Test func rsaPubAreaUnknownScheme() {
        let bytes = Self.rsaPubArea(scheme: Self.be16(0x0018) + Self.be16(0x000B))  // ECDSA on an RSA key
        #expect(Self.code { _ = try TPMStructures.PublicArea(bytes: bytes) } == .attestationStatement)
    }

    @Test func eccPubArea() throws {
        let area = try TPMStructures.PublicArea(bytes: Self.eccPubArea())
        #expect(area.type == TPMStructures.AlgorithmID.ecc)
        #expect(area.authPolicy == [0x5A, 0x5A])
        #expect(area.scheme == TPMStructures.AlgorithmID.ecdsa)
        #expect(area.key == .ecc(curveID: 0x0003, x: Self.x, y: Self.y))
    }

    @Test func eccPubAreaNullScheme() throws {
        let area = try TPMStructures.PublicArea(bytes: Self.eccPubArea(scheme: Self.be16(0x0010)))
        #expect(area.key == .ecc(curveID: 0x0003, x: Self.x, y: Self.y))
    }

    @Test func pubAreaUnsupportedType() {
        var bytes = Self.rsaPubArea()
        bytes[1] = 0x08  // TPM_ALG_KEYEDHASH
        #expect(Self.code { _ = try TPMStructures.PublicArea(bytes: bytes) } == .attestationStatement)
    }

    @Test func pubAreaTrailingByte() {
        #expect(Self.code { _ = try TPMStructures.PublicArea(bytes: Self.rsaPubArea() + [0]) } == .attestationStatement)
        #expect(Self.code { _ = try TPMStructures.PublicArea(bytes: Self.eccPubArea() + [0]) } == .attestationStatement)
    }

    @Test func pubAreaEveryTruncationThrows() throws {
        let fixtures: [[UInt8]] = [
            Self.rsaPubArea(), Self.eccPubArea(), Self.rsaPubArea(scheme: Self.be16(0x0016) + Self.be16(0x000C)),
            Self.eccPubArea(scheme: Self.be16(0x001A) + Self.be16(0x000B) + Self.be16(1)),
        ]
        for full in fixtures {
            #expect(try TPMStructures.PublicArea(bytes: full).type != 0)
            for length in 0..<full.count {
                #expect(
                    Self.code { _ = try TPMStructures.PublicArea(bytes: Array(full.prefix(length))) }
                        == .attestationStatement)
            }
        }
    }

    @Test func nameAndCurveIDs() {
        #expect(TPMStructures.hashAlgorithm(0x0004) == .legacySHA1)
        #expect(TPMStructures.hashAlgorithm(0x000B) == .sha256)
        #expect(TPMStructures.hashAlgorithm(0x000C) == .sha384)
        #expect(TPMStructures.hashAlgorithm(0x000D) == .sha512)
        #expect(TPMStructures.hashAlgorithm(0x0010) == nil)
        #expect(TPMStructures.curve(0x0003) == .p256)
        #expect(TPMStructures.curve(0x0004) == .p384)
        #expect(TPMStructures.curve(0x0005) == .p521)
        #expect(TPMStructures.curve(0x0001) == nil)
    }

    @Test func vendorRegistry() {
        #expect(TPMAttestation.isRegisteredVendor("id:4E544300"))  // Nuvoton
        #expect(TPMAttestation.isRegisteredVendor("id:49424d00"))  // IBM, lower-case hex
        #expect(!TPMAttestation.isRegisteredVendor("id:FFFFF1D0"))  // FIDO conformance test vendor
        #expect(!TPMAttestation.isRegisteredVendor("id:00000000"))
    }
}

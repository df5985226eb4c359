import Testing
import WebAuthn

@Suite("AAGUID registry")
struct AAGUIDRegistryTests {
    @Test func formatsLowercase8_4_4_4_12() {
        let bytes: [UInt8] = [
            0xFB, 0xFC, 0x30, 0x07, 0x15, 0x4E, 0x4E, 0xCC, 0x8C, 0x0B, 0x6E, 0x02, 0x05, 0x57, 0xD7, 0xBD,
        ]
        #expect(AAGUIDRegistry.format(bytes) == "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")
        #expect(AAGUIDRegistry.name(for: bytes) == "iCloud Keychain")
        #expect(AAGUIDRegistry.format([UInt8](repeating: 0, count: 16)) == "00000000-0000-0000-0000-000000000000")
        #expect(AAGUIDRegistry.format([0xAB, 0x01]) == "ab01")
    }

    @Test func unknownOrMisSizedAAGUIDsHaveNoName() {
        #expect(AAGUIDRegistry.name(for: [UInt8](repeating: 0, count: 16)) == nil)
        #expect(AAGUIDRegistry.name(for: [0xFB, 0xFC, 0x30, 0x07]) == nil)
        #expect(AAGUIDRegistry.name(for: []) == nil)
    }

    @Test(arguments: [
        ("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4", "Google Password Manager"),
        ("08987058-cadc-4b81-b6e1-30de50dcbe96", "Windows Hello"),
        ("bada5566-a7aa-401f-bd96-45619a55120d", "1Password"),
        ("b84e4048-15dc-4dd0-8640-f4f60813c8af", "NordPass"),
        ("b5397666-4885-aa6b-cebf-e52262a439a2", "Chromium Browser"),
        ("cb69481e-8ff7-4039-93ec-0a2729a154a8", "YubiKey 5 Series"),
    ])
    func namesKnownProviders(_ formatted: String, _ name: String) {
        let bytes = ParsingFixtures.hex(formatted.replacingOccurrences(of: "-", with: ""))
        #expect(bytes.count == 16)
        #expect(AAGUIDRegistry.name(for: bytes) == name)
    }

    @Test(
        arguments: [
            ("packed-x5c-eddsa-yubikey", "YubiKey 5 Series with Lightning"),
            ("packed-x5c-es256-yubikey5-windows", "Security Key by Yubico with NFC"),
            ("tpm-rs256-dell-xps-13", "Windows Hello"),
            ("packed-self-es256-chrome-macos-touchid", "Chrome on Mac"),
            ("spec-none-es256", nil),
        ] as [(String, String?)])
    func namesTheAuthenticatorsOfConformanceVectors(_ vector: String, _ name: String?) throws {
        let data = try AuthenticatorData(bytes: ParsingFixtures.registrationAuthData(vector))
        let aaguid = try #require(data.attestedCredentialData?.aaguid)
        #expect(AAGUIDRegistry.name(for: aaguid) == name)
    }
}

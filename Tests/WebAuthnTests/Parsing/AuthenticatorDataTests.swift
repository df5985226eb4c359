import Testing
import WebAuthn

@Suite("Authenticator data")
struct AuthenticatorDataTests {
    static let rpIDHash = [UInt8](repeating: 0xAB, count: 32)

    static func header(flags: UInt8, counter: [UInt8] = [0, 0, 0, 7]) -> [UInt8] {
        rpIDHash + [flags] + counter
    }

    static func error(_ bytes: [UInt8]) -> WebAuthnError? {
        ParsingFixtures.error { try AuthenticatorData(bytes: bytes) }
    }

    @Test func parsesFlagsAndTheBigEndianCounter() throws {
        let data = try AuthenticatorData(bytes: Self.header(flags: 0x1D, counter: [0x01, 0x02, 0x03, 0x04]))
        #expect(data.rpIDHash == Self.rpIDHash)
        #expect(data.flags == [.userPresent, .userVerified, .backupEligible, .backupState])
        #expect(!data.flags.contains(.attestedCredentialData))
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredentialData == nil)
        #expect(data.extensions == nil)
        #expect(data.raw == Self.header(flags: 0x1D, counter: [0x01, 0x02, 0x03, 0x04]))
        #expect(
            try AuthenticatorData(bytes: Self.header(flags: 0, counter: [0xFF, 0xFF, 0xFF, 0xFF])).signCount == .max)
    }

    @Test func parsesRealAttestedCredentialData() throws {
        let raw = try ParsingFixtures.registrationAuthData("spec-none-es256")
        let data = try AuthenticatorData(bytes: raw)
        #expect(data.flags.contains(.attestedCredentialData))
        #expect(data.signCount == 0)
        let attested = try #require(data.attestedCredentialData)
        #expect(AAGUIDRegistry.format(attested.aaguid) == "8446ccb9-ab1d-b374-750b-2367ff6f3a1f")
        #expect(Base64URL.encode(attested.credentialID) == "-R85HbTJsv3g6nAYnLo_tj9Xm6YSKzOtlP8-wzAIS-Q")
        #expect(
            Base64URL.encode(attested.credentialPublicKey.encoded)
                == "pQECAyYgASFYIK_voW-XypstI-uGzLZAmNINuQhWBi6yScM6m2cvJt9hIlggkwpWuHovymYzSwNFir-HlxfBLMaO1zKQry4mZHlrkiA"
        )
    }

    @Test func theBuilderSerialisesWhatTheParserReads() throws {
        let parsed = try AuthenticatorData(bytes: ParsingFixtures.registrationAuthData("spec-none-es256"))
        let extensions = CBORValue.map([CBORMapEntry(key: .text("credProtect"), value: .unsigned(2))])
        let flags: AuthenticatorFlags = [.userPresent, .attestedCredentialData, .extensionData]
        let built = AuthenticatorData(
            rpIDHash: parsed.rpIDHash, flags: flags, signCount: 42,
            attestedCredentialData: parsed.attestedCredentialData, extensions: extensions)
        let reparsed = try AuthenticatorData(bytes: built.raw)
        #expect(reparsed == built)
        #expect(reparsed.extensions == extensions)
        #expect(reparsed.attestedCredentialData == parsed.attestedCredentialData)
        // Without the optional parts, the builder writes exactly the 37-byte header.
        let plain = AuthenticatorData(
            rpIDHash: Self.rpIDHash, flags: .userPresent, signCount: 7, attestedCredentialData: nil, extensions: nil)
        #expect(plain.raw == Self.header(flags: 0x01))
    }

    @Test func parsesEveryConformanceVectorsAuthenticatorData() throws {
        var withExtensions = 0
        for vector in ParsingFixtures.vectors("authentication") {
            let data = try AuthenticatorData(bytes: ParsingFixtures.field(vector, "authenticatorData"))
            if let count = vector.expect["sign_count"] { #expect(String(data.signCount) == count, "\(vector)") }
            if data.extensions != nil { withExtensions += 1 }
        }
        for vector in ParsingFixtures.vectors("registration") where vector.expect["code"] != "malformed" {
            let object = try AttestationObject(bytes: ParsingFixtures.field(vector, "attestationObject"))
            if object.authenticatorData.extensions != nil { withExtensions += 1 }
        }
        #expect(withExtensions > 0)
    }

    @Test func rejectsAShortHeader() {
        #expect(
            Self.error([]) == WebAuthnError(.malformed, "authenticator data: is 0 bytes; the fixed header needs 37"))
        #expect(
            Self.error(Array(Self.header(flags: 1).dropLast()))
                == WebAuthnError(.malformed, "authenticator data: is 36 bytes; the fixed header needs 37"))
    }

    @Test func rejectsATWithoutAttestedData() {
        #expect(
            Self.error(Self.header(flags: 0x41))
                == WebAuthnError(
                    .malformed,
                    "authenticator data: AT flag is set but only 0 bytes follow the header; AAGUID and credential ID length need 18"
                ))
    }

    @Test func rejectsAttestedDataWithoutAT() throws {
        var raw = try ParsingFixtures.registrationAuthData("spec-none-es256")
        raw[32] &= ~0x40
        #expect(
            Self.error(raw)
                == WebAuthnError(
                    .malformed,
                    "authenticator data: \(raw.count - 37) unexpected bytes after the header (AT and ED flags are clear)"
                ))
    }

    @Test func rejectsEDWithoutExtensions() throws {
        #expect(
            Self.error(Self.header(flags: 0x81))
                == WebAuthnError(.malformed, "authenticator data: ED flag is set but no extension data follows"))
        var raw = try ParsingFixtures.registrationAuthData("spec-none-es256")
        raw[32] |= 0x80
        #expect(
            Self.error(raw)
                == WebAuthnError(.malformed, "authenticator data: ED flag is set but no extension data follows"))
    }

    @Test func rejectsExtensionsWithoutED() throws {
        #expect(
            Self.error(Self.header(flags: 0x01) + [0xA0])
                == WebAuthnError(
                    .malformed, "authenticator data: 1 unexpected bytes after the header (AT and ED flags are clear)"))
        let raw = try ParsingFixtures.registrationAuthData("spec-none-es256")
        #expect(
            Self.error(raw + [0xA0])
                == WebAuthnError(
                    .malformed,
                    "authenticator data: 1 unexpected bytes after the credential public key (ED flag is clear)"))
    }

    @Test func rejectsBadExtensions() {
        #expect(
            Self.error(Self.header(flags: 0x81) + [0x01])
                == WebAuthnError(.malformed, "authenticator data: extensions are not a CBOR map"))
        #expect(
            Self.error(Self.header(flags: 0x81) + [0xA0, 0x00])
                == WebAuthnError(.malformed, "authenticator data: 1 unexpected bytes after the extensions"))
        #expect(
            Self.error(Self.header(flags: 0x81) + [0xA1, 0x01, 0x18])
                == WebAuthnError(
                    .malformed,
                    "authenticator data: extensions: CBOR: unexpected end of input in a 1-byte argument at offset 3"
                ))
        #expect(
            Self.error(Self.header(flags: 0x81) + [0xA1, 0x01])
                == WebAuthnError(
                    .malformed,
                    "authenticator data: extensions: CBOR: map claims 1 pairs but only 1 bytes remain at offset 1"))
    }

    @Test func rejectsOverlongAndTruncatedCredentialIDs() {
        let aaguid = [UInt8](repeating: 0, count: 16)
        let long = Self.header(flags: 0x41) + aaguid + [0x04, 0x00] + [UInt8](repeating: 1, count: 1100)
        #expect(
            Self.error(long) == WebAuthnError(.malformed, "authenticator data: credential ID length 1024 exceeds 1023"))
        let short = Self.header(flags: 0x41) + aaguid + [0x00, 0x10] + [1, 2, 3]
        #expect(
            Self.error(short)
                == WebAuthnError(.malformed, "authenticator data: credential ID length is 16 but only 3 bytes remain"))
        let noKey = Self.header(flags: 0x41) + aaguid + [0x00, 0x02, 1, 2]
        #expect(Self.error(noKey) == WebAuthnError(.malformed, "authenticator data: credential public key is missing"))
    }

    @Test func keepsTheCOSEErrorCodeForAnUnsupportedKey() throws {
        let aaguid = [UInt8](repeating: 0, count: 16)
        // {1: 4 (symmetric), 3: 5}
        let raw = Self.header(flags: 0x41) + aaguid + [0x00, 0x01, 0xAA, 0xA2, 0x01, 0x04, 0x03, 0x05]
        #expect(
            Self.error(raw)
                == WebAuthnError(
                    .algorithm, "authenticator data: credential public key: COSE key: unsupported key type 4"))
    }

    /// Every proper prefix of real authenticator data must fail cleanly as `.malformed`.
    @Test(arguments: [
        "spec-none-es256", "none-rs256-windows-hello", "packed-x5c-eddsa-yubikey", "packed-self-es512",
        "none-es256-android-app-devicepubkey-ext", "spec-none-es256-long-credential-id",
    ])
    func everyTruncationIsMalformed(_ vector: String) throws {
        let raw = try ParsingFixtures.registrationAuthData(vector)
        #expect(throws: Never.self) { try AuthenticatorData(bytes: raw) }
        for length in 0..<raw.count {
            let error = Self.error(Array(raw[..<length]))
            #expect(error?.code == .malformed, "prefix of \(length) bytes: \(String(describing: error))")
        }
    }
}

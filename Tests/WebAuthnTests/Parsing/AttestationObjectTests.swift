import Testing
import WebAuthn

@Suite("Attestation objects")
struct AttestationObjectTests {
    static func validEntries() throws -> [CBORMapEntry] {
        guard let vector = ParsingFixtures.vector("registration", "spec-none-es256"),
            case .map(let entries) = try CBORDecoder().decode(ParsingFixtures.field(vector, "attestationObject"))
        else { throw ParsingFixtures.FixtureError.missing("spec-none-es256") }
        return entries
    }

    static func error(_ change: (inout [CBORMapEntry]) -> Void) throws -> WebAuthnError? {
        var entries = try validEntries()
        change(&entries)
        let bytes = CBOREncoder.encode(.map(entries))
        return ParsingFixtures.error { try AttestationObject(bytes: bytes) }
    }

    static func set(_ key: String, _ value: CBORValue) -> (inout [CBORMapEntry]) -> Void {
        { entries in
            if let index = entries.firstIndex(where: { $0.key == .text(key) }) { entries[index].value = value }
        }
    }

    static func remove(_ key: String) -> (inout [CBORMapEntry]) -> Void {
        { entries in entries.removeAll { $0.key == .text(key) } }
    }

    /// Every registration vector that is not malformed parses, and what it holds matches `expect`.
    @Test func parsesEveryRegistrationVector() throws {
        var checked = 0
        for vector in ParsingFixtures.vectors("registration") where vector.expect["code"] != "malformed" {
            let bytes = try ParsingFixtures.field(vector, "attestationObject")
            let object = try AttestationObject(bytes: bytes)
            #expect(object.raw == bytes)
            guard vector.ok else { continue }
            #expect(object.format == vector.expect["fmt"], "\(vector)")
            let attested = try #require(object.authenticatorData.attestedCredentialData, "\(vector)")
            #expect(AAGUIDRegistry.format(attested.aaguid) == vector.expect["aaguid"], "\(vector)")
            #expect(Base64URL.encode(attested.credentialID) == vector.expect["credential_id"], "\(vector)")
            let key = attested.credentialPublicKey
            #expect(Base64URL.encode(key.encoded) == vector.expect["credential_public_key"], "\(vector)")
            #expect(key.algorithm.name == vector.expect["alg"], "\(vector)")
            #expect(String(object.authenticatorData.signCount) == vector.expect["sign_count"], "\(vector)")
            checked += 1
        }
        #expect(checked >= 50)
    }

    @Test func parsesTheStoredKeysOfAuthenticationVectors() throws {
        var checked = 0
        for vector in ParsingFixtures.vectors("authentication") {
            let stored = try #require(vector.credentialPublicKey, "\(vector)")
            let key = try COSEKey(bytes: Base64URL.decode(stored))
            #expect(COSEAlgorithm.allCases.contains(key.algorithm))
            checked += 1
        }
        #expect(checked > 5)
    }

    @Test func rejectsTheEmptyAttestationObjectVector() throws {
        let vector = try #require(ParsingFixtures.vector("registration", "bad-empty-attestation-object"))
        let bytes = try ParsingFixtures.field(vector, "attestationObject")
        #expect(ParsingFixtures.error { try AttestationObject(bytes: bytes) }?.code == .malformed)
        #expect(
            ParsingFixtures.error { try AttestationObject(bytes: []) }
                == WebAuthnError(.malformed, "attestation object is empty"))
    }

    @Test func theUnmodifiedFixtureParses() throws {
        #expect(try Self.error { _ in } == nil)
    }

    @Test func rejectsMissingMembers() throws {
        #expect(try Self.error(Self.remove("fmt")) == WebAuthnError(.malformed, "attestation object: fmt is missing"))
        #expect(
            try Self.error(Self.remove("attStmt"))
                == WebAuthnError(.malformed, "attestation object: attStmt is missing"))
        #expect(
            try Self.error(Self.remove("authData"))
                == WebAuthnError(.malformed, "attestation object: authData is missing"))
    }

    @Test func rejectsMistypedMembers() throws {
        #expect(
            try Self.error(Self.set("fmt", .bytes(Array("none".utf8))))
                == WebAuthnError(.malformed, "attestation object: fmt is not a text string"))
        #expect(
            try Self.error(Self.set("attStmt", .array([])))
                == WebAuthnError(.malformed, "attestation object: attStmt is not a map"))
        #expect(
            try Self.error(Self.set("authData", .text("x")))
                == WebAuthnError(.malformed, "attestation object: authData is not a byte string"))
        #expect(
            try Self.error(Self.set("authData", .bytes([1, 2, 3])))
                == WebAuthnError(.malformed, "authenticator data: is 3 bytes; the fixed header needs 37"))
    }

    @Test func rejectsNonMapsAndTrailingBytes() throws {
        #expect(
            ParsingFixtures.error { try AttestationObject(bytes: [0x80]) }
                == WebAuthnError(.malformed, "attestation object is not a CBOR map"))
        let valid = CBOREncoder.encode(.map(try Self.validEntries()))
        #expect(
            ParsingFixtures.error { try AttestationObject(bytes: valid + [0]) }
                == WebAuthnError(.malformed, "attestation object: CBOR: 1 trailing bytes after the item"))
    }

    @Test func ignoresUnknownMembers() throws {
        #expect(try Self.error { $0.append(CBORMapEntry(key: .text("epAtt"), value: .bool(true))) } == nil)
    }
}

import SesameCrypto
import Testing
import WebAuthn

/// COSE keys through SesameCrypto: import into libcrypto and canonical re-encoding.
@Suite("COSE key import")
struct COSEKeyImportTests {
    @Test(arguments: [
        "spec-none-es256", "spec-packed-es384-with-mds", "packed-self-es512", "packed-x5c-eddsa-yubikey",
        "none-rs256-windows-hello", "packed-self-ps256", "tpm-rs1-fido-conformance",
    ])
    func importsAndReencodesRealKeys(_ vector: String) throws {
        let key = try COSEKeyTests.key(of: vector)
        let publicKey = try key.publicKey()
        let rebuilt = try COSEKey(publicKey: publicKey, algorithm: key.algorithm)
        #expect(rebuilt.components == key.components)
        #expect(rebuilt.algorithm == key.algorithm)
        #expect(try COSEKey(bytes: rebuilt.encoded) == rebuilt)
        #expect(CBOREncoder.encode(try CBORDecoder().decode(rebuilt.encoded)) == rebuilt.encoded)
    }

    @Test func theSpecES256KeyIsAlreadyCanonical() throws {
        let key = try COSEKeyTests.key(of: "spec-none-es256")
        let rebuilt = try COSEKey(publicKey: key.publicKey(), algorithm: .es256)
        #expect(rebuilt.encoded == key.encoded)
    }

    @Test func refusesToBuildAKeyThatDoesNotFitTheAlgorithm() throws {
        let p384 = try PrivateKey.generate(.ec(.p384)).publicKey
        #expect(
            ParsingFixtures.error { try COSEKey(publicKey: p384, algorithm: .es256) }
                == WebAuthnError(.algorithm, "COSE key: ES256 requires P-256, the key is on P-384"))
        let ed25519 = try PrivateKey.generate(.ed25519).publicKey
        #expect(
            ParsingFixtures.error { try COSEKey(publicKey: ed25519, algorithm: .rs256) }
                == WebAuthnError(.algorithm, "COSE key: RS256 needs kty 3, the key has kty 1"))
    }

    @Test func aPointOffTheCurveFailsToImport() throws {
        let valid = try COSEKeyTests.key(of: "spec-none-es256")
        guard case .ec(let curve, let x, var y) = valid.components else {
            Issue.record("not an EC key")
            return
        }
        y[31] ^= 0x01
        var entries = try #require(CBORDecoder().decode(valid.encoded).mapValue)
        if let index = entries.firstIndex(where: { $0.key == CBORValue(-3) }) { entries[index].value = .bytes(y) }
        let broken = try COSEKey(bytes: CBOREncoder.encode(.map(entries)))
        #expect(broken.components == .ec(curve: curve, x: x, y: y))
        #expect(ParsingFixtures.error { try broken.publicKey() }?.code == .malformed)
    }
}

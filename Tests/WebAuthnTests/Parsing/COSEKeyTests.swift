import SesameCrypto
import Testing
import WebAuthn

@Suite("COSE keys")
struct COSEKeyTests {
    /// The ES256 credential key of the W3C §16 NoneES256 vector.
    static func es256Key() throws -> [UInt8] {
        try key(of: "spec-none-es256").encoded
    }

    static func key(of vector: String) throws -> COSEKey {
        let data = try AuthenticatorData(bytes: ParsingFixtures.registrationAuthData(vector))
        guard let key = data.attestedCredentialData?.credentialPublicKey else {
            throw ParsingFixtures.FixtureError.missing("credential key in \(vector)")
        }
        return key
    }

    @Test(
        arguments: [
            ("spec-none-es256", COSEKey.KeyType.ec2, COSEAlgorithm.es256, "P-256"),
            ("spec-packed-es384-with-mds", .ec2, .es384, "P-384"),
            ("packed-self-es512", .ec2, .es512, "P-521"),
            ("packed-x5c-eddsa-yubikey", .okp, .edDSA, "Ed25519"),
            ("none-rs256-windows-hello", .rsa, .rs256, nil),
            ("packed-self-ps256", .rsa, .ps256, nil),
            ("tpm-rs1-fido-conformance", .rsa, .rs1, nil),
        ] as [(String, COSEKey.KeyType, COSEAlgorithm, String?)])
    func parsesRealKeys(_ vector: String, _ keyType: COSEKey.KeyType, _ algorithm: COSEAlgorithm, _ curve: String?)
        throws
    {
        let key = try Self.key(of: vector)
        #expect(key.keyType == keyType)
        #expect(key.algorithm == algorithm)
        #expect(key.curveName == curve)
        switch key.components {
        case .ec(let c, let x, let y):
            #expect(c.rawValue == curve)
            #expect(x.count == c.coordinateSize && y.count == c.coordinateSize)
        case .ed25519(let x):
            #expect(x.count == 32)
        case .rsa(let n, let e):
            #expect(n.count >= 256)
            #expect(e == [1, 0, 1])
        }
        // `encoded` keeps the exact bytes, and they parse on their own.
        #expect(try COSEKey(bytes: key.encoded) == key)
    }

    @Test func algorithmNamesAndSignatureAlgorithms() {
        let expected: [COSEAlgorithm: (String, SignatureAlgorithmName)] = [
            .es256: ("ES256", .ecdsa256), .es384: ("ES384", .ecdsa384), .es512: ("ES512", .ecdsa512),
            .edDSA: ("EdDSA", .ed25519), .rs256: ("RS256", .pkcs256), .rs384: ("RS384", .pkcs384),
            .rs512: ("RS512", .pkcs512), .ps256: ("PS256", .pss256), .ps384: ("PS384", .pss384),
            .ps512: ("PS512", .pss512), .rs1: ("RS1", .pkcsSHA1),
        ]
        #expect(expected.count == COSEAlgorithm.allCases.count)
        for algorithm in COSEAlgorithm.allCases {
            #expect(algorithm.name == expected[algorithm]?.0)
            #expect(COSEAlgorithm(name: algorithm.name) == algorithm)
            #expect(SignatureAlgorithmName(algorithm.signatureAlgorithm) == expected[algorithm]?.1)
        }
        #expect(COSEAlgorithm(name: "es256") == nil)
    }

    // MARK: - One broken parameter at a time, starting from the valid ES256 key.

    static func mutated(_ change: (inout [CBORMapEntry]) -> Void) throws -> [UInt8] {
        guard case .map(var entries) = try CBORDecoder().decode(es256Key()) else {
            throw ParsingFixtures.FixtureError.missing("map")
        }
        change(&entries)
        return CBOREncoder.encode(.map(entries))
    }

    static func set(_ label: Int, _ value: CBORValue) -> (inout [CBORMapEntry]) -> Void {
        { entries in
            if let index = entries.firstIndex(where: { $0.key == CBORValue(label) }) {
                entries[index].value = value
            } else {
                entries.append(CBORMapEntry(key: CBORValue(label), value: value))
            }
        }
    }

    static func remove(_ label: Int) -> (inout [CBORMapEntry]) -> Void {
        { entries in entries.removeAll { $0.key == CBORValue(label) } }
    }

    static func parseError(_ change: @escaping (inout [CBORMapEntry]) -> Void) throws -> WebAuthnError? {
        let bytes = try mutated(change)
        return ParsingFixtures.error { try COSEKey(bytes: bytes) }
    }

    @Test func theUnmodifiedFixtureParses() throws {
        #expect(try Self.parseError { _ in } == nil)
    }

    @Test func rejectsES256OnP384() throws {
        #expect(
            try Self.parseError(Self.set(-1, CBORValue(2)))
                == WebAuthnError(.algorithm, "COSE key: ES256 requires P-256, the key is on P-384"))
    }

    @Test func rejectsAMissingAlgorithm() throws {
        #expect(try Self.parseError(Self.remove(3)) == WebAuthnError(.malformed, "COSE key: alg (3) is missing"))
    }

    @Test func rejectsAWrongCoordinateLength() throws {
        #expect(
            try Self.parseError(Self.set(-2, .bytes([UInt8](repeating: 1, count: 31))))
                == WebAuthnError(.malformed, "COSE key: x (-2) is 31 bytes; P-256 needs 32"))
        #expect(
            try Self.parseError(Self.set(-3, .bytes([UInt8](repeating: 1, count: 33))))
                == WebAuthnError(.malformed, "COSE key: y (-3) is 33 bytes; P-256 needs 32"))
    }

    @Test func rejectsUnknownAndMismatchedAlgorithmsAndTypes() throws {
        #expect(
            try Self.parseError(Self.set(3, CBORValue(-999)))
                == WebAuthnError(.algorithm, "COSE key: unsupported algorithm -999"))
        #expect(
            try Self.parseError(Self.set(1, CBORValue(4)))
                == WebAuthnError(.algorithm, "COSE key: unsupported key type 4"))
        #expect(
            try Self.parseError(Self.set(3, CBORValue(-8)))
                == WebAuthnError(.algorithm, "COSE key: EdDSA needs kty 1, the key has kty 2"))
        #expect(
            try Self.parseError(Self.set(3, CBORValue(-257)))
                == WebAuthnError(.algorithm, "COSE key: RS256 needs kty 3, the key has kty 2"))
        #expect(
            try Self.parseError(Self.set(-1, CBORValue(8)))
                == WebAuthnError(.algorithm, "COSE key: unsupported EC2 curve 8"))
    }

    @Test func rejectsMissingAndMistypedParameters() throws {
        #expect(try Self.parseError(Self.remove(1)) == WebAuthnError(.malformed, "COSE key: kty (1) is missing"))
        #expect(
            try Self.parseError(Self.set(1, .text("EC2")))
                == WebAuthnError(.malformed, "COSE key: kty (1) is not an integer"))
        #expect(
            try Self.parseError(Self.set(3, .text("ES256")))
                == WebAuthnError(.malformed, "COSE key: alg (3) is not an integer"))
        #expect(try Self.parseError(Self.remove(-1)) == WebAuthnError(.malformed, "COSE key: crv (-1) is missing"))
        #expect(
            try Self.parseError(Self.remove(-2))
                == WebAuthnError(.malformed, "COSE key: x (-2) is missing or not a byte string"))
        #expect(
            try Self.parseError(Self.set(-3, .bool(true)))
                == WebAuthnError(
                    .malformed, "COSE key: y (-3) is missing or not a byte string (compressed points are not allowed)"))
        #expect(
            try Self.parseError(Self.set(-4, .bytes([UInt8](repeating: 7, count: 32))))
                == WebAuthnError(.malformed, "COSE key: carries a private key (-4)"))
        #expect(
            ParsingFixtures.error { try COSEKey(bytes: [0x80]) }
                == WebAuthnError(.malformed, "COSE key: is not a CBOR map"))
    }

    @Test func rejectsBrokenOKPKeys() throws {
        let valid = try Self.key(of: "packed-x5c-eddsa-yubikey").encoded
        guard case .map(let entries) = try CBORDecoder().decode(valid) else {
            Issue.record("not a map")
            return
        }
        func error(_ change: (inout [CBORMapEntry]) -> Void) -> WebAuthnError? {
            var copy = entries
            change(&copy)
            let bytes = CBOREncoder.encode(.map(copy))
            return ParsingFixtures.error { try COSEKey(bytes: bytes) }
        }
        #expect(error { _ in } == nil)
        #expect(error(Self.set(-1, CBORValue(4))) == WebAuthnError(.algorithm, "COSE key: unsupported OKP curve 4"))
        #expect(
            error(Self.set(-2, .bytes([UInt8](repeating: 0, count: 31))))
                == WebAuthnError(.malformed, "COSE key: x (-2) is 31 bytes; Ed25519 needs 32"))
        #expect(
            error(Self.set(3, CBORValue(-7)))
                == WebAuthnError(.algorithm, "COSE key: ES256 needs kty 2, the key has kty 1"))
    }

    @Test func rejectsBrokenRSAKeys() throws {
        let valid = try Self.key(of: "none-rs256-windows-hello").encoded
        guard case .map(let entries) = try CBORDecoder().decode(valid) else {
            Issue.record("not a map")
            return
        }
        func error(_ change: (inout [CBORMapEntry]) -> Void) -> WebAuthnError? {
            var copy = entries
            change(&copy)
            let bytes = CBOREncoder.encode(.map(copy))
            return ParsingFixtures.error { try COSEKey(bytes: bytes) }
        }
        #expect(error { _ in } == nil)
        #expect(
            error(Self.remove(-1))
                == WebAuthnError(.malformed, "COSE key: n (-1) is missing, empty or not a byte string"))
        #expect(
            error(Self.set(-2, .bytes([])))
                == WebAuthnError(.malformed, "COSE key: e (-2) is missing, empty or not a byte string"))
        #expect(
            error(Self.set(-3, .bytes([1]))) == WebAuthnError(.malformed, "COSE key: carries a private key (-3)"))
        #expect(
            error(Self.set(3, CBORValue(-7)))
                == WebAuthnError(.algorithm, "COSE key: ES256 needs kty 2, the key has kty 3"))
    }
}

/// SignatureAlgorithm flattened to a comparable tag, so the table above reads plainly.
enum SignatureAlgorithmName: Hashable {
    case ecdsa256, ecdsa384, ecdsa512, ed25519, pkcs256, pkcs384, pkcs512, pss256, pss384, pss512, pkcsSHA1, other

    init(_ algorithm: SignatureAlgorithm) {
        switch algorithm {
        case .ecdsa(.sha256): self = .ecdsa256
        case .ecdsa(.sha384): self = .ecdsa384
        case .ecdsa(.sha512): self = .ecdsa512
        case .ed25519: self = .ed25519
        case .rsaPKCS1v15(.sha256): self = .pkcs256
        case .rsaPKCS1v15(.sha384): self = .pkcs384
        case .rsaPKCS1v15(.sha512): self = .pkcs512
        case .rsaPKCS1v15(.legacySHA1): self = .pkcsSHA1
        case .rsaPSS(.sha256): self = .pss256
        case .rsaPSS(.sha384): self = .pss384
        case .rsaPSS(.sha512): self = .pss512
        default: self = .other
        }
    }
}

import Testing

@testable import SesameCrypto

/// RFC 6979 appendix A.2.5: the P-256 key pair and the SHA-256 signature of "sample".
enum P256Fixture {
    static let scalar = TestHex.bytes("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")
    static let x = TestHex.bytes("60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6")
    static let y = TestHex.bytes("7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")
    static let sample = Array("sample".utf8)
    static let rawSignature = TestHex.bytes(
        "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
            + "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8")
}

@Suite("EC keys and ECDSA")
struct ECKeyTests {
    @Test("the public point is computed from the scalar (RFC 6979 A.2.5)")
    func publicFromScalar() throws {
        let key = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar)
        #expect(key.type == .ec(.p256))
        #expect(key.publicKey.components == .ec(curve: .p256, x: P256Fixture.x, y: P256Fixture.y))
    }

    @Test("verifies the RFC 6979 known signature in raw and in DER form")
    func knownSignature() throws {
        let key = try PublicKey(components: .ec(curve: .p256, x: P256Fixture.x, y: P256Fixture.y))
        #expect(
            try key.isValidSignature(
                P256Fixture.rawSignature, for: P256Fixture.sample, algorithm: .ecdsa(.sha256), format: .raw))
        let der = try #require(ECDSASignature(raw: P256Fixture.rawSignature, coordinateSize: 32)).der()
        #expect(try key.isValidSignature(der, for: P256Fixture.sample, algorithm: .ecdsa(.sha256)))
        #expect(!(try key.isValidSignature(der, for: Array("samplE".utf8), algorithm: .ecdsa(.sha256))))
    }

    @Test("sign/verify round trip in DER and raw on every curve", arguments: Curve.allCases)
    func roundTrip(curve: Curve) throws {
        let key = try PrivateKey.generate(.ec(curve))
        let message = Array("round trip".utf8)
        for hash in [HashAlgorithm.sha256, .sha384, .sha512] {
            let der = try key.signature(for: message, algorithm: .ecdsa(hash))
            #expect(der.first == 0x30)
            #expect(try key.publicKey.isValidSignature(der, for: message, algorithm: .ecdsa(hash)))
            let raw = try key.signature(for: message, algorithm: .ecdsa(hash), format: .raw)
            #expect(raw.count == 2 * curve.coordinateSize)
            #expect(try key.publicKey.isValidSignature(raw, for: message, algorithm: .ecdsa(hash), format: .raw))
            // The same bytes in the other format are not a valid signature.
            #expect(!(try key.publicKey.isValidSignature(raw, for: message, algorithm: .ecdsa(hash), format: .der)))
        }
    }

    @Test("fixed key: tampered message, tampered signature, wrong hash and malformed bytes are false")
    func tampering() throws {
        let key = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar)
        let message = Array("hello".utf8)
        let der = try key.signature(for: message, algorithm: .ecdsa(.sha256))
        let raw = try key.signature(for: message, algorithm: .ecdsa(.sha256), format: .raw)
        let verifier = key.publicKey
        #expect(try verifier.isValidSignature(der, for: message, algorithm: .ecdsa(.sha256)))
        #expect(!(try verifier.isValidSignature(der, for: Array("hellp".utf8), algorithm: .ecdsa(.sha256))))
        var badDER = der
        badDER[badDER.count - 1] ^= 0x01
        #expect(!(try verifier.isValidSignature(badDER, for: message, algorithm: .ecdsa(.sha256))))
        var badRaw = raw
        badRaw[0] ^= 0x80
        #expect(!(try verifier.isValidSignature(badRaw, for: message, algorithm: .ecdsa(.sha256), format: .raw)))
        #expect(!(try verifier.isValidSignature(der, for: message, algorithm: .ecdsa(.sha384))))
        #expect(!(try verifier.isValidSignature([], for: message, algorithm: .ecdsa(.sha256))))
        #expect(!(try verifier.isValidSignature([0x30, 0x02, 0x02], for: message, algorithm: .ecdsa(.sha256))))
        #expect(!(try verifier.isValidSignature(der + [0], for: message, algorithm: .ecdsa(.sha256))))
        #expect(
            !(try verifier.isValidSignature(
                Array(raw.dropLast()), for: message, algorithm: .ecdsa(.sha256), format: .raw)))
        #expect(
            !(try verifier.isValidSignature(
                [UInt8](repeating: 0, count: 64), for: message,
                algorithm: .ecdsa(.sha256), format: .raw)))
    }

    @Test("an algorithm that does not fit an EC key throws unsupportedAlgorithm")
    func wrongAlgorithm() throws {
        let key = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar)
        let der = try key.signature(for: [1], algorithm: .ecdsa(.sha256))
        #expect(throws: CryptoError.unsupportedAlgorithm("Ed25519 does not fit an EC P-256 key")) {
            try key.publicKey.isValidSignature(der, for: [1], algorithm: .ed25519)
        }
        #expect {
            try key.publicKey.isValidSignature(der, for: [1], algorithm: .rsaPKCS1v15(.sha256))
        } throws: { error in
            if case .unsupportedAlgorithm = error as? CryptoError { return true }
            return false
        }
        #expect {
            try key.signature(for: [1], algorithm: .rsaPSS(.sha256))
        } throws: { error in
            if case .unsupportedAlgorithm = error as? CryptoError { return true }
            return false
        }
    }

    @Test("legacy SHA-1 ECDSA verifies but is refused for signing")
    func legacySHA1() throws {
        let key = try PrivateKey(curve: .p256, scalar: P256Fixture.scalar)
        #expect(throws: CryptoError.unsupportedAlgorithm("SHA-1 is only for verifying legacy signatures")) {
            try key.signature(for: [1], algorithm: .ecdsa(.legacySHA1))
        }
    }

    @Test("a point off the curve is rejected (y changed by one)")
    func pointNotOnCurve() throws {
        var y = P256Fixture.y
        y[31] ^= 0x01
        #expect {
            try PublicKey(components: .ec(curve: .p256, x: P256Fixture.x, y: y))
        } throws: { error in
            if case .invalidKey = error as? CryptoError { return true }
            return false
        }
        #expect {
            try PublicKey(curve: .p256, uncompressedPoint: [0x04] + P256Fixture.x + y)
        } throws: { error in
            if case .invalidKey = error as? CryptoError { return true }
            return false
        }
    }

    @Test("wrong coordinate sizes and a bad point prefix are rejected")
    func coordinateSizes() throws {
        #expect(throws: CryptoError.invalidKey("P-256 coordinates are 32 bytes")) {
            try PublicKey(components: .ec(curve: .p256, x: [0] + P256Fixture.x, y: P256Fixture.y))
        }
        #expect(throws: CryptoError.invalidKey("P-384 coordinates are 48 bytes")) {
            try PublicKey(components: .ec(curve: .p384, x: P256Fixture.x, y: P256Fixture.y))
        }
        #expect(throws: CryptoError.invalidKey("an uncompressed P-256 point is 0x04 ‖ x ‖ y")) {
            try PublicKey(curve: .p256, uncompressedPoint: [0x02] + P256Fixture.x + P256Fixture.y)
        }
        let point = try PublicKey(curve: .p256, uncompressedPoint: [0x04] + P256Fixture.x + P256Fixture.y)
        #expect(point.components == .ec(curve: .p256, x: P256Fixture.x, y: P256Fixture.y))
    }

    @Test("scalars of the wrong size, zero, or not below the order are rejected")
    func scalarRange() throws {
        #expect(throws: CryptoError.invalidKey("a P-256 scalar is 32 bytes")) {
            try PrivateKey(curve: .p256, scalar: Array(P256Fixture.scalar.dropFirst()))
        }
        #expect(throws: CryptoError.invalidKey("the P-256 scalar is out of range")) {
            try PrivateKey(curve: .p256, scalar: [UInt8](repeating: 0, count: 32))
        }
        let order = TestHex.bytes("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
        #expect(throws: CryptoError.invalidKey("the P-256 scalar is out of range")) {
            try PrivateKey(curve: .p256, scalar: order)
        }
    }
}

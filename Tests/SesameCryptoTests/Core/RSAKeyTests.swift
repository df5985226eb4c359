import Testing

@testable import SesameCrypto

/// One RSA-2048 key generated per test process (generation is the slow part).
enum RSAFixture {
    static let key: PrivateKey? = try? PrivateKey.generate(.rsa(bits: 2048))
}

@Suite("RSA")
struct RSAKeyTests {
    let message = Array("an RSA message".utf8)

    @Test("PKCS#1 v1.5 round trip with SHA-256/384/512 and legacy SHA-1 verification")
    func pkcs1() throws {
        let key = try #require(RSAFixture.key)
        #expect(key.type == .rsa(bits: 2048))
        for hash in [HashAlgorithm.sha256, .sha384, .sha512] {
            let signature = try key.signature(for: message, algorithm: .rsaPKCS1v15(hash))
            #expect(signature.count == 256)
            #expect(try key.publicKey.isValidSignature(signature, for: message, algorithm: .rsaPKCS1v15(hash)))
            #expect(!(try key.publicKey.isValidSignature(signature, for: message, algorithm: .rsaPSS(hash))))
        }
        #expect(throws: CryptoError.unsupportedAlgorithm("SHA-1 is only for verifying legacy signatures")) {
            try key.signature(for: message, algorithm: .rsaPKCS1v15(.legacySHA1))
        }
    }

    @Test("PSS round trip; signatures are randomised; salt is the hash length")
    func pss() throws {
        let key = try #require(RSAFixture.key)
        for hash in [HashAlgorithm.sha256, .sha384, .sha512] {
            let first = try key.signature(for: message, algorithm: .rsaPSS(hash))
            let second = try key.signature(for: message, algorithm: .rsaPSS(hash))
            #expect(first != second)
            #expect(try key.publicKey.isValidSignature(first, for: message, algorithm: .rsaPSS(hash)))
            #expect(!(try key.publicKey.isValidSignature(first, for: message, algorithm: .rsaPKCS1v15(hash))))
        }
        #expect(throws: CryptoError.unsupportedAlgorithm("RSA-PSS with SHA-1 is not supported")) {
            try key.publicKey.isValidSignature([], for: message, algorithm: .rsaPSS(.legacySHA1))
        }
    }

    @Test("tampered message, tampered or truncated signature are false")
    func tampering() throws {
        let key = try #require(RSAFixture.key)
        let signature = try key.signature(for: message, algorithm: .rsaPKCS1v15(.sha256))
        var flipped = signature
        flipped[100] ^= 0x01
        #expect(!(try key.publicKey.isValidSignature(flipped, for: message, algorithm: .rsaPKCS1v15(.sha256))))
        #expect(!(try key.publicKey.isValidSignature(signature, for: message + [0], algorithm: .rsaPKCS1v15(.sha256))))
        #expect(
            !(try key.publicKey.isValidSignature(
                Array(signature.dropFirst()), for: message,
                algorithm: .rsaPKCS1v15(.sha256))))
        #expect(!(try key.publicKey.isValidSignature([], for: message, algorithm: .rsaPSS(.sha256))))
    }

    @Test("ECDSA and Ed25519 on an RSA key throw unsupportedAlgorithm")
    func wrongAlgorithm() throws {
        let key = try #require(RSAFixture.key)
        #expect(throws: CryptoError.unsupportedAlgorithm("Ed25519 does not fit an RSA-2048 key")) {
            try key.signature(for: message, algorithm: .ed25519)
        }
        #expect(throws: CryptoError.unsupportedAlgorithm("ECDSA with SHA-256 does not fit an RSA-2048 key")) {
            try key.publicKey.isValidSignature([], for: message, algorithm: .ecdsa(.sha256))
        }
    }

    @Test("key sizes and exponents outside the accepted ranges are rejected")
    func sizes() throws {
        #expect(throws: CryptoError.invalidInput("RSA keys are 2048–4096 bits, a multiple of 8")) {
            try PrivateKey.generate(.rsa(bits: 1024))
        }
        let key = try #require(RSAFixture.key)
        guard case .rsa(let modulus, let exponent) = key.publicKey.components else {
            Issue.record("not RSA components")
            return
        }
        #expect(exponent == [0x01, 0x00, 0x01])
        // A leading zero byte is accepted and normalised away.
        let padded = try PublicKey(components: .rsa(modulus: [0] + modulus, exponent: exponent))
        #expect(padded.components == key.publicKey.components)
        #expect(throws: CryptoError.invalidKey("RSA modulus of 1024 bits is outside 2048...8192")) {
            try PublicKey(components: .rsa(modulus: Array(modulus.prefix(128)), exponent: exponent))
        }
        let exponentError = CryptoError.invalidKey("RSA public exponent must be odd, at least 3 and at most 64 bits")
        #expect(throws: exponentError) { try PublicKey(components: .rsa(modulus: modulus, exponent: [0x01])) }
        #expect(throws: exponentError) { try PublicKey(components: .rsa(modulus: modulus, exponent: [0x01, 0x00])) }
        #expect(throws: exponentError) {
            try PublicKey(components: .rsa(modulus: modulus, exponent: [UInt8](repeating: 0xff, count: 9)))
        }
        var even = modulus
        even[even.count - 1] &= 0xfe
        #expect(throws: CryptoError.invalidKey("RSA modulus is even")) {
            try PublicKey(components: .rsa(modulus: even, exponent: exponent))
        }
    }
}

import Testing

@testable import SesameCrypto

/// RFC 8032 §7.1 TEST 1 (empty message).
enum Ed25519Fixture {
    static let seed = TestHex.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    static let publicKey = TestHex.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    static let signature = TestHex.bytes(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
            + "d25bf5f0595bbe24655141438e7a100b")
}

@Suite("Ed25519")
struct Ed25519Tests {
    @Test("RFC 8032 test 1: public key from seed, deterministic signature, verification")
    func rfc8032() throws {
        let key = try PrivateKey(ed25519Seed: Ed25519Fixture.seed)
        #expect(key.type == .ed25519)
        #expect(key.publicKey.components == .ed25519(Ed25519Fixture.publicKey))
        #expect(try key.signature(for: [], algorithm: .ed25519) == Ed25519Fixture.signature)
        let verifier = try PublicKey(components: .ed25519(Ed25519Fixture.publicKey))
        #expect(try verifier.isValidSignature(Ed25519Fixture.signature, for: [], algorithm: .ed25519))
    }

    @Test("tampered message or signature, and wrong lengths, are false")
    func tampering() throws {
        let verifier = try PublicKey(components: .ed25519(Ed25519Fixture.publicKey))
        #expect(!(try verifier.isValidSignature(Ed25519Fixture.signature, for: [0], algorithm: .ed25519)))
        var flipped = Ed25519Fixture.signature
        flipped[10] ^= 0x04
        #expect(!(try verifier.isValidSignature(flipped, for: [], algorithm: .ed25519)))
        #expect(
            !(try verifier.isValidSignature(Array(Ed25519Fixture.signature.dropLast()), for: [], algorithm: .ed25519)))
        #expect(!(try verifier.isValidSignature([], for: [], algorithm: .ed25519)))
    }

    @Test("ECDSA or RSA algorithms on an Ed25519 key throw unsupportedAlgorithm")
    func wrongAlgorithm() throws {
        let verifier = try PublicKey(components: .ed25519(Ed25519Fixture.publicKey))
        #expect(throws: CryptoError.unsupportedAlgorithm("ECDSA with SHA-256 does not fit an Ed25519 key")) {
            try verifier.isValidSignature(Ed25519Fixture.signature, for: [], algorithm: .ecdsa(.sha256))
        }
        #expect(throws: CryptoError.unsupportedAlgorithm("RSA-PSS with SHA-256 does not fit an Ed25519 key")) {
            try verifier.isValidSignature(Ed25519Fixture.signature, for: [], algorithm: .rsaPSS(.sha256))
        }
    }

    @Test("keys of the wrong length are rejected")
    func lengths() {
        #expect(throws: CryptoError.invalidKey("an Ed25519 public key is 32 bytes")) {
            try PublicKey(components: .ed25519(Array(Ed25519Fixture.publicKey.dropLast())))
        }
        #expect(throws: CryptoError.invalidKey("an Ed25519 seed is 32 bytes")) {
            try PrivateKey(ed25519Seed: Ed25519Fixture.seed + [0])
        }
    }

    @Test("generated keys sign and verify")
    func generated() throws {
        let key = try PrivateKey.generate(.ed25519)
        let signature = try key.signature(for: [1, 2, 3], algorithm: .ed25519)
        #expect(signature.count == 64)
        #expect(try key.publicKey.isValidSignature(signature, for: [1, 2, 3], algorithm: .ed25519))
    }
}

import Testing

@testable import SesameCrypto

@Suite("AES-256-GCM")
struct AES256GCMTests {
    let key = [UInt8](repeating: 0x42, count: 32)
    let plaintext = Array("attack at dawn".utf8)
    let aad = Array("tenant-1".utf8)

    @Test("seal then open returns the plaintext; layout is nonce ‖ ciphertext ‖ tag")
    func roundTrip() throws {
        let sealed = try AES256GCM.seal(plaintext, key: key, associatedData: aad)
        #expect(sealed.count == 12 + plaintext.count + 16)
        #expect(try AES256GCM.open(sealed, key: key, associatedData: aad) == plaintext)
        let empty = try AES256GCM.seal([], key: key)
        #expect(empty.count == 28)
        #expect(try AES256GCM.open(empty, key: key) == [])
    }

    @Test("NIST GCM test case 14 (zero key, zero nonce, one zero block)")
    func knownAnswer() throws {
        // McGrew & Viega GCM spec, test case 14: K = 0^256, IV = 0^96, P = 0^128.
        struct ZeroNonce: RandomSource {
            func bytes(count: Int) throws -> [UInt8] { [UInt8](repeating: 0, count: count) }
        }
        let sealed = try AES256GCM.seal(
            [UInt8](repeating: 0, count: 16), key: [UInt8](repeating: 0, count: 32), random: ZeroNonce())
        #expect(
            TestHex.string(Array(sealed.dropFirst(12)))
                == "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919")
    }

    @Test("tampering with nonce, ciphertext or tag, or a wrong AAD or key, fails authentication")
    func tampering() throws {
        let sealed = try AES256GCM.seal(plaintext, key: key, associatedData: aad, random: DeterministicRandom(seed: 1))
        for index in [0, 11, 12, 12 + plaintext.count - 1, sealed.count - 16, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: CryptoError.authenticationFailed) {
                try AES256GCM.open(tampered, key: key, associatedData: aad)
            }
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AES256GCM.open(sealed, key: key, associatedData: Array("tenant-2".utf8))
        }
        #expect(throws: CryptoError.authenticationFailed) { try AES256GCM.open(sealed, key: key) }
        var otherKey = key
        otherKey[0] = 0
        #expect(throws: CryptoError.authenticationFailed) {
            try AES256GCM.open(sealed, key: otherKey, associatedData: aad)
        }
    }

    @Test("short input and wrong key sizes are invalidInput")
    func sizes() throws {
        #expect(throws: CryptoError.invalidInput("sealed data is shorter than nonce and tag")) {
            try AES256GCM.open([UInt8](repeating: 0, count: 27), key: key)
        }
        #expect(throws: CryptoError.invalidInput("an AES-256 key is 32 bytes")) {
            try AES256GCM.seal(plaintext, key: Array(key.prefix(16)))
        }
        #expect(throws: CryptoError.invalidInput("an AES-256 key is 32 bytes")) {
            try AES256GCM.open([UInt8](repeating: 0, count: 40), key: key + [0])
        }
    }
}

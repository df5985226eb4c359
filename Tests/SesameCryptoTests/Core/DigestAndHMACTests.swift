import Foundation
import Testing

@testable import SesameCrypto

@Suite("Digests and HMAC")
struct DigestAndHMACTests {
    let abc = Array("abc".utf8)

    @Test("SHA-256/384/512 and SHA-1 of \"abc\" (FIPS 180-2 examples)")
    func knownDigests() {
        #expect(
            TestHex.string(Digest.sha256(abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            TestHex.string(Digest.sha384(abc))
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(
            TestHex.string(Digest.sha512(abc))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
                + "454d4423643ce80e2a9ac94fa54ca49f")
        #expect(TestHex.string(Digest.legacySHA1(abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Digest.hash(abc, with: .sha256) == Digest.sha256(abc))
    }

    @Test("digest of empty input")
    func emptyDigest() {
        #expect(
            TestHex.string(Digest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    // RFC 4231 test case 2.
    let key = Array("Jefe".utf8)
    let message = Array("what do ya want for nothing?".utf8)
    let expected256 = TestHex.bytes("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")

    @Test("RFC 4231 test case 2, HMAC-SHA-256 and HMAC-SHA-512")
    func rfc4231() {
        #expect(HMAC.authenticationCode(for: message, key: key) == expected256)
        #expect(
            TestHex.string(HMAC.authenticationCode(for: message, key: key, hash: .sha512))
                == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fd"
                + "caeab1a34d4a6b4b636e070a38bce737")
    }

    @Test("isValid accepts the right MAC and rejects one flipped bit, a truncation and a wrong key")
    func isValid() {
        #expect(HMAC.isValid(expected256, for: message, key: key))
        var flipped = expected256
        flipped[31] ^= 0x01
        #expect(!HMAC.isValid(flipped, for: message, key: key))
        #expect(!HMAC.isValid(Array(expected256.prefix(16)), for: message, key: key))
        #expect(!HMAC.isValid([], for: message, key: key))
        #expect(!HMAC.isValid(expected256, for: message, key: Array("Jeff".utf8)))
    }

    @Test("constantTimeEquals: equal, different content, different length")
    func constantTime() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(constantTimeEquals([], []))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(!constantTimeEquals([], [0]))
    }
}

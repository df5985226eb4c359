import Testing

@testable import SesameCrypto

@Suite("Strict base64 (internal)")
struct Base64Tests {
    @Test("RFC 4648 vectors round-trip unpadded in both alphabets")
    func vectors() {
        let cases: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in cases {
            #expect(Base64.encode(Array(plain.utf8), alphabet: .url) == encoded)
            #expect(Base64.decode(encoded, alphabet: .url) == Array(plain.utf8))
        }
        #expect(Base64.encode([0xfb, 0xff], alphabet: .url) == "-_8")
        #expect(Base64.encode([0xfb, 0xff], alphabet: .standard) == "+/8")
        #expect(Base64.decode("-_8", alphabet: .url) == [0xfb, 0xff])
    }

    @Test("rejects padding, whitespace, the wrong alphabet, impossible length and stray bits")
    func strict() {
        #expect(Base64.decode("Zg==", alphabet: .url) == nil)
        #expect(Base64.decode("Zm9v ", alphabet: .url) == nil)
        #expect(Base64.decode("+/8", alphabet: .url) == nil)
        #expect(Base64.decode("-_8", alphabet: .standard) == nil)
        #expect(Base64.decode("Zm9vY", alphabet: .url) == nil)
        #expect(Base64.decode("Zh", alphabet: .url) == nil)
    }
}

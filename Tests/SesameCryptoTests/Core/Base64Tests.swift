import Testing

@testable import SesameCrypto

@Suite("Base64 over libcrypto")
struct Base64Tests {
    @Test("RFC 4648 vectors round-trip unpadded in both alphabets")
    func vectors() throws {
        let cases: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in cases {
            #expect(Base64.encode(Array(plain.utf8), alphabet: .url) == encoded)
            #expect(try Base64.decode(encoded, alphabet: .url) == Array(plain.utf8))
        }
        #expect(Base64.encode([0xfb, 0xff], alphabet: .url) == "-_8")
        #expect(Base64.encode([0xfb, 0xff], alphabet: .standard) == "+/8")
        #expect(try Base64.decode("-_8", alphabet: .url) == [0xfb, 0xff])
    }

    @Test("rejects padding, whitespace, the wrong alphabet, impossible length and stray bits, saying which")
    func strict() {
        #expect(throws: Base64.Failure.padding(found: 2, expected: 0)) { try Base64.decode("Zg==", alphabet: .url) }
        #expect(throws: Base64.Failure.character(0x20, offset: 2, alphabet: .url)) {
            try Base64.decode("Zm 9", alphabet: .url)
        }
        #expect(throws: Base64.Failure.character(UInt8(ascii: "+"), offset: 0, alphabet: .url)) {
            try Base64.decode("+/8", alphabet: .url)
        }
        #expect(throws: Base64.Failure.character(UInt8(ascii: "-"), offset: 0, alphabet: .standard)) {
            try Base64.decode("-_8", alphabet: .standard)
        }
        #expect(throws: Base64.Failure.impossibleLength(characters: 5)) { try Base64.decode("Zm9vY", alphabet: .url) }
        #expect(throws: Base64.Failure.unusedBits) { try Base64.decode("Zh", alphabet: .url) }
    }

    @Test("optional padding takes exactly the padding that belongs; unused bits may be ignored")
    func lenientForms() throws {
        #expect(try Base64.decode("Zg==", alphabet: .url, padding: .optional) == Array("f".utf8))
        #expect(try Base64.decode("Zm8=", alphabet: .url, padding: .optional) == Array("fo".utf8))
        #expect(throws: Base64.Failure.padding(found: 1, expected: 2)) {
            try Base64.decode("Zg=", alphabet: .url, padding: .optional)
        }
        #expect(try Base64.decode("Zh", alphabet: .url, unusedBits: .ignored) == Array("f".utf8))
        #expect(Base64.Failure.unusedBits.description == "non-zero unused bits in the last character")
    }

    @Test("another system's standard base64: any trailing padding and the unused bits are let go; the rest is checked")
    func standardFromOtherSystems() {
        #expect(Base64.decodeStandard("Zg==") == Array("f".utf8))
        #expect(Base64.decodeStandard("Zg=") == Array("f".utf8))  // passlib's unpadded value with one "="
        #expect(Base64.decodeStandard("Zh") == Array("f".utf8))
        #expect(Base64.decodeStandard("+/8=") == [0xFB, 0xFF])
        #expect(Base64.decodeStandard("-_8") == nil)
        #expect(Base64.decodeStandard("Zm9vY") == nil)
        #expect(Base64.decodeStandard("Zg==Zg") == nil)
        #expect(Base64.encodePadded(Array("f".utf8)) == "Zg==")
        #expect(Base64.encodePadded(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.encodePadded(Array("foo".utf8)) == "Zm9v")
        #expect(Base64.encodePadded([]) == "")
    }
}

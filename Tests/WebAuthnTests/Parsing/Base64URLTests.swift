import Foundation
import Testing
import WebAuthn

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648 §10 test vectors (unpadded, as base64url writes them).
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test func encodesRFC4648Vectors() {
        for (plain, encoded) in Self.rfc4648 {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        }
    }

    @Test func decodesRFC4648VectorsWithAndWithoutPadding() throws {
        for (plain, encoded) in Self.rfc4648 {
            #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            #expect(try Base64URL.decode(padded) == Array(plain.utf8))
            #expect(try Base64URL.decode(Array(padded.utf8)) == Array(plain.utf8))
        }
    }

    @Test func usesTheURLSafeAlphabet() throws {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
        #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
        #expect(try Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test func roundTripsSeededRandomBytesAndMatchesFoundation() throws {
        var random = SeededRandom(seed: 0x5E5A_3E00_0000_0001)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let encoded = Base64URL.encode(bytes)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation)
            #expect(try Base64URL.decode(encoded) == bytes)
        }
    }

    @Test func decodesFromANonContiguousCollection() throws {
        let lazy = "Zm9vYmFy".utf8.lazy.map { $0 }
        #expect(try Base64URL.decode(lazy) == Array("foobar".utf8))
    }

    @Test func canIgnoreTrailingBitsWhenAsked() throws {
        #expect(try Base64URL.decodeIgnoringTrailingBits("Zh") == [0x66])
        #expect(try Base64URL.decodeIgnoringTrailingBits("Zm9") == [0x66, 0x6F])
        #expect(try Base64URL.decodeIgnoringTrailingBits("Zm8=") == [0x66, 0x6F])
        #expect(
            ParsingFixtures.error { try Base64URL.decodeIgnoringTrailingBits("Zm+8") }
                == WebAuthnError(.malformed, "base64url: '+' at offset 2 is not in the url-safe alphabet"))
        #expect(
            ParsingFixtures.error { try Base64URL.decodeIgnoringTrailingBits("Z") }
                == WebAuthnError(.malformed, "base64url: impossible length (1 characters leave 6 stray bits)"))
    }

    @Test(arguments: [
        ("Zg=", "base64url: 1 padding characters where 2 belong"),
        ("Zm8==", "base64url: 2 padding characters where 1 belong"),
        ("Zm9v=", "base64url: 1 padding characters where 0 belong"),
        ("Zm9v====", "base64url: 4 padding characters where 0 belong"),
        ("====", "base64url: 4 padding characters where 0 belong"),
        ("Z", "base64url: impossible length (1 characters leave 6 stray bits)"),
        ("Zm9vY", "base64url: impossible length (5 characters leave 6 stray bits)"),
        ("Zm9vY===", "base64url: impossible length (5 characters leave 6 stray bits)"),
        ("Zh", "base64url: non-zero unused bits in the last character"),
        ("Zm9", "base64url: non-zero unused bits in the last character"),
        ("Zh==", "base64url: non-zero unused bits in the last character"),
        ("+/8", "base64url: '+' at offset 0 is not in the url-safe alphabet"),
        ("Zm9v+A", "base64url: '+' at offset 4 is not in the url-safe alphabet"),
        ("Zm9v/w", "base64url: '/' at offset 4 is not in the url-safe alphabet"),
        ("Zm 8", "base64url: byte 0x20 at offset 2 is not in the url-safe alphabet"),
        ("Zm\n8", "base64url: byte 0xa at offset 2 is not in the url-safe alphabet"),
        (" Zm8", "base64url: byte 0x20 at offset 0 is not in the url-safe alphabet"),
        ("Zg=a", "base64url: '=' at offset 2 is not in the url-safe alphabet"),
        ("Zm9vZ=8", "base64url: '=' at offset 5 is not in the url-safe alphabet"),
        ("Zm\u{E9}", "base64url: byte 0xc3 at offset 2 is not in the url-safe alphabet"),
        ("Zm8.", "base64url: '.' at offset 3 is not in the url-safe alphabet"),
    ])
    func rejects(_ input: String, _ message: String) {
        #expect(ParsingFixtures.error { try Base64URL.decode(input) } == WebAuthnError(.malformed, message))
    }
}

/// SplitMix64: a seeded generator so property runs are reproducible.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

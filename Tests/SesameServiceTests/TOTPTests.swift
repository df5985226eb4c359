import Foundation
import Testing

@testable import SesameService

@Suite("TOTP (RFC 6238) and base32")
struct TOTPTests {
    /// RFC 6238 appendix B, the SHA-1 rows: the ASCII secret "12345678901234567890", 8 digits.
    @Test(arguments: [
        (59.0, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
        (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238AppendixB(_ time: Double, _ expected: String) {
        let secret = Array("12345678901234567890".utf8)
        let step = TOTP.step(at: Date(timeIntervalSince1970: time))
        #expect(TOTP.code(secret: secret, counter: step, digits: 8) == expected)
    }

    /// RFC 4226 appendix D: HOTP of the same secret, counters 0 to 9, 6 digits.
    @Test func rfc4226AppendixD() {
        let secret = Array("12345678901234567890".utf8)
        let expected = [
            "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489",
        ]
        #expect((0..<10).map { TOTP.code(secret: secret, counter: Int64($0)) } == expected)
    }

    @Test func theWindowIsOneStepEachWay() {
        let secret = Array("12345678901234567890".utf8)
        let now = Date(timeIntervalSince1970: 1_800_000_015)
        let step = TOTP.step(at: now)
        for offset: Int64 in [-1, 0, 1] {
            let code = TOTP.code(secret: secret, counter: step + offset)
            #expect(TOTP.matchingStep(code: code, secret: secret, at: now) == step + offset)
        }
        for offset: Int64 in [-2, 2] {
            let code = TOTP.code(secret: secret, counter: step + offset)
            #expect(TOTP.matchingStep(code: code, secret: secret, at: now) == nil)
        }
        #expect(TOTP.matchingStep(code: "12345", secret: secret, at: now) == nil)
        #expect(TOTP.matchingStep(code: "12345a", secret: secret, at: now) == nil)
        #expect(TOTP.matchingStep(code: "１２３４５６", secret: secret, at: now) == nil)
    }

    /// RFC 4648 §10.
    @Test(arguments: [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI"),
    ])
    func base32(_ text: String, _ encoded: String) {
        #expect(Base32.encode(Array(text.utf8)) == encoded)
        #expect(Base32.decode(encoded) == Array(text.utf8))
        #expect(Base32.decode(encoded.lowercased() + "===") == Array(text.utf8))
    }

    @Test func theKeyURI() {
        let uri = TOTP.uri(
            secret: Array("12345678901234567890".utf8), issuer: "login.example.com", account: "ada@example.com")
        #expect(
            uri
                == "otpauth://totp/login.example.com:ada@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                + "&issuer=login.example.com&algorithm=SHA1&digits=6&period=30")
        #expect(Base32.decode("not base32!") == nil)
    }
}

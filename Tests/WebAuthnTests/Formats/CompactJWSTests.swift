import Testing
import WebAuthn

/// Compact JWS splitting (RFC 7515 §7.1) as the SafetyNet verifier uses it.
@Suite("Compact JWS")
struct CompactJWSTests {
    // {"alg":"ES256"} . {"a":1} . 0x01 0x02 0x03
    static let valid = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.AQID"

    static func code(_ text: String) -> WebAuthnError.Code? {
        FormatTestSupport.error { _ = try CompactJWS(compact: Array(text.utf8)) }?.code
    }

    @Test func splitsAndDecodes() throws {
        let jws = try CompactJWS(compact: Array(Self.valid.utf8))
        #expect(jws.header == Array(#"{"alg":"ES256"}"#.utf8))
        #expect(jws.payload == Array(#"{"a":1}"#.utf8))
        #expect(jws.signature == [1, 2, 3])
        #expect(jws.signingInput == Array("eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ".utf8))
    }

    @Test(arguments: [
        "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ",  // two parts
        "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.AQID.AQID",  // four parts
        ".eyJhIjoxfQ.AQID",  // empty header
        "eyJhbGciOiJFUzI1NiJ9..AQID",  // empty payload
        "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.",  // empty signature
        "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.AQI=",  // padded
        "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.AQ+D",  // standard base64, not base64url
        "",
    ])
    func rejects(_ text: String) {
        #expect(Self.code(text) == .malformed)
    }
}

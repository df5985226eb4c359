import SesameCrypto
import SesameService
import Testing
import WebAuthn

@Suite("JWK thumbprints (RFC 7638)")
struct JWKThumbprintTests {
    @Test("the RSA example of RFC 7638 §3.1")
    func rfcExample() throws {
        let n =
            "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
        let key = try PublicKey(jwk: JWK(kty: "RSA", n: n, e: "AQAB", kid: "2011-04-29", alg: "RS256"))
        #expect(JWKThumbprint.canonicalJSON(key.components) == #"{"e":"AQAB","kty":"RSA","n":"\#(n)"}"#)
        #expect(JWKThumbprint.keyID(for: key) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test("EC and OKP members are hashed in lexicographic order")
    func ecAndOKP() throws {
        let ec = try PrivateKey.generate(.ec(.p256)).publicKey
        let jwk = ec.jwk
        let expected = #"{"crv":"P-256","kty":"EC","x":"\#(jwk.x ?? "")","y":"\#(jwk.y ?? "")"}"#
        #expect(JWKThumbprint.canonicalJSON(ec.components) == expected)
        #expect(JWKThumbprint.keyID(for: ec) == Base64URL.encode(Digest.sha256(Array(expected.utf8))))
        let ed = try PrivateKey.generate(.ed25519).publicKey
        #expect(
            JWKThumbprint.canonicalJSON(ed.components) == #"{"crv":"Ed25519","kty":"OKP","x":"\#(ed.jwk.x ?? "")"}"#)
    }
}

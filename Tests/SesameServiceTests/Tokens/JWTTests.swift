import Foundation
import SesameCrypto
import SesameService
import SesameStore
import Testing
import WebAuthn

@Suite("JWT signing and verification")
struct JWTTests {
    typealias F = TokenFixtures

    @Test("round trip", arguments: JWTAlgorithm.allCases)
    func roundTrip(algorithm: JWTAlgorithm) throws {
        let (signer, key) = try F.keyPair(algorithm)
        let token = try signer.sign(F.claims(), type: .accessToken)
        let verified = try JWTVerifier(keys: [key]).verify(token, expecting: F.expectations())
        #expect(verified.claims == F.claims())
        #expect(verified.algorithm == algorithm)
        #expect(verified.keyID == key.keyID)
        #expect(verified.type == "at+jwt")
        #expect(verified.subject == "sesame|abc")
        #expect(verified.audiences == [F.audience])
        #expect(verified.scopes == ["openid", "profile"])
        #expect(verified.expiresAt == F.start.addingTimeInterval(3600))
    }

    @Test("header is alg, kid, typ in sorted order; claims are sorted with slashes unescaped")
    func encoding() throws {
        let (signer, key) = try F.keyPair(.es256)
        let token = try signer.sign(F.claims(), type: .idToken)
        let parts = try F.parts(token)
        try #require(parts.count == 3)
        #expect(String(decoding: parts[0], as: UTF8.self) == #"{"alg":"ES256","kid":"\#(key.keyID)","typ":"JWT"}"#)
        let payload = String(decoding: parts[1], as: UTF8.self)
        #expect(payload.hasPrefix(#"{"aud":"client-123","client_id":"client-123","exp":1800003600,"iat":1800000000,"#))
        #expect(payload.contains(#""iss":"https://login.example.com/""#))
        #expect(parts[2].count == 64)  // raw r ‖ s
    }

    @Test("signature sizes: RS256 is the modulus size, EdDSA 64 bytes")
    func signatureSizes() throws {
        let rsa = try F.parts(try F.keyPair(.rs256).signer.sign(F.claims(), type: .idToken))
        let ed = try F.parts(try F.keyPair(.edDSA).signer.sign(F.claims(), type: .idToken))
        #expect(rsa.last?.count == 256)
        #expect(ed.last?.count == 64)
    }

    @Test("Codable claims sign the same JSON as the dictionary form")
    func codableClaims() throws {
        struct IDClaims: Codable, Equatable {
            var iss: String
            var sub: String
            var aud: String
            var iat: Int
            var exp: Int
            var amr: [String]
            var email_verified: Bool
        }
        let (signer, key) = try F.keyPair(.edDSA)
        let claims = IDClaims(
            iss: F.issuer, sub: "sesame|abc", aud: F.audience, iat: 1_800_000_000, exp: 1_800_036_000,
            amr: ["pop", "hwk", "user"], email_verified: true)
        let token = try signer.sign(claims: claims, type: .idToken)
        let verified = try JWTVerifier(keys: [key]).verify(token, expecting: F.expectations(type: .idToken))
        #expect(try verified.decode(IDClaims.self) == claims)
        #expect(verified.claims["amr"] == .strings(["pop", "hwk", "user"]))
        #expect(verified.claims["email_verified"] == .bool(true))
    }

    @Test("nested objects and arrays survive a round trip")
    func nestedClaims() throws {
        let (signer, key) = try F.keyPair(.es256)
        var claims = F.claims()
        claims["https://example.com/meta"] = .object(["plan": "pro", "seats": 3, "tags": .strings(["a", "b"])])
        let token = try signer.sign(claims, type: .accessToken)
        let verified = try JWTVerifier(keys: [key]).verify(token, expecting: F.expectations())
        #expect(verified.claims == claims)
    }

    @Test("a signer refuses a key that does not fit its algorithm")
    func signerKeyFit() throws {
        let p384 = try PrivateKey.generate(.ec(.p384))
        #expect(throws: CryptoError.unsupportedAlgorithm("ES256 does not fit this key")) {
            try JWTSigner(privateKey: p384, algorithm: .es256, keyID: "k")
        }
    }

    // MARK: Tampering

    @Test("a changed payload is rejected", arguments: JWTAlgorithm.allCases)
    func tamperedPayload(algorithm: JWTAlgorithm) throws {
        let (signer, key) = try F.keyPair(algorithm)
        let token = try signer.sign(F.claims(), type: .accessToken)
        var claims = F.claims()
        claims["sub"] = "sesame|someone-else"
        let pieces = token.split(separator: ".").map(String.init)
        let forged = [pieces[0], Base64URL.encode(try F.json(claims)), pieces[2]].joined(separator: ".")
        #expect(throws: JWTError.invalidSignature) {
            try JWTVerifier(keys: [key]).verify(forged, expecting: F.expectations())
        }
    }

    @Test("a changed header is rejected")
    func tamperedHeader() throws {
        let (signer, key) = try F.keyPair(.es256)
        let token = try signer.sign(F.claims(), type: .idToken)
        // Relabel an id token as an access token: the header is signed, so this must fail.
        let header = try F.json(["alg": "ES256", "kid": .string(key.keyID), "typ": "at+jwt"])
        let pieces = token.split(separator: ".").map(String.init)
        let forged = [Base64URL.encode(header), pieces[1], pieces[2]].joined(separator: ".")
        #expect(throws: JWTError.invalidSignature) {
            try JWTVerifier(keys: [key]).verify(forged, expecting: F.expectations())
        }
    }

    @Test("a changed signature is rejected", arguments: JWTAlgorithm.allCases)
    func tamperedSignature(algorithm: JWTAlgorithm) throws {
        let (signer, key) = try F.keyPair(algorithm)
        let token = try signer.sign(F.claims(), type: .accessToken)
        var parts = try F.parts(token)
        parts[2][5] ^= 0x01
        let forged = F.compact(headerJSON: parts[0], payloadJSON: parts[1], signature: parts[2])
        #expect(throws: JWTError.invalidSignature) {
            try JWTVerifier(keys: [key]).verify(forged, expecting: F.expectations())
        }
    }

    @Test("a signature from another key with the same kid is rejected")
    func otherKeySameKid() throws {
        let (_, key) = try F.keyPair(.es256)
        let other = try PrivateKey.generate(.ec(.p256))
        let forger = try JWTSigner(privateKey: other, algorithm: .es256, keyID: key.keyID)
        let token = try forger.sign(F.claims(), type: .accessToken)
        #expect(throws: JWTError.invalidSignature) {
            try JWTVerifier(keys: [key]).verify(token, expecting: F.expectations())
        }
    }

    // MARK: Algorithm attacks

    @Test("alg none is rejected, with or without a signature part")
    func algNone() throws {
        let (_, key) = try F.keyPair(.rs256)
        let header: [String: JWTClaimValue] = ["alg": "none", "kid": .string(key.keyID), "typ": "at+jwt"]
        let unsigned = Base64URL.encode(try F.json(header)) + "." + Base64URL.encode(try F.json(F.claims())) + "."
        let verifier = JWTVerifier(keys: [key])
        #expect(throws: JWTError.malformed("the signature is not unpadded base64url")) {
            try verifier.verify(unsigned, expecting: F.expectations())
        }
        let withSignature = try F.compact(header: header, payload: F.claims(), signature: [1, 2, 3])
        #expect(throws: JWTError.unsupportedAlgorithm("none")) {
            try verifier.verify(withSignature, expecting: F.expectations())
        }
    }

    @Test("HS256 signed with the public key as the HMAC secret is rejected")
    func hmacConfusion() throws {
        let (_, key) = try F.keyPair(.rs256)
        let headerJSON = try F.json(["alg": "HS256", "kid": .string(key.keyID), "typ": "at+jwt"])
        let payloadJSON = try F.json(F.claims())
        let input = Array((Base64URL.encode(headerJSON) + "." + Base64URL.encode(payloadJSON)).utf8)
        let mac = HMAC.authenticationCode(for: input, key: Array(key.publicKey.pem.utf8))
        let forged = F.compact(headerJSON: headerJSON, payloadJSON: payloadJSON, signature: mac)
        #expect(throws: JWTError.unsupportedAlgorithm("HS256")) {
            try JWTVerifier(keys: [key]).verify(forged, expecting: F.expectations())
        }
    }

    @Test("an RS256 header naming an EC key is rejected before the signature is looked at")
    func rsaHeaderOnECKey() throws {
        let (ecSigner, ecKey) = try F.keyPair(.es256)
        let token = try ecSigner.sign(F.claims(), type: .accessToken)
        var parts = try F.parts(token)
        parts[0] = try F.json(["alg": "RS256", "kid": .string(ecKey.keyID), "typ": "at+jwt"])
        let forged = F.compact(headerJSON: parts[0], payloadJSON: parts[1], signature: parts[2])
        #expect(throws: JWTError.algorithmMismatch(header: "RS256", key: "ES256")) {
            try JWTVerifier(keys: [ecKey]).verify(forged, expecting: F.expectations())
        }
    }

    @Test("an algorithm outside the verifier's allow-list is rejected")
    func allowList() throws {
        let (signer, key) = try F.keyPair(.edDSA)
        let token = try signer.sign(F.claims(), type: .accessToken)
        #expect(throws: JWTError.unsupportedAlgorithm("EdDSA")) {
            try JWTVerifier(keys: [key], allowedAlgorithms: [.rs256, .es256]).verify(token, expecting: F.expectations())
        }
    }

    @Test("a verification key refuses an algorithm that does not fit it")
    func verificationKeyFit() throws {
        let ed = try PrivateKey.generate(.ed25519)
        #expect(throws: CryptoError.unsupportedAlgorithm("RS256 does not fit this key")) {
            try JWTVerificationKey(keyID: "k", algorithm: .rs256, publicKey: ed.publicKey)
        }
    }

    @Test("a crit header is rejected")
    func critHeader() throws {
        let (_, key) = try F.keyPair(.es256)
        let forged = try F.compact(
            header: ["alg": "ES256", "kid": .string(key.keyID), "crit": .strings(["exp"])], payload: F.claims(),
            signature: [UInt8](repeating: 1, count: 64))
        #expect(throws: JWTError.unsupportedCriticalHeader) {
            try JWTVerifier(keys: [key]).verify(forged, expecting: F.expectations())
        }
    }

    // MARK: Keys

    @Test("an unknown or missing kid is rejected")
    func unknownKid() throws {
        let (signer, _) = try F.keyPair(.es256)
        let (_, otherKey) = try F.keyPair(.es256)
        let token = try signer.sign(F.claims(), type: .accessToken)
        #expect(throws: JWTError.unknownKey) {
            try JWTVerifier(keys: [otherKey]).verify(token, expecting: F.expectations())
        }
        var parts = try F.parts(token)
        parts[0] = try F.json(["alg": "ES256", "typ": "at+jwt"])
        let noKid = F.compact(headerJSON: parts[0], payloadJSON: parts[1], signature: parts[2])
        #expect(throws: JWTError.unknownKey) {
            try JWTVerifier(keys: [otherKey]).verify(noKid, expecting: F.expectations())
        }
    }

    // MARK: Claims

    private func verify(_ claims: [String: JWTClaimValue], _ expected: JWTExpectations = F.expectations())
        throws -> VerifiedJWT
    {
        let (signer, key) = try F.keyPair(.es256)
        let token = try signer.sign(claims, type: .accessToken)
        return try JWTVerifier(keys: [key]).verify(token, expecting: expected)
    }

    @Test("exp: accepted within the leeway, rejected after it")
    func expiry() throws {
        let exp = F.start.addingTimeInterval(3600)
        _ = try verify(F.claims(), F.expectations(now: exp.addingTimeInterval(59)))
        #expect(throws: JWTError.expired) { try verify(F.claims(), F.expectations(now: exp.addingTimeInterval(60))) }
    }

    @Test("exp is required and must be an integer")
    func expRequired() throws {
        var claims = F.claims()
        claims["exp"] = nil
        #expect(throws: JWTError.invalidClaim("exp is missing")) { try verify(claims) }
        claims["exp"] = "1800003600"
        #expect(throws: JWTError.invalidClaim("exp is not an integer NumericDate")) { try verify(claims) }
    }

    @Test("nbf or iat in the future beyond the leeway is rejected")
    func notYetValid() throws {
        var claims = F.claims()
        claims["nbf"] = .int(1_800_000_120)
        #expect(throws: JWTError.notYetValid) { try verify(claims) }
        claims["nbf"] = .int(1_800_000_060)
        _ = try verify(claims)
        claims = F.claims()
        claims["iat"] = .int(1_800_000_061)
        #expect(throws: JWTError.notYetValid) { try verify(claims) }
    }

    @Test("a wrong or missing iss is rejected")
    func issuer() throws {
        #expect(throws: JWTError.wrongIssuer) { try verify(F.claims(), F.expectations(issuer: "https://other/")) }
        var claims = F.claims()
        claims["iss"] = nil
        #expect(throws: JWTError.invalidClaim("iss is missing")) { try verify(claims) }
    }

    @Test("aud must equal or contain the expected audience")
    func audience() throws {
        #expect(throws: JWTError.wrongAudience) { try verify(F.claims(), F.expectations(audience: "someone-else")) }
        var claims = F.claims()
        claims["aud"] = .strings(["https://api.example.com/", F.audience])
        #expect(try verify(claims).audiences == ["https://api.example.com/", F.audience])
        claims["aud"] = .strings(["https://api.example.com/"])
        #expect(throws: JWTError.wrongAudience) { try verify(claims) }
        claims["aud"] = .array([.int(1)])
        #expect(throws: JWTError.invalidClaim("aud holds a non-string")) { try verify(claims) }
        claims["aud"] = nil
        #expect(throws: JWTError.invalidClaim("aud is missing")) { try verify(claims) }
    }

    @Test("typ: an id token is not accepted where an access token is expected, and the reverse")
    func typeHeader() throws {
        let (signer, key) = try F.keyPair(.es256)
        let verifier = JWTVerifier(keys: [key])
        let idToken = try signer.sign(F.claims(), type: .idToken)
        let accessToken = try signer.sign(F.claims(), type: .accessToken)
        #expect(throws: JWTError.wrongType(expected: "at+jwt")) {
            try verifier.verify(idToken, expecting: F.expectations(type: .accessToken))
        }
        #expect(throws: JWTError.wrongType(expected: "JWT")) {
            try verifier.verify(accessToken, expecting: F.expectations(type: .idToken))
        }
        _ = try verifier.verify(idToken, expecting: F.expectations(type: nil))
    }

    // MARK: Shape

    @Test(
        "malformed compact forms are rejected",
        arguments: [
            ("a.b", "a compact JWS has exactly three parts"),
            ("a.b.c.d", "a compact JWS has exactly three parts"),
            (".eyJ9.AAAA", "the header is not unpadded base64url"),
            ("eyJ9=.eyJ9.AAAA", "the header is not unpadded base64url"),
            ("e*J9.eyJ9.AAAA", "the header is not unpadded base64url"),
            ("WzFd.eyJ9.AAAA", "the header is not a JSON object"),
        ])
    func malformed(token: String, reason: String) throws {
        let (_, key) = try F.keyPair(.es256)
        #expect(throws: JWTError.malformed(reason)) {
            try JWTVerifier(keys: [key]).verify(token, expecting: F.expectations())
        }
    }

    @Test("an over-long token is rejected before parsing")
    func tooLong() throws {
        let (_, key) = try F.keyPair(.es256)
        let token = String(repeating: "A", count: JWTVerifier.maximumTokenLength + 1)
        #expect(throws: JWTError.malformed("the token is too long")) {
            try JWTVerifier(keys: [key]).verify(token, expecting: F.expectations())
        }
    }

    @Test("a payload with a float claim does not decode")
    func floatClaim() throws {
        let (signer, key) = try F.keyPair(.es256)
        let payload = Array(#"{"aud":"client-123","exp":1800003600.5,"iss":"https://login.example.com/"}"#.utf8)
        let token = try signer.sign(encodedClaims: payload, type: .accessToken)
        #expect(
            throws: JWTError.malformed(
                "the payload is not a JSON object of strings, integers, booleans, arrays and objects")
        ) {
            try JWTVerifier(keys: [key]).verify(token, expecting: F.expectations())
        }
    }
}

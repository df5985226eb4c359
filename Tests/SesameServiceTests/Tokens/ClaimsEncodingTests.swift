import Foundation
import Testing

@testable import SesameService

@Suite("JWT claims encoding")
struct ClaimsEncodingTests {
    @Test func theDirectWriterMatchesJSONEncoderOutput() throws {
        let claims: [String: JWTClaimValue] = [
            "iss": "https://login.example.com/", "sub": "sesame|ab12", "aud": .strings(["a", "b/c"]),
            "exp": 1_800_000_600, "iat": 1_800_000_000, "email_verified": false, "name": "Zoë \"Z\" O'Neil\n",
            "nested": .object(["z": 1, "a": .array([true, "x"])]), "amr": .strings(["pop", "swk", "user"]),
        ]
        let direct = try JWTSigner.encodeClaims(claims)
        struct Wrapped: Encodable {
            let claims: [String: JWTClaimValue]
            func encode(to encoder: any Encoder) throws { try claims.encode(to: encoder) }
        }
        let foundation = try JWTSigner.encodeClaims(Wrapped(claims: claims))
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }
}

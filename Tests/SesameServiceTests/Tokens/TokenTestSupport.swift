import Foundation
import SesameCrypto
import SesameService
import SesameStore
import WebAuthn

/// Fixtures shared by the token tests.
enum TokenFixtures {
    static let issuer = "https://login.example.com/"
    static let audience = "client-123"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A fresh private key of the algorithm's type and its signer / verification key.
    static func keyPair(_ algorithm: JWTAlgorithm) throws -> (signer: JWTSigner, key: JWTVerificationKey) {
        let privateKey = try PrivateKey.generate(algorithm.generatedKeyType)
        let kid = JWKThumbprint.keyID(for: privateKey.publicKey)
        return (
            try JWTSigner(privateKey: privateKey, algorithm: algorithm, keyID: kid),
            try JWTVerificationKey(keyID: kid, algorithm: algorithm, publicKey: privateKey.publicKey)
        )
    }

    /// Access-token claims valid at `start` for `issuer` / `audience`.
    static func claims(now: Date = start) -> [String: JWTClaimValue] {
        let seconds = Int64(now.timeIntervalSince1970)
        return [
            "iss": .string(issuer), "sub": "sesame|abc", "aud": .string(audience), "iat": .int(seconds),
            "exp": .int(seconds + 3600), "client_id": .string(audience), "jti": "jti-1", "scope": "openid profile",
        ]
    }

    static func expectations(
        now: Date = start, type: JWTType? = .accessToken, issuer: String = issuer, audience: String = audience
    ) -> JWTExpectations {
        JWTExpectations(issuer: issuer, audience: audience, type: type, now: now)
    }

    /// The three decoded parts of a compact JWS (no checks beyond base64url).
    static func parts(_ token: String) throws -> [[UInt8]] {
        try token.split(separator: ".", omittingEmptySubsequences: false).map { try Base64URL.decode(String($0)) }
    }

    /// A compact JWS from explicit pieces, for forging bad tokens.
    static func compact(header: [String: JWTClaimValue], payload: [String: JWTClaimValue], signature: [UInt8]) throws
        -> String
    {
        compact(headerJSON: try json(header), payloadJSON: try json(payload), signature: signature)
    }

    static func compact(headerJSON: [UInt8], payloadJSON: [UInt8], signature: [UInt8]) -> String {
        [Base64URL.encode(headerJSON), Base64URL.encode(payloadJSON), Base64URL.encode(signature)]
            .joined(separator: ".")
    }

    static func json(_ value: [String: JWTClaimValue]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(value))
    }

    /// A fresh temporary directory; the caller removes it.
    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

import Foundation
import SesameCrypto
import SesameService
import SesameStore

/// The `client_secret` Apple's token endpoint takes: an ES256 JWT the developer signs with the
/// P-256 key of their `.p8` file. Header `{"alg":"ES256","kid":<Key ID>}`; claims `iss` = Team ID,
/// `sub` = the client_id in use, `aud` = `https://appleid.apple.com`, `iat`, and `exp` at most
/// 15,777,000 seconds (about six months) after `iat`. The signature is JOSE's raw r ‖ s.
public enum AppleClientSecret {
    /// The `aud` every client secret names.
    public static let audience = "https://appleid.apple.com"
    /// The longest `exp` − `iat` Apple accepts, in seconds.
    public static let maximumLifetime = 15_777_000

    /// A Team ID and Key ID pair the fake accepts client secrets from, with the public half of that
    /// key's .p8.
    public struct Registration: Sendable {
        /// The developer's Team ID (`iss`).
        public let teamID: String
        /// The key's Key ID (the header's `kid`).
        public let keyID: String
        /// The P-256 public key that verifies the secrets.
        public let publicKey: PublicKey

        /// Registers `publicKey`; throws unless it is a P-256 key (the only kind a .p8 holds).
        public init(teamID: String, keyID: String, publicKey: PublicKey) throws {
            guard publicKey.type == .ec(.p256) else {
                throw FakeAppleIDError("a Sign in with Apple key is a P-256 key, not \(publicKey.type)")
            }
            self.teamID = teamID
            self.keyID = keyID
            self.publicKey = publicKey
        }
    }

    /// A client secret as a server should make it, with every part settable so a test can break
    /// one (another `kid`, team, `sub`, `aud`, an expired or too long lifetime, a DER signature).
    public static func make(
        teamID: String, keyID: String, clientID: String, privateKey: PrivateKey, issuedAt: Date,
        lifetime: Int = 3_600, audience: String = audience, signatureFormat: ECDSASignatureFormat = .raw
    ) throws -> String {
        let issued = AppleIdentityClaims.seconds(issuedAt)
        return try FakeAppleJWS.signed(
            header: ["alg": "ES256", "kid": .string(keyID)],
            claims: [
                "iss": .string(teamID), "sub": .string(clientID), "aud": .string(audience), "iat": .int(issued),
                "exp": .int(issued + Int64(lifetime)),
            ], key: privateKey, algorithm: .ecdsa(.sha256), format: signatureFormat)
    }

    /// Checks `secret` for a request naming `clientID`, as Apple does; throws `invalid_client`
    /// with the reason otherwise.
    static func verify(
        _ secret: String, clientID: String, registrations: [String: Registration], now: Date
    ) throws(FakeAppleTokenError) {
        guard let (header, _) = FakeAppleJWS.peek(secret) else {
            throw .invalidClient("the client_secret is not a JWT")
        }
        guard header["alg"] == "ES256" else { throw .invalidClient("the client_secret is not signed ES256") }
        guard let keyID = header["kid"]?.stringValue, let registration = registrations[keyID] else {
            throw .invalidClient("the client_secret's kid names no registered key")
        }
        let verified: VerifiedJWT
        do {
            let key = try JWTVerificationKey(keyID: keyID, algorithm: .es256, publicKey: registration.publicKey)
            verified = try JWTVerifier(keys: [key], allowedAlgorithms: [.es256]).verify(
                secret,
                expecting: JWTExpectations(issuer: registration.teamID, audience: audience, type: nil, now: now))
        } catch {
            throw .invalidClient("the client_secret does not verify: \(error)")
        }
        guard verified.claims["aud"] == .string(audience) else {
            throw .invalidClient("the client_secret's aud is not the string \(audience)")
        }
        guard verified.subject == clientID else { throw .invalidClient("the client_secret's sub is not the client_id") }
        guard let issued = verified.claims["iat"]?.intValue, let expires = verified.claims["exp"]?.intValue else {
            throw .invalidClient("the client_secret has no integer iat")
        }
        guard expires - issued <= Int64(maximumLifetime) else {
            throw .invalidClient("the client_secret's exp is more than \(maximumLifetime) seconds after its iat")
        }
    }
}

import Foundation
import SesameCrypto
import SesameService
import SesameStore
import WebAuthn

/// Which key signs an identity token, and which `kid` its header names.
public enum FakeAppleSigning: Sendable, Hashable {
    /// Published key `index` (0 or 1) under its own `kid`: a token that verifies.
    case publishedKey(Int)
    /// The unpublished key, under the `kid` of published key 0: the signature does not verify.
    case unpublishedKey
    /// Published key 0 under `kid`, which the key set does not list.
    case unknownKeyID(String)
}

/// Mints what Apple's ID service hands out: identity tokens (RS256, header `{"kid","alg"}`),
/// authorization codes and refresh tokens. Codes and refresh tokens are self-contained ES256 tokens
/// under the sealing key, so a code minted by one process redeems at a fake serving in another.
public struct FakeAppleIDMinter: Sendable {
    /// The `iss` Apple's tokens carry.
    public static let appleIssuer = "https://appleid.apple.com"
    /// How long a code may wait before it is redeemed (Apple: five minutes).
    public static let codeLifetime = 300
    /// The `iss` of the fake's codes and refresh tokens, which no identity token carries.
    static let codeIssuer = "urn:sesame:fake-apple:code"
    static let refreshIssuer = "urn:sesame:fake-apple:refresh"

    /// The keys tokens are signed with.
    public let keys: FakeAppleIDKeys
    /// The `iss` of the identity tokens.
    public let issuer: String
    /// The time `iat` comes from, and codes are checked at.
    public let clock: any ServiceClock
    private let random: any RandomSource

    /// A minter over `keys`.
    public init(
        keys: FakeAppleIDKeys, issuer: String = appleIssuer, clock: any ServiceClock = SystemClock(),
        random: any RandomSource = SystemRandom()
    ) {
        self.keys = keys
        self.issuer = issuer
        self.clock = clock
        self.random = random
    }

    /// An RS256 identity token for `claims`, signed as `signing` says.
    public func mintIdentityToken(_ claims: AppleIdentityClaims, signing: FakeAppleSigning = .publishedKey(0)) throws
        -> String
    {
        try identityToken(claims.claimSet(defaultIssuer: issuer, now: clock.now()), signing: signing)
    }

    /// An identity token with `alg: none` and no signature (the `kid` of published key 0).
    public func mintUnsecuredIdentityToken(_ claims: AppleIdentityClaims) throws -> String {
        try FakeAppleJWS.unsecured(
            header: ["alg": "none", "kid": .string(keys.published[0].keyID)],
            claims: claims.claimSet(defaultIssuer: issuer, now: clock.now()))
    }

    /// An identity token signed HS256 under `secret`, by default the PEM text of published key 0's
    /// public key (the algorithm-confusion attack on verifiers that trust the header's `alg`).
    public func mintHS256IdentityToken(_ claims: AppleIdentityClaims, secret: [UInt8]? = nil) throws -> String {
        let published = keys.published[0]
        return try FakeAppleJWS.hs256(
            header: ["alg": "HS256", "kid": .string(published.keyID)],
            claims: claims.claimSet(defaultIssuer: issuer, now: clock.now()),
            secret: secret ?? Array(published.privateKey.publicKey.pem.utf8))
    }

    /// An authorization code the token endpoint redeems, once and within `codeLifetime` seconds,
    /// by the client `claims.audience` (plus `redirectURI`, when the code was minted with one), for
    /// an identity token of `claims` (`iat` then, `aud` the client_id). `auth_time` is now unless set.
    public func mintAuthorizationCode(_ claims: AppleIdentityClaims, redirectURI: String? = nil) throws -> String {
        let now = clock.now()
        var sealed = sealedClaims(
            issuer: Self.codeIssuer, audience: claims.audience, now: now, lifetime: Self.codeLifetime)
        sealed["jti"] = .string(Base64URL.encode(try random.bytes(count: 16)))
        sealed["id_token_claims"] = .object(claims.carriedClaims(authTime: claims.authTime ?? now))
        sealed["id_token_lifetime"] = .int(Int64(claims.lifetime))
        if let redirectURI { sealed["redirect_uri"] = .string(redirectURI) }
        return try seal(sealed)
    }

    /// What a code holds, once its seal, client and age have checked out.
    struct Code {
        /// The code's unique id (a second redemption of it is refused).
        var id: String
        /// The identity token's claims but `iss`, `aud`, `iat` and `exp`.
        var carriedClaims: [String: JWTClaimValue]
        var lifetime: Int
    }

    /// The contents of `code` for `clientID`; `invalid_grant` when it is not a code of these keys,
    /// has expired, was minted for another client, or for another `redirect_uri`.
    func openCode(_ code: String, clientID: String, redirectURI: String?) throws(FakeAppleTokenError) -> Code {
        let claims = try unseal(code, issuer: Self.codeIssuer, clientID: clientID, what: "code")
        guard case .string(let id)? = claims["jti"], case .object(let carried)? = claims["id_token_claims"],
            case .int(let lifetime)? = claims["id_token_lifetime"], let lifetime = Int(exactly: lifetime)
        else { throw .invalidGrant("the code is not one this fake minted") }
        guard claims["redirect_uri"]?.stringValue == redirectURI else {
            throw .invalidGrant(
                redirectURI == nil
                    ? "the code was issued with a redirect_uri and the request has none"
                    : "the redirect_uri is not the one the code was issued with")
        }
        return Code(id: id, carriedClaims: carried, lifetime: lifetime)
    }

    /// The identity token the token endpoint answers with for `code`.
    func identityToken(for code: Code, clientID: String) throws -> String {
        try identityToken(
            AppleIdentityClaims.claimSet(
                carrying: code.carriedClaims, issuer: issuer, audience: clientID, issuedAt: clock.now(),
                lifetime: code.lifetime), signing: .publishedKey(0))
    }

    /// A refresh token for `subject` at `clientID`: good until revoked, which this fake never does.
    func mintRefreshToken(clientID: String, subject: String) throws -> String {
        var sealed = sealedClaims(
            issuer: Self.refreshIssuer, audience: clientID, now: clock.now(), lifetime: 10 * 365 * 86_400)
        sealed["sub"] = .string(subject)
        sealed["jti"] = .string(Base64URL.encode(try random.bytes(count: 16)))
        return try seal(sealed)
    }

    /// Checks a refresh token for `clientID`; `invalid_grant` when it is not one of these keys' or
    /// was issued to another client.
    func openRefreshToken(_ token: String, clientID: String) throws(FakeAppleTokenError) {
        _ = try unseal(token, issuer: Self.refreshIssuer, clientID: clientID, what: "refresh token")
    }

    /// An opaque access token (Apple's are opaque too).
    func mintAccessToken() throws -> String {
        try random.bytes(count: 24).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    private func identityToken(_ claims: [String: JWTClaimValue], signing: FakeAppleSigning) throws -> String {
        let key: FakeAppleIDKeys.SigningKey
        let keyID: String
        switch signing {
        case .publishedKey(let index):
            guard keys.published.indices.contains(index) else {
                throw FakeAppleIDError("there are \(keys.published.count) published keys, not \(index + 1)")
            }
            key = keys.published[index]
            keyID = key.keyID
        case .unpublishedKey:
            key = keys.unpublished
            keyID = keys.published[0].keyID
        case .unknownKeyID(let name):
            guard !keys.keyIDs.contains(name) else { throw FakeAppleIDError("\(name) is a published kid") }
            key = keys.published[0]
            keyID = name
        }
        return try FakeAppleJWS.signed(
            header: ["kid": .string(keyID), "alg": "RS256"], claims: claims, key: key.privateKey,
            algorithm: .rsaPKCS1v15(.sha256))
    }

    private func sealedClaims(issuer: String, audience: String, now: Date, lifetime: Int) -> [String: JWTClaimValue] {
        let issued = AppleIdentityClaims.seconds(now)
        return [
            "iss": .string(issuer), "aud": .string(audience), "iat": .int(issued),
            "exp": .int(issued + Int64(lifetime)),
        ]
    }

    private func seal(_ claims: [String: JWTClaimValue]) throws -> String {
        try FakeAppleJWS.signed(
            header: ["kid": .string(keys.sealing.keyID), "alg": "ES256"], claims: claims,
            key: keys.sealing.privateKey, algorithm: .ecdsa(.sha256))
    }

    private func unseal(_ token: String, issuer: String, clientID: String, what: String) throws(FakeAppleTokenError)
        -> [String: JWTClaimValue]
    {
        do {
            let key = try JWTVerificationKey(
                keyID: keys.sealing.keyID, algorithm: .es256, publicKey: keys.sealing.privateKey.publicKey)
            return try JWTVerifier(keys: [key], allowedAlgorithms: [.es256]).verify(
                token,
                expecting: JWTExpectations(issuer: issuer, audience: clientID, type: nil, now: clock.now(), leeway: 0)
            ).claims
        } catch JWTError.wrongAudience {
            throw .invalidGrant("the \(what) was issued to another client_id")
        } catch JWTError.expired {
            throw .invalidGrant("the \(what) has expired")
        } catch {
            throw .invalidGrant("the \(what) is not one this fake issued (\(error))")
        }
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

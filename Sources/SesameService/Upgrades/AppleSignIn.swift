import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import Synchronization
import WebAuthn

/// Apple's two endpoints as Sesame calls them: the JWK Set identity tokens are signed with, and the
/// token endpoint that redeems an authorization code. SesameHTTP has the one that asks over HTTP;
/// tests point the connection's URLs at a local fake (SesameTesting's `FakeAppleID`).
public protocol AppleEndpoints: Sendable {
    /// The body of `GET url` (a JWK Set); throws when it cannot be fetched.
    func keys(url: String) throws -> [UInt8]
    /// The status and body of a form-encoded `POST url`; throws when no answer came.
    func post(url: String, form: [(String, String)]) throws -> (status: Int, body: [UInt8])
}

/// What a verified Apple identity token says about its user.
public struct AppleIdentity: Sendable, Hashable {
    /// Apple's stable user id (per developer team).
    public var subject: String
    /// The `aud` it was issued for (a bundle ID or the Services ID).
    public var audience: String
    public var email: String?
    public var emailVerified: Bool
    public var isPrivateEmail: Bool
}

/// Whether a nonce must come with an identity token.
enum AppleNonceRule {
    /// An upgrade: the token must carry a nonce and the caller must give its raw value.
    case required
    /// A sign-in: a token with a nonce needs the raw value; a raw value needs a token nonce
    /// (unless Apple says the platform cannot carry one, `nonce_supported: false`).
    case ifPresent
    /// A token Apple's token endpoint just returned for a code Sesame redeemed: the code was the proof.
    case notChecked
}

/// Verifies Sign in with Apple identity tokens (research §3.1): RS256 only, the key by `kid` from
/// the connection's JWK Set (cached an hour, fetched again at most once a minute for an unknown
/// `kid`), `iss`, `aud` among the connection's app ids, `exp`, and `nonce` as the lowercase hex
/// SHA-256 of the raw nonce, compared in constant time.
public final class AppleIdentityVerifier: Sendable {
    static let keysLifetime: TimeInterval = 3_600
    static let refetchInterval: TimeInterval = 60
    static let maxKeysBytes = 64 * 1024

    struct CachedKeys {
        var keys: [String: JWTVerificationKey]
        var fetchedAt: Date
    }

    let endpoints: any AppleEndpoints
    private let cache = Mutex<[String: CachedKeys]>([:])

    public init(endpoints: any AppleEndpoints) {
        self.endpoints = endpoints
    }

    /// The identity `token` proves under `settings`, or `invalidGrant` naming the failed check.
    func verify(
        _ token: String, settings: AppleSettings, rawNonce: String?, nonceRule: AppleNonceRule, now: Date
    ) throws(ServiceError) -> AppleIdentity {
        guard !token.isEmpty, token.utf8.count <= JWTVerifier.maximumTokenLength else {
            throw .invalidGrant("the Apple identity token is missing or too long")
        }
        // Apple signs identity tokens with RS256 and nothing else: none, HS256 and ES256 are refused
        // before any key is looked at (the header is read first, so an unsigned token says so).
        let headerPart = token.prefix { $0 != "." }
        if let bytes = try? Base64URL.decode(String(headerPart)),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let alg = object["alg"] as? String, alg != JWTAlgorithm.rs256.rawValue
        {
            throw .invalidGrant("the Apple identity token is not signed with RS256")
        }
        let header: [String: JWTClaimValue]
        do {
            header = try CompactJWS(token).header()
        } catch {
            throw .invalidGrant("the Apple identity token is malformed: \(error)")
        }
        guard header["alg"]?.stringValue == JWTAlgorithm.rs256.rawValue else {
            throw .invalidGrant("the Apple identity token is not signed with RS256")
        }
        guard let keyID = header["kid"]?.stringValue, !keyID.isEmpty, keyID.utf8.count <= 128 else {
            throw .invalidGrant("the Apple identity token names no key (kid)")
        }
        let key = try self.key(keyID, url: settings.keysURL, now: now)
        let audiences = settings.audiences
        guard let first = audiences.first else {
            throw .invalidGrant("the Apple connection has no app_id or client_id to accept")
        }
        var expected = JWTExpectations(issuer: settings.issuer, audience: first, type: nil, now: now, leeway: 60)
        expected.alternativeAudiences = Array(audiences.dropFirst())
        let verified: VerifiedJWT
        do {
            verified = try JWTVerifier(keys: [key], allowedAlgorithms: [.rs256]).verify(token, expecting: expected)
        } catch {
            throw .invalidGrant("the Apple identity token was refused: \(error)")
        }
        guard let subject = verified.subject, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw .invalidGrant("the Apple identity token has no sub")
        }
        try Self.checkNonce(verified, rawNonce: rawNonce, rule: nonceRule)
        let audience = verified.audiences.first(where: audiences.contains) ?? first
        let email = verified.string("email").flatMap { $0.isEmpty || $0.utf8.count > 320 ? nil : $0 }
        return AppleIdentity(
            subject: subject, audience: audience, email: email,
            emailVerified: Self.flag(verified.claims["email_verified"]),
            isPrivateEmail: Self.flag(verified.claims["is_private_email"]))
    }

    /// The hex SHA-256 of `rawNonce` against the token's `nonce` (research §3.1).
    static func checkNonce(_ token: VerifiedJWT, rawNonce: String?, rule: AppleNonceRule) throws(ServiceError) {
        let claimed = token.claims["nonce"]
        if rule == .notChecked { return }
        let raw = rawNonce.flatMap { $0.isEmpty ? nil : $0 }
        if let raw, raw.utf8.count > 512 { throw .invalidGrant("nonce is longer than 512 bytes") }
        switch (claimed, raw) {
        case (nil, nil):
            if rule == .required { throw .invalidGrant("the Apple identity token carries no nonce") }
        case (nil, _?):
            // Apple leaves the nonce out only where the platform cannot carry one.
            if case .bool(false)? = token.claims["nonce_supported"], rule == .ifPresent { return }
            throw .invalidGrant("the Apple identity token carries no nonce")
        case (_?, nil):
            throw .invalidGrant("nonce is required: the Apple identity token carries one")
        case (let claim?, let raw?):
            guard let expected = claim.stringValue,
                constantTimeEquals(Array(expected.utf8), Array(Hex.lowercase(Digest.sha256(Array(raw.utf8))).utf8))
            else { throw .invalidGrant("the nonce does not match the Apple identity token's") }
        }
    }

    /// Apple sends `email_verified` and `is_private_email` as a string or a Bool.
    static func flag(_ value: JWTClaimValue?) -> Bool {
        switch value {
        case .bool(let flag)?: return flag
        case .string(let text)?: return text == "true"
        default: return false
        }
    }

    /// The key `keyID` names in the JWK Set at `url`.
    private func key(_ keyID: String, url: String, now: Date) throws(ServiceError) -> JWTVerificationKey {
        let cached = cache.withLock { $0[url] }
        if let cached, now.timeIntervalSince(cached.fetchedAt) < Self.keysLifetime {
            if let key = cached.keys[keyID] { return key }
            // An unknown kid: Apple may have rotated, but a flood of made-up kids fetches at most once a minute.
            guard now.timeIntervalSince(cached.fetchedAt) >= Self.refetchInterval else {
                throw .invalidGrant("the Apple identity token's kid names no Apple key")
            }
        }
        let keys: [String: JWTVerificationKey]
        do {
            keys = try Self.parse(try endpoints.keys(url: url))
        } catch let error as ServiceError {
            throw error
        } catch {
            if let cached, let key = cached.keys[keyID] { return key }
            throw .unavailable("Apple's keys could not be fetched")
        }
        cache.withLock { $0[url] = CachedKeys(keys: keys, fetchedAt: now) }
        guard let key = keys[keyID] else {
            throw .invalidGrant("the Apple identity token's kid names no Apple key")
        }
        return key
    }

    /// The RSA signing keys of a JWK Set body; keys of another type or use are skipped.
    static func parse(_ body: [UInt8]) throws -> [String: JWTVerificationKey] {
        guard body.count <= maxKeysBytes else { throw ServiceError.unavailable("Apple's key set is too large") }
        let set: JWKSet
        do {
            set = try JSONDecoder().decode(JWKSet.self, from: Data(body))
        } catch {
            throw ServiceError.unavailable("Apple's key set is not a JWK Set")
        }
        var keys: [String: JWTVerificationKey] = [:]
        for jwk in set.keys.prefix(32) where jwk.kty == "RSA" && (jwk.use ?? "sig") == "sig" {
            guard let kid = jwk.kid, jwk.alg == nil || jwk.alg == JWTAlgorithm.rs256.rawValue,
                let publicKey = try? PublicKey(jwk: jwk),
                let key = try? JWTVerificationKey(keyID: kid, algorithm: .rs256, publicKey: publicKey)
            else { continue }
            keys[kid] = keys[kid] ?? key
        }
        return keys
    }
}

/// Seals and opens an Apple connection's `.p8` key (AES-256-GCM under a key derived from the master
/// key, bound to the tenant and the connection).
public struct AppleKeySealer: Sendable {
    let key: [UInt8]

    public init(masterKey: MasterKey) { key = masterKey.derivedKey(purpose: "apple-signing-key") }

    init(key: [UInt8]) { self.key = key }

    static func associatedData(tenantID: String, connectionID: String) -> [UInt8] {
        Array("apple-p8\u{0}\(tenantID)\u{0}\(connectionID)".utf8)
    }

    /// Checks that `pem` is a P-256 private key and seals it.
    func seal(pem: String, tenantID: String, connectionID: String, random: any RandomSource) throws(ServiceError)
        -> [UInt8]
    {
        guard pem.utf8.count <= 8_192, let key = try? PrivateKey(pem: pem), key.type == .ec(.p256) else {
            throw .invalidRequest("options.app_secret must be the .p8 key: a P-256 private key in PEM")
        }
        do {
            return try AES256GCM.seal(
                key.pkcs8DER, key: self.key,
                associatedData: Self.associatedData(tenantID: tenantID, connectionID: connectionID), random: random)
        } catch {
            throw .unavailable("the key could not be sealed")
        }
    }

    /// The private key of a sealed `.p8`; nil when none is set or it does not open.
    func open(_ sealed: [UInt8], tenantID: String, connectionID: String) -> PrivateKey? {
        guard !sealed.isEmpty, key.count == 32,
            let der = try? AES256GCM.open(
                sealed, key: key, associatedData: Self.associatedData(tenantID: tenantID, connectionID: connectionID))
        else { return nil }
        return try? PrivateKey(pkcs8DER: der)
    }
}

/// Redeems Sign in with Apple authorization codes (research §3.2): a form POST to the connection's
/// token endpoint with a client secret Sesame signs per request (ES256 with the `.p8` key: `iss` the
/// Team ID, `sub` the client id, `aud` Apple, five minutes), then the identity token it returns is
/// verified like any other.
struct AppleCodeRedemption: Sendable {
    static let secretLifetime: Int64 = 300
    static let maxCodeBytes = 1_024

    let endpoints: any AppleEndpoints
    let verifier: AppleIdentityVerifier
    let sealer: AppleKeySealer

    /// The identity the code stands for. `clientID` is the bundle ID (native codes) or the Services
    /// ID; `redirectURI` only for a code whose authorization request had one (the web's).
    func redeem(
        code: String, connection: ConnectionRecord, settings: AppleSettings, clientID: String,
        redirectURI: String? = nil, now: Date
    ) throws(ServiceError) -> AppleIdentity {
        guard !code.isEmpty, code.utf8.count <= Self.maxCodeBytes else {
            throw .invalidGrant("the Apple authorization code is missing or too long")
        }
        guard !settings.teamID.isEmpty, !settings.keyID.isEmpty,
            let key = sealer.open(settings.sealedKey, tenantID: connection.tenantID, connectionID: connection.id)
        else {
            throw .invalidRequest("the Apple connection has no team_id, kid and app_secret to redeem codes with")
        }
        let secret: String
        do {
            let iat = Int64(now.timeIntervalSince1970)
            secret = try JWTSigner(privateKey: key, algorithm: .es256, keyID: settings.keyID).sign(
                [
                    "iss": .string(settings.teamID), "sub": .string(clientID),
                    "aud": .string(AppleSettings.appleIssuer),
                    "iat": .int(iat), "exp": .int(iat + Self.secretLifetime),
                ], type: .idToken)
        } catch {
            throw .unavailable("the Apple client secret could not be signed")
        }
        let answer: (status: Int, body: [UInt8])
        var form = [
            ("client_id", clientID), ("client_secret", secret), ("code", code), ("grant_type", "authorization_code"),
        ]
        if let redirectURI { form.append(("redirect_uri", redirectURI)) }
        do {
            answer = try endpoints.post(url: settings.tokenURL, form: form)
        } catch {
            throw .unavailable("Apple's token endpoint did not answer")
        }
        let object =
            answer.body.count <= 64 * 1024
            ? (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] : nil
        guard answer.status == 200 else {
            // Apple's own error code is safe to name; its description is not passed on.
            let code = (object?["error"] as? String).map { JWTVerifier.printable($0) } ?? "HTTP \(answer.status)"
            if answer.status >= 500 { throw .unavailable("Apple's token endpoint failed (\(code))") }
            throw .invalidGrant("Apple refused the authorization code (\(code))")
        }
        guard let idToken = object?["id_token"] as? String else {
            throw .unavailable("Apple's token endpoint answered without an id_token")
        }
        var scoped = settings
        scoped.appIDs = [clientID]
        scoped.servicesID = nil
        return try verifier.verify(idToken, settings: scoped, rawNonce: nil, nonceRule: .notChecked, now: now)
    }
}

/// Apple's endpoints where none were configured: every call fails (Sign in with Apple then
/// answers 503, nothing else changes).
public struct UnreachableAppleEndpoints: AppleEndpoints {
    public init() {}
    public func keys(url: String) throws -> [UInt8] { throw ServiceError.unavailable("Apple cannot be reached") }
    public func post(url: String, form: [(String, String)]) throws -> (status: Int, body: [UInt8]) {
        throw ServiceError.unavailable("Apple cannot be reached")
    }
}

import Foundation
import SesameCrypto
import SesameService

/// A yes/no claim as Apple writes it: sometimes the JSON string `"true"`/`"false"`, sometimes a JSON
/// boolean (`email_verified` and `is_private_email` come both ways), so a verifier must read both.
public enum AppleBoolClaim: Sendable, Hashable {
    /// The string `"true"` or `"false"`.
    case string(Bool)
    /// A JSON `true` or `false`.
    case boolean(Bool)

    /// The claim value as it goes into the token.
    public var claimValue: JWTClaimValue {
        switch self {
        case .string(let flag): .string(flag ? "true" : "false")
        case .boolean(let flag): .bool(flag)
        }
    }
}

/// What an identity token from the fake Apple ID service says about the person: the claims of
/// Apple's `id_token`, each settable so a test can send what Apple sends, or break one field.
///
/// `iss`, `iat` and `exp` are filled in when the token is minted (the fake's issuer and clock,
/// unless `issuer` or `issuedAt` say otherwise).
public struct AppleIdentityClaims: Sendable, Hashable {
    /// The email domain of Apple's private relay ("Hide My Email").
    public static let privateRelayDomain = "privaterelay.appleid.com"

    /// `aud`: the app's bundle ID (native sign-in) or the Services ID (web, Android).
    public var audience: String
    /// `sub`: the person's stable identifier within the developer team.
    public var subject: String
    /// The raw nonce the app generated; the token carries `nonce` = lowercase hex SHA-256 of it.
    /// Nil leaves `nonce` out, as Apple does when the request carried none.
    public var rawNonce: String?
    /// `nonce_supported`; nil leaves it out.
    public var nonceSupported: Bool?
    /// `email`: a real or private-relay address; nil leaves it out (managed accounts may have none).
    public var email: String?
    /// `email_verified`; nil leaves it out.
    public var emailVerified: AppleBoolClaim?
    /// `is_private_email`; nil leaves it out (Apple does so when no relay address is used).
    public var isPrivateEmail: AppleBoolClaim?
    /// `real_user_status`: 0 unsupported, 1 unknown, 2 likely real; nil leaves it out.
    public var realUserStatus: Int?
    /// `auth_time`; nil means the moment the token is minted.
    public var authTime: Date?
    /// `iat`; nil means the fake's clock at minting.
    public var issuedAt: Date?
    /// `exp` − `iat`, in seconds (Apple: about five minutes). Negative values mint expired tokens.
    public var lifetime: Int
    /// `iss`; nil means the fake's issuer (by default `https://appleid.apple.com`).
    public var issuer: String?
    /// Further claims (`transfer_sub`, `org_id`, `c_hash`, …). They are written last, so one named
    /// like a claim above replaces it (say a `nonce` that is not a hash).
    public var extra: [String: JWTClaimValue]

    /// Claims for `subject` signing in to `audience`. With an `email`, `email_verified` is `"true"`
    /// and `is_private_email` is `"true"` for a private-relay address (absent otherwise).
    public init(
        audience: String, subject: String, rawNonce: String? = nil, email: String? = nil, lifetime: Int = 300
    ) {
        self.audience = audience
        self.subject = subject
        self.rawNonce = rawNonce
        self.nonceSupported = true
        self.email = email
        self.emailVerified = email == nil ? nil : .string(true)
        self.isPrivateEmail =
            email?.lowercased().hasSuffix("@" + Self.privateRelayDomain) == true ? .string(true) : nil
        self.realUserStatus = 2
        self.authTime = nil
        self.issuedAt = nil
        self.lifetime = lifetime
        self.issuer = nil
        self.extra = [:]
    }

    /// The `nonce` claim for a raw nonce: lowercase hex SHA-256 of its UTF-8 bytes.
    public static func nonceHash(_ rawNonce: String) -> String {
        Digest.sha256(Array(rawNonce.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// Every claim but the four the minting moment decides (`iss`, `aud`, `iat`, `exp`), plus
    /// those four where `issuer` or `extra` set them. An authorization code carries these; the
    /// token endpoint adds the rest when it redeems the code. `authTime` stands in for a missing
    /// `auth_time`.
    func carriedClaims(authTime defaultAuthTime: Date) -> [String: JWTClaimValue] {
        var claims: [String: JWTClaimValue] = ["sub": .string(subject)]
        if let rawNonce { claims["nonce"] = .string(Self.nonceHash(rawNonce)) }
        if let nonceSupported { claims["nonce_supported"] = .bool(nonceSupported) }
        if let email { claims["email"] = .string(email) }
        if let emailVerified { claims["email_verified"] = emailVerified.claimValue }
        if let isPrivateEmail { claims["is_private_email"] = isPrivateEmail.claimValue }
        if let realUserStatus { claims["real_user_status"] = .int(Int64(realUserStatus)) }
        claims["auth_time"] = .int(Self.seconds(authTime ?? defaultAuthTime))
        if let issuer { claims["iss"] = .string(issuer) }
        claims.merge(extra) { _, replacement in replacement }
        return claims
    }

    /// The full claim set of a token minted at `now` by an issuer named `defaultIssuer`.
    func claimSet(defaultIssuer: String, now: Date) -> [String: JWTClaimValue] {
        let issued = issuedAt ?? now
        return Self.claimSet(
            carrying: carriedClaims(authTime: issued), issuer: defaultIssuer, audience: audience, issuedAt: issued,
            lifetime: lifetime)
    }

    /// `iss`, `aud`, `iat` and `exp`, with `carried` written over them.
    static func claimSet(
        carrying carried: [String: JWTClaimValue], issuer: String, audience: String, issuedAt: Date, lifetime: Int
    ) -> [String: JWTClaimValue] {
        var claims: [String: JWTClaimValue] = [
            "iss": .string(issuer), "aud": .string(audience), "iat": .int(seconds(issuedAt)),
            "exp": .int(seconds(issuedAt) + Int64(lifetime)),
        ]
        claims.merge(carried) { _, replacement in replacement }
        return claims
    }

    /// Whole Unix seconds (NumericDate).
    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}

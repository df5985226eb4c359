import SesameStore

/// A refresh token just issued: the opaque string for the client (shown once) and the stored record.
public struct IssuedRefreshToken: Sendable, Hashable {
    /// "sesame_rt_" + base64url(32 random bytes). Never stored; only its SHA-256 is.
    public let token: String
    /// The stored record (holds the hash, family, client, user, scope, amr, auth time, expiries).
    public let record: RefreshTokenRecord
}

/// What presenting a refresh token at the token endpoint led to.
public enum RefreshTokenOutcome: Sendable, Hashable {
    /// Valid: it is now used, and `next` replaces it (same family, same absolute expiry).
    /// `previous` is the presented token's record (user, scope, amr, auth time for the new tokens).
    case rotated(previous: RefreshTokenRecord, next: IssuedRefreshToken)
    /// It was already used or revoked: the whole family has been revoked (the presenter may be a thief).
    case reused(familyID: String)
    /// Its family's absolute lifetime or its own idle lifetime is over.
    case expired
    /// It belongs to another client (nothing was changed).
    case wrongClient
    /// Malformed, or no such token.
    case invalid

    /// Auth0's text for every refresh token that cannot be used (unknown, foreign, expired,
    /// revoked or reused), which Auth0.swift's `isInvalidRefreshToken` and Auth0.Android's
    /// RENEW_FAILED compare byte for byte.
    public static let invalidDescription = "Unknown or invalid refresh token."
    /// Auth0's text (with 403) for a refresh token whose user was deleted.
    public static let deletedUserDescription = "The refresh_token was generated for a user who doesn't exist anymore."

    /// The `error_description` for the token endpoint (all failures are `invalid_grant`).
    public var failureDescription: String? {
        switch self {
        case .rotated: return nil
        case .reused, .expired, .wrongClient, .invalid: return Self.invalidDescription
        }
    }

}

/// What a presented refresh token is, before anything is changed.
public enum RefreshTokenInspection: Sendable, Hashable {
    /// Valid now: it may be rotated.
    case usable(RefreshTokenRecord)
    /// Already used or revoked: presenting it again revokes its family.
    case spent(RefreshTokenRecord)
    /// Its family's absolute lifetime or its own idle lifetime is over.
    case expired
    /// It belongs to another client.
    case wrongClient
    /// Malformed, or no such token.
    case invalid
}

/// What an RFC 7009 revocation request led to. Unknown tokens are not an error (RFC 7009 §2.2).
public enum RefreshTokenRevocation: Sendable, Hashable {
    /// The token's family is revoked now (or already was).
    case revoked(familyID: String)
    /// No such token (or not a Sesame refresh token): answer 200 all the same.
    case unknown
    /// The token belongs to another client: refuse, change nothing.
    case wrongClient
}

/// How long refresh tokens live.
public struct RefreshTokenPolicy: Sendable, Hashable {
    /// Absolute lifetime of a family from its first token, in seconds.
    public var absoluteLifetime: Int
    /// Idle lifetime of each token from its issue, in seconds (capped by the family's absolute expiry).
    public var idleLifetime: Int

    /// Explicit lifetimes.
    public init(absoluteLifetime: Int, idleLifetime: Int) {
        self.absoluteLifetime = absoluteLifetime
        self.idleLifetime = idleLifetime
    }

    /// The tenant's configured lifetimes.
    public init(tenant: TenantRecord) {
        self.init(absoluteLifetime: tenant.refreshTokenLifetime, idleLifetime: tenant.refreshTokenIdleLifetime)
    }
}

import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// Opaque refresh tokens: issue, rotate with reuse detection, revoke (RFC 6749 §6, RFC 7009,
/// OAuth 2.0 Security BCP §4.14).
///
/// A token is "sesame_rt_" + base64url(32 random bytes); the store keeps only SHA-256 of the token
/// string. Every rotation marks the presented token used and issues a successor in the same family
/// with the family's absolute expiry and a fresh idle expiry. Presenting a used or revoked token
/// revokes the whole family — inside the same transaction, which commits because reuse is reported
/// as an outcome rather than thrown.
public struct RefreshTokens: Sendable {
    /// The prefix that makes Sesame refresh tokens recognisable (e.g. by secret scanners).
    public static let prefix = "sesame_rt_"
    /// Random bytes per token.
    public static let randomByteCount = 32

    private let store: any SesameStore
    private let clock: any ServiceClock
    private let random: any RandomSource

    /// Refresh tokens over `store`, with an injected clock and random source.
    public init(store: any SesameStore, clock: any ServiceClock, random: any RandomSource = SystemRandom()) {
        self.store = store
        self.clock = clock
        self.random = random
    }

    // MARK: Issue

    /// Starts a new family for a fresh login, inside the caller's transaction (e.g. with the signup).
    /// `familyID` is the family's id when the caller drew it before (an authorization code names
    /// the family it will start, so a reused code can revoke it); nil draws one.
    public func issue(
        tenantID: String, clientID: String, userID: String, scope: String, audience: String?, amr: [String],
        authTime: Date, passkeyID: String? = nil, dpopJKT: String? = nil, familyID: String? = nil,
        policy: RefreshTokenPolicy, in transaction: any StoreTransaction
    ) throws -> IssuedRefreshToken {
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(TimeInterval(policy.absoluteLifetime))
        let template = RefreshTokenRecord(
            tenantID: tenantID, id: "", tokenHash: [], familyID: try familyID ?? Self.identifier("rtf_", random),
            clientID: clientID, userID: userID, scope: scope, audience: audience, amr: amr, authTime: authTime,
            passkeyID: passkeyID, createdAt: now, expiresAt: expiresAt, idleExpiresAt: expiresAt, dpopJKT: dpopJKT)
        let issued = try successor(of: template, now: now, policy: policy)
        try transaction.refreshTokens.insert(issued.record)
        return issued
    }

    /// Starts a new family in its own (relaxed) write transaction.
    public func issue(
        tenantID: String, clientID: String, userID: String, scope: String, audience: String?, amr: [String],
        authTime: Date, passkeyID: String? = nil, dpopJKT: String? = nil, familyID: String? = nil,
        policy: RefreshTokenPolicy
    ) throws -> IssuedRefreshToken {
        try store.write(.relaxed) { transaction in
            try issue(
                tenantID: tenantID, clientID: clientID, userID: userID, scope: scope, audience: audience, amr: amr,
                authTime: authTime, passkeyID: passkeyID, dpopJKT: dpopJKT, familyID: familyID, policy: policy,
                in: transaction)
        }
    }

    // MARK: Rotate

    /// What a presented token is, read without changing anything.
    public func inspect(
        _ token: String, tenantID: String, clientID: String, in transaction: any StoreTransaction
    ) throws -> RefreshTokenInspection {
        guard let record = try find(token, tenantID: tenantID, in: transaction) else { return .invalid }
        guard record.clientID == clientID else { return .wrongClient }
        if record.usedAt != nil || record.revokedAt != nil { return .spent(record) }
        let now = clock.now()
        guard now < record.expiresAt, now < record.idleExpiresAt else { return .expired }
        return .usable(record)
    }

    /// A successor drawn before the rotation, so the tokens that go with it can be signed before
    /// the write transaction that rotates (and after which nothing may fail).
    public func prepareSuccessor() throws -> PreparedRefreshToken {
        let (token, hash) = try Self.makeToken(random)
        return PreparedRefreshToken(token: token, hash: hash, id: try Self.identifier("rt_", random))
    }

    /// Exchanges `token` (presented by `clientID`) for `successor`, in the caller's transaction.
    /// Check order: format → lookup → client → used/revoked (revokes the family) → expiry →
    /// `check` (the caller's own conditions, e.g. the scopes asked for and the user). Only when
    /// every check passed is anything but a reused family's revocation written.
    public func rotate(
        _ token: String, tenantID: String, clientID: String, policy: RefreshTokenPolicy,
        successor: PreparedRefreshToken, check: (RefreshTokenRecord, any StoreTransaction) throws -> Void,
        in transaction: any StoreTransaction
    ) throws -> RefreshTokenOutcome {
        let record: RefreshTokenRecord
        switch try inspect(token, tenantID: tenantID, clientID: clientID, in: transaction) {
        case .usable(let found): record = found
        case .spent(let found):
            try transaction.refreshTokens.revokeFamily(tenantID: tenantID, familyID: found.familyID, at: clock.now())
            return .reused(familyID: found.familyID)
        case .expired: return .expired
        case .wrongClient: return .wrongClient
        case .invalid: return .invalid
        }
        try check(record, transaction)
        let now = clock.now()
        var used = record
        used.usedAt = now
        // Compare-and-set: writes are serialisable, so the token read above is still unused here;
        // should another writer have spent it all the same, this is reuse, not a second rotation.
        guard try transaction.refreshTokens.markUsed(tenantID: tenantID, id: record.id, at: now) else {
            try transaction.refreshTokens.revokeFamily(tenantID: tenantID, familyID: record.familyID, at: now)
            return .reused(familyID: record.familyID)
        }
        let next = successor.record(after: record, now: now, policy: policy)
        try transaction.refreshTokens.insert(next.record)
        return .rotated(previous: used, next: next)
    }

    /// Exchanges `token` for a fresh successor in its own (relaxed) write transaction, with no
    /// further conditions.
    public func rotate(
        _ token: String, tenantID: String, clientID: String, policy: RefreshTokenPolicy
    ) throws -> RefreshTokenOutcome {
        let successor = try prepareSuccessor()
        return try store.write(.relaxed) { transaction in
            try rotate(
                token, tenantID: tenantID, clientID: clientID, policy: policy, successor: successor,
                check: { _, _ in }, in: transaction)
        }
    }

    // MARK: Revoke

    /// RFC 7009 revocation by `clientID`: revokes the token's whole family. Unknown tokens are fine.
    public func revoke(_ token: String, tenantID: String, clientID: String) throws -> RefreshTokenRevocation {
        try store.write(.durable) { transaction in
            guard let record = try find(token, tenantID: tenantID, in: transaction) else { return .unknown }
            guard record.clientID == clientID else { return .wrongClient }
            try transaction.refreshTokens.revokeFamily(tenantID: tenantID, familyID: record.familyID, at: clock.now())
            return .revoked(familyID: record.familyID)
        }
    }

    // MARK: Pure parts

    /// SHA-256 of the token string, if it has Sesame's refresh-token shape; nil otherwise.
    public static func hash(ofToken token: String) -> [UInt8]? {
        guard token.hasPrefix(prefix) else { return nil }
        let body = token.utf8.dropFirst(prefix.utf8.count)
        guard body.count == (randomByteCount * 4 + 2) / 3, !body.contains(UInt8(ascii: "=")),
            let decoded = try? Base64URL.decode(body), decoded.count == randomByteCount
        else { return nil }
        return Digest.sha256(Array(token.utf8))
    }

    /// A fresh token string and its hash.
    static func makeToken(_ random: any RandomSource) throws -> (token: String, hash: [UInt8]) {
        let token = prefix + Base64URL.encode(try random.bytes(count: randomByteCount))
        let hash = Digest.sha256(Array(token.utf8))
        guard hash.count == HashAlgorithm.sha256.outputSize else { throw CryptoError.library("SHA-256 failed") }
        return (token, hash)
    }

    /// A prefixed identifier with 128 random bits in base64url.
    static func identifier(_ prefix: String, _ random: any RandomSource) throws -> String {
        prefix + Base64URL.encode(try random.bytes(count: 16))
    }

    /// The record the hash of `token` names, confirmed with a constant-time comparison.
    private func find(_ token: String, tenantID: String, in transaction: any StoreTransaction) throws
        -> RefreshTokenRecord?
    {
        guard let hash = Self.hash(ofToken: token),
            let record = try transaction.refreshTokens.get(tenantID: tenantID, tokenHash: hash),
            constantTimeEquals(record.tokenHash, hash), record.tenantID == tenantID
        else { return nil }
        return record
    }

    /// A new token in `record`'s family: same grant, same absolute expiry, fresh idle expiry.
    private func successor(of record: RefreshTokenRecord, now: Date, policy: RefreshTokenPolicy) throws
        -> IssuedRefreshToken
    {
        try prepareSuccessor().record(after: record, now: now, policy: policy)
    }
}

/// A refresh token drawn but not yet stored: its string, hash and record id.
public struct PreparedRefreshToken: Sendable, Hashable {
    /// "sesame_rt_" + base64url(32 random bytes), for the client.
    public let token: String
    let hash: [UInt8]
    let id: String

    /// The record of this token as the successor of `record`: same family and grant, same absolute
    /// expiry, a fresh idle expiry.
    func record(after record: RefreshTokenRecord, now: Date, policy: RefreshTokenPolicy) -> IssuedRefreshToken {
        var next = record
        next.id = id
        next.tokenHash = hash
        next.createdAt = now
        next.idleExpiresAt = min(now.addingTimeInterval(TimeInterval(policy.idleLifetime)), record.expiresAt)
        next.usedAt = nil
        next.revokedAt = nil
        return IssuedRefreshToken(token: token, record: next)
    }
}

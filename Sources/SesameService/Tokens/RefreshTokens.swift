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
    public func issue(
        tenantID: String, clientID: String, userID: String, scope: String, audience: String?, amr: [String],
        authTime: Date, policy: RefreshTokenPolicy, in transaction: any StoreTransaction
    ) throws -> IssuedRefreshToken {
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(TimeInterval(policy.absoluteLifetime))
        let template = RefreshTokenRecord(
            tenantID: tenantID, id: "", tokenHash: [], familyID: try Self.identifier("rtf_", random),
            clientID: clientID, userID: userID, scope: scope, audience: audience, amr: amr, authTime: authTime,
            createdAt: now, expiresAt: expiresAt, idleExpiresAt: expiresAt)
        let issued = try successor(of: template, now: now, policy: policy)
        try transaction.insertRefreshToken(issued.record)
        return issued
    }

    /// Starts a new family in its own (relaxed) write transaction.
    public func issue(
        tenantID: String, clientID: String, userID: String, scope: String, audience: String?, amr: [String],
        authTime: Date, policy: RefreshTokenPolicy
    ) throws -> IssuedRefreshToken {
        try store.write(.relaxed) { transaction in
            try issue(
                tenantID: tenantID, clientID: clientID, userID: userID, scope: scope, audience: audience, amr: amr,
                authTime: authTime, policy: policy, in: transaction)
        }
    }

    // MARK: Rotate

    /// Exchanges `token` (presented by `clientID`) for its successor, in the caller's transaction.
    /// Check order: format → lookup → client → used/revoked (revokes the family) → expiry.
    public func rotate(
        _ token: String, tenantID: String, clientID: String, policy: RefreshTokenPolicy,
        in transaction: any StoreTransaction
    ) throws -> RefreshTokenOutcome {
        guard let record = try find(token, tenantID: tenantID, in: transaction) else { return .invalid }
        guard record.clientID == clientID else { return .wrongClient }
        let now = clock.now()
        if record.usedAt != nil || record.revokedAt != nil {
            try transaction.revokeRefreshTokenFamily(tenantID: tenantID, familyID: record.familyID, at: now)
            return .reused(familyID: record.familyID)
        }
        guard now < record.expiresAt, now < record.idleExpiresAt else { return .expired }
        var used = record
        used.usedAt = now
        try transaction.updateRefreshToken(used)
        let next = try successor(of: record, now: now, policy: policy)
        try transaction.insertRefreshToken(next.record)
        return .rotated(previous: used, next: next)
    }

    /// Exchanges `token` for its successor in its own (relaxed) write transaction.
    public func rotate(
        _ token: String, tenantID: String, clientID: String, policy: RefreshTokenPolicy
    ) throws -> RefreshTokenOutcome {
        try store.write(.relaxed) { transaction in
            try rotate(token, tenantID: tenantID, clientID: clientID, policy: policy, in: transaction)
        }
    }

    // MARK: Revoke

    /// RFC 7009 revocation by `clientID`: revokes the token's whole family. Unknown tokens are fine.
    public func revoke(_ token: String, tenantID: String, clientID: String) throws -> RefreshTokenRevocation {
        try store.write(.durable) { transaction in
            guard let record = try find(token, tenantID: tenantID, in: transaction) else { return .unknown }
            guard record.clientID == clientID else { return .wrongClient }
            try transaction.revokeRefreshTokenFamily(tenantID: tenantID, familyID: record.familyID, at: clock.now())
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
            let record = try transaction.refreshToken(tenantID: tenantID, tokenHash: hash),
            constantTimeEquals(record.tokenHash, hash), record.tenantID == tenantID
        else { return nil }
        return record
    }

    /// A new token in `record`'s family: same grant, same absolute expiry, fresh idle expiry.
    private func successor(of record: RefreshTokenRecord, now: Date, policy: RefreshTokenPolicy) throws
        -> IssuedRefreshToken
    {
        let (token, hash) = try Self.makeToken(random)
        let idle = now.addingTimeInterval(TimeInterval(policy.idleLifetime))
        var next = record
        next.id = try Self.identifier("rt_", random)
        next.tokenHash = hash
        next.createdAt = now
        next.idleExpiresAt = min(idle, record.expiresAt)
        next.usedAt = nil
        next.revokedAt = nil
        return IssuedRefreshToken(token: token, record: next)
    }
}

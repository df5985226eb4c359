import Foundation
import SesameCrypto
import SesameService
import SesameStore
import Testing

@Suite("Refresh tokens")
struct RefreshTokensTests {
    static let tenant = "ten_1"
    static let client = "client-123"
    static let policy = RefreshTokenPolicy(absoluteLifetime: 30 * 86_400, idleLifetime: 7 * 86_400)

    let store = InMemoryStore()
    let clock = ManualClock(TokenFixtures.start)
    let tokens: RefreshTokens

    init() {
        tokens = RefreshTokens(store: store, clock: clock, random: DeterministicRandom(seed: 42))
    }

    private func issue(policy: RefreshTokenPolicy = policy) throws -> IssuedRefreshToken {
        try tokens.issue(
            tenantID: Self.tenant, clientID: Self.client, userID: "sesame|u1", scope: "openid offline_access",
            audience: nil, amr: ["pop", "hwk", "user"], authTime: TokenFixtures.start, policy: policy)
    }

    private func rotate(_ token: String, client: String = client, policy: RefreshTokenPolicy = policy) throws
        -> RefreshTokenOutcome
    {
        try tokens.rotate(token, tenantID: Self.tenant, clientID: client, policy: policy)
    }

    private func stored(_ token: String) throws -> RefreshTokenRecord? {
        let hash = try #require(RefreshTokens.hash(ofToken: token))
        return try store.read { try $0.refreshTokens.get(tenantID: Self.tenant, tokenHash: hash) }
    }

    private func next(_ outcome: RefreshTokenOutcome) throws -> IssuedRefreshToken {
        guard case .rotated(_, let next) = outcome else {
            Issue.record("expected a rotation, got \(outcome)")
            throw CancellationError()
        }
        return next
    }

    @Test("issue: a prefixed opaque token; only its SHA-256 is stored")
    func issuing() throws {
        let issued = try issue()
        #expect(issued.token.hasPrefix("sesame_rt_"))
        #expect(issued.token.utf8.count == 10 + 43)
        let record = try #require(try stored(issued.token))
        #expect(record == issued.record)
        #expect(record.tokenHash == Digest.sha256(Array(issued.token.utf8)))
        #expect(record.expiresAt == TokenFixtures.start.addingTimeInterval(30 * 86_400))
        #expect(record.idleExpiresAt == TokenFixtures.start.addingTimeInterval(7 * 86_400))
        #expect(record.amr == ["pop", "hwk", "user"])
        #expect(record.usedAt == nil && record.revokedAt == nil)
    }

    @Test("rotate: the old token is marked used; the new one is in the same family with the same absolute expiry")
    func rotation() throws {
        let first = try issue()
        clock.advance(by: 86_400)
        let outcome = try rotate(first.token)
        guard case .rotated(let previous, let second) = outcome else {
            Issue.record("expected a rotation, got \(outcome)")
            return
        }
        #expect(previous.id == first.record.id)
        #expect(previous.usedAt == TokenFixtures.start.addingTimeInterval(86_400))
        #expect(try stored(first.token)?.usedAt == previous.usedAt)
        #expect(second.token != first.token)
        #expect(second.record.familyID == first.record.familyID)
        #expect(second.record.expiresAt == first.record.expiresAt)
        #expect(second.record.idleExpiresAt == TokenFixtures.start.addingTimeInterval(8 * 86_400))
        #expect(second.record.userID == "sesame|u1" && second.record.scope == "openid offline_access")
        #expect(try stored(second.token) == second.record)
    }

    @Test("reuse of a used token revokes the whole family")
    func reuse() throws {
        let first = try issue()
        let second = try next(try rotate(first.token))
        #expect(try rotate(first.token) == .reused(familyID: first.record.familyID))
        #expect(try stored(second.token)?.revokedAt == TokenFixtures.start)
        #expect(try rotate(second.token) == .reused(familyID: first.record.familyID))
    }

    @Test("other families are not touched by a reuse")
    func reuseIsolation() throws {
        let mine = try issue()
        let other = try issue()
        _ = try next(try rotate(mine.token))
        #expect(try rotate(mine.token) == .reused(familyID: mine.record.familyID))
        _ = try next(try rotate(other.token))
    }

    @Test("idle expiry")
    func idleExpiry() throws {
        let first = try issue()
        clock.advance(by: 7 * 86_400)
        #expect(try rotate(first.token) == .expired)
        #expect(try stored(first.token)?.usedAt == nil)
    }

    @Test("absolute expiry holds across rotations, and caps the idle expiry")
    func absoluteExpiry() throws {
        let policy = RefreshTokenPolicy(absoluteLifetime: 3 * 86_400, idleLifetime: 2 * 86_400)
        var current = try issue(policy: policy)
        for _ in 0..<2 {
            clock.advance(by: 86_400)
            current = try next(try rotate(current.token, policy: policy))
        }
        #expect(current.record.idleExpiresAt == TokenFixtures.start.addingTimeInterval(3 * 86_400))
        clock.advance(by: 86_400)
        #expect(try rotate(current.token, policy: policy) == .expired)
    }

    @Test("another client's token is refused and left unchanged")
    func wrongClient() throws {
        let first = try issue()
        #expect(try rotate(first.token, client: "client-999") == .wrongClient)
        #expect(try stored(first.token)?.usedAt == nil)
        _ = try next(try rotate(first.token))
    }

    @Test(
        "malformed or unknown tokens are invalid",
        arguments: [
            "", "sesame_rt_", "sesame_rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "sesame_rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "sesame_rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB",
            "other_rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "sesame_rt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ])
    func invalid(token: String) throws {
        _ = try issue()
        #expect(try rotate(token) == .invalid)
    }

    @Test("hash(ofToken:) accepts only the exact shape")
    func hashShape() {
        #expect(RefreshTokens.hash(ofToken: "sesame_rt_" + String(repeating: "A", count: 43)) != nil)
        #expect(RefreshTokens.hash(ofToken: "sesame_rt_" + String(repeating: "A", count: 42) + "B") == nil)
        #expect(RefreshTokens.hash(ofToken: "sesame_rt_" + String(repeating: "A", count: 44)) == nil)
    }

    @Test("revocation (RFC 7009) revokes the family; unknown tokens are fine; other clients are refused")
    func revocation() throws {
        let first = try issue()
        let second = try next(try rotate(first.token))
        #expect(
            try tokens.revoke(second.token, tenantID: Self.tenant, clientID: "client-999") == .wrongClient)
        #expect(try stored(second.token)?.revokedAt == nil)
        #expect(
            try tokens.revoke(second.token, tenantID: Self.tenant, clientID: Self.client)
                == .revoked(familyID: first.record.familyID))
        #expect(try stored(first.token)?.revokedAt != nil)
        #expect(try rotate(second.token) == .reused(familyID: first.record.familyID))
        #expect(try tokens.revoke("not-a-token", tenantID: Self.tenant, clientID: Self.client) == .unknown)
    }

    @Test("a token of one tenant is unknown in another")
    func tenantIsolation() throws {
        let first = try issue()
        #expect(
            try tokens.rotate(first.token, tenantID: "ten_2", clientID: Self.client, policy: Self.policy) == .invalid)
    }
}

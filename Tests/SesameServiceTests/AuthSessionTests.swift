import Foundation
import SesameCrypto
import SesameStore
import Testing
import WebAuthn

@testable import SesameService

/// Audit item 5: each pending signup held 14–16 KiB of what the client sent, expired sessions were
/// swept only when 100,000 were held, and one address could fill the table. Now a pending signup's
/// text is packed within a fixed budget, sessions are swept on a timer (and on every insert), and
/// each client address may hold only so many.
@Suite("Audit 5: pending auth sessions are bounded")
struct AuthSessionTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func login(from requester: String, expiresIn seconds: TimeInterval = 60) -> AuthSession {
        AuthSession(
            tenantID: "t1", clientID: "c1", connectionID: "con1",
            ceremony: .login(
                state: AuthenticationState(challenge: Array(repeating: 1, count: 32), userVerification: .preferred)),
            expiresAt: now.addingTimeInterval(seconds), requester: requester)
    }

    @Test func aRequesterMayHoldOnlySoManyPendingSessions() throws {
        let sessions = InMemoryAuthSessions(capacity: 100, maxPerRequester: 3)
        var handles: [String] = []
        for _ in 0..<3 { handles.append(try sessions.insert(login(from: "198.51.100.7"), now: now)) }
        let refused = #expect(throws: ServiceError.self) { try sessions.insert(login(from: "198.51.100.7"), now: now) }
        guard case .tooManyRequests(_, let retryAfter) = refused else {
            Issue.record("expected 429, got \(String(describing: refused))")
            return
        }
        #expect(retryAfter == 60)
        // Another address is not affected; a redeemed session frees a place.
        _ = try sessions.insert(login(from: "203.0.113.9"), now: now)
        #expect(sessions.consume(handles[0]) != nil)
        #expect(sessions.count(for: "198.51.100.7") == 2)
        _ = try sessions.insert(login(from: "198.51.100.7"), now: now)
        // Expired sessions free their places.
        _ = try sessions.insert(login(from: "203.0.113.9"), now: now.addingTimeInterval(61))
        #expect(sessions.count(for: "198.51.100.7") == 0)
    }

    @Test func theTimerSweepsExpiredSessions() throws {
        let sessions = InMemoryAuthSessions(capacity: 10_000, maxPerRequester: 10_000)
        for index in 0..<5_000 {
            _ = try sessions.insert(login(from: "a\(index % 7)", expiresIn: 60 + Double(index) / 1_000), now: now)
        }
        #expect(sessions.count == 5_000)
        #expect(sessions.sweep(now: now.addingTimeInterval(60 + 2.5)) == 2_501)
        #expect(sessions.count == 2_499)
        #expect(sessions.sweep(now: now.addingTimeInterval(120)) == 2_499)
        #expect(sessions.count == 0)
        #expect((0..<7).allSatisfy { sessions.count(for: "a\($0)") == 0 })
    }

    @Test func aFullTableIsSweptBeforeItRefuses() throws {
        let sessions = InMemoryAuthSessions(capacity: 2, maxPerRequester: 10)
        _ = try sessions.insert(login(from: "a"), now: now)
        _ = try sessions.insert(login(from: "b"), now: now)
        #expect(throws: ServiceError.unavailable("too many pending passkey ceremonies; try again shortly")) {
            try sessions.insert(login(from: "c"), now: now)
        }
        _ = try sessions.insert(login(from: "c"), now: now.addingTimeInterval(60))
        #expect(sessions.count == 1)
    }

    @Test func consumedSessionsAreSingleUse() throws {
        let sessions = InMemoryAuthSessions()
        let handle = try sessions.insert(login(from: "a"), now: now)
        #expect(sessions.consume(handle)?.requester == "a")
        #expect(sessions.consume(handle) == nil)
        #expect(sessions.consume(String(repeating: "x", count: 300)) == nil)
    }

    // MARK: The packed signup profile

    @Test func aPackedProfileRoundTrips() throws {
        let profile = UserProfile(
            email: "jos\u{E9}@example.com", phoneNumber: "+15551234567", username: nil, name: "Jos\u{E9} \u{1F600}",
            givenName: "", familyName: nil, nickname: "\u{0645}\u{200C}\u{0627}", picture: "https://example.com/p.png")
        let metadata = ["plan": "pro", "ref": "", "\u{E9}t\u{E9}": String(repeating: "v", count: 500)]
        let packed = try PendingSignupProfile(profile: profile, metadata: metadata)
        let (unpackedProfile, unpackedMetadata) = try packed.unpack()
        #expect(unpackedProfile == profile)
        #expect(unpackedMetadata == metadata)
        #expect(packed.byteCount < 700)
        let empty = try PendingSignupProfile(profile: UserProfile(email: "a@b.co"), metadata: [:])
        #expect(try empty.unpack().0 == UserProfile(email: "a@b.co"))
        #expect(empty.byteCount == 1 + 2 + 6 + 7 + 1)
    }

    @Test func aProfileOverTheBudgetIsRefused() throws {
        let atBudget = ["k": String(repeating: "v", count: PendingSignupProfile.maxTextBytes - 1 - 6)]
        _ = try PendingSignupProfile(profile: UserProfile(email: "a@b.co"), metadata: atBudget)
        let over = ["k": String(repeating: "v", count: PendingSignupProfile.maxTextBytes - 6)]
        #expect(throws: ServiceError.self) {
            try PendingSignupProfile(profile: UserProfile(email: "a@b.co"), metadata: over)
        }
    }

    @Test func aDamagedPackIsAnErrorNotACrash() {
        for bytes: [UInt8] in [
            [], [1], [1, 200, 0], [2], [0, 0, 0, 0, 0, 0, 0, 0, 1, 5, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 9],
        ] {
            #expect(throws: ServiceError.self) { try PendingSignupProfile(bytes: bytes).unpack() }
        }
    }
}

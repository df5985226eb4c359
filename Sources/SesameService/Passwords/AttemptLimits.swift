import Foundation
import SesameCrypto
import SesameStore

/// Brute-force protection for the password grants, in the store so every process shares it.
///
/// - **Account and address.** At most `maxAccountFailures` consecutive failures for one account
///   from one client address; the window slides (`accountWindow` from the last failure). The
///   count is reserved before the password is checked and cleared by a success, so many parallel
///   guesses cannot get past the limit. The key includes when the password was last set, so a
///   reset or a new password clears the count for every address at once. Other addresses and
///   passkeys are not affected.
/// - **Address.** At most `maxAddressFailures` failed password logins from one address per
///   `addressWindow` (fixed), whichever accounts they name.
///
/// An unknown identifier is counted like an account (by the identifier as typed, normalised), so
/// the 429 does not tell which accounts exist. Keys are SHA-256 of what they count, so no address
/// or identifier is stored in the clear.
struct AttemptLimits: Sendable {
    var maxAccountFailures = 10
    var accountWindow: TimeInterval = 3_600
    var maxAddressFailures = 100
    var addressWindow: TimeInterval = 3_600

    /// Auth0's text for a blocked account and address.
    static let blockedDescription = "Your account has been blocked after multiple consecutive login attempts."

    static func key(_ parts: String...) -> [UInt8] {
        Digest.sha256(Array(("sesame-attempts\u{0}" + parts.joined(separator: "\u{0}")).utf8))
    }

    /// The account key: the user (and when their password was set), or the identifier typed.
    static func accountKey(user: UserRecord?, identifier: String, address: String) -> [UInt8] {
        if let user {
            let generation = user.password.map { String($0.changedAt.timeIntervalSinceReferenceDate) } ?? "-"
            return key("account", user.id, generation, address)
        }
        return key("identifier", TextRules.email(identifier), address)
    }

    static func addressKey(_ address: String) -> [UInt8] { key("address", address) }

    /// Reserves one attempt on both counters, in the caller's write transaction: 429 (and nothing
    /// counted) when either is spent.
    func reserve(
        tenantID: String, account: [UInt8], address: [UInt8], now: Date, in transaction: any StoreTransaction
    ) throws {
        let counters = transaction.attemptCounters
        if let held = try counters.get(tenantID: tenantID, key: account, now: now), held.count >= maxAccountFailures {
            throw ServiceError.tooManyAttempts(Self.blockedDescription, retryAfterSeconds: Self.seconds(held, now))
        }
        if let held = try counters.get(tenantID: tenantID, key: address, now: now), held.count >= maxAddressFailures {
            throw ServiceError.tooManyAttempts(
                "Too many failed logins from this address; try again later.",
                retryAfterSeconds: Self.seconds(held, now))
        }
        _ = try counters.add(
            tenantID: tenantID, key: account, delta: 1, now: now, windowEndsAt: now + accountWindow, sliding: true)
        _ = try counters.add(
            tenantID: tenantID, key: address, delta: 1, now: now, windowEndsAt: now + addressWindow, sliding: false)
    }

    /// After a success: the account's count is cleared and the address gets its attempt back.
    func succeeded(
        tenantID: String, account: [UInt8], address: [UInt8], now: Date, in transaction: any StoreTransaction
    ) throws {
        try transaction.attemptCounters.reset(tenantID: tenantID, key: account)
        _ = try transaction.attemptCounters.add(
            tenantID: tenantID, key: address, delta: -1, now: now, windowEndsAt: now + addressWindow, sliding: false)
    }

    /// After an attempt that checked nothing (the hash gate was full): both counters get it back.
    func giveBack(
        tenantID: String, account: [UInt8], address: [UInt8], now: Date, in transaction: any StoreTransaction
    ) throws {
        _ = try transaction.attemptCounters.add(
            tenantID: tenantID, key: account, delta: -1, now: now, windowEndsAt: now + accountWindow, sliding: false)
        _ = try transaction.attemptCounters.add(
            tenantID: tenantID, key: address, delta: -1, now: now, windowEndsAt: now + addressWindow, sliding: false)
    }

    private static func seconds(_ count: AttemptCount, _ now: Date) -> Int {
        max(1, Int(count.windowEndsAt.timeIntervalSince(now).rounded(.up)))
    }
}

import Foundation
import SesameStore
import Synchronization

/// The caps on SMS codes, against SMS pumping (toll fraud: an attacker makes a server text
/// premium numbers it is paid for). Each is a fixed one-hour window, counted in the store so every
/// process shares it, and checked and counted in the write that keeps the code's challenge, so a
/// code is sent only within all of them:
///
/// | cap | per hour | counted by |
/// |---|---|---|
/// | user | 10 | the account |
/// | address | 20 | the client address asking |
/// | number | 10 | the destination number |
/// | prefix | 30 | the number without its last four digits (a block of 10,000) |
/// | tenant | 500 | the tenant as a whole |
///
/// A refusal is 429 `too_many_attempts` with `Retry-After` (the window's end), an audit entry
/// `sesame_sms_limited` naming the cap, and one more in `sesame_sms_limited_total{cap}`.
public struct SMSLimits: Sendable {
    /// The caps, by the name the audit entry and the metric give them.
    public enum Cap: String, Sendable, CaseIterable {
        case user, address, number, prefix, tenant
    }

    public var perUser = 10
    public var perAddress = 20
    public var perNumber = 10
    public var perPrefix = 30
    public var perTenant = 500
    public static let window: TimeInterval = 3_600

    public init() {}

    func limit(_ cap: Cap) -> Int {
        switch cap {
        case .user: return perUser
        case .address: return perAddress
        case .number: return perNumber
        case .prefix: return perPrefix
        case .tenant: return perTenant
        }
    }

    /// The keys one send counts under.
    static func keys(userID: String, address: String, number: String, tenantID: String) -> [(Cap, [UInt8])] {
        let digits = number.filter(\.isNumber)
        return [
            (.user, AttemptLimits.key("sms", userID)),
            (.address, AttemptLimits.key("sms-address", address)),
            (.number, AttemptLimits.key("sms-number", digits)),
            (.prefix, AttemptLimits.key("sms-prefix", String(digits.dropLast(4)))),
            (.tenant, AttemptLimits.key("sms-tenant", tenantID)),
        ]
    }

    /// Counts one send under every cap, in `transaction`; the first cap it would pass, with the
    /// seconds until its window ends, and nothing counted then.
    func reserve(
        userID: String, address: String, number: String, tenantID: String, now: Date,
        in transaction: any StoreTransaction
    ) throws -> (Cap, Int)? {
        let keys = Self.keys(userID: userID, address: address, number: number, tenantID: tenantID)
        for (cap, key) in keys {
            if let held = try transaction.attemptCounters.get(tenantID: tenantID, key: key, now: now),
                held.count >= limit(cap)
            {
                return (cap, max(1, Int(held.windowEndsAt.timeIntervalSince(now).rounded(.up))))
            }
        }
        for (_, key) in keys {
            _ = try transaction.attemptCounters.add(
                tenantID: tenantID, key: key, delta: 1, now: now, windowEndsAt: now + Self.window, sliding: false)
        }
        return nil
    }
}

/// How often each SMS cap refused a code since the process started (`/metrics`).
public final class SMSLimitCounts: Sendable {
    private let counts = Mutex<[SMSLimits.Cap: Int]>([:])

    public init() {}

    func add(_ cap: SMSLimits.Cap) { counts.withLock { $0[cap, default: 0] += 1 } }

    /// Every cap with its count (zero for a cap that never refused).
    public var all: [(cap: SMSLimits.Cap, count: Int)] {
        let held = counts.withLock { $0 }
        return SMSLimits.Cap.allCases.map { ($0, held[$0] ?? 0) }
    }
}

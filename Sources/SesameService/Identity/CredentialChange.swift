import Foundation
import SesameStore

/// The rule every credential change follows: adding or removing a passkey or a second factor.
///
/// The sign-in behind the request must be at most the connection's `max_auth_age` old
/// (`options.upgrades.max_auth_age`, 300 s unless set), and when the user has an active second
/// factor (TOTP or SMS), that sign-in must have used one: `mfa` in its RFC 8176 `amr`, or a passkey
/// verified with user verification (`pop` and `user`), which counts as two factors (docs/mfa.md).
/// A refresh keeps the sign-in's `auth_time` and `amr`, so a refresh token never makes a change
/// fresh. This is NIST SP 800-63B §6.1.2.1 (binding an authenticator needs the subscriber
/// authenticated at the assurance level of the authenticators held) and RFC 9470's step-up.
public enum CredentialChange {
    /// What the sign-in lacks.
    public enum Shortfall: Sendable, Equatable {
        /// Older than `maxAge` seconds (or of unknown age).
        case stale(maxAge: Int)
        /// Fresh, but without the second factor the user has.
        case secondFactor(maxAge: Int)
    }

    /// Why a sign-in does not authorize the change, or nil when it does.
    public static func shortfall(
        tenant: TenantRecord, user: UserRecord, connection: ConnectionRecord?, authTime: Date?, amr: [String],
        now: Date, secondFactorWaived: Bool = false
    ) -> Shortfall? {
        let maxAge = max(0, connection?.upgrades.maxAuthAge ?? UpgradePolicy().maxAuthAge)
        guard let authTime, now.timeIntervalSince(authTime) <= TimeInterval(maxAge), authTime <= now + 60 else {
            return .stale(maxAge: maxAge)
        }
        if !secondFactorWaived, hasSecondFactor(tenant: tenant, user: user), !usedSecondFactor(amr) {
            return .secondFactor(maxAge: maxAge)
        }
        return nil
    }

    /// 401 `insufficient_user_authentication` (RFC 9470 §3) unless the sign-in authorizes the change.
    static func require(
        tenant: TenantRecord, user: UserRecord, connection: ConnectionRecord?, authTime: Date?, amr: [String],
        now: Date, secondFactorWaived: Bool = false
    ) throws(ServiceError) {
        if let shortfall = shortfall(
            tenant: tenant, user: user, connection: connection, authTime: authTime, amr: amr, now: now,
            secondFactorWaived: secondFactorWaived)
        {
            throw .insufficientUserAuthentication(shortfall)
        }
    }

    /// Whether the user has an active TOTP or SMS factor the tenant still offers.
    static func hasSecondFactor(tenant: TenantRecord, user: UserRecord) -> Bool {
        user.mfa.contains { $0.active && $0.factor != .recoveryCode && tenant.mfa.factors.contains($0.factor) }
    }

    /// Whether a sign-in's methods include a second factor (RFC 8176): `mfa`, or a passkey with UV.
    static func usedSecondFactor(_ amr: [String]) -> Bool {
        amr.contains("mfa") || (amr.contains("pop") && amr.contains("user"))
    }
}

import Foundation
import SesameStore

/// Account pre-hijacking: someone signs up with another person's address (unverified) and adds a
/// passkey, a password, a second factor or an Apple ID of their own, then waits for the owner to
/// take the account over. When the address of an unverified account is first proven by a reset
/// link or a recovery code, everything that signs in and was added before is removed and every
/// session ends, so the owner starts from what they set up themselves, and is told. The
/// verification link asks first (`EmailVerification`): its opener may be the person who set those
/// ways up on another device.
enum FirstEmailProof {
    /// The ways to sign in an unverified account holds: what a first proof of its address removes.
    static func held(by user: UserRecord, tenant: TenantRecord, in transaction: any StoreTransaction) throws
        -> SignInMethods
    {
        guard !user.profile.emailVerified, user.profile.email != nil else { return SignInMethods() }
        var held = SignInMethods()
        held.passkeys = try transaction.passkeys.list(tenantID: tenant.id, userID: user.id).count
        held.password = user.password != nil
        held.secondFactors = user.mfa.filter { $0.factor != .recoveryCode }.count
        held.deviceKeys = try transaction.deviceKeys.list(tenantID: tenant.id, userID: user.id).count
        held.linkedIdentities = try transaction.linkedIdentities.list(tenantID: tenant.id, userID: user.id).count
        return held
    }

    /// In `transaction`, for a user whose address is not yet verified: the address becomes
    /// verified, and every way to sign in added before is removed (the password too unless
    /// `keepPassword`, as a reset replaces it in the same write), with every session and refresh
    /// token. Returns the user as updated (not yet stored: the caller updates it) and what went.
    static func apply(
        to user: UserRecord, tenant: TenantRecord, keepPassword: Bool, now: Date, in transaction: any StoreTransaction
    ) throws -> (UserRecord, SignInMethods) {
        guard !user.profile.emailVerified, user.profile.email != nil else { return (user, SignInMethods()) }
        var updated = user
        var removed = try held(by: user, tenant: tenant, in: transaction)
        let passkeys = try transaction.passkeys.list(tenantID: tenant.id, userID: user.id)
        for passkey in passkeys { try transaction.passkeys.delete(tenantID: tenant.id, id: passkey.id) }
        try DeletedPasskeys.remember(passkeys, tenant: tenant, now: now, in: transaction)
        for key in try transaction.deviceKeys.list(tenantID: tenant.id, userID: user.id) {
            _ = try transaction.deviceKeys.delete(tenantID: tenant.id, id: key.id)
        }
        for identity in try transaction.linkedIdentities.list(tenantID: tenant.id, userID: user.id) {
            _ = try transaction.linkedIdentities.delete(
                tenantID: tenant.id, connectionID: identity.connectionID, subject: identity.subject)
        }
        updated.mfa = []
        if keepPassword {
            removed.password = false
        } else {
            updated.password = nil
        }
        updated.profile.emailVerified = true
        updated.updatedAt = now
        try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: user.id, at: now)
        try transaction.ssoSessions.deleteAll(tenantID: tenant.id, userID: user.id)
        return (updated, removed)
    }

    /// Tells the user what went (nothing when nothing went).
    static func notify(_ removed: SignInMethods, user: UserRecord, tenant: TenantRecord, messages: any MessageSender) {
        guard !removed.isEmpty, let email = user.profile.email else { return }
        var what: [String] = []
        if removed.passkeys > 0 { what.append("\(removed.passkeys) passkey\(removed.passkeys == 1 ? "" : "s")") }
        if removed.password { what.append("a password") }
        if removed.secondFactors > 0 {
            what.append("\(removed.secondFactors) second factor\(removed.secondFactors == 1 ? "" : "s")")
        }
        if removed.deviceKeys > 0 {
            what.append("\(removed.deviceKeys) device key\(removed.deviceKeys == 1 ? "" : "s")")
        }
        if removed.linkedIdentities > 0 { what.append("a linked Apple ID") }
        try? messages.send(
            OutgoingMessage(
                tenantID: tenant.id, channel: .email, template: .credentialsRemoved, recipient: email,
                text: "Your email address is now confirmed for your \(tenant.name) account. Ways to sign in that were "
                    + "added before it was confirmed were removed (\(what.joined(separator: ", "))), and every "
                    + "device was signed out: if someone else signed up with your address, they can no longer "
                    + "sign in. Add your own passkey or password at \(TokenService.issuer(tenant))account."))
    }
}

/// Counts of the ways to sign in to one account, by kind: what an unverified account holds, or
/// what the first proof of its address removed.
public struct SignInMethods: Sendable, Equatable {
    public var passkeys = 0
    public var password = false
    public var secondFactors = 0
    public var deviceKeys = 0
    public var linkedIdentities = 0

    public init() {}

    public var isEmpty: Bool { self == SignInMethods() }
}

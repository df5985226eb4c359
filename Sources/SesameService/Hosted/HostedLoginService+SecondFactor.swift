import Foundation
import SesameStore
import SesameWire

/// The ways out of the hosted second-factor step, and the recovery that asks for the factor.
///
/// A user at the step may answer with their authenticator app, an SMS code or a recovery code,
/// whichever they have; a used recovery code is replaced by a new one, which the page shows until
/// the user says they saved it. An account recovery by email code, for a user with a second
/// factor, asks for that factor (or a recovery code) before a new way in is set: the mailbox alone
/// never gets past a second factor. Someone who lost both is sent to the support path, an
/// administrator's reset (docs/mfa.md).
extension HostedLoginService {
    /// What the second-factor step may offer the user besides the one it shows.
    public struct SecondFactorOptions: Sendable, Equatable {
        /// The user's active factors the tenant offers (TOTP, SMS), in that order.
        public var factors: [MFAFactor]
        /// The user has a recovery code the tenant accepts.
        public var recoveryCode: Bool
        /// The user has a passkey (a sign-in with it needs no second factor).
        public var passkey: Bool
    }

    /// The options of the pending second-factor step.
    public func secondFactorOptions(tenant: TenantRecord, pending: PendingAuthorization) throws(ServiceError)
        -> SecondFactorOptions
    {
        let caller = try mfa.caller(mfaToken: try mfaToken(pending), tenant: tenant)
        return try access.read { transaction in
            guard let user = try transaction.users.get(tenantID: tenant.id, id: caller.userID) else {
                throw AuthorizationService.expired
            }
            let active = user.mfa.filter { $0.active && tenant.mfa.factors.contains($0.factor) }
            let passkeys = try transaction.passkeys.list(tenantID: tenant.id, userID: user.id)
            return SecondFactorOptions(
                factors: [MFAFactor.otp, .sms].filter { factor in active.contains { $0.factor == factor } },
                recoveryCode: active.contains { $0.factor == .recoveryCode },
                passkey: !passkeys.isEmpty && pending.connection.passkey.enabled && !pending.recovering)
        }
    }

    /// The recovery-code answer to the second-factor step; the new code is kept for the page.
    public func recoveryCodeSignIn(tenant: TenantRecord, pending: PendingAuthorization, code: String?)
        throws(ServiceError) -> SignInProof
    {
        let completion = try mfa.completeRecovery(
            tenant: tenant, client: pending.client, mfaToken: try mfaToken(pending), recoveryCode: code,
            keepNewCode: true)
        return SignInProof(
            user: completion.user, amr: completion.amr, authTime: clock.now(),
            passwordStatus: completion.ticket.passwordStatus)
    }

    /// The recovery code the user has yet to save, for the page that shows it (nil: none).
    public func unsavedRecoveryCode(tenant: TenantRecord, userID: String) throws(ServiceError) -> String? {
        try mfa.unsavedRecoveryCode(tenant: tenant, userID: userID)
    }

    /// Holds `proof` while the new recovery code is shown.
    public func holdForRecoveryCode(tenant: TenantRecord, pending: PendingAuthorization, proof: SignInProof)
        throws(ServiceError) -> PendingAuthorization
    {
        var updated = pending
        updated.held = HeldSignIn(
            userID: proof.user.id, amr: proof.amr, authTime: proof.authTime, reason: .saveRecoveryCode)
        updated.secondFactorDue = false
        try authorization.save(updated, tenant: tenant)
        return updated
    }

    /// "I saved it": the code counts, and the held sign-in goes on.
    public func recoveryCodeSaved(tenant: TenantRecord, pending: PendingAuthorization) throws(ServiceError)
        -> SignInProof
    {
        guard let held = pending.held, held.reason == .saveRecoveryCode else { throw AuthorizationService.expired }
        try mfa.recoveryCodeSaved(tenant: tenant, userID: held.userID)
        return try heldProof(tenant: tenant, pending: pending)
    }

    /// What follows a right recovery code from the email.
    public enum RecoveryStep: Sendable {
        /// The user has a second factor: ask for one of `factors` (or a recovery code) first.
        case secondFactor(factors: [MFAFactor], PendingAuthorization)
        /// The new way in: a passkey (the challenge) or, where the connection has them, a password.
        case newWayIn(PendingAuthorization, PasskeySignupChallengeResponse)
    }

    /// After the emailed code proved the address: the user's second factor first when they have
    /// one (the mfa token is derived from the pending request's handle, as after a password),
    /// else the new way in.
    public func afterRecoveryCode(
        tenant: TenantRecord, pending: PendingAuthorization, user: UserRecord, requester: String
    ) throws(ServiceError) -> RecoveryStep {
        guard CredentialChange.hasSecondFactor(tenant: tenant, user: user) else {
            let (held, challenge) = try holdRecovery(
                tenant: tenant, pending: pending, user: user, requester: requester)
            return .newWayIn(held, challenge)
        }
        let now = clock.now()
        let ticket = MFATicket(
            userID: user.id, clientID: pending.client.id, scope: pending.request.scope,
            audience: pending.request.audience ?? "", amr: ["otp"], authTime: now)
        _ = try mfa.issueToken(tenant: tenant, ticket: ticket, value: Self.mfaToken(for: pending.handle))
        var updated = pending
        updated.secondFactorDue = true
        updated.recovering = true
        updated.held = nil
        try authorization.save(updated, tenant: tenant)
        let factors = [MFAFactor.otp, .sms].filter { factor in
            user.mfa.contains { $0.active && $0.factor == factor && tenant.mfa.factors.contains(factor) }
        }
        return .secondFactor(factors: factors, updated)
    }

    /// A recovery's second factor answered: the new way in, for the user as stored now.
    public func recoveryAfterSecondFactor(
        tenant: TenantRecord, pending: PendingAuthorization, proof: SignInProof, requester: String
    ) throws(ServiceError) -> (PendingAuthorization, PasskeySignupChallengeResponse) {
        guard pending.recovering else { throw AuthorizationService.expired }
        var updated = pending
        updated.recovering = false
        return try holdRecovery(tenant: tenant, pending: updated, user: proof.user, requester: requester)
    }
}

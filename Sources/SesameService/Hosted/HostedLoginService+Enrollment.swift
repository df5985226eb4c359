import Foundation
import SesameStore
import SesameWire
import WebAuthn

/// The passkey-enrollment prompt of the hosted sign-in (`/u/passkey-enroll`): after a password
/// sign-in where the connection has progressive enrollment on, and after a passkey from another
/// device where it has local enrollment on. The sign-in is held in the pending request while the
/// prompt shows; creating the passkey, "Not now" and "Don't ask again" all release it.
extension HostedLoginService {
    /// The prompt `proof` earns, or nil. `crossDevice`: the assertion came from another device
    /// (the page reported `authenticatorAttachment: cross-platform`).
    public func enrollmentPrompt(pending: PendingAuthorization, proof: SignInProof, crossDevice: Bool)
        throws(ServiceError) -> HeldSignIn.Reason?
    {
        if proof.amr.contains("pwd"), let status = proof.passwordStatus, status != .ok,
            !upgradeOffers(pending: pending, user: proof.user).isEmpty
        {
            return .upgrade
        }
        let policy = pending.connection.passkey
        guard policy.enabled else { return nil }
        if proof.amr.contains("pwd"), policy.progressiveEnrollmentEnabled {
            let count = try access.read {
                try $0.passkeys.list(tenantID: pending.client.tenantID, userID: proof.user.id)
            }
            .count
            return count == 0 ? .progressive : nil
        }
        if proof.amr.contains("pop"), crossDevice, policy.localEnrollmentEnabled { return .localEnrollment }
        return nil
    }

    /// Holds `proof` in the pending request and begins the enrollment the prompt offers.
    public func hold(
        tenant: TenantRecord, pending: PendingAuthorization, proof: SignInProof, reason: HeldSignIn.Reason,
        requester: String
    ) throws(ServiceError) -> (PendingAuthorization, PasskeySignupChallengeResponse) {
        var updated = pending
        updated.held = HeldSignIn(userID: proof.user.id, amr: proof.amr, authTime: proof.authTime, reason: reason)
        updated.secondFactorDue = false
        try authorization.save(updated, tenant: tenant)
        return (updated, try enrollmentChallenge(tenant: tenant, pending: updated, requester: requester))
    }

    /// The upgrades the sign-in page offers after a weak or breached password, as the connection
    /// allows them: a passkey in the password's place (where passkeys are on) and a strong
    /// password. Sign in with Apple needs the app (the extension or the SDK).
    public func upgradeOffers(pending: PendingAuthorization, user: UserRecord) -> [UpgradeType] {
        let connection = pending.connection
        guard user.usablePassword != nil, connection.password.enabled else { return [] }
        var offers: [UpgradeType] = []
        if connection.upgrades.allowed.contains(.passkey), connection.passkey.enabled { offers.append(.passkey) }
        if connection.upgrades.allowed.contains(.strongPassword) { offers.append(.strongPassword) }
        return offers
    }

    /// Holds `proof` for the upgrade offer; the passkey's challenge when a passkey is offered.
    public func holdForUpgrade(
        tenant: TenantRecord, pending: PendingAuthorization, proof: SignInProof, requester: String
    ) throws(ServiceError) -> (PendingAuthorization, PasskeySignupChallengeResponse?) {
        var updated = pending
        updated.held = HeldSignIn(userID: proof.user.id, amr: proof.amr, authTime: proof.authTime, reason: .upgrade)
        updated.secondFactorDue = false
        try authorization.save(updated, tenant: tenant)
        guard upgradeOffers(pending: updated, user: proof.user).contains(.passkey) else { return (updated, nil) }
        return (updated, try enrollmentChallenge(tenant: tenant, pending: updated, requester: requester))
    }

    /// A (new) challenge for the held user's passkey, excluding the passkeys they have; for the
    /// upgrade offer, one whose passkey takes the password's place.
    public func enrollmentChallenge(tenant: TenantRecord, pending: PendingAuthorization, requester: String)
        throws(ServiceError) -> PasskeySignupChallengeResponse
    {
        guard let held = pending.held else { throw AuthorizationService.expired }
        return try passkeys.beginEnrollment(
            tenant: tenant, clientID: pending.client.id, userID: held.userID, connection: nil, requester: requester,
            timeout: PasskeyService.pageChallengeTimeout,
            purpose: held.reason == .upgrade ? .replacePassword : .addPasskey)
    }

    /// After a password sign-in, a second challenge for the automatic upgrade: the page asks the
    /// browser for a conditional create with it, and the server accepts that registration without
    /// the UP flag because it began it as conditional (WebAuthn L3 §7.1 step 19). Nil for any other
    /// prompt.
    public func conditionalChallenge(tenant: TenantRecord, pending: PendingAuthorization, requester: String)
        throws(ServiceError) -> PasskeySignupChallengeResponse?
    {
        guard let held = pending.held, held.reason == .progressive else { return nil }
        return try passkeys.beginEnrollment(
            tenant: tenant, clientID: pending.client.id, userID: held.userID, connection: nil, requester: requester,
            timeout: PasskeyService.pageChallengeTimeout, mediation: .conditional)
    }

    /// Stores the passkey the prompt created; the held sign-in, to complete.
    public func finishEnrollment(
        tenant: TenantRecord, pending: PendingAuthorization, ceremony: String, response: [UInt8]
    ) throws(ServiceError) -> SignInProof {
        guard let held = pending.held else { throw AuthorizationService.expired }
        let (passkey, _) = try passkeys.finishEnrollment(
            tenant: tenant, clientID: pending.client.id, userID: held.userID, authSession: ceremony, response: response)
        var proof = try heldProof(tenant: tenant, pending: pending)
        if held.reason == .upgrade { proof.passwordStatus = nil }
        if held.reason == .recovery {
            try recovery.completed(tenant: tenant, user: proof.user, method: .passkey, clientID: pending.client.id)
            // The email code, then the new passkey, which the registration proved the user holds.
            proof.amr = ["otp", "pop", passkey.backupEligible ? "swk" : "hwk"]
        }
        return proof
    }

    /// Recovery's last step: after the code, a passkey or (where the connection has them) a
    /// password, and the held sign-in completes.
    public func holdRecovery(
        tenant: TenantRecord, pending: PendingAuthorization, user: UserRecord, requester: String
    ) throws(ServiceError) -> (PendingAuthorization, PasskeySignupChallengeResponse) {
        try hold(
            tenant: tenant, pending: pending, proof: SignInProof(user: user, amr: ["otp"], authTime: clock.now()),
            reason: .recovery, requester: requester)
    }

    /// A recovery that ends in a new password instead of a passkey.
    public func recoverWithPassword(tenant: TenantRecord, pending: PendingAuthorization, password: String?)
        throws(ServiceError) -> SignInProof
    {
        guard let held = pending.held, held.reason == .recovery else { throw AuthorizationService.expired }
        try passwords.setPassword(tenant: tenant, userID: held.userID, password: password)
        var proof = try heldProof(tenant: tenant, pending: pending)
        try recovery.completed(tenant: tenant, user: proof.user, method: .password, clientID: pending.client.id)
        proof.amr = ["otp", "pwd"]
        return proof
    }

    /// The held sign-in ("Not now", "Don't ask again"), with the user as stored now.
    public func heldProof(tenant: TenantRecord, pending: PendingAuthorization) throws(ServiceError) -> SignInProof {
        guard let held = pending.held else { throw AuthorizationService.expired }
        let user = try access.read { transaction -> UserRecord in
            guard let user = try transaction.users.get(tenantID: tenant.id, id: held.userID), !user.blocked else {
                throw AuthorizationService.expired
            }
            return user
        }
        return SignInProof(user: user, amr: held.amr, authTime: held.authTime)
    }
}

import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// What the password step of the hosted login led to.
public enum PasswordStepOutcome: Sendable {
    /// Signed in; the password's status (weak or breached passwords are offered an upgrade).
    case signedIn(SignInProof, status: PasswordStatus)
    /// A second factor is needed: one of `factors` (the user's), or an enrollment when `enroll`.
    case secondFactor(factors: [MFAFactor], enroll: Bool)
}

/// The sign-in steps of the hosted pages, for the client of a pending authorization. Each step
/// calls the same service the native API does (passkeys, passwords, MFA), so the pages enforce
/// exactly what the API enforces: the connection's policies, brute-force limits, breached
/// passwords and the MFA policy. The client's own grant types do not matter here: the hosted
/// pages are the authorization server's, and the client only ever gets a code.
public final class HostedLoginService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let passkeys: PasskeyService
    let passwords: PasswordService
    let mfa: MFAService
    public let authorization: AuthorizationService
    /// Sends the link that confirms a new user's email address.
    public let verification: EmailVerification
    /// Account recovery by an emailed code.
    public let recovery: AccountRecovery

    public init(
        store: any SesameStore, clock: any ServiceClock, passkeys: PasskeyService, passwords: PasswordService,
        mfa: MFAService, authorization: AuthorizationService, verification: EmailVerification,
        recovery: AccountRecovery
    ) {
        self.verification = verification
        self.recovery = recovery
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.passkeys = passkeys
        self.passwords = passwords
        self.mfa = mfa
        self.authorization = authorization
    }

    // MARK: Passkeys

    /// A login challenge for the page (discoverable credentials: the autofill and the button).
    public func passkeyChallenge(tenant: TenantRecord, pending: PendingAuthorization, requester: String)
        throws(ServiceError) -> PasskeyLoginChallengeResponse
    {
        guard pending.connection.passkey.enabled else {
            throw .notFound("passkeys are not enabled for this connection")
        }
        return try passkeys.beginLogin(
            tenant: tenant, client: pending.client, connection: pending.connection, tokenDefaults: nil,
            requester: requester, timeout: PasskeyService.pageChallengeTimeout)
    }

    /// Finishes the page's passkey login (`ceremony` is the challenge's handle).
    public func passkeySignIn(
        tenant: TenantRecord, pending: PendingAuthorization, ceremony: String, response: CredentialJSONInput
    ) throws(ServiceError) -> SignInProof {
        let authenticated = try AuditScope.step { () throws(ServiceError) in
            try passkeys.finish(
                tenant: tenant, client: pending.client, authSession: ceremony, response: response,
                realm: pending.connection.name)
        }
        return SignInProof(user: authenticated.user, amr: authenticated.amr, authTime: authenticated.authTime)
    }

    // MARK: Identifier and password

    /// The identifier-first step: remembers what the user typed (an email, a username or a phone
    /// number), unchecked, so the next step looks the same whether or not the user exists.
    public func identify(tenant: TenantRecord, pending: PendingAuthorization, identifier: String)
        throws(ServiceError) -> PendingAuthorization
    {
        let trimmed = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidRequest("Enter your email address or username.") }
        guard trimmed.utf8.count <= 320, !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw .invalidRequest("That is not an email address or username.")
        }
        var updated = pending
        updated.identifier = trimmed
        updated.secondFactorDue = false
        updated.recovering = false
        try authorization.save(updated, tenant: tenant)
        return updated
    }

    /// The password step for the identifier given before. A second factor, when the tenant's MFA
    /// policy asks for one, is remembered with the pending request (never put in the page).
    public func passwordSignIn(
        tenant: TenantRecord, pending: PendingAuthorization, password: String?, address: String
    ) throws(ServiceError) -> (PasswordStepOutcome, PendingAuthorization) {
        guard let identifier = pending.identifier else { throw .invalidRequest("Enter your email address first.") }
        let login = try AuditScope.step { () throws(ServiceError) in
            try passwords.logIn(
                tenant: tenant, client: pending.client, grant: .passwordRealm, realm: pending.connection.name,
                username: identifier, password: password, address: address)
        }
        guard let requirement = MFAService.requirement(tenant: tenant, user: login.user) else {
            return (
                .signedIn(
                    SignInProof(
                        user: login.user, amr: login.amr, authTime: login.authTime, passwordStatus: login.status),
                    status: login.status),
                pending
            )
        }
        var ticket = MFATicket(
            userID: login.user.id, clientID: pending.client.id, scope: pending.request.scope,
            audience: pending.request.audience ?? "", amr: login.amr, authTime: login.authTime)
        ticket.passwordStatus = login.status
        var updated = pending
        _ = try mfa.issueToken(tenant: tenant, ticket: ticket, value: Self.mfaToken(for: pending.handle))
        // The first step passed; the sign-in's success is written when the second factor completes it.
        mfa.events.audit?.record(
            .mfaRequired, tenantID: tenant.id, clientID: pending.client.id, user: login.user,
            details: AuditDetails(method: .password))
        updated.secondFactorDue = true
        updated.recovering = false
        try authorization.save(updated, tenant: tenant)
        let factors = login.user.mfa.filter {
            $0.active && $0.factor != .recoveryCode && tenant.mfa.factors.contains($0.factor)
        }
        .map(\.factor)
        return (.secondFactor(factors: factors, enroll: requirement.kind == .enroll), updated)
    }

    /// The mfa token of a pending request's second-factor step: derived from its handle (a
    /// 256-bit secret only the browser holds), so the store keeps neither in the clear.
    static func mfaToken(for handle: String) -> String {
        Base64URL.encode(Digest.sha256(Array("sesame-hosted-mfa-token\u{0}\(handle)".utf8)))
    }

    func mfaToken(_ pending: PendingAuthorization) throws(ServiceError) -> String {
        guard pending.secondFactorDue else { throw .invalidRequest("Enter your password first.") }
        return Self.mfaToken(for: pending.handle)
    }

    /// The TOTP step after a password that needed one; it also confirms a TOTP factor enrolled
    /// on the way (`beginOTPEnrollment`).
    public func otpSignIn(tenant: TenantRecord, pending: PendingAuthorization, otp: String?) throws(ServiceError)
        -> SignInProof
    {
        let completion = try mfa.completeOTP(
            tenant: tenant, client: pending.client, subject: .mfaToken(try mfaToken(pending)), otp: otp)
        return SignInProof(
            user: completion.user, amr: completion.amr, authTime: clock.now(),
            passwordStatus: completion.ticket.passwordStatus)
    }

    /// Sends the SMS code of the user's phone factor; the handle the code is checked against.
    public func sendSMS(tenant: TenantRecord, pending: PendingAuthorization, address: String) throws(ServiceError)
        -> String
    {
        let answer = try mfa.challenge(
            tenant: tenant, client: pending.client, mfaToken: try mfaToken(pending), challengeTypes: "oob",
            authenticatorID: nil, address: address)
        guard let handle = answer.oobCode else { throw .unavailable("the SMS code could not be sent") }
        return handle
    }

    /// The SMS step: the code sent for `oobCode`.
    public func smsSignIn(tenant: TenantRecord, pending: PendingAuthorization, oobCode: String?, code: String?)
        throws(ServiceError) -> SignInProof
    {
        let completion = try mfa.completeOOB(
            tenant: tenant, client: pending.client, subject: .mfaToken(try mfaToken(pending)), oobCode: oobCode,
            bindingCode: code)
        return SignInProof(
            user: completion.user, amr: completion.amr, authTime: clock.now(),
            passwordStatus: completion.ticket.passwordStatus)
    }

    /// What the enrollment page shows: the TOTP secret as text and as an `otpauth:` URI (its QR
    /// code). The recovery code comes after the first code, on a page of its own.
    public struct OTPEnrollment: Sendable, Equatable {
        public var secret: String
        public var uri: String
    }

    /// Enrolls a TOTP factor for a user the tenant's policy asks to have one; its first code,
    /// answered with `otpSignIn`, confirms it and signs in. After a wrong answer the same secret
    /// is shown again (`again`); a new sign-in starts over. The recovery code that comes with the
    /// first factor is kept until the user saved it (`unsavedRecoveryCode`).
    public func beginOTPEnrollment(tenant: TenantRecord, pending: PendingAuthorization, again: Bool)
        throws(ServiceError) -> OTPEnrollment
    {
        let caller = try mfa.caller(mfaToken: try mfaToken(pending), tenant: tenant)
        if again, let held = try mfa.pendingOTP(tenant: tenant, userID: caller.userID) {
            return OTPEnrollment(secret: held.secret, uri: held.uri)
        }
        let answer = try mfa.associate(
            tenant: tenant, caller: caller, types: ["otp"], channels: [], phoneNumber: nil, keepRecoveryCode: true)
        guard let secret = answer.secret, let uri = answer.barcodeURI else {
            throw .unavailable("the authenticator could not be set up")
        }
        return OTPEnrollment(secret: secret, uri: uri)
    }

    // MARK: Signup

    /// A passkey signup challenge for `email` (and an optional name) in the pending request's
    /// connection.
    public func passkeySignupChallenge(
        tenant: TenantRecord, pending: PendingAuthorization, profile input: SignupProfileInput, requester: String
    ) throws(ServiceError) -> PasskeySignupChallengeResponse {
        guard pending.connection.passkey.enabled else {
            throw .notFound("passkeys are not enabled for this connection")
        }
        let profile = try ProfileValidation.validate(input, metadata: [:], policy: pending.connection.identifiers)
        if tenant.revealsTakenIdentifiers {
            try access.read { transaction in
                try PasskeyService.requireUnusedIdentifiers(
                    profile, tenant: tenant, connection: pending.connection, in: transaction)
            }
        }
        return try passkeys.beginSignup(
            tenant: tenant, client: pending.client, connection: pending.connection, profile: profile, metadata: [:],
            tokenDefaults: nil, requester: requester, timeout: PasskeyService.pageChallengeTimeout)
    }

    /// Finishes a passkey signup: the new user, signed in with their first passkey.
    public func passkeySignup(
        tenant: TenantRecord, pending: PendingAuthorization, ceremony: String, response: CredentialJSONInput
    ) throws(ServiceError) -> SignInProof {
        let proof = try passkeySignIn(tenant: tenant, pending: pending, ceremony: ceremony, response: response)
        sendVerification(tenant: tenant, user: proof.user)
        return proof
    }

    /// The link that confirms a new user's address. The signup stands when the sender fails: the
    /// user is told nothing was sent only by its absence, and can ask again from the account page.
    func sendVerification(tenant: TenantRecord, user: UserRecord) {
        try? verification.send(tenant: tenant, user: user)
    }

    /// A password signup in the pending request's connection, then a sign-in with that password.
    public func passwordSignup(
        tenant: TenantRecord, pending: PendingAuthorization, profile: SignupProfileInput, password: String?
    ) throws(ServiceError) -> SignInProof {
        guard pending.connection.password.enabled else {
            throw .notFound("passwords are not enabled for this connection")
        }
        let user = try passwords.signup(
            tenant: tenant,
            PasswordSignupRequest(
                clientID: pending.client.id, connection: pending.connection.name, password: password,
                profile: profile), hosted: true)
        sendVerification(tenant: tenant, user: user)
        return SignInProof(user: user, amr: ["pwd"], authTime: clock.now())
    }
}

import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// What a password login must do before it gets tokens (the body of `mfa_required`).
public struct MFARequirement: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The user has factors: answer one of them.
        case challenge
        /// The tenant asks everyone and the user has none: enroll one first.
        case enroll
    }
    public var kind: Kind
    /// Auth0's type names: `otp`, `phone`, `recovery-code`.
    public var types: [String]
}

/// Who calls `/mfa/associate` and `/mfa/authenticators`: a user mid-login with an `mfa_token`,
/// or a signed-in user with an access token for the MFA API.
public struct MFACaller: Sendable {
    public var userID: String
    /// The mfa token's hash, when that is how the caller came.
    var mfaTokenHash: [UInt8]?
    var ticket: MFATicket?
    /// An access token's scopes (`enroll`, `read:authenticators`, `remove:authenticators`).
    public var scopes: Set<String>
    /// The client the caller came through (the mfa token's or the access token's app, or the
    /// account page), for the audit log.
    var clientID: String?
    /// The client address of the request, which SMS sends are capped by.
    public var address = "unknown"
    /// The sign-in behind an access token or session (`auth_time`, `amr`): what a credential
    /// change is judged by (`CredentialChange`).
    var authTime: Date?
    var amr: [String] = []
}

/// What an MFA grant continues: a login (its mfa token), or the confirmation of a factor enrolled
/// with an MFA API access token (the token's user, scopes and methods).
enum MFASubject {
    case mfaToken(String?)
    case enrollment(userID: String, scope: String, amr: [String], authTime: Date)
}

/// A login finished with its second factor: what the token endpoint issues tokens for.
struct MFACompletion {
    var user: UserRecord
    var ticket: MFATicket
    var amr: [String]
    /// The recovery code that replaces a used one.
    var newRecoveryCode: String?
}

/// Auth0's MFA API (docs/mfa.md): enrollment, challenges, the `mfa-otp`, `mfa-oob` and
/// `mfa-recovery-code` grants' checks, and whether a password login needs a second factor.
///
/// TOTP secrets are sealed at rest; a TOTP code is accepted once (the step is kept and must
/// grow); SMS codes are kept as MACs, live 5 minutes and allow 5 tries; recovery codes are kept
/// as SHA-256 and replaced when used. Wrong codes count against the mfa token (5) and the user
/// (10 an hour), SMS sends against the user (10 an hour), all in the store.
public final class MFAService: Sendable {
    public static let maxTokenFailures = 5
    static let maxUserFailures = 10
    static let maxSMSPerHour = 10
    /// The caps on SMS codes (per user, address, number, prefix and tenant).
    public let smsLimits: SMSLimits
    /// How often each cap refused a code.
    public let smsLimited = SMSLimitCounts()

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let events: AuthEventRecorder
    let messages: any MessageSender
    let keys: MFAKeys

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, events: AuthEventRecorder,
        messages: any MessageSender, keys: MFAKeys, smsLimits: SMSLimits = SMSLimits()
    ) {
        self.smsLimits = smsLimits
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.events = events
        self.messages = messages
        self.keys = keys
    }

    /// The MFA API's audience.
    public static func audience(_ tenant: TenantRecord) -> String { TokenService.issuer(tenant) + "mfa/" }
    /// The MFA API's scopes.
    public static let scopes = ["enroll", "read:authenticators", "remove:authenticators"]

    static let malformed = ServiceError.mfaRefused(.malformedToken)
    static let expired = ServiceError.mfaRefused(.expiredToken)

    // MARK: After a password

    /// Whether a password login of `user` must answer a second factor (nil: it need not).
    static func requirement(tenant: TenantRecord, user: UserRecord) -> MFARequirement? {
        let offered = tenant.mfa.factors.filter { $0 != .recoveryCode }
        guard !offered.isEmpty else { return nil }
        let active = user.mfa.filter { $0.active && tenant.mfa.factors.contains($0.factor) }
        if active.contains(where: { $0.factor != .recoveryCode }) {
            var types: [String] = []
            for factor in MFAFactor.allCases where active.contains(where: { $0.factor == factor }) {
                types.append(typeName(factor))
            }
            return MFARequirement(kind: .challenge, types: types)
        }
        guard tenant.mfa.policy == .allApplications else { return nil }
        return MFARequirement(kind: .enroll, types: offered.map(typeName))
    }

    /// Auth0's `mfa_requirements` type of a factor.
    static func typeName(_ factor: MFAFactor) -> String {
        switch factor {
        case .otp: return "otp"
        case .sms: return "phone"
        case .recoveryCode: return "recovery-code"
        }
    }

    /// A new mfa token for the login so far (`value`: a token the caller derived from a secret
    /// of its own, as the hosted pages do from the pending request's handle; nil: a random one).
    func issueToken(tenant: TenantRecord, ticket: MFATicket, value: String? = nil) throws(ServiceError) -> String {
        let now = clock.now()
        let token: String
        if let value { token = value } else { token = Base64URL.encode(try random.serviceBytes(32)) }
        let record = AuthSessionRecord(
            handleHash: MFATicket.hash(token), tenantID: tenant.id, requester: "mfa:\(ticket.userID)",
            expiresAt: now + MFATicket.lifetime, payload: ticket.payload)
        let stored = try access.write(.relaxed) { transaction in
            // A hosted request's token is derived from its handle: a second password step on the
            // same request (after "Cancel", or a recovery) replaces the first one's.
            if value != nil { _ = try transaction.authSessions.consume(handleHash: record.handleHash) }
            return try transaction.authSessions.insert(record, maxPerRequester: MFATicket.maxPerUser, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyAttempts(
                "Too many sign-ins are waiting for a second factor; try again later.", retryAfterSeconds: 60)
        }
        return token
    }

    /// The ticket of a presented mfa token: Auth0's `Malformed mfa_token` or `mfa_token is expired`.
    func ticket(_ token: String?, tenant: TenantRecord, in transaction: any StoreTransaction) throws -> MFATicket {
        guard let token, !token.isEmpty, token.utf8.count <= 128, !token.contains(".") else { throw Self.malformed }
        guard let record = try transaction.authSessions.get(handleHash: MFATicket.hash(token)),
            record.tenantID == tenant.id, let ticket = MFATicket(payload: record.payload)
        else { throw Self.malformed }
        guard record.expiresAt > clock.now() else { throw Self.expired }
        return ticket
    }

    /// The caller of an MFA API route presenting an mfa token.
    public func caller(mfaToken token: String, tenant: TenantRecord) throws(ServiceError) -> MFACaller {
        let ticket: MFATicket
        do {
            ticket = try access.read { try self.ticket(token, tenant: tenant, in: $0) }
        } catch {
            if case .mfaRefused(let refusal) = error { throw .invalidToken(refusal.description) }
            throw error
        }
        return MFACaller(
            userID: ticket.userID, mfaTokenHash: MFATicket.hash(token), ticket: ticket, scopes: [],
            clientID: ticket.clientID)
    }

    /// The caller of an MFA API route presenting an access token for the MFA API.
    public func caller(principal: Principal, tenant: TenantRecord) throws(ServiceError) -> MFACaller {
        try principal.require(tenant: tenant, audience: Self.audience(tenant))
        guard let subject = principal.subject else { throw .invalidToken("the access token has no subject") }
        return MFACaller(
            userID: subject, mfaTokenHash: nil, ticket: nil, scopes: Set(principal.scopes),
            clientID: principal.clientID, authTime: principal.authTime, amr: principal.amr)
    }

    // MARK: Enrollment

    /// `POST /mfa/associate`: a new (inactive) factor. With an mfa token only while the user has
    /// no active factor; otherwise an MFA access token with `enroll`.
    ///
    /// `keepRecoveryCode`: the hosted pages show the new recovery code until the user says they
    /// saved it, so it is kept sealed until then and counts only from then (`recoveryCodeSaved`);
    /// through the API it counts once the factor is confirmed, as Auth0's does.
    public func associate(
        tenant: TenantRecord, caller: MFACaller, types: [String], channels: [String], phoneNumber: String?,
        keepRecoveryCode: Bool = false
    ) throws(ServiceError) -> MFAAssociateResponse {
        let now = clock.now()
        if caller.ticket == nil, !caller.scopes.contains("enroll") {
            throw .insufficientScope("enrolling a factor needs the enroll scope")
        }
        guard types.count == 1, let type = types.first else {
            throw .invalidRequest("authenticator_types must name one type: otp or oob")
        }
        let factor: MFAFactor
        switch type {
        case "otp": factor = .otp
        case "oob":
            guard channels == ["sms"] else { throw .invalidRequest("oob_channels must be [\"sms\"]") }
            factor = .sms
        default: throw .invalidRequest("authenticator_types must be otp or oob")
        }
        guard tenant.mfa.factors.contains(factor) else {
            throw .invalidRequest("the \(factor.rawValue) factor is not enabled for this tenant")
        }
        var phone: String?
        if factor == .sms {
            guard let phoneNumber, ProfileValidation.isE164(phoneNumber) else {
                throw .invalidRequest("phone_number must be an E.164 number (+ and up to 15 digits)")
            }
            phone = phoneNumber
        }
        let user = try access.read { transaction in
            let user = try self.user(caller.userID, tenant: tenant, in: transaction)
            try self.requireCredentialChange(caller, tenant: tenant, user: user, now: now, in: transaction)
            return user
        }
        if caller.ticket != nil, user.mfa.contains(where: { $0.active && $0.factor != .recoveryCode }) {
            throw .invalidRequest("User is already enrolled")
        }
        let id = (factor == .otp ? "totp|dev_" : "sms|dev_") + Hex.lowercase(try random.serviceBytes(8))
        var enrollment = MFAEnrollment(id: id, factor: factor, active: false, createdAt: now, phoneNumber: phone)
        var answer = MFAAssociateResponse(authenticatorType: type)
        var secret: [UInt8] = []
        if factor == .otp {
            secret = try random.serviceBytes(20)
            enrollment.sealedSecret = try keys.seal(
                secret, tenantID: tenant.id, userID: user.id, enrollmentID: id, random: random)
            answer.secret = Base32.encode(secret)
            answer.barcodeURI = TOTP.uri(
                secret: secret, issuer: tenant.name, account: ProfileValidation.primaryIdentifier(user.profile))
        }
        // The first factor brings a recovery code, when the tenant offers them.
        var recovery: MFAEnrollment?
        var recoveryCode: String?
        if tenant.mfa.factors.contains(.recoveryCode), !user.mfa.contains(where: { $0.factor == .recoveryCode }) {
            let code = try Self.newRecoveryCode(random)
            recoveryCode = code
            let recoveryID = "recovery-code|dev_" + Hex.lowercase(try random.serviceBytes(8))
            recovery = MFAEnrollment(
                id: recoveryID, factor: .recoveryCode, active: false, createdAt: now,
                sealedSecret: keepRecoveryCode
                    ? try keys.seal(
                        Array(code.utf8), tenantID: tenant.id, userID: user.id, enrollmentID: recoveryID, random: random
                    )
                    : [],
                codeHash: Self.recoveryHash(code))
        }
        try access.write(.durable) { transaction in
            var current = try self.user(user.id, tenant: tenant, in: transaction)
            if caller.ticket != nil, current.mfa.contains(where: { $0.active && $0.factor != .recoveryCode }) {
                throw ServiceError.invalidRequest("User is already enrolled")
            }
            // A factor confirmed since the read raises the bar: judged again on the user as stored.
            try self.requireCredentialChange(caller, tenant: tenant, user: current, now: now, in: transaction)
            // An unconfirmed factor of the same kind is replaced; so is an unconfirmed recovery code.
            current.mfa.removeAll {
                !$0.active && ($0.factor == factor || ($0.factor == .recoveryCode && recovery != nil))
            }
            guard current.mfa.count < 10 else { throw ServiceError.conflict("a user has at most 10 second factors") }
            current.mfa.append(enrollment)
            if let recovery, !current.mfa.contains(where: { $0.factor == .recoveryCode }) {
                current.mfa.append(recovery)
            }
            current.updatedAt = now
            try transaction.users.update(current)
        }
        if let recoveryCode { answer.recoveryCodes = [recoveryCode] }
        if factor == .sms, let phone {
            answer.oobChannel = "sms"
            answer.bindingMethod = "prompt"
            answer.oobCode = try sendCode(
                tenant: tenant, user: user, clientID: caller.ticket?.clientID, enrollmentID: id, phone: phone,
                mfaTokenHash: caller.mfaTokenHash ?? [], address: caller.address)
        }
        return answer
    }

    /// The secret and `otpauth:` URI of the user's unconfirmed TOTP factor, opened from the store
    /// (the enrollment page shows the same code again after a wrong answer); nil without one.
    func pendingOTP(tenant: TenantRecord, userID: String) throws(ServiceError) -> (secret: String, uri: String)? {
        let user = try access.read { transaction in try self.user(userID, tenant: tenant, in: transaction) }
        guard let enrollment = user.mfa.last(where: { $0.factor == .otp && !$0.active }) else { return nil }
        let secret = try keys.open(enrollment, tenantID: tenant.id, userID: user.id)
        return (
            Base32.encode(secret),
            TOTP.uri(secret: secret, issuer: tenant.name, account: ProfileValidation.primaryIdentifier(user.profile))
        )
    }

    /// The caller of the account page's factor list: the session's user, who may list and remove.
    public func caller(session: SSOSession) -> MFACaller {
        MFACaller(
            userID: session.user.id, mfaTokenHash: nil, ticket: nil,
            scopes: ["read:authenticators", "remove:authenticators"], clientID: AccountClient.id,
            authTime: session.record.authTime, amr: session.record.amr)
    }

    /// `GET /mfa/authenticators`.
    public func authenticators(tenant: TenantRecord, caller: MFACaller) throws(ServiceError)
        -> [MFAAuthenticatorResponse]
    {
        if caller.ticket == nil, !caller.scopes.contains("read:authenticators") {
            throw .insufficientScope("listing factors needs the read:authenticators scope")
        }
        let user = try access.read { transaction in try self.user(caller.userID, tenant: tenant, in: transaction) }
        return user.mfa.map { enrollment in
            switch enrollment.factor {
            case .otp:
                return MFAAuthenticatorResponse(id: enrollment.id, authenticatorType: "otp", active: enrollment.active)
            case .sms:
                return MFAAuthenticatorResponse(
                    id: enrollment.id, authenticatorType: "oob", active: enrollment.active, oobChannel: "sms",
                    name: enrollment.phoneNumber.map(Self.masked))
            case .recoveryCode:
                return MFAAuthenticatorResponse(
                    id: enrollment.id, authenticatorType: "recovery-code", active: enrollment.active)
            }
        }
    }

    /// `DELETE /mfa/authenticators/{id}` (an MFA access token with `remove:authenticators`, or
    /// the account page). Each enrollment removed has its `gd_unenroll` entry once the write
    /// committed: the one named, and the recovery codes that go with the last factor.
    public func deleteAuthenticator(tenant: TenantRecord, caller: MFACaller, id: String) throws(ServiceError) {
        guard caller.ticket == nil, caller.scopes.contains("remove:authenticators") else {
            throw .insufficientScope("removing a factor needs an access token with the remove:authenticators scope")
        }
        let now = clock.now()
        let (user, removed) = try access.write(.durable) { transaction -> (UserRecord, [MFAEnrollment]) in
            var user = try self.user(caller.userID, tenant: tenant, in: transaction)
            try self.requireCredentialChange(caller, tenant: tenant, user: user, now: now, in: transaction)
            guard id.utf8.count <= 128, user.mfa.contains(where: { $0.id == id }) else {
                throw ServiceError.notFound("no authenticator with this id")
            }
            let removed = user.removeFactors { $0.id == id }
            user.updatedAt = now
            try transaction.users.update(user)
            return (user, removed)
        }
        for enrollment in removed {
            events.audit?.record(
                .mfaUnenrolled, tenantID: tenant.id, clientID: caller.clientID, user: user,
                details: AuditDetails(method: Self.method(enrollment.factor), target: enrollment.id))
        }
    }

    /// For a signed-in caller (an access token or the account page), the credential-change rule:
    /// a recent sign-in that used the user's second factor when they have one. A caller with an
    /// mfa token is mid-login, and may enroll only while the user has no active factor.
    private func requireCredentialChange(
        _ caller: MFACaller, tenant: TenantRecord, user: UserRecord, now: Date, in transaction: any StoreTransaction
    ) throws {
        guard caller.ticket == nil else { return }
        let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID)
        try CredentialChange.require(
            tenant: tenant, user: user, connection: connection, authTime: caller.authTime, amr: caller.amr, now: now)
    }

    /// The audit log's name of a factor.
    static func method(_ factor: MFAFactor) -> AuthEventMethod {
        switch factor {
        case .otp: return .otp
        case .sms: return .sms
        case .recoveryCode: return .recoveryCode
        }
    }

    // MARK: Challenges

    /// `POST /mfa/challenge`: for `otp` nothing is sent (the app shows the code); for `oob` an
    /// SMS code goes out and its handle comes back.
    public func challenge(
        tenant: TenantRecord, client: ClientRecord, mfaToken: String?, challengeTypes: String?,
        authenticatorID: String?,
        address: String
    ) throws(ServiceError) -> MFAChallengeResponse {
        let user = try access.read { transaction -> UserRecord in
            let ticket = try self.ticket(mfaToken, tenant: tenant, in: transaction)
            guard ticket.clientID == client.id else { throw Self.malformed }
            return try self.user(ticket.userID, tenant: tenant, in: transaction)
        }
        let asked = Set((challengeTypes ?? "otp oob").split(separator: " ").map(String.init))
        guard !asked.isEmpty, asked.isSubset(of: ["otp", "oob"]) else {
            throw .mfaRefused(.unknownChallengeType)
        }
        let usable = user.mfa.filter { $0.factor != .recoveryCode && tenant.mfa.factors.contains($0.factor) }
        guard !usable.isEmpty else {
            throw .mfaRefused(.noAuthenticator)
        }
        var candidates = usable.filter { asked.contains($0.factor == .otp ? "otp" : "oob") }
        if let authenticatorID { candidates = candidates.filter { $0.id == authenticatorID } }
        // An active one first: an unconfirmed one is only for finishing its enrollment.
        guard let chosen = candidates.first(where: \.active) ?? candidates.first else {
            throw .mfaRefused(.noAuthenticatorOfType)
        }
        if chosen.factor == .otp { return MFAChallengeResponse(challengeType: "otp") }
        guard let phone = chosen.phoneNumber else { throw .unavailable("the SMS authenticator has no number") }
        let handle = try sendCode(
            tenant: tenant, user: user, clientID: client.id, enrollmentID: chosen.id, phone: phone,
            mfaTokenHash: MFATicket.hash(mfaToken ?? ""), address: address)
        return MFAChallengeResponse(challengeType: "oob", oobCode: handle, bindingMethod: "prompt")
    }

    /// Sends a 6-digit code by SMS, within `smsLimits`, and returns its handle.
    private func sendCode(
        tenant: TenantRecord, user: UserRecord, clientID: String?, enrollmentID: String, phone: String,
        mfaTokenHash: [UInt8], address: String
    ) throws(ServiceError) -> String {
        let userID = user.id
        let now = clock.now()
        let code = try Self.digits(6, random)
        let salt = try random.serviceBytes(16)
        let handle = "Fe26." + Base64URL.encode(try random.serviceBytes(24))
        let challenge = OOBChallenge(
            userID: userID, enrollmentID: enrollmentID, mfaTokenHash: mfaTokenHash, salt: salt,
            codeMAC: keys.mac(code: code, challenge: salt))
        let limits = smsLimits
        let capped = try access.write(.relaxed) { transaction -> (SMSLimits.Cap, Int)? in
            if let capped = try limits.reserve(
                userID: userID, address: address, number: phone, tenantID: tenant.id, now: now, in: transaction)
            {
                return capped
            }
            let stored = try transaction.authSessions.insert(
                AuthSessionRecord(
                    handleHash: OOBChallenge.hash(handle), tenantID: tenant.id, requester: "oob:\(userID)",
                    expiresAt: now + OOBChallenge.lifetime, payload: challenge.payload),
                maxPerRequester: Self.maxSMSPerHour, now: now)
            // A code is sent only when its challenge is kept (never one the user cannot use).
            guard stored == .inserted else {
                throw ServiceError.tooManyAttempts(
                    "Too many SMS codes are waiting; try again later.", retryAfterSeconds: Int(OOBChallenge.lifetime))
            }
            return nil
        }
        if let (cap, seconds) = capped {
            smsLimited.add(cap)
            events.audit?.record(
                .smsLimited, tenantID: tenant.id, clientID: clientID, user: user,
                details: AuditDetails(method: .sms, reason: .tooManyAttempts, target: cap.rawValue))
            throw .tooManyAttempts("Too many SMS codes were sent; try again later.", retryAfterSeconds: seconds)
        }
        try messages.send(
            OutgoingMessage(
                tenantID: tenant.id, channel: .sms, template: .mfaCode, recipient: phone,
                text: "\(code) is your \(tenant.name) verification code. It expires in 5 minutes."))
        // Sent: the entry names the factor, never the number or the code.
        events.audit?.record(
            .mfaSMSSent, tenantID: tenant.id, clientID: clientID, user: user,
            details: AuditDetails(method: .sms, target: enrollmentID))
        return handle
    }

    // MARK: The MFA grants

    /// Reserves one try against the token and the user before a code is compared, in one write
    /// that checks and counts (429 and nothing counted when either is spent), so many guesses at
    /// once cannot get past the limits. A right code clears both in its own write (`finish`); a
    /// wrong one leaves the try spent.
    private func reserveTry(
        tenant: TenantRecord, ticketHash: [UInt8], userID: String, now: Date
    ) throws(ServiceError) {
        try access.write(.relaxed) { transaction in
            try requireTries(tenant: tenant, ticketHash: ticketHash, userID: userID, in: transaction)
            _ = try transaction.attemptCounters.add(
                tenantID: tenant.id, key: Self.tokenTriesKey(ticketHash, userID), delta: 1, now: now,
                windowEndsAt: now + MFATicket.lifetime, sliding: false)
            _ = try transaction.attemptCounters.add(
                tenantID: tenant.id, key: AttemptLimits.key("mfa-user", userID), delta: 1, now: now,
                windowEndsAt: now + 3_600, sliding: false)
        }
    }

    static func tokenTriesKey(_ ticketHash: [UInt8], _ userID: String) -> [UInt8] {
        AttemptLimits.key("mfa-token", Hex.lowercase(ticketHash), userID)
    }

    /// 429 when the token or the user has no tries left.
    private func requireTries(
        tenant: TenantRecord, ticketHash: [UInt8], userID: String, in transaction: any StoreTransaction
    ) throws {
        let now = clock.now()
        let counters = transaction.attemptCounters
        let token = try counters.get(tenantID: tenant.id, key: Self.tokenTriesKey(ticketHash, userID), now: now)
        let user = try counters.get(tenantID: tenant.id, key: AttemptLimits.key("mfa-user", userID), now: now)
        if let token, token.count >= Self.maxTokenFailures {
            throw ServiceError.tooManyAttempts(
                "Too many invalid codes for this sign-in; sign in again.",
                retryAfterSeconds: max(1, Int(token.windowEndsAt.timeIntervalSince(now))))
        }
        if let user, user.count >= Self.maxUserFailures {
            throw ServiceError.tooManyAttempts(
                "Too many invalid codes; try again later.",
                retryAfterSeconds: max(1, Int(user.windowEndsAt.timeIntervalSince(now))))
        }
    }

    /// The ticket and user behind `subject` for `client`, with tries left, and the hash the
    /// token's counters and SMS challenges are keyed by (empty for an enrollment).
    private func pending(
        tenant: TenantRecord, client: ClientRecord, subject: MFASubject
    ) throws(ServiceError) -> (MFATicket, UserRecord, [UInt8]) {
        try access.read { transaction in
            let ticket: MFATicket
            let hash: [UInt8]
            switch subject {
            case .mfaToken(let token):
                ticket = try self.ticket(token, tenant: tenant, in: transaction)
                guard ticket.clientID == client.id else { throw Self.malformed }
                hash = MFATicket.hash(token ?? "")
            case .enrollment(let userID, let scope, let amr, let authTime):
                ticket = MFATicket(
                    userID: userID, clientID: client.id, scope: scope, audience: Self.audience(tenant), amr: amr,
                    authTime: authTime)
                hash = []
            }
            try requireTries(tenant: tenant, ticketHash: hash, userID: ticket.userID, in: transaction)
            let user = try self.user(ticket.userID, tenant: tenant, in: transaction)
            guard !user.blocked else { throw ServiceError.userBlocked }
            return (ticket, user, hash)
        }
    }

    /// The `mfa-otp` grant's check: a TOTP code of the user's authenticator (an unconfirmed one
    /// is confirmed by it), not used before.
    func completeOTP(tenant: TenantRecord, client: ClientRecord, subject: MFASubject, otp: String?)
        throws(ServiceError) -> MFACompletion
    {
        guard let otp, !otp.isEmpty else { throw .invalidRequest("otp is required") }
        let now = clock.now()
        let (ticket, user, hash) = try pending(tenant: tenant, client: client, subject: subject)
        let confirming: Bool
        if case .enrollment = subject { confirming = true } else { confirming = false }
        guard tenant.mfa.factors.contains(.otp) else {
            throw .mfaRefused(.otpDisabled)
        }
        let enrollments = user.mfa.filter { $0.factor == .otp }
        guard !enrollments.isEmpty else {
            throw .mfaRefused(.noOTPAuthenticator)
        }
        try reserveTry(tenant: tenant, ticketHash: hash, userID: user.id, now: now)
        var matched: (String, Int64)?
        // A login answers with an active factor (or confirms the only one); an enrollment confirms.
        let hasActive = user.mfa.contains { $0.active && $0.factor == .otp }
        for enrollment in enrollments where confirming ? !enrollment.active : (enrollment.active || !hasActive) {
            let secret = try keys.open(enrollment, tenantID: tenant.id, userID: user.id)
            if let step = TOTP.matchingStep(code: otp, secret: secret, at: now),
                step > (enrollment.lastUsedStep ?? Int64.min)
            {
                matched = (enrollment.id, step)
                break
            }
        }
        guard let (enrollmentID, step) = matched else {
            record(tenant, method: .otp, outcome: .invalidGrant, client: client.id, user: user.id, now: now)
            throw .mfaRefused(.wrongCode(.otp))
        }
        var confirmed = false
        let updated = try finish(tenant: tenant, subject: subject, ticketHash: hash, userID: user.id, now: now) {
            user in
            guard let index = user.mfa.firstIndex(where: { $0.id == enrollmentID }),
                step > (user.mfa[index].lastUsedStep ?? Int64.min)
            else { throw ServiceError.mfaRefused(.wrongCode(.otp)) }
            user.mfa[index].lastUsedStep = step
            confirmed = !user.mfa[index].active
            Self.activate(&user, index)
        }
        record(tenant, method: .otp, outcome: .success, client: client.id, user: user.id, now: now)
        if confirmed {
            recordEnrollment(tenant, client: client.id, user: updated, method: .otp, id: enrollmentID)
            CredentialNotices(messages: messages).added(.authenticatorApp, tenant: tenant, user: updated)
        }
        return MFACompletion(user: updated, ticket: ticket, amr: Self.amr(ticket, "otp", subject))
    }

    /// The `mfa-oob` grant's check: the SMS code (`binding_code`) of a challenge sent for this token.
    func completeOOB(
        tenant: TenantRecord, client: ClientRecord, subject: MFASubject, oobCode: String?, bindingCode: String?
    ) throws(ServiceError) -> MFACompletion {
        guard let oobCode, !oobCode.isEmpty, oobCode.utf8.count <= 128 else {
            throw .invalidRequest("oob_code is required")
        }
        guard let bindingCode, !bindingCode.isEmpty else { throw .invalidRequest("binding_code is required") }
        let now = clock.now()
        let (ticket, user, hash) = try pending(tenant: tenant, client: client, subject: subject)
        let challengeHash = OOBChallenge.hash(oobCode)
        let challenge = try access.read { transaction -> OOBChallenge in
            guard let record = try transaction.authSessions.get(handleHash: challengeHash),
                record.tenantID == tenant.id, record.expiresAt > now,
                let challenge = OOBChallenge(payload: record.payload),
                challenge.userID == user.id, constantTimeEquals(challenge.mfaTokenHash, hash)
            else { throw ServiceError.mfaRefused(.wrongCode(.oob)) }
            return challenge
        }
        let triesKey = AttemptLimits.key("oob", Hex.lowercase(challengeHash))
        try reserveTry(tenant: tenant, ticketHash: hash, userID: user.id, now: now)
        guard constantTimeEquals(keys.mac(code: bindingCode, challenge: challenge.salt), challenge.codeMAC) else {
            let tries = try access.write(.relaxed) { transaction in
                try transaction.attemptCounters.add(
                    tenantID: tenant.id, key: triesKey, delta: 1, now: now, windowEndsAt: now + OOBChallenge.lifetime,
                    sliding: false)
            }
            // The fifth wrong code ends the challenge.
            if tries >= OOBChallenge.maxTries {
                _ = try access.write(.relaxed) { try $0.authSessions.consume(handleHash: challengeHash) }
            }
            record(tenant, method: .sms, outcome: .invalidGrant, client: client.id, user: user.id, now: now)
            throw .mfaRefused(.wrongCode(.binding))
        }
        var confirmed = false
        let updated = try finish(tenant: tenant, subject: subject, ticketHash: hash, userID: user.id, now: now) {
            user in
            guard let index = user.mfa.firstIndex(where: { $0.id == challenge.enrollmentID }) else {
                throw ServiceError.mfaRefused(.wrongCode(.oob))
            }
            confirmed = !user.mfa[index].active
            Self.activate(&user, index)
        } also: { transaction in
            guard try transaction.authSessions.consume(handleHash: challengeHash) != nil else {
                throw ServiceError.mfaRefused(.wrongCode(.oob))
            }
        }
        record(tenant, method: .sms, outcome: .success, client: client.id, user: user.id, now: now)
        if confirmed {
            recordEnrollment(tenant, client: client.id, user: updated, method: .sms, id: challenge.enrollmentID)
            let number = updated.mfa.first { $0.id == challenge.enrollmentID }?.phoneNumber.map(Self.masked) ?? ""
            CredentialNotices(messages: messages).added(.sms(maskedNumber: number), tenant: tenant, user: updated)
        }
        return MFACompletion(user: updated, ticket: ticket, amr: Self.amr(ticket, "sms", subject))
    }

    /// The `mfa-recovery-code` grant's check; the code is replaced by a new one, returned once
    /// (`keepNewCode`: kept sealed too, for the page that shows it until the user saved it).
    func completeRecovery(
        tenant: TenantRecord, client: ClientRecord, mfaToken: String?, recoveryCode: String?, keepNewCode: Bool = false
    ) throws(ServiceError) -> MFACompletion {
        let subject = MFASubject.mfaToken(mfaToken)
        guard let recoveryCode, !recoveryCode.isEmpty, recoveryCode.utf8.count <= 64 else {
            throw .invalidRequest("recovery_code is required")
        }
        let now = clock.now()
        let (ticket, user, hash) = try pending(tenant: tenant, client: client, subject: subject)
        let given = Self.recoveryHash(Self.normalisedRecoveryCode(recoveryCode))
        try reserveTry(tenant: tenant, ticketHash: hash, userID: user.id, now: now)
        guard tenant.mfa.factors.contains(.recoveryCode),
            let enrollment = user.mfa.first(where: { $0.factor == .recoveryCode && $0.active }),
            constantTimeEquals(enrollment.codeHash, given)
        else {
            record(tenant, method: .recoveryCode, outcome: .invalidGrant, client: client.id, user: user.id, now: now)
            throw .mfaRefused(.wrongCode(.recovery))
        }
        let fresh = try Self.newRecoveryCode(random)
        let kept =
            keepNewCode
            ? try keys.seal(
                Array(fresh.utf8), tenantID: tenant.id, userID: user.id, enrollmentID: enrollment.id, random: random)
            : []
        let updated = try finish(tenant: tenant, subject: subject, ticketHash: hash, userID: user.id, now: now) {
            user in
            guard let index = user.mfa.firstIndex(where: { $0.id == enrollment.id }),
                constantTimeEquals(user.mfa[index].codeHash, given)
            else { throw ServiceError.mfaRefused(.wrongCode(.recovery)) }
            user.mfa[index].codeHash = Self.recoveryHash(fresh)
            user.mfa[index].sealedSecret = kept
        }
        record(tenant, method: .recoveryCode, outcome: .success, client: client.id, user: user.id, now: now)
        var completion = MFACompletion(user: updated, ticket: ticket, amr: Self.amr(ticket, nil, subject))
        completion.newRecoveryCode = fresh
        return completion
    }

    /// One write: the mfa token is spent (single use: of two concurrent grants one wins), `change`
    /// applies to the user as stored now, and the last-login time moves.
    private func finish(
        tenant: TenantRecord, subject: MFASubject, ticketHash: [UInt8], userID: String, now: Date,
        _ change: (inout UserRecord) throws -> Void, also: (any StoreTransaction) throws -> Void = { _ in }
    ) throws(ServiceError) -> UserRecord {
        try access.write(.relaxed) { transaction in
            if case .mfaToken = subject {
                guard let record = try transaction.authSessions.consume(handleHash: ticketHash),
                    MFATicket(payload: record.payload)?.userID == userID
                else { throw Self.malformed }
                guard record.expiresAt > now else { throw Self.expired }
            }
            try also(transaction)
            var user = try self.user(userID, tenant: tenant, in: transaction)
            try change(&user)
            user.lastLoginAt = now
            try transaction.users.update(user)
            try transaction.attemptCounters.reset(tenantID: tenant.id, key: AttemptLimits.key("mfa-user", userID))
            try transaction.attemptCounters.reset(tenantID: tenant.id, key: Self.tokenTriesKey(ticketHash, userID))
            return user
        }
    }

    /// Confirms the enrollment at `index`, and the recovery code with the first factor (one the
    /// pages keep until the user saved it counts from then).
    static func activate(_ user: inout UserRecord, _ index: Int) {
        guard !user.mfa[index].active else { return }
        user.mfa[index].active = true
        for other in user.mfa.indices
        where user.mfa[other].factor == .recoveryCode && user.mfa[other].sealedSecret.isEmpty {
            user.mfa[other].active = true
        }
    }

    // MARK: Recovery codes the pages show until saved

    /// The recovery code the user has yet to say they saved, opened for the page that shows it
    /// again (after a reload, or on the way back); nil when there is none.
    public func unsavedRecoveryCode(tenant: TenantRecord, userID: String) throws(ServiceError) -> String? {
        let user = try access.read { transaction in try self.user(userID, tenant: tenant, in: transaction) }
        guard let enrollment = user.mfa.first(where: { $0.factor == .recoveryCode && !$0.sealedSecret.isEmpty })
        else { return nil }
        return String(decoding: try keys.open(enrollment, tenantID: tenant.id, userID: user.id), as: UTF8.self)
    }

    /// "I saved it": the recovery code counts from now (with a confirmed factor beside it), and its
    /// sealed copy is gone, so it is never shown again.
    public func recoveryCodeSaved(tenant: TenantRecord, userID: String) throws(ServiceError) {
        try access.write(.durable) { transaction in
            var user = try self.user(userID, tenant: tenant, in: transaction)
            guard let index = user.mfa.firstIndex(where: { $0.factor == .recoveryCode && !$0.sealedSecret.isEmpty })
            else { return }
            user.mfa[index].sealedSecret = []
            if user.mfa.contains(where: { $0.active && $0.factor != .recoveryCode }) { user.mfa[index].active = true }
            user.updatedAt = clock.now()
            try transaction.users.update(user)
        }
    }

    /// The login's methods so far and the second one (RFC 8176: `mfa`, and `otp` or `sms`). The
    /// confirmation of a factor the caller just enrolled proves nothing new about the sign-in, so
    /// its tokens keep the access token's methods (and its `auth_time`, in the ticket).
    static func amr(_ ticket: MFATicket, _ method: String?, _ subject: MFASubject) -> [String] {
        if case .enrollment = subject { return ticket.amr }
        var amr = ticket.amr
        if !amr.contains("mfa") { amr.append("mfa") }
        if let method, !amr.contains(method) { amr.append(method) }
        return amr
    }

    // MARK: Helpers

    func user(_ id: String, tenant: TenantRecord, in transaction: any StoreTransaction) throws -> UserRecord {
        guard let user = try transaction.users.get(tenantID: tenant.id, id: id) else { throw Self.malformed }
        return user
    }

    /// `n` random decimal digits, each uniform (rejection sampling).
    static func digits(_ count: Int, _ random: any RandomSource) throws(ServiceError) -> String {
        var out = ""
        while out.count < count {
            for byte in try random.serviceBytes(count) where byte < 250 && out.count < count {
                out.append(Character(String(byte % 10)))
            }
        }
        return out
    }

    /// 24 characters from an alphabet without look-alikes (about 118 bits).
    static func newRecoveryCode(_ random: any RandomSource) throws(ServiceError) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var out = ""
        for byte in try random.serviceBytes(24) { out.append(alphabet[Int(byte & 31)]) }
        return out
    }

    static func normalisedRecoveryCode(_ text: String) -> String {
        text.uppercased().filter { !$0.isWhitespace && $0 != "-" }
    }

    static func recoveryHash(_ code: String) -> [UInt8] { Digest.sha256(Array("sesame-recovery\u{0}\(code)".utf8)) }

    /// `XXXXXXXX8730`: a number's last four digits.
    static func masked(_ phone: String) -> String {
        String(repeating: "X", count: max(0, phone.count - 4)) + phone.suffix(4)
    }

    /// `gd_enrollment_complete`: a factor's first code confirmed it (after the write committed).
    private func recordEnrollment(
        _ tenant: TenantRecord, client: String, user: UserRecord, method: AuthEventMethod, id: String
    ) {
        events.audit?.record(
            .mfaEnrollmentComplete, tenantID: tenant.id, clientID: client, user: user,
            details: AuditDetails(method: method, target: id))
    }

    private func record(
        _ tenant: TenantRecord, method: AuthEventMethod, outcome: AuthEventOutcome, client: String?, user: String?,
        now: Date
    ) {
        events.record(
            tenantID: tenant.id, type: .login, method: method, outcome: outcome, at: now, clientID: client,
            userID: user)
    }
}

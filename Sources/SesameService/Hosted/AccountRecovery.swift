import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// A recovery code sent and not yet used (the page's `handle` names it): 10 minutes, 5 tries.
struct RecoveryChallenge: Sendable, Equatable {
    static let lifetime: TimeInterval = 600
    static let maxTries = 5

    /// Empty for an address no account has: the code is never right, and the page looks the same.
    var userID: String
    var salt: [UInt8]
    var codeMAC: [UInt8]

    static func hash(_ handle: String) -> [UInt8] { Digest.sha256(Array("sesame-recovery\u{0}\(handle)".utf8)) }
}

extension RecoveryChallenge: TicketPayload {
    static let kind = TicketKind.accountRecovery
    static let recordFields = RecordFields<RecoveryChallenge>(
        blank: RecoveryChallenge(userID: "", salt: [], codeMAC: []),
        [.field("userID", \.userID), .field("salt", \.salt), .field("codeMAC", \.codeMAC)])
}

/// Account recovery for a user who lost every passkey (`/u/recover`): a 6-digit code by email
/// proves the address (single use, 10 minutes, 5 tries, 3 codes an hour per account); the page
/// then makes the user set a new way in (a passkey, or a password where the connection has them).
/// When it is done every other session and refresh token ends, an auth event is recorded, and the
/// user is told by email.
public final class AccountRecovery: Sendable {
    static let maxCodesPerHour = 3

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let messages: any MessageSender
    let keys: MFAKeys
    let events: AuthEventRecorder

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, messages: any MessageSender,
        keys: MFAKeys, events: AuthEventRecorder
    ) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.messages = messages
        self.keys = keys
        self.events = events
    }

    static let wrong = ServiceError.mfaRefused(.wrongRecoveryEmailCode)

    /// Sends a code to the user of `connection` with `email`, if there is one; the handle the page
    /// keeps either way. 429 after 3 codes an hour to the same address.
    public func start(tenant: TenantRecord, connection: ConnectionRecord, email: String) throws(ServiceError) -> String
    {
        let address = TextRules.email(email)
        guard !address.isEmpty, address.utf8.count <= 254, address.contains("@") else {
            throw .invalidRequest("Enter your email address.")
        }
        let now = clock.now()
        let user = try access.read { transaction in
            try transaction.users.withIdentifiers(
                tenantID: tenant.id, connectionID: connection.id, email: address, phoneNumber: nil, username: nil
            ).first { $0.profile.email == address && !$0.blocked }
        }
        let sent = try access.write(.relaxed) { transaction in
            try transaction.attemptCounters.add(
                tenantID: tenant.id, key: AttemptLimits.key("recovery-codes", address), delta: 1, now: now,
                windowEndsAt: now + 3_600, sliding: false)
        }
        guard sent <= Self.maxCodesPerHour else {
            throw .tooManyAttempts(
                "Too many codes were sent to this address; try again in an hour.", retryAfterSeconds: 3_600)
        }
        let code = try MFAService.digits(6, random)
        let salt = try random.serviceBytes(16)
        let handle = Base64URL.encode(try random.serviceBytes(32))
        let challenge = RecoveryChallenge(
            userID: user?.id ?? "", salt: salt, codeMAC: keys.mac(code: code, challenge: salt))
        _ = try access.write(.relaxed) { transaction in
            try transaction.authSessions.insert(
                AuthSessionRecord(
                    handleHash: RecoveryChallenge.hash(handle), tenantID: tenant.id,
                    requester: "recovery:" + Hex.lowercase(Array(Digest.sha256(Array(address.utf8)).prefix(8))),
                    expiresAt: now + RecoveryChallenge.lifetime, payload: challenge.payload),
                maxPerRequester: .max, now: now)
        }
        if user != nil {
            try messages.send(
                OutgoingMessage(
                    tenantID: tenant.id, channel: .email, template: .recoveryCode, recipient: address,
                    text:
                        "\(code) is your code to recover your \(tenant.name) account. It works once, for 10 minutes.\n\n"
                        + "If you did not ask for it, ignore this message: nothing changes without the code."))
        }
        return handle
    }

    /// The user whose code `code` is; the challenge is spent when it is right or out of tries.
    public func verify(tenant: TenantRecord, handle: String?, code: String?) throws(ServiceError) -> UserRecord {
        guard let handle, !handle.isEmpty, handle.utf8.count <= 128, let code, code.utf8.count <= 16 else {
            throw Self.wrong
        }
        let now = clock.now()
        let hash = RecoveryChallenge.hash(handle)
        // A wrong code is counted in the same write that reads the challenge, so the write must
        // commit: the outcome is returned, and the refusal thrown after.
        let found = try access.write(.durable) { transaction -> (UserRecord, SignInMethods)? in
            guard let record = try transaction.authSessions.get(handleHash: hash), record.tenantID == tenant.id,
                record.expiresAt > now, let challenge = RecoveryChallenge(payload: record.payload)
            else { return nil }
            let right = constantTimeEquals(keys.mac(code: code, challenge: challenge.salt), challenge.codeMAC)
            if right, !challenge.userID.isEmpty,
                let user = try transaction.users.get(tenantID: tenant.id, id: challenge.userID), !user.blocked
            {
                _ = try transaction.authSessions.consume(handleHash: hash)
                // The code proved the address: on an unverified account, what was added before goes.
                let (proven, removed) = try FirstEmailProof.apply(
                    to: user, tenant: tenant, keepPassword: false, now: now, in: transaction)
                if proven != user { try transaction.users.update(proven) }
                return (proven, removed)
            }
            let tries = try transaction.attemptCounters.add(
                tenantID: tenant.id, key: AttemptLimits.key("recovery-tries", Hex.lowercase(hash)), delta: 1,
                now: now, windowEndsAt: record.expiresAt, sliding: false)
            if tries >= RecoveryChallenge.maxTries { _ = try transaction.authSessions.consume(handleHash: hash) }
            return nil
        }
        guard let (user, removed) = found else { throw Self.wrong }
        FirstEmailProof.notify(removed, user: user, tenant: tenant, messages: messages)
        return user
    }

    /// After the new way in is set: every other session and refresh token of the user ends, the
    /// recovery is recorded, and the user is told.
    public func completed(tenant: TenantRecord, user: UserRecord, method: AuthEventMethod, clientID: String?)
        throws(ServiceError)
    {
        let now = clock.now()
        try access.write(.relaxed) { transaction in
            try transaction.ssoSessions.deleteAll(tenantID: tenant.id, userID: user.id)
            try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: user.id, at: now)
        }
        events.record(
            tenantID: tenant.id, type: .recovery, method: method, outcome: .success, at: now, clientID: clientID,
            userID: user.id)
        guard let email = user.profile.email else { return }
        let how = method == .passkey ? "a new passkey was added" : "a new password was set"
        try? messages.send(
            OutgoingMessage(
                tenantID: tenant.id, channel: .email, template: .accountRecovered, recipient: email,
                text: "Your \(tenant.name) account was recovered: \(how), and every other device was signed out.\n\n"
                    + "If this was not you, reset your password and contact support at once."))
    }
}

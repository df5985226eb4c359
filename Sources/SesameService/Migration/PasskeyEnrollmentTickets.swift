import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// The token responses' `passkey_enrollment` prompt (docs/migration.md) and the hosted page it leads to.
///
/// A prompt carries an `enroll_url`: `/u/passkey-enroll?ticket=…`, a one-time login ticket
/// (single use, five minutes) that the app opens in a web view or a web-authentication session.
/// Opening it spends the ticket and starts an enrollment (fifteen minutes) held under a new
/// handle the page keeps in its form; creating the passkey or "Not now" ends it. The ticket
/// proves only what the token response that carried it proved, so it can do one thing: add a
/// passkey for that user at that client. It starts no session and signs no one in.
public final class PasskeyEnrollmentTickets: Sendable {
    static let ticketLifetime: TimeInterval = 300
    static let enrollmentLifetime: TimeInterval = 900
    static let maxPerUser = 20

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let passkeys: PasskeyService

    init(store: any SesameStore, clock: any ServiceClock, random: any RandomSource, passkeys: PasskeyService) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.passkeys = passkeys
    }

    // MARK: The prompt

    /// The prompt a token response carries, or nil.
    ///
    /// - After a device-key re-authentication (`deviceKeyReauth`): always, when the connection has
    ///   passkeys, the user has none, and the device can make one (`device`); a snooze does not
    ///   hide it (Yahoo JAPAN shows it after every legacy re-authentication).
    /// - After a password login (`progressive`): when the connection has progressive enrollment
    ///   on, the user has no passkey, and no snooze is running.
    func prompt(
        _ reason: PasskeyEnrollmentReason, tenant: TenantRecord, client: ClientRecord, user: UserRecord,
        connection: ConnectionRecord, device: HintedDevice?, deviceKeyID: String? = nil, returnTo: String? = nil
    ) throws(ServiceError) -> PasskeyEnrollmentPrompt? {
        let now = clock.now()
        guard connection.passkey.enabled, client.appType.isInteractive else { return nil }
        switch reason {
        case .deviceKeyReauth:
            guard let device, MethodChoice.supportsPasskeys(device, policy: connection.passkey.migration) else {
                return nil
            }
        case .progressive:
            guard connection.passkey.progressiveEnrollmentEnabled else { return nil }
            if let until = user.passkeyPromptSnoozedUntil, now < until { return nil }
        }
        let count = try access.read { try $0.passkeys.list(tenantID: tenant.id, userID: user.id).count }
        guard count == 0 else { return nil }
        let ticket = EnrollmentState(
            reason: reason, userID: user.id, clientID: client.id, deviceKeyID: deviceKeyID, returnTo: returnTo)
        let value: String
        do {
            value = try store(
                ticket, domain: EnrollmentState.ticketDomain, lifetime: Self.ticketLifetime, now: now, tenant: tenant)
        } catch .tooManyRequests {
            // The login has succeeded by now: a user already holding the most waiting tickets gets
            // no new prompt (one of those still works), never a failed login.
            return nil
        }
        return PasskeyEnrollmentPrompt(
            reason: reason,
            enrollURL: TokenService.issuer(tenant) + "u/passkey-enroll?ticket=" + value)
    }

    // MARK: The page

    /// An enrollment the page is running.
    public struct Enrollment: Sendable {
        /// The handle the page posts back (single use when the enrollment ends).
        public var handle: String
        public var reason: PasskeyEnrollmentReason
        public var client: ClientRecord
        public var connection: ConnectionRecord
        public var challenge: PasskeySignupChallengeResponse
        /// Where the page returns when done (one of the client's callbacks), if the app said.
        public var returnTo: String?
    }

    /// How an enrollment ended.
    public enum Outcome: String, Sendable {
        case created
        case skipped
        /// The user already has a passkey from this provider (docs/migration.md's `already_registered`).
        case alreadyRegistered = "already_registered"
    }

    /// `GET /u/passkey-enroll?ticket=…`: spends the ticket, starts the enrollment.
    public func open(tenant: TenantRecord, ticket: String, requester: String) throws(ServiceError) -> Enrollment {
        let now = clock.now()
        guard let state = try take(ticket, domain: EnrollmentState.ticketDomain, tenant: tenant, now: now) else {
            throw Self.expired
        }
        let handle = try store(
            state, domain: EnrollmentState.pageDomain, lifetime: Self.enrollmentLifetime, now: now, tenant: tenant)
        return try enrollment(state, handle: handle, tenant: tenant, requester: requester)
    }

    /// A new challenge for the enrollment `handle` (after a failed attempt).
    public func resume(tenant: TenantRecord, handle: String, requester: String) throws(ServiceError) -> Enrollment {
        guard let state = try peek(handle, domain: EnrollmentState.pageDomain, tenant: tenant, now: clock.now()) else {
            throw Self.expired
        }
        return try enrollment(state, handle: handle, tenant: tenant, requester: requester)
    }

    /// `POST /u/passkey-enroll/ticket`: stores the passkey; the enrollment ends. After a device-key
    /// re-authentication, the key becomes `migrated`.
    public func finish(
        tenant: TenantRecord, handle: String, ceremony: String, response: [UInt8]
    ) throws(ServiceError) -> (Outcome, returnTo: String?) {
        let now = clock.now()
        guard let state = try peek(handle, domain: EnrollmentState.pageDomain, tenant: tenant, now: now) else {
            throw Self.expired
        }
        do {
            _ = try passkeys.finishEnrollment(
                tenant: tenant, clientID: state.clientID, userID: state.userID, authSession: ceremony,
                response: response, migratingDeviceKey: state.deviceKeyID)
        } catch .alreadyRegistered {
            _ = try take(handle, domain: EnrollmentState.pageDomain, tenant: tenant, now: now)
            return (.alreadyRegistered, state.returnTo)
        }
        _ = try take(handle, domain: EnrollmentState.pageDomain, tenant: tenant, now: now)
        return (.created, state.returnTo)
    }

    /// `POST /u/passkey-enroll/ticket/skip`: "Not now". A progressive prompt is snoozed for the
    /// connection's snooze period; a device-key prompt comes back after the next re-authentication.
    public func skip(tenant: TenantRecord, handle: String) throws(ServiceError) -> String? {
        let now = clock.now()
        guard let state = try take(handle, domain: EnrollmentState.pageDomain, tenant: tenant, now: now) else {
            throw Self.expired
        }
        if state.reason == .progressive {
            try access.write(.durable) { transaction in
                guard var user = try transaction.users.get(tenantID: tenant.id, id: state.userID) else { return }
                let days =
                    try transaction.connections.get(tenantID: tenant.id, id: user.connectionID)?.passkey
                    .migration.promptSnoozeDays ?? PasskeyMigrationPolicy().promptSnoozeDays
                user.passkeyPromptSnoozedUntil = now.addingTimeInterval(TimeInterval(days) * 86_400)
                try transaction.users.update(user)
            }
        }
        return state.returnTo
    }

    /// The hosted pages' own "expired" answer, so the page says so in the user's language.
    static var expired: ServiceError { AuthorizationService.expired }

    private func enrollment(
        _ state: EnrollmentState, handle: String, tenant: TenantRecord, requester: String
    ) throws(ServiceError) -> Enrollment {
        let (client, connection) = try access.read { transaction in
            let (_, client, connection) = try PasskeyService.enrollmentParties(
                tenant: tenant, clientID: state.clientID, userID: state.userID, in: transaction)
            return (client, connection)
        }
        let challenge = try passkeys.beginEnrollment(
            tenant: tenant, clientID: state.clientID, userID: state.userID, connection: nil, requester: requester,
            timeout: PasskeyService.pageChallengeTimeout)
        return Enrollment(
            handle: handle, reason: state.reason, client: client, connection: connection, challenge: challenge,
            returnTo: state.returnTo)
    }

    // MARK: Rows

    private func store(
        _ state: EnrollmentState, domain: String, lifetime: TimeInterval, now: Date, tenant: TenantRecord
    ) throws(ServiceError) -> String {
        let value = Base64URL.encode(try random.serviceBytes(32))
        let record = AuthSessionRecord(
            handleHash: EnrollmentState.hash(value, domain: domain), tenantID: tenant.id,
            requester: "passkey-enrollment:\(state.userID)", expiresAt: now + lifetime, payload: state.payload)
        let stored = try access.write(.relaxed) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: Self.maxPerUser, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyRequests("too many passkey enrollments are waiting for this user", retryAfterSeconds: 60)
        }
        return value
    }

    private func take(_ value: String, domain: String, tenant: TenantRecord, now: Date) throws(ServiceError)
        -> EnrollmentState?
    {
        guard !value.isEmpty, value.utf8.count <= 256 else { return nil }
        let record = try access.write(.relaxed) { transaction in
            try transaction.authSessions.consume(handleHash: EnrollmentState.hash(value, domain: domain))
        }
        guard let record, record.tenantID == tenant.id, record.expiresAt > now else { return nil }
        return EnrollmentState(payload: record.payload)
    }

    private func peek(_ value: String, domain: String, tenant: TenantRecord, now: Date) throws(ServiceError)
        -> EnrollmentState?
    {
        guard !value.isEmpty, value.utf8.count <= 256 else { return nil }
        let record = try access.read { transaction in
            try transaction.authSessions.get(handleHash: EnrollmentState.hash(value, domain: domain))
        }
        guard let record, record.tenantID == tenant.id, record.expiresAt > now else { return nil }
        return EnrollmentState(payload: record.payload)
    }
}

/// What a ticket (and then the page's enrollment) stands for, in the auth-session table under a
/// hash in the ticket's or the page's own domain.
struct EnrollmentState: Sendable, Equatable {
    static let ticketDomain = "sesame-enrollment-ticket"
    static let pageDomain = "sesame-enrollment-page"

    var reason: PasskeyEnrollmentReason
    var userID: String
    var clientID: String
    var deviceKeyID: String?
    var returnTo: String?

    static func hash(_ value: String, domain: String) -> [UInt8] { Digest.sha256(Array("\(domain)\u{0}\(value)".utf8)) }

}

extension EnrollmentState: TicketPayload {
    static let kind = TicketKind.passkeyEnrollment
    static let recordFields = RecordFields<EnrollmentState>(
        blank: EnrollmentState(reason: .progressive, userID: "", clientID: "", deviceKeyID: nil, returnTo: nil),
        [
            .field("reason", \.reason),
            .field("userID", \.userID),
            .field("clientID", \.clientID),
            .field("deviceKeyID", \.deviceKeyID),
            .field("returnTo", \.returnTo),
        ])
}

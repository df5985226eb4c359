import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// A link that confirms a user's email address: single use, 5 days (Auth0's default), kept in
/// the auth-session table under a hash of the ticket in its own domain. It names the address it
/// was sent to, so a link for an address the user has since changed confirms nothing.
struct VerificationTicket: Sendable, Equatable {
    static let lifetime: TimeInterval = 5 * 86_400
    /// Outstanding links per user; more asks send nothing until one expires.
    static let maxPerUser = 5

    var userID: String
    var email: String

    static func hash(_ ticket: String) -> [UInt8] { Digest.sha256(Array("sesame-verify-email\u{0}\(ticket)".utf8)) }
}

extension VerificationTicket: TicketPayload {
    static let kind = TicketKind.emailVerification
    static let recordFields = RecordFields<VerificationTicket>(
        blank: VerificationTicket(userID: "", email: ""), [.field("userID", \.userID), .field("email", \.email)])
}

/// Email verification through the message sender: the link, and confirming it.
public final class EmailVerification: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let messages: any MessageSender

    public init(store: any SesameStore, clock: any ServiceClock, random: any RandomSource, messages: any MessageSender)
    {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.messages = messages
    }

    static let refused = ServiceError.invalidGrant("the verification link is unknown, expired or already used")

    /// Sends `user` a link to confirm their email address; nothing when they have none, it is
    /// confirmed already, or they hold the most links allowed.
    public func send(tenant: TenantRecord, user: UserRecord) throws(ServiceError) {
        guard let email = user.profile.email, !user.profile.emailVerified else { return }
        let now = clock.now()
        let ticket = Base64URL.encode(try random.serviceBytes(32))
        let record = AuthSessionRecord(
            handleHash: VerificationTicket.hash(ticket), tenantID: tenant.id, requester: "verify:\(user.id)",
            expiresAt: now + VerificationTicket.lifetime,
            payload: VerificationTicket(userID: user.id, email: email).payload)
        let stored = try access.write(.durable) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: VerificationTicket.maxPerUser, now: now)
        }
        guard stored == .inserted else { return }
        let link = tenant.publicURL + "/u/verify-email?ticket=" + ticket
        try messages.send(
            OutgoingMessage(
                tenantID: tenant.id, channel: .email, template: .verifyEmail, recipient: email,
                text: "Confirm that this is the email address of your \(tenant.name) account: open this link "
                    + "(it works once, for 5 days):\n\(link)\n\nIf you did not sign up, ignore this message."))
    }

    /// What the link's page shows before the link is spent (the page asks before it does).
    public struct Prompt: Sendable, Equatable {
        /// The address the link confirms.
        public var email: String
        public var userID: String
        /// When the account was made.
        public var createdAt: Date
        /// The ways to sign in the account already holds, all added before its address was
        /// proven: empty when there are none, or the address is already confirmed.
        public var priorSignIn: SignInMethods
    }

    /// What the person who opened the link says of the ways to sign in added before.
    public enum PriorSignIn: String, Sendable, CaseIterable {
        /// "I added them": they stay.
        case keep
        /// "I did not": they are removed, with every session (pre-hijacking).
        case remove
    }

    /// What confirming did.
    public enum Outcome: Sendable, Equatable {
        case confirmed
        /// Confirmed, and these ways to sign in, added before, were removed with every session.
        case confirmedAndCleared(SignInMethods)
    }

    /// The ticket a link's `record` holds and its user: a live ticket of `tenant` naming the address
    /// the user still has; anything else is refused.
    static func ticket(
        _ record: AuthSessionRecord?, tenant: TenantRecord, now: Date, in transaction: any StoreTransaction
    ) throws -> (VerificationTicket, UserRecord) {
        guard let record, record.tenantID == tenant.id, record.expiresAt > now,
            let parsed = VerificationTicket(payload: record.payload),
            let user = try transaction.users.get(tenantID: tenant.id, id: parsed.userID),
            user.profile.email == parsed.email
        else { throw Self.refused }
        return (parsed, user)
    }

    /// The link's prompt, without spending it.
    public func pending(tenant: TenantRecord, ticket: String?) throws(ServiceError) -> Prompt {
        guard let ticket, !ticket.isEmpty, ticket.utf8.count <= 128 else { throw Self.refused }
        let now = clock.now()
        return try access.read { transaction in
            let record = try transaction.authSessions.get(handleHash: VerificationTicket.hash(ticket))
            let (parsed, user) = try Self.ticket(record, tenant: tenant, now: now, in: transaction)
            return Prompt(
                email: parsed.email, userID: user.id, createdAt: user.createdAt,
                priorSignIn: try FirstEmailProof.held(by: user, tenant: tenant, in: transaction))
        }
    }

    /// Spends the link and marks the address confirmed, when it is still the user's address.
    ///
    /// The ways to sign in added before the address was proven stay when the link is opened in a
    /// browser signed in to this account (`sessionUserID`: whoever opens it holds both the mailbox
    /// and the account) or when its opener says they added them (`prior` `.keep`). Otherwise they
    /// are removed with every session, and the owner is emailed what went: someone who signed up
    /// with another person's address loses the account when that person confirms it.
    @discardableResult
    public func confirm(
        tenant: TenantRecord, ticket: String?, sessionUserID: String? = nil, prior: PriorSignIn = .remove
    ) throws(ServiceError) -> Outcome {
        guard let ticket, !ticket.isEmpty, ticket.utf8.count <= 128 else { throw Self.refused }
        let now = clock.now()
        let (outcome, user) = try access.write(.durable) { transaction -> (Outcome, UserRecord) in
            let record = try transaction.authSessions.consume(handleHash: VerificationTicket.hash(ticket))
            var user = try Self.ticket(record, tenant: tenant, now: now, in: transaction).1
            guard !user.profile.emailVerified else { return (.confirmed, user) }
            if sessionUserID == user.id || prior == .keep {
                user.profile.emailVerified = true
                user.updatedAt = now
                try transaction.users.update(user)
                return (.confirmed, user)
            }
            let (updated, removed) = try FirstEmailProof.apply(
                to: user, tenant: tenant, keepPassword: false, now: now, in: transaction)
            try transaction.users.update(updated)
            return (removed.isEmpty ? .confirmed : .confirmedAndCleared(removed), updated)
        }
        if case .confirmedAndCleared(let removed) = outcome {
            FirstEmailProof.notify(removed, user: user, tenant: tenant, messages: messages)
        }
        return outcome
    }
}

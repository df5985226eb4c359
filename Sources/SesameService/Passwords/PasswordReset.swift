import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// A password-reset ticket as it waits in the store (in the auth-session table, under a hash of
/// the ticket with its own domain, so a ticket is never taken for a ceremony handle).
struct ResetTicket: Sendable, Equatable {
    static let lifetime: TimeInterval = 30 * 60
    /// Outstanding tickets per user; more asks send nothing until one expires.
    static let maxPerUser = 5
    /// The payload's first field; its first byte is `TicketKind.passwordReset`'s.
    static let tag = "sesame-reset-ticket-1"

    var userID: String
    var connectionID: String
    /// When the user's password was set at issue ("-" for none): any change since voids the ticket.
    var generation: String

    static func hash(_ ticket: String) -> [UInt8] { Digest.sha256(Array("sesame-ticket\u{0}\(ticket)".utf8)) }

    static func generation(_ user: UserRecord) -> String {
        user.password.map { String($0.changedAt.timeIntervalSinceReferenceDate) } ?? "-"
    }

    var payload: [UInt8] { Array([Self.tag, userID, connectionID, generation].joined(separator: "\u{0}").utf8) }

    init(userID: String, connectionID: String, generation: String) {
        self.userID = userID
        self.connectionID = connectionID
        self.generation = generation
    }

    /// nil for anything that is not a reset ticket's payload.
    init?(payload: [UInt8]) {
        let fields = String(decoding: payload, as: UTF8.self).split(
            separator: "\u{0}", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == Self.tag else { return nil }
        self.init(userID: String(fields[1]), connectionID: String(fields[2]), generation: String(fields[3]))
    }
}

extension PasswordService {
    /// The one answer `POST /dbconnections/change_password` gives, whether or not the user exists.
    public static let changePasswordAnswer = "We've just sent you an email to reset your password."

    /// `POST /dbconnections/change_password`: emails a single-use, 30-minute reset link to the
    /// user of `connection` with `email`, if there is one. The answer is the same either way.
    public func requestReset(
        tenant: TenantRecord, clientID: String?, email: String?, connection name: String?
    ) throws(ServiceError) {
        let now = clock.now()
        guard let email, !email.isEmpty else { throw .invalidRequest("email is required") }
        guard email.utf8.count <= 254 else { throw .invalidRequest("email is longer than 254 bytes") }
        guard let name, !name.isEmpty else { throw .invalidRequest("connection is required") }
        let found = try access.read { transaction -> UserRecord? in
            if let clientID {
                guard clientID.utf8.count <= 128, try transaction.clients.get(tenantID: tenant.id, id: clientID) != nil
                else { throw ServiceError.invalidClient("unknown client") }
            }
            guard name.utf8.count <= 128,
                let connection = try transaction.connections.get(tenantID: tenant.id, name: name)
            else { throw ServiceError.invalidRequest("connection is not a connection of this tenant") }
            guard connection.password.enabled else {
                throw ServiceError.invalidRequest("passwords are not enabled for connection \(connection.name)")
            }
            let address = TextRules.email(email)
            return try transaction.users.withIdentifiers(
                tenantID: tenant.id, connectionID: connection.id, email: address, phoneNumber: nil, username: nil
            ).first { $0.profile.email == address }
        }
        guard let user = found, !user.blocked, let address = user.profile.email else { return }
        let ticket = Base64URL.encode(try random.serviceBytes(32))
        let record = AuthSessionRecord(
            handleHash: ResetTicket.hash(ticket), tenantID: tenant.id, requester: "reset:\(user.id)",
            expiresAt: now + ResetTicket.lifetime,
            payload: ResetTicket(
                userID: user.id, connectionID: user.connectionID, generation: ResetTicket.generation(user)
            )
            .payload)
        let stored = try access.write(.durable) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: ResetTicket.maxPerUser, now: now)
        }
        guard stored == .inserted else { return }
        events.audit?.record(
            .successChangePasswordRequest, tenantID: tenant.id, clientID: clientID, user: user,
            details: AuditDetails(method: .emailCode))
        let link = tenant.publicURL + "/u/reset-password?ticket=" + ticket
        try messages.send(
            OutgoingMessage(
                tenantID: tenant.id, channel: .email, template: .passwordReset, recipient: address,
                text: "Someone asked to reset the password of your \(tenant.name) account. To choose a new one, "
                    + "open this link; it works once, for 30 minutes:\n\(link)\n\n"
                    + "If it was not you, ignore this message: your password stays as it is."))
    }

    /// What the reset page needs before the user types: the connection's rules and the user's email
    /// (for the password manager's username field). Reads the ticket without spending it, so a mail
    /// scanner that opens the link spends nothing.
    public func resetTicket(tenant: TenantRecord, ticket: String?) throws(ServiceError) -> (
        rules: String, email: String?
    ) {
        let now = clock.now()
        guard let ticket, !ticket.isEmpty, ticket.utf8.count <= 128 else { throw .invalidRequest("ticket is required") }
        return try access.read { transaction in
            guard let record = try transaction.authSessions.get(handleHash: ResetTicket.hash(ticket)),
                record.tenantID == tenant.id, record.expiresAt > now, let parsed = ResetTicket(payload: record.payload),
                let user = try transaction.users.get(tenantID: tenant.id, id: parsed.userID),
                ResetTicket.generation(user) == parsed.generation,
                let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID)
            else { throw ServiceError.invalidGrant("the reset ticket is unknown, expired or already used") }
            return (connection.password.rules, user.profile.email)
        }
    }

    /// Sets a new password with a reset ticket (single use). The password must meet the
    /// connection's rules; the ticket is spent only when the new password is stored, in the same
    /// transaction. Every refresh token of the user is revoked, and brute-force counts start over.
    public func resetPassword(tenant: TenantRecord, ticket: String?, password: String?) throws(ServiceError) {
        let now = clock.now()
        let refused = ServiceError.invalidGrant("the reset ticket is unknown, expired or already used")
        guard let ticket, !ticket.isEmpty, ticket.utf8.count <= 128 else { throw .invalidRequest("ticket is required") }
        guard let password else { throw .invalidRequest("password is required") }
        let text = try PasswordText(password)
        let hash = ResetTicket.hash(ticket)
        let (user, connection) = try access.read { transaction -> (UserRecord, ConnectionRecord) in
            guard let record = try transaction.authSessions.get(handleHash: hash), record.tenantID == tenant.id,
                record.expiresAt > now, let parsed = ResetTicket(payload: record.payload),
                let user = try transaction.users.get(tenantID: tenant.id, id: parsed.userID),
                ResetTicket.generation(user) == parsed.generation,
                let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID)
            else { throw refused }
            return (user, connection)
        }
        let credential = try credential(for: text, connection: connection, tenant: tenant, stage: .changePassword)
        let removed = try access.write(.durable) { transaction -> SignInMethods in
            guard let record = try transaction.authSessions.consume(handleHash: hash), record.expiresAt > now,
                let parsed = ResetTicket(payload: record.payload),
                var current = try transaction.users.get(
                    tenantID: tenant.id, id: parsed.userID),
                ResetTicket.generation(current) == parsed.generation
            else { throw refused }
            current.password = credential.replacing(current.password)
            current.updatedAt = now
            // The link proved the address: on an unverified account, what was added before goes.
            let (proven, removed) = try FirstEmailProof.apply(
                to: current, tenant: tenant, keepPassword: true, now: now, in: transaction)
            try transaction.users.update(proven)
            // A reset ends every sign-in: whoever knew the old password keeps nothing.
            try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: current.id, at: now)
            try transaction.ssoSessions.deleteAll(tenantID: tenant.id, userID: current.id)
            return removed
        }
        FirstEmailProof.notify(removed, user: user, tenant: tenant, messages: messages)
        events.record(
            tenantID: tenant.id, type: .passwordChange, method: .password, outcome: .success, at: now, clientID: nil,
            userID: user.id)
    }
}

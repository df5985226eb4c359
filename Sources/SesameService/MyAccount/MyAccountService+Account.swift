import Foundation
import SesameStore

/// An app that stays signed in to the user's account: one that holds a live refresh token.
public struct ConnectedApp: Sendable, Hashable {
    public var clientID: String
    /// The app's name, or its id when the app is gone.
    public var name: String
    /// The first sign-in of its oldest live family.
    public var since: Date
    /// The last time it renewed its tokens (or signed in).
    public var lastActive: Date
    /// How many sign-ins (refresh families) it holds.
    public var sessions: Int
}

extension MyAccountService {
    /// A name is at most this many characters.
    public static let maxProfileNameLength = 256

    /// Sets (or, when blank, clears) the caller's name: their own display name, not a credential,
    /// so no fresh sign-in. The same text rules as the Management API's.
    @discardableResult
    public func updateName(_ caller: AccountCaller, name: String?) throws(ServiceError) -> UserRecord {
        try caller.require(.update)
        let trimmed = (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let checked =
            trimmed.isEmpty ? nil : try ManagementValidation.text(trimmed, "name", max: Self.maxProfileNameLength)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            var user = try Self.user(caller, transaction)
            guard user.profile.name != checked else { return user }
            user.profile.name = checked
            user.updatedAt = now
            try transaction.users.update(user)
            return user
        }
    }

    /// The account page lists at most this many live refresh families.
    public static let maxListedFamilies = 1_000

    /// The apps that hold a live refresh token of the caller, most recently active first.
    public func connectedApps(_ caller: AccountCaller) throws(ServiceError) -> [ConnectedApp] {
        try caller.require(.read)
        let now = clock.now()
        return try access.read { transaction in
            let user = try Self.user(caller, transaction)
            let live = try transaction.refreshTokens.current(
                tenantID: caller.tenant.id, userID: user.id, limit: Self.maxListedFamilies
            ).filter { $0.expiresAt > now && $0.idleExpiresAt > now }
            var apps: [String: ConnectedApp] = [:]
            for token in live {
                if var app = apps[token.clientID] {
                    app.since = min(app.since, token.authTime)
                    app.lastActive = max(app.lastActive, token.createdAt)
                    app.sessions += 1
                    apps[token.clientID] = app
                } else {
                    let name = try transaction.clients.get(tenantID: caller.tenant.id, id: token.clientID)?.name
                    apps[token.clientID] = ConnectedApp(
                        clientID: token.clientID, name: name ?? token.clientID, since: token.authTime,
                        lastActive: token.createdAt, sessions: 1)
                }
            }
            return apps.values.sorted { ($0.lastActive, $0.clientID) > ($1.lastActive, $1.clientID) }
        }
    }

    /// Ends every refresh family of the caller with `clientID`: the app signs in again to get
    /// access back. Taking access away needs no fresh sign-in. 404 when the app holds none.
    public func revokeApp(_ caller: AccountCaller, clientID: String) throws(ServiceError) {
        try caller.require(.delete)
        guard !clientID.isEmpty, clientID.utf8.count <= 128 else {
            throw .notFound("no app of yours has this id")
        }
        let now = clock.now()
        let user = try access.write(.durable) { transaction in
            let user = try Self.user(caller, transaction)
            let revoked = try transaction.refreshTokens.revokeAll(
                tenantID: caller.tenant.id, userID: user.id, clientID: clientID, at: now)
            guard revoked > 0 else { throw ServiceError.notFound("no app of yours has this id") }
            return user
        }
        tokens.events.audit?.record(
            .successRevocation, tenantID: caller.tenant.id, clientID: clientID, user: user,
            details: AuditDetails(target: clientID))
    }

    /// Checks that the caller's sign-in may change the account (recent enough, with the user's
    /// second factor: `CredentialChange`), before a page shows a secret or asks to delete.
    public func requireFreshSignIn(_ caller: AccountCaller) throws(ServiceError) {
        let now = clock.now()
        _ = try access.read { transaction in try Self.requireCredentialChange(caller, now: now, transaction) }
    }

    /// What the user types to confirm deleting their account: their email, else username, else
    /// phone number (the identifier the account page shows).
    public static func deletionConfirmation(_ user: UserRecord) -> String { user.profile.primaryIdentifier }

    /// Deletes the caller's account, after a fresh sign-in and the typed confirmation (compared
    /// without regard to case or surrounding spaces): the user with their passkeys, sessions and
    /// refresh tokens, as `DELETE /api/v2/users/{id}` does. The user is emailed; the audit entry
    /// names the account page as the client.
    public func deleteAccount(_ caller: AccountCaller, confirmation: String?) throws(ServiceError) {
        try caller.require(.delete)
        let now = clock.now()
        let typed = (confirmation ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard typed.utf8.count <= 512 else { throw .invalidRequest(Self.confirmationText) }
        let user = try access.write(.durable) { transaction in
            let user = try Self.requireCredentialChange(caller, now: now, transaction)
            guard typed.lowercased() == Self.deletionConfirmation(user).lowercased() else {
                throw ServiceError.invalidRequest(Self.confirmationText)
            }
            try ManagementService.delete(user, tenant: caller.tenant, now: now, in: transaction)
            return user
        }
        tokens.events.audit?.record(
            .successUserDeletion, tenantID: caller.tenant.id, clientID: caller.clientID, user: user,
            details: AuditDetails(target: user.id))
        notices?.accountDeleted(tenant: caller.tenant, user: user)
    }

    /// The 400 for a confirmation that does not match (the pages say it in words).
    public static let confirmationText = "the confirmation does not match the account's identifier"
}

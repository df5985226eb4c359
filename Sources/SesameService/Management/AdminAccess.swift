import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// The admin page's access: who may open it (the tenant's admin users), and the one-time setup
/// link that makes an admin (the first at initialisation, more with `sesame admin setup-link`).
/// The link's token is kept only as a hash, in the auth-session table under its own domain, for
/// 7 days; it is spent when a signed-in user claims it. Only the newest link works: a record under
/// the tenant's own key names it, and a new link spends the one before.
public struct AdminAccess: Sendable {
    public static let setupLifetime: TimeInterval = 7 * 86_400
    static let tag = TicketKind.adminSetupLink.rawValue
    static let currentTag = TicketKind.adminSetupPointer.rawValue

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource

    public init(store: any SesameStore, clock: any ServiceClock, random: any RandomSource) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
    }

    static func hash(_ token: String) -> [UInt8] { Digest.sha256(Array("sesame-admin-setup\u{0}\(token)".utf8)) }
    /// The key of the record that names the tenant's newest link.
    static func currentKey(_ tenantID: String) -> [UInt8] {
        Digest.sha256(Array("sesame-admin-setup-current\u{0}\(tenantID)".utf8))
    }

    /// The setup link's path for a new token (`/admin/setup?token=…`); the unspent link made
    /// before stops working.
    public func newSetupLink(tenant: TenantRecord) throws(ServiceError) -> String {
        let token = Base64URL.encode(try random.serviceBytes(32))
        let now = clock.now()
        let record = AuthSessionRecord(
            handleHash: Self.hash(token), tenantID: tenant.id, requester: "admin-setup:\(tenant.id)",
            expiresAt: now + Self.setupLifetime, payload: [Self.tag])
        let current = AuthSessionRecord(
            handleHash: Self.currentKey(tenant.id), tenantID: tenant.id, requester: "admin-setup-current:\(tenant.id)",
            expiresAt: now + Self.setupLifetime, payload: [Self.currentTag] + record.handleHash)
        // Each link spends the one before, in the same write: at most one is live.
        try access.write(.durable) { transaction in
            if let previous = try transaction.authSessions.consume(handleHash: current.handleHash),
                previous.payload.first == Self.currentTag
            {
                _ = try transaction.authSessions.consume(handleHash: Array(previous.payload.dropFirst()))
            }
            _ = try transaction.authSessions.insert(current, maxPerRequester: .max, now: now)
            _ = try transaction.authSessions.insert(record, maxPerRequester: .max, now: now)
        }
        return "/admin/setup?token=" + token
    }

    /// Whether `token` is the unspent, newest setup link of `tenant`.
    public func isSetupToken(_ token: String?, tenant: TenantRecord) -> Bool {
        guard let token, !token.isEmpty, token.utf8.count <= 128 else { return false }
        let now = clock.now()
        return
            (try? access.read { transaction in
                guard let record = try transaction.authSessions.get(handleHash: Self.hash(token)) else { return false }
                return try Self.usable(record, tenant: tenant, now: now, in: transaction)
            }) ?? false
    }

    /// An unexpired setup link of `tenant` that is its newest (a store written before links were
    /// replaced has no record of the newest, and each of its links works until spent).
    static func usable(
        _ record: AuthSessionRecord, tenant: TenantRecord, now: Date, in transaction: any StoreTransaction
    ) throws -> Bool {
        guard record.tenantID == tenant.id, record.expiresAt > now, record.payload == [tag] else { return false }
        guard let current = try transaction.authSessions.get(handleHash: currentKey(tenant.id)),
            current.payload.first == currentTag
        else { return true }
        return constantTimeEquals(Array(current.payload.dropFirst()), record.handleHash)
    }

    /// The tenant's administrators, as stored now (a deleted user is left out).
    public func administrators(tenant: TenantRecord) throws(ServiceError) -> [UserProfile] {
        try access.read { transaction in
            let current = try transaction.tenants.get(id: tenant.id) ?? tenant
            return try (current.adminUserIDs ?? []).compactMap { id in
                try transaction.users.get(tenantID: tenant.id, id: id).map { user in
                    UserProfile(id: user.id, email: user.profile.email, name: user.profile.name)
                }
            }
        }
    }

    /// What `sesame admin list` shows of an administrator.
    public struct UserProfile: Sendable, Equatable {
        public var id: String
        public var email: String?
        public var name: String?
    }

    /// Spends `token` and makes `userID` an admin of `tenant`.
    public func claim(_ token: String?, userID: String, tenant: TenantRecord) throws(ServiceError) {
        guard let token, !token.isEmpty, token.utf8.count <= 128 else { throw Self.spent }
        let now = clock.now()
        try access.write(.durable) { transaction in
            guard let record = try transaction.authSessions.consume(handleHash: Self.hash(token)),
                try Self.usable(record, tenant: tenant, now: now, in: transaction),
                var current = try transaction.tenants.get(id: tenant.id)
            else { throw Self.spent }
            var admins = current.adminUserIDs ?? []
            if !admins.contains(userID) { admins.append(userID) }
            current.adminUserIDs = admins
            current.updatedAt = now
            try transaction.tenants.update(current)
        }
    }

    static let spent = ServiceError.invalidRequest("This setup link has expired or was already used.")

    /// Whether the user of `session` may open the admin page.
    public static func isAdmin(_ session: SSOSession, tenant: TenantRecord) -> Bool {
        tenant.adminUserIDs?.contains(session.user.id) == true
    }
}

extension ManagementService {
    /// The admin page's caller: an admin's session, with every Management API scope. 403 for
    /// anyone else.
    public func adminCaller(session: SSOSession, tenant: TenantRecord) throws(ServiceError) -> ManagementCaller {
        guard AdminAccess.isAdmin(session, tenant: tenant) else {
            throw .insufficientScope("the admin page is for the tenant's administrators")
        }
        return ManagementCaller(tenant: tenant, clientID: nil, scopes: Set(Bootstrap.managementScopes))
    }
}

import Foundation
import SesameCrypto
import SesameStore
import WebAuthn

/// The admin page's access: who may open it (the tenant's admin users), and the one-time setup
/// link that makes the first admin. The link's token is kept only as a hash, in the auth-session
/// table under its own domain, for 7 days; it is spent when a signed-in user claims it.
public struct AdminAccess: Sendable {
    public static let setupLifetime: TimeInterval = 7 * 86_400
    static let tag: UInt8 = 0x41

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource

    public init(store: any SesameStore, clock: any ServiceClock, random: any RandomSource) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
    }

    static func hash(_ token: String) -> [UInt8] { Digest.sha256(Array("sesame-admin-setup\u{0}\(token)".utf8)) }

    /// The setup link's path for a new token (`/admin/setup?token=…`), replacing any unspent one.
    public func newSetupLink(tenant: TenantRecord) throws(ServiceError) -> String {
        let token = Base64URL.encode(try random.serviceBytes(32))
        let now = clock.now()
        let record = AuthSessionRecord(
            handleHash: Self.hash(token), tenantID: tenant.id, requester: "admin-setup:\(tenant.id)",
            expiresAt: now + Self.setupLifetime, payload: [Self.tag])
        let stored = try access.write(.durable) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: 5, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyRequests("five setup links are unspent; use one of them", retryAfterSeconds: 3_600)
        }
        return "/admin/setup?token=" + token
    }

    /// Whether `token` is an unspent setup link of `tenant`.
    public func isSetupToken(_ token: String?, tenant: TenantRecord) -> Bool {
        guard let token, !token.isEmpty, token.utf8.count <= 128 else { return false }
        let now = clock.now()
        return
            (try? access.read { transaction in
                guard let record = try transaction.authSessions.get(handleHash: Self.hash(token)) else { return false }
                return record.tenantID == tenant.id && record.expiresAt > now && record.payload == [Self.tag]
            }) ?? false
    }

    /// Spends `token` and makes `userID` an admin of `tenant`.
    public func claim(_ token: String?, userID: String, tenant: TenantRecord) throws(ServiceError) {
        guard let token, !token.isEmpty, token.utf8.count <= 128 else { throw Self.spent }
        let now = clock.now()
        try access.write(.durable) { transaction in
            guard let record = try transaction.authSessions.consume(handleHash: Self.hash(token)),
                record.tenantID == tenant.id, record.expiresAt > now, record.payload == [Self.tag],
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

import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// The proof a sign-in at the hosted pages ended with: who, how (RFC 8176 `amr`) and when.
public struct SignInProof: Sendable, Equatable {
    public var user: UserRecord
    public var amr: [String]
    public var authTime: Date
    /// A password sign-in: how the password fares (a weak or breached one earns the upgrade offer).
    public var passwordStatus: PasswordStatus?

    public init(user: UserRecord, amr: [String], authTime: Date, passwordStatus: PasswordStatus? = nil) {
        self.user = user
        self.amr = amr
        self.authTime = authTime
        self.passwordStatus = passwordStatus
    }
}

/// A live SSO session, as a request presented it.
public struct SSOSession: Sendable, Equatable {
    public var record: SSOSessionRecord
    public var user: UserRecord
}

/// Where a browser is, for the session record: its User-Agent and its client-address key.
public struct BrowserContext: Sendable, Equatable {
    public var userAgent: String
    public var address: String

    public init(userAgent: String?, address: String) {
        // At most 256 bytes, cut at a character boundary, without control characters.
        var kept = ""
        for character in (userAgent ?? "") where (character.asciiValue ?? 0x20) >= 0x20 && character != "\u{7F}" {
            guard kept.utf8.count + character.utf8.count <= 256 else { break }
            kept.append(character)
        }
        self.userAgent = kept
        self.address = address
    }
}

/// SSO sessions: the server-side record behind the hosted pages' session cookie (docs/oidc.md).
///
/// The cookie holds 32 random bytes; the store keeps only their SHA-256 in this service's domain,
/// so a stolen database opens no session. A session ends when it is idle for the tenant's idle
/// lifetime or reaches its absolute lifetime, whichever is first. Every sign-in and step-up makes a
/// new cookie (the old one stops working at once): a cookie planted before sign-in is worthless.
public final class SSOSessionService: Sendable {
    /// How often a request that uses a session writes its last-seen time.
    public static let touchInterval: TimeInterval = 60
    /// Sessions one user may hold; the oldest is ended when a new one would pass it.
    public static let maxPerUser = 50

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    /// Where sign-outs are recorded (`slo`; nil: not recorded).
    let audit: AuditLog?

    public init(store: any SesameStore, clock: any ServiceClock, random: any RandomSource, audit: AuditLog? = nil) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.audit = audit
    }

    /// `slo` for `userID` (after the write that ended the session committed).
    private func recordLogout(tenant: TenantRecord, userID: String, clientID: String?) {
        audit?.record(.successLogout, tenantID: tenant.id, clientID: clientID, userID: userID)
    }

    static func hash(_ cookie: String) -> [UInt8] { Digest.sha256(Array("sesame-sso-session\u{0}\(cookie)".utf8)) }

    /// Starts a session for `proof`, or continues `current` (the same user signing in again, a
    /// step-up) under a new cookie. Returns the cookie value. A `current` of another user is ended.
    public func begin(
        tenant: TenantRecord, proof: SignInProof, browser: BrowserContext, replacing current: SSOSession?
    ) throws(ServiceError) -> (cookie: String, session: SSOSessionRecord) {
        let now = clock.now()
        let cookie = Base64URL.encode(try random.serviceBytes(32))
        let hash = Self.hash(cookie)
        let idle = now.addingTimeInterval(TimeInterval(tenant.idleSessionLifetime))
        let record = try access.write(.relaxed) { transaction -> SSOSessionRecord in
            if let current, current.record.tenantID == tenant.id, current.user.id == proof.user.id,
                var held = try transaction.ssoSessions.get(cookieHash: current.record.cookieHash)
            {
                // A step-up: the same session, a new cookie, the new proof (methods accumulate).
                held.cookieHash = hash
                held.lastSeenAt = now
                held.idleExpiresAt = min(idle, held.expiresAt)
                held.authTime = proof.authTime
                held.amr = Self.merged(held.amr, proof.amr)
                held.userAgent = browser.userAgent
                held.clientAddress = browser.address
                try transaction.ssoSessions.update(held)
                return held
            }
            if let current, current.record.tenantID == tenant.id {
                try transaction.ssoSessions.delete(tenantID: tenant.id, id: current.record.id)
            }
            let held = try transaction.ssoSessions.list(tenantID: tenant.id, userID: proof.user.id)
            for old in held.dropFirst(Self.maxPerUser - 1) {
                try transaction.ssoSessions.delete(tenantID: tenant.id, id: old.id)
            }
            let record = SSOSessionRecord(
                tenantID: tenant.id, id: "ses_" + Hex.lowercase(try random.serviceBytes(12)), cookieHash: hash,
                userID: proof.user.id, connectionID: proof.user.connectionID, createdAt: now, lastSeenAt: now,
                idleExpiresAt: idle, expiresAt: now.addingTimeInterval(TimeInterval(tenant.sessionLifetime)),
                authTime: proof.authTime, amr: proof.amr, userAgent: browser.userAgent,
                clientAddress: browser.address)
            try transaction.ssoSessions.insert(record)
            return record
        }
        return (cookie, record)
    }

    /// The methods of a session after a step-up: the earlier ones, then the new ones not yet held.
    static func merged(_ held: [String], _ new: [String]) -> [String] {
        held + new.filter { !held.contains($0) }
    }

    /// The live session `cookie` stands for at `tenant`, or nil (no cookie, unknown, another
    /// tenant's, ended, or its user deleted or blocked). Moves the idle expiry forward, writing at
    /// most once per `touchInterval`.
    public func resolve(tenant: TenantRecord, cookie: String?) -> SSOSession? {
        guard let cookie, !cookie.isEmpty, cookie.utf8.count <= 128 else { return nil }
        let now = clock.now()
        let hash = Self.hash(cookie)
        guard
            let found = try? access.read({ transaction -> SSOSession? in
                guard let record = try transaction.ssoSessions.get(cookieHash: hash), record.tenantID == tenant.id,
                    record.endsAt > now,
                    let user = try transaction.users.get(tenantID: tenant.id, id: record.userID), !user.blocked
                else { return nil }
                return SSOSession(record: record, user: user)
            })
        else { return nil }
        guard now.timeIntervalSince(found.record.lastSeenAt) >= Self.touchInterval else { return found }
        let idle = now.addingTimeInterval(TimeInterval(tenant.idleSessionLifetime))
        // The record as it is now, in the write, so a change made meanwhile (a client noted) is
        // kept. A failed touch costs only the idle extension; the session stays valid as it was.
        let touched = try? access.write(.relaxed) { transaction -> SSOSessionRecord? in
            guard var held = try transaction.ssoSessions.get(cookieHash: hash) else { return nil }
            held.lastSeenAt = now
            held.idleExpiresAt = min(idle, held.expiresAt)
            try transaction.ssoSessions.update(held)
            return held
        }
        return SSOSession(record: touched ?? found.record, user: found.user)
    }

    /// Remembers that `clientID` received a code from the session (for RP-initiated logout).
    func noteClient(_ clientID: String, session: SSOSessionRecord) throws(ServiceError) {
        guard !session.clientIDs.contains(clientID) else { return }
        try access.write(.relaxed) { transaction in
            guard var held = try transaction.ssoSessions.get(cookieHash: session.cookieHash) else { return }
            guard !held.clientIDs.contains(clientID), held.clientIDs.count < 100 else { return }
            held.clientIDs.append(clientID)
            try transaction.ssoSessions.update(held)
        }
    }

    /// Ends the session `cookie` stands for (sign-out); nothing when there is none. `clientID` is
    /// the app that asked (RP-initiated logout), for the audit log.
    public func end(tenant: TenantRecord, cookie: String?, clientID: String? = nil) throws(ServiceError) {
        guard let cookie, !cookie.isEmpty, cookie.utf8.count <= 128 else { return }
        let hash = Self.hash(cookie)
        let ended = try access.write(.relaxed) { transaction -> String? in
            guard let record = try transaction.ssoSessions.get(cookieHash: hash), record.tenantID == tenant.id else {
                return nil
            }
            try transaction.ssoSessions.delete(tenantID: tenant.id, id: record.id)
            return record.userID
        }
        if let ended { recordLogout(tenant: tenant, userID: ended, clientID: clientID) }
    }

    /// A user's live sessions, newest first.
    public func sessions(tenant: TenantRecord, userID: String) throws(ServiceError) -> [SSOSessionRecord] {
        let now = clock.now()
        return try access.read { try $0.ssoSessions.list(tenantID: tenant.id, userID: userID) }
            .filter { $0.endsAt > now }
    }

    /// Ends one of a user's sessions by its id; 404 when the user has no such session.
    public func end(tenant: TenantRecord, userID: String, sessionID: String) throws(ServiceError) {
        try access.write(.relaxed) { transaction in
            guard sessionID.utf8.count <= 64,
                try transaction.ssoSessions.list(tenantID: tenant.id, userID: userID).contains(where: {
                    $0.id == sessionID
                })
            else { throw ServiceError.notFound("no session with this id") }
            try transaction.ssoSessions.delete(tenantID: tenant.id, id: sessionID)
        }
        recordLogout(tenant: tenant, userID: userID, clientID: nil)
    }

    /// "Sign out everywhere": every session of the user, and every refresh token, in one write.
    /// Returns how many sessions ended.
    @discardableResult
    public func endAll(tenant: TenantRecord, userID: String) throws(ServiceError) -> Int {
        let now = clock.now()
        let ended = try access.write(.relaxed) { transaction in
            let ended = try transaction.ssoSessions.deleteAll(tenantID: tenant.id, userID: userID)
            try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: userID, at: now)
            return ended
        }
        recordLogout(tenant: tenant, userID: userID, clientID: nil)
        return ended
    }

    /// Deletes sessions that ended (the server calls this with its other sweeps).
    @discardableResult public func sweep() -> Int {
        (try? access.write(.relaxed) { try $0.ssoSessions.deleteExpired(now: self.clock.now(), limit: 1_000) }) ?? 0
    }
}

import Foundation
import SesameCrypto
import SesameStore
import Synchronization
import WebAuthn

/// What a challenge endpoint hands to the token endpoint: a short-lived, single-use record.
/// Its size is the server's choice: ids, a challenge, a user handle, and for a signup a profile
/// packed within `PendingSignupProfile.maxTextBytes`.
public struct AuthSession: Sendable {
    /// Which ceremony the token call must complete.
    public enum Ceremony: Sendable {
        /// A new user and their first passkey.
        case signup(state: RegistrationState, profile: PendingSignupProfile)
        /// A discoverable-credential login.
        case login(state: AuthenticationState)
        /// A new passkey for an existing, signed-in user (My Account), or one that replaces the
        /// user's password (an account security upgrade).
        case enroll(state: RegistrationState, userID: String, purpose: EnrollmentPurpose)
    }

    public var tenantID: String
    public var clientID: String
    public var connectionID: String
    public var ceremony: Ceremony
    public var expiresAt: Date
    /// Who asked for it: a client-address key (an IPv4 address or an IPv6 /64), for the per-requester cap.
    public var requester: String
    /// The `scope` and `audience` sent with the challenge (Auth0.Android's `PasskeyAuthProvider`
    /// puts them there), for a token request that names neither.
    public var tokenDefaults: TokenDefaults?

    public init(
        tenantID: String, clientID: String, connectionID: String, ceremony: Ceremony, expiresAt: Date,
        requester: String, tokenDefaults: TokenDefaults? = nil
    ) {
        self.tenantID = tenantID
        self.clientID = clientID
        self.connectionID = connectionID
        self.ceremony = ceremony
        self.expiresAt = expiresAt
        self.requester = requester
        self.tokenDefaults = tokenDefaults
    }
}

/// What an enrollment is for.
public enum EnrollmentPurpose: Sendable, Equatable {
    /// Another passkey.
    case addPasskey
    /// A passkey that takes the password's place (docs/account-upgrades.md): the verify step disables the password.
    case replacePassword
}

/// The token parameters a challenge carried. Held with the pending ceremony, so they are bounded.
public struct TokenDefaults: Sendable, Hashable {
    /// The most bytes `scope` and `audience` may hold together.
    public static let maxBytes = 1_024
    public let scope: String?
    public let audience: String?

    /// Nil when neither is given; 400 beyond `maxBytes` or for a malformed scope.
    public static func make(scope: String?, audience: String?) throws(ServiceError) -> TokenDefaults? {
        let scope = scope.flatMap { $0.isEmpty ? nil : $0 }
        let audience = audience.flatMap { $0.isEmpty ? nil : $0 }
        guard scope != nil || audience != nil else { return nil }
        guard (scope?.utf8.count ?? 0) + (audience?.utf8.count ?? 0) <= maxBytes else {
            throw .invalidRequest("scope and audience together hold more than \(maxBytes) bytes")
        }
        _ = try Scopes.parse(scope)
        return TokenDefaults(scope: scope, audience: audience)
    }

    private init(scope: String?, audience: String?) {
        self.scope = scope
        self.audience = audience
    }
}

/// Where auth sessions live between challenge and token. One process owning a SQLite store keeps
/// them in memory (`InMemoryAuthSessions`); several processes sharing PostgreSQL will keep them in
/// the store.
public protocol AuthSessionStore: Sendable {
    /// Stores `session` and returns the opaque handle the client sends back. Throws 429 when the
    /// requester already has its maximum of pending sessions, 503 when the store is full.
    func insert(_ session: AuthSession, now: Date) throws(ServiceError) -> String
    /// Removes and returns the session for `handle` (single use: a second call finds nothing),
    /// whether or not it has expired; the caller checks expiry and ownership.
    func consume(_ handle: String) -> AuthSession?
    /// The session, left pending (nil when unknown).
    func peek(_ handle: String) -> AuthSession?
    /// Removes every session expired at `now` (run on a timer); returns how many.
    @discardableResult func sweep(now: Date) -> Int
}

/// In-memory auth sessions, keyed by the SHA-256 of the handle (the handle itself is never kept).
///
/// Limits: at most `capacity` sessions in all and `maxPerRequester` per requester; expired ones
/// are swept on every insert and by `sweep(now:)` (every second while serving). Every
/// operation is O(1) amortised: expiries are kept in insertion order, which is expiry order since
/// every session lives for the same challenge timeout.
public final class InMemoryAuthSessions: AuthSessionStore {
    /// The most sessions held at once.
    public let capacity: Int
    /// The most pending sessions one requester may hold.
    public let maxPerRequester: Int
    private let random: any RandomSource

    /// The 32-byte SHA-256 of a handle, held without a heap allocation.
    struct Key: Hashable, Sendable {
        let a: UInt64, b: UInt64, c: UInt64, d: UInt64

        init(handle: String) {
            let hash = Digest.sha256(Array(handle.utf8))
            func word(_ offset: Int) -> UInt64 {
                hash[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) }
            }
            a = word(0)
            b = word(8)
            c = word(16)
            d = word(24)
        }
    }

    private struct Table {
        var sessions: [Key: AuthSession] = [:]
        /// (expiry, key) in insertion order; entries of consumed sessions are skipped when reached.
        var expiries: [(Date, Key)] = []
        var expiryStart = 0
        var perRequester: [String: Int] = [:]

        mutating func remove(_ key: Key) -> AuthSession? {
            guard let session = sessions.removeValue(forKey: key) else { return nil }
            let left = (perRequester[session.requester] ?? 1) - 1
            perRequester[session.requester] = left > 0 ? left : nil
            return session
        }

        mutating func sweep(now: Date) -> Int {
            var removed = 0
            while expiryStart < expiries.count, expiries[expiryStart].0 <= now {
                let key = expiries[expiryStart].1
                if let session = sessions[key], session.expiresAt <= now, remove(key) != nil { removed += 1 }
                expiryStart += 1
            }
            // Drop the swept prefix once it is most of the array (amortised O(1)).
            if expiryStart > 1_024, expiryStart * 2 > expiries.count {
                expiries.removeFirst(expiryStart)
                expiryStart = 0
            }
            return removed
        }
    }

    private let table = Mutex(Table())

    public init(capacity: Int = 100_000, maxPerRequester: Int = 200, random: any RandomSource = SystemRandom()) {
        self.capacity = max(1, capacity)
        self.maxPerRequester = max(1, maxPerRequester)
        self.random = random
    }

    public func insert(_ session: AuthSession, now: Date) throws(ServiceError) -> String {
        let handleBytes: [UInt8]
        do {
            handleBytes = try random.bytes(count: 32)
        } catch {
            throw .unavailable("no randomness for an auth session")
        }
        let handle = Base64URL.encode(handleBytes)
        let key = Key(handle: handle)
        let capacity = self.capacity
        let maxPerRequester = self.maxPerRequester
        let refusal = table.withLock { table -> ServiceError? in
            // Expired sessions go first, so a full table or a requester at its cap only refuses
            // for sessions that are really pending (amortised O(1): each is swept once).
            _ = table.sweep(now: now)
            guard table.sessions.count < capacity else {
                return .unavailable("too many pending passkey ceremonies; try again shortly")
            }
            guard table.perRequester[session.requester, default: 0] < maxPerRequester else {
                return .tooManyRequests(
                    "too many passkey ceremonies are pending from this address; finish or abandon one first",
                    retryAfterSeconds: max(1, Int(session.expiresAt.timeIntervalSince(now).rounded(.up))))
            }
            table.perRequester[session.requester, default: 0] += 1
            table.sessions[key] = session
            table.expiries.append((session.expiresAt, key))
            return nil
        }
        if let refusal { throw refusal }
        return handle
    }

    public func consume(_ handle: String) -> AuthSession? {
        guard handle.utf8.count <= 256 else { return nil }
        let key = Key(handle: handle)
        return table.withLock { $0.remove(key) }
    }

    public func peek(_ handle: String) -> AuthSession? {
        guard handle.utf8.count <= 256 else { return nil }
        let key = Key(handle: handle)
        return table.withLock { $0.sessions[key] }
    }

    @discardableResult public func sweep(now: Date) -> Int {
        table.withLock { $0.sweep(now: now) }
    }

    /// How many sessions are held (tests, metrics).
    public var count: Int { table.withLock { $0.sessions.count } }

    /// How many sessions `requester` holds.
    public func count(for requester: String) -> Int { table.withLock { $0.perRequester[requester] ?? 0 } }
}

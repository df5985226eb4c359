import Foundation
import SesameCrypto
import SesameStore
import Synchronization
import WebAuthn

/// What a challenge endpoint hands to the token endpoint: a short-lived, single-use record.
public struct AuthSession: Sendable {
    /// Which ceremony the token call must complete.
    public enum Ceremony: Sendable {
        /// A new user and their first passkey.
        case signup(state: RegistrationState, profile: UserProfile, metadata: [String: String])
        /// A discoverable-credential login.
        case login(state: AuthenticationState)
        /// A new passkey for an existing, signed-in user (My Account).
        case enroll(state: RegistrationState, userID: String)
    }

    public var tenantID: String
    public var clientID: String
    public var connectionID: String
    public var ceremony: Ceremony
    public var expiresAt: Date

    public init(tenantID: String, clientID: String, connectionID: String, ceremony: Ceremony, expiresAt: Date) {
        self.tenantID = tenantID
        self.clientID = clientID
        self.connectionID = connectionID
        self.ceremony = ceremony
        self.expiresAt = expiresAt
    }
}

/// Where auth sessions live between challenge and token. One process owning a SQLite store keeps
/// them in memory (`InMemoryAuthSessions`); several processes sharing PostgreSQL will keep them in
/// the store.
public protocol AuthSessionStore: Sendable {
    /// Stores `session` and returns the opaque handle the client sends back.
    func insert(_ session: AuthSession, now: Date) throws(ServiceError) -> String
    /// Removes and returns the session for `handle` (single use: a second call finds nothing),
    /// whether or not it has expired; the caller checks expiry and ownership.
    func consume(_ handle: String) -> AuthSession?
}

/// In-memory auth sessions, keyed by the SHA-256 of the handle (the handle itself is never kept).
public final class InMemoryAuthSessions: AuthSessionStore {
    /// The most sessions held at once; beyond it, expired ones are swept and then new ones refused.
    public let capacity: Int
    private let random: any RandomSource
    private let sessions = Mutex<[[UInt8]: AuthSession]>([:])

    public init(capacity: Int = 100_000, random: any RandomSource = SystemRandom()) {
        self.capacity = capacity
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
        let key = Digest.sha256(Array(handle.utf8))
        let stored = sessions.withLock { table -> Bool in
            if table.count >= capacity {
                table = table.filter { $0.value.expiresAt > now }
            }
            guard table.count < capacity else { return false }
            table[key] = session
            return true
        }
        guard stored else { throw .unavailable("too many pending passkey ceremonies; try again shortly") }
        return handle
    }

    public func consume(_ handle: String) -> AuthSession? {
        guard handle.utf8.count <= 256 else { return nil }
        let key = Digest.sha256(Array(handle.utf8))
        return sessions.withLock { $0.removeValue(forKey: key) }
    }

    /// How many sessions are held (tests, metrics).
    public var count: Int { sessions.withLock { $0.count } }
}

import Foundation

/// A uniqueness rule of the store contract; every backend reports a violation as the same case.
public enum UniqueRule: String, Sendable, Hashable, CaseIterable {
    case tenantID = "tenant id"
    case tenantHost = "tenant host"
    case clientID = "client id"
    case connectionID = "connection id"
    case connectionName = "connection name"
    case resourceServerID = "resource server id"
    case resourceServerIdentifier = "resource server identifier"
    case userID = "user id"
    case userHandle = "user user_handle"
    case userEmail = "user email"
    case userPhoneNumber = "user phone_number"
    case userUsername = "user username"
    case passkeyID = "passkey id"
    case passkeyCredentialID = "passkey credential_id"
    case signingKeyID = "signing key id"
    case refreshTokenID = "refresh token id"
    case refreshTokenHash = "refresh token token_hash"
    case authEventID = "auth event id"
}

/// Why a store operation failed. Mapped to HTTP in one place (SesameHTTP): `conflict` → 409/400,
/// `unavailable` → 503 with nothing written.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A uniqueness rule was violated.
    case conflict(UniqueRule)
    /// The record to update or delete does not exist.
    case notFound(String)
    /// The store cannot be reached or refused the operation; the transaction was rolled back.
    case unavailable(String)
    /// Stored data could not be decoded (a bug or a damaged file).
    case corrupt(String)

    public var description: String {
        switch self {
        case .conflict(let rule): return "conflict: \(rule.rawValue) already exists"
        case .notFound(let what): return "not found: \(what)"
        case .unavailable(let why): return "store unavailable: \(why)"
        case .corrupt(let why): return "store data corrupt: \(why)"
        }
    }
}

/// How hard a write transaction must hit the disk before it returns.
public enum Durability: Sendable {
    /// On disk before the call returns (signups, new passkeys, keys, deletions).
    case durable
    /// Committed and crash-safe for the process, may be lost on power failure (counters,
    /// last-used times, events, refresh rotation).
    case relaxed
}

/// A page request for list operations.
public struct Page: Sendable, Hashable {
    public var offset: Int
    public var limit: Int
    public init(offset: Int = 0, limit: Int = 50) {
        self.offset = max(0, offset)
        self.limit = min(max(1, limit), 100)
    }

    /// Every record a paged query returns, fetched page by page (for totals and whole-tenant scans).
    public static func all<T>(_ fetch: (Page) throws -> [T]) throws -> [T] {
        var all: [T] = []
        var offset = 0
        while true {
            let page = try fetch(Page(offset: offset, limit: 100))
            all += page
            if page.count < 100 { return all }
            offset += 100
        }
    }
}

/// The storage behind Sesame. Synchronous: handlers run on the HTTP server's worker threads.
/// Implementations: `InMemoryStore` (tests), `SQLiteStore` (SesameSQLite).
public protocol SesameStore: Sendable {
    /// Runs `body` in a read transaction (a consistent snapshot).
    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T
    /// Runs `body` in a write transaction: all of it commits or none of it does.
    func write<T>(_ durability: Durability, _ body: (any StoreTransaction) throws -> T) throws -> T
}

/// Every query and change, inside one transaction. Every call is scoped by tenant id.
/// Inserts throw `StoreError.conflict` on a uniqueness violation; updates and deletes of a
/// missing record throw `StoreError.notFound`.
public protocol StoreTransaction {
    // Tenants (unique: id, domain and each custom domain).
    func tenant(id: String) throws -> TenantRecord?
    func tenant(host: String) throws -> TenantRecord?
    func tenants() throws -> [TenantRecord]
    func insertTenant(_ tenant: TenantRecord) throws
    func updateTenant(_ tenant: TenantRecord) throws

    // Clients (unique: tenant + id).
    func client(tenantID: String, id: String) throws -> ClientRecord?
    func clients(tenantID: String, page: Page) throws -> [ClientRecord]
    func insertClient(_ client: ClientRecord) throws
    func updateClient(_ client: ClientRecord) throws
    func deleteClient(tenantID: String, id: String) throws

    // Connections (unique: tenant + id, tenant + name).
    func connection(tenantID: String, id: String) throws -> ConnectionRecord?
    func connection(tenantID: String, name: String) throws -> ConnectionRecord?
    func connections(tenantID: String, page: Page) throws -> [ConnectionRecord]
    func insertConnection(_ connection: ConnectionRecord) throws
    func updateConnection(_ connection: ConnectionRecord) throws
    func deleteConnection(tenantID: String, id: String) throws

    // Resource servers (APIs; unique: tenant + id, tenant + identifier).
    func resourceServer(tenantID: String, id: String) throws -> ResourceServerRecord?
    func resourceServer(tenantID: String, identifier: String) throws -> ResourceServerRecord?
    func resourceServers(tenantID: String, page: Page) throws -> [ResourceServerRecord]
    func insertResourceServer(_ server: ResourceServerRecord) throws
    func updateResourceServer(_ server: ResourceServerRecord) throws
    func deleteResourceServer(tenantID: String, id: String) throws

    // Users (unique: tenant + id, tenant + userHandle, and within a connection each of
    // email, phone number and username, compared case-insensitively for email and username).
    func user(tenantID: String, id: String) throws -> UserRecord?
    func user(tenantID: String, userHandle: [UInt8]) throws -> UserRecord?
    /// Users of a connection whose email, phone number or username equals one given (for the
    /// "identifier already taken" check).
    func users(tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?) throws
        -> [UserRecord]
    /// Users whose email, username, phone number, name or id contains `query` (nil: all), newest first.
    func users(tenantID: String, query: String?, page: Page) throws -> [UserRecord]
    func insertUser(_ user: UserRecord) throws
    func updateUser(_ user: UserRecord) throws
    /// Deletes the user with its passkeys. Its refresh tokens stay (the caller revokes them), so a
    /// renewal can tell a deleted user's token from an unknown one, as Auth0 answers it.
    func deleteUser(tenantID: String, id: String) throws

    // Passkeys (unique: tenant + id, tenant + credentialID).
    func passkey(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord?
    func passkey(tenantID: String, id: String) throws -> PasskeyRecord?
    func passkeys(tenantID: String, userID: String) throws -> [PasskeyRecord]
    func insertPasskey(_ passkey: PasskeyRecord) throws
    func updatePasskey(_ passkey: PasskeyRecord) throws
    func deletePasskey(tenantID: String, id: String) throws

    // Signing keys (unique: tenant + id).
    func signingKeys(tenantID: String) throws -> [SigningKeyRecord]
    func insertSigningKey(_ key: SigningKeyRecord) throws
    func updateSigningKey(_ key: SigningKeyRecord) throws

    // Refresh tokens (unique: tenant + id, tokenHash).
    func refreshToken(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord?
    /// Every refresh token of a tenant, by id (moving a deployment to another store).
    func refreshTokens(tenantID: String, page: Page) throws -> [RefreshTokenRecord]
    func insertRefreshToken(_ token: RefreshTokenRecord) throws
    func updateRefreshToken(_ token: RefreshTokenRecord) throws
    /// Marks every token of the family revoked at `at`; returns how many changed.
    @discardableResult func revokeRefreshTokenFamily(tenantID: String, familyID: String, at: Date) throws -> Int
    /// Revokes every refresh token of a user (e.g. when the user is blocked); returns how many changed.
    @discardableResult func revokeRefreshTokens(tenantID: String, userID: String, at: Date) throws -> Int
    /// Revokes every refresh token whose family came from a login with this passkey (when it is
    /// deleted); returns how many changed.
    @discardableResult func revokeRefreshTokens(tenantID: String, passkeyID: String, at: Date) throws -> Int

    // Auth events (append-only).
    // Configuration generation: a number every tenant, client, connection and API write raises in
    // its own transaction, so a process caching configuration sees another process's change.
    /// The current configuration generation.
    func configurationGeneration() throws -> Int64

    // Pending passkey ceremonies (auth sessions), by the SHA-256 of their handle.
    /// Stores `session` unless its requester holds `maxPerRequester` unexpired sessions at `now`.
    func insertAuthSession(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws
        -> AuthSessionInsertion
    /// Removes and returns the session (single use: of two concurrent calls, one gets it); nil when
    /// there is none. An expired session is returned too: the caller says why it is refused.
    func consumeAuthSession(handleHash: [UInt8]) throws -> AuthSessionRecord?
    /// The session, left in place.
    func authSession(handleHash: [UInt8]) throws -> AuthSessionRecord?
    /// Deletes up to `limit` sessions that expired before `now`; returns how many.
    @discardableResult func deleteExpiredAuthSessions(now: Date, limit: Int) throws -> Int

    // DPoP proof replay cache (RFC 9449 §11.1): one entry per proof, kept until it expires.
    /// Records a proof's `key` (a hash of its key and jti) until `expiresAt`: false when the same
    /// key is held and unexpired at `now` (a replay), true otherwise. Expired entries may be dropped.
    func recordDPoPProof(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool

    func insertAuthEvents(_ events: [AuthEventRecord]) throws
    func authEvents(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord]
    /// Every auth event of a tenant, by time then id (moving a deployment to another store).
    func authEvents(tenantID: String, page: Page) throws -> [AuthEventRecord]
}

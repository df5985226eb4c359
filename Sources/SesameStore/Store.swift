import Foundation

// The stored aggregates live one folder each (Tenants/, Users/, Passkeys/, …): the record, and
// the in-memory repository. Every record carries the tenant id; every store call takes it.
// `version` is the record's schema version: conversions between versions are plain functions.

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
    case outboxMessageID = "outbox message id"
    case ssoSessionID = "sso session id"
    case ssoSessionCookie = "sso session cookie_hash"
    case deviceKeyID = "device key id"
    case linkedIdentity = "linked identity connection_id, subject"
    /// Two metadata entries for one AAGUID or attestation key identifier.
    case authenticatorMetadata = "authenticator metadata lookup key"
    case auditEventID = "audit event id"
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

/// Every query and change, inside one transaction, one repository per aggregate. Every call is
/// scoped by tenant id. Inserts throw `StoreError.conflict` on a uniqueness violation; updates and
/// deletes of a missing record throw `StoreError.notFound`.
///
/// Isolation (docs/ARCHITECTURE.md): write transactions are serialisable on every backend, so a
/// read-check-write inside one `write` cannot interleave with another writer's; a backend that
/// detects a conflict retries the whole body, which must therefore have no effect outside the
/// store. Read transactions see one consistent snapshot.
public protocol StoreTransaction {
    var tenants: any TenantRepository { get }
    var clients: any ClientRepository { get }
    var connections: any ConnectionRepository { get }
    var resourceServers: any ResourceServerRepository { get }
    var users: any UserRepository { get }
    var passkeys: any PasskeyRepository { get }
    var signingKeys: any SigningKeyRepository { get }
    var refreshTokens: any RefreshTokenRepository { get }
    var authSessions: any AuthSessionRepository { get }
    var dpopProofs: any DPoPProofRepository { get }
    var authEvents: any AuthEventRepository { get }
    var attemptCounters: any AttemptCounterRepository { get }
    var outbox: any OutboxRepository { get }
    var ssoSessions: any SSOSessionRepository { get }
    var deviceKeys: any DeviceKeyRepository { get }
    var linkedIdentities: any LinkedIdentityRepository { get }
    /// FIDO metadata: the installation's one imported BLOB and its entries (not per tenant).
    var authenticatorMetadata: any AuthenticatorMetadataRepository { get }
    /// The audit log (AuditEventRecord.swift).
    var auditEvents: any AuditEventRepository { get }

    /// The configuration generation: a number every tenant, client, connection and API write
    /// raises in its own transaction, so a process caching configuration sees another's change.
    func configurationGeneration() throws -> Int64
}

/// Tenants (unique: id, domain and each custom domain).
public protocol TenantRepository {
    func get(id: String) throws -> TenantRecord?
    /// The tenant whose domain or custom domain is `host` (compared case-insensitively).
    func get(host: String) throws -> TenantRecord?
    func all() throws -> [TenantRecord]
    func insert(_ tenant: TenantRecord) throws
    func update(_ tenant: TenantRecord) throws
}

/// A configuration aggregate kept by tenant and id (clients, connections, APIs): what each one's
/// repository does alike.
public protocol ConfigurationRepository<Record> {
    associatedtype Record
    func get(tenantID: String, id: String) throws -> Record?
    func list(tenantID: String, page: Page) throws -> [Record]
    func insert(_ record: Record) throws
    func update(_ record: Record) throws
    func delete(tenantID: String, id: String) throws
}

/// Clients (unique: tenant + id).
public protocol ClientRepository: ConfigurationRepository where Record == ClientRecord {}

/// Connections (unique: tenant + id, tenant + name).
public protocol ConnectionRepository: ConfigurationRepository where Record == ConnectionRecord {
    func get(tenantID: String, name: String) throws -> ConnectionRecord?
}

/// Resource servers, the tenant's APIs (unique: tenant + id, tenant + identifier).
public protocol ResourceServerRepository: ConfigurationRepository where Record == ResourceServerRecord {
    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord?
}

/// Users (unique: tenant + id, tenant + userHandle, and within a connection each of email, phone
/// number and username, compared case-insensitively for email and username).
public protocol UserRepository {
    func get(tenantID: String, id: String) throws -> UserRecord?
    func get(tenantID: String, userHandle: [UInt8]) throws -> UserRecord?
    /// Users of a connection whose email, phone number or username equals one given (for the
    /// "identifier already taken" check).
    func withIdentifiers(
        tenantID: String, connectionID: String, email: String?, phoneNumber: String?, username: String?
    ) throws -> [UserRecord]
    /// Users whose email, username, phone number, name or id contains `query` (nil: all), newest first.
    func search(tenantID: String, query: String?, page: Page) throws -> [UserRecord]
    func insert(_ user: UserRecord) throws
    func update(_ user: UserRecord) throws
    /// Moves the user's last-login time forward to `lastLoginAt`, changing nothing else; no
    /// change when the stored time is later or the user is gone.
    func touch(tenantID: String, id: String, lastLoginAt: Date) throws
    /// How a tenant's users (or one connection's) sign in, for the adoption statistics.
    func adoption(tenantID: String, connectionID: String?) throws -> UserAdoption
    /// Deletes the user with its passkeys, device keys and linked identities. Its refresh tokens stay (the caller revokes them), so a
    /// renewal can tell a deleted user's token from an unknown one, as Auth0 answers it.
    func delete(tenantID: String, id: String) throws
}

/// Passkeys (unique: tenant + id, tenant + credentialID).
public protocol PasskeyRepository {
    func get(tenantID: String, credentialID: [UInt8]) throws -> PasskeyRecord?
    func get(tenantID: String, id: String) throws -> PasskeyRecord?
    func list(tenantID: String, userID: String) throws -> [PasskeyRecord]
    func insert(_ passkey: PasskeyRecord) throws
    func update(_ passkey: PasskeyRecord) throws
    /// Stores what an assertion changed, and nothing else: the signature counter, the backup
    /// state, and `at` as the last-used time. `notFound` when the passkey is gone.
    func recordAssertion(tenantID: String, id: String, signCount: UInt32, backupState: Bool, at: Date) throws
    /// Moves the passkey's last-used time forward to `lastUsedAt`, changing nothing else; no change
    /// when the stored time is later or the passkey is gone.
    func touch(tenantID: String, id: String, lastUsedAt: Date) throws
    func delete(tenantID: String, id: String) throws
}

/// Token signing keys (unique: tenant + id).
public protocol SigningKeyRepository {
    func list(tenantID: String) throws -> [SigningKeyRecord]
    func insert(_ key: SigningKeyRecord) throws
    func update(_ key: SigningKeyRecord) throws
}

/// Refresh tokens (unique: tenant + id, tokenHash). Every token of a family has the family's
/// user, client and passkey (a successor copies them); the SQL stores rely on it and index only a
/// family's first token by user and passkey.
public protocol RefreshTokenRepository {
    func get(tenantID: String, tokenHash: [UInt8]) throws -> RefreshTokenRecord?
    /// Every refresh token of a tenant, by id (moving a deployment to another store).
    func list(tenantID: String, page: Page) throws -> [RefreshTokenRecord]
    func insert(_ token: RefreshTokenRecord) throws
    func update(_ token: RefreshTokenRecord) throws
    /// Marks the token used at `at` if it is neither used nor revoked, changing nothing else: a
    /// compare-and-set, so of two writers rotating the same token only one gets true.
    func markUsed(tenantID: String, id: String, at: Date) throws -> Bool
    /// Marks every token of the family revoked at `at`; returns how many changed.
    @discardableResult func revokeFamily(tenantID: String, familyID: String, at: Date) throws -> Int
    /// Revokes every refresh token of a user (e.g. when the user is blocked); returns how many changed.
    @discardableResult func revokeAll(tenantID: String, userID: String, at: Date) throws -> Int
    /// Revokes every refresh token of a user but those of one family (the session that changed the
    /// password keeps going); returns how many changed.
    @discardableResult func revokeAll(tenantID: String, userID: String, exceptFamily familyID: String, at: Date)
        throws -> Int
    /// Revokes every refresh token whose family came from a login with this passkey (when it is
    /// deleted); returns how many changed.
    @discardableResult func revokeAll(tenantID: String, passkeyID: String, at: Date) throws -> Int
    /// Revokes every refresh token of a user's families issued to one client (the account page's
    /// "remove access"); returns how many changed.
    @discardableResult func revokeAll(tenantID: String, userID: String, clientID: String, at: Date) throws -> Int
    /// The current token of each of a user's families: neither used nor revoked (it may have
    /// expired; the caller compares the times), newest first, at most `limit`.
    func current(tenantID: String, userID: String, limit: Int) throws -> [RefreshTokenRecord]
}

/// Pending passkey ceremonies (auth sessions), by the SHA-256 of their handle.
public protocol AuthSessionRepository {
    /// Stores `session` unless its requester holds `maxPerRequester` unexpired sessions at `now`.
    func insert(_ session: AuthSessionRecord, maxPerRequester: Int, now: Date) throws -> AuthSessionInsertion
    /// Removes and returns the session (single use: of two concurrent calls, one gets it); nil when
    /// there is none. An expired session is returned too: the caller says why it is refused.
    func consume(handleHash: [UInt8]) throws -> AuthSessionRecord?
    /// The session, left in place.
    func get(handleHash: [UInt8]) throws -> AuthSessionRecord?
    /// Deletes up to `limit` sessions that expired before `now`; returns how many.
    @discardableResult func deleteExpired(now: Date, limit: Int) throws -> Int
}

/// The DPoP proof replay cache (RFC 9449 §11.1): one entry per proof, kept until it expires.
public protocol DPoPProofRepository {
    /// Records a proof's `key` (a hash of its key and jti) until `expiresAt`: false when the same
    /// key is held and unexpired at `now` (a replay), true otherwise. Expired entries may be dropped.
    func record(tenantID: String, key: [UInt8], expiresAt: Date, now: Date) throws -> Bool
}

/// Auth events (append-only), with their daily roll-up for the adoption statistics.
public protocol AuthEventRepository {
    /// Stores the events and adds each that counts (`AuthEventRecord.dailyCount`) to the roll-up,
    /// in the same transaction.
    func insert(_ events: [AuthEventRecord]) throws
    /// The roll-up's cells for the UTC days `from` through `to` (`YYYY-MM-DD`, inclusive), only
    /// those of `clientID` and `connectionID` when given, by day.
    func dailyCounts(tenantID: String, from: String, to: String, clientID: String?, connectionID: String?) throws
        -> [AuthDailyCount]
    /// A tenant's events at or after `since`, by time then id.
    func since(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord]
    /// Every auth event of a tenant, by time then id (moving a deployment to another store).
    func list(tenantID: String, page: Page) throws -> [AuthEventRecord]
}

/// Attempt counters by tenant and key (the caller hashes what it counts by into the key).
public protocol AttemptCounterRepository {
    /// Adds `delta` (+1 to count an attempt, −1 to give one back) to the counter and returns its
    /// new value, atomically: of many writers each sees its own increment. A counter that is
    /// absent or whose window ended at `now` starts again at `max(0, delta)` with its window ending
    /// at `windowEndsAt`; with `sliding`, a live counter's window moves to `windowEndsAt` too.
    func add(tenantID: String, key: [UInt8], delta: Int, now: Date, windowEndsAt: Date, sliding: Bool) throws -> Int
    /// The live counter (nil when absent or its window ended at `now`).
    func get(tenantID: String, key: [UInt8], now: Date) throws -> AttemptCount?
    /// Removes the counter (a success or a password reset clears it).
    func reset(tenantID: String, key: [UInt8]) throws
    /// Deletes up to `limit` counters whose window ended before `now`; returns how many.
    @discardableResult func deleteExpired(now: Date, limit: Int) throws -> Int
}

/// The outbox sender's messages (unique: tenant + id).
public protocol OutboxRepository {
    func insert(_ message: OutboxMessageRecord) throws
    /// A tenant's messages, newest first.
    func list(tenantID: String, page: Page) throws -> [OutboxMessageRecord]
    /// Deletes up to `limit` messages made before `before`; returns how many.
    @discardableResult func deleteOlder(than before: Date, limit: Int) throws -> Int
}

/// Hosted-page sign-ins (SSO sessions; unique: tenant + id, cookieHash).
public protocol SSOSessionRepository {
    func insert(_ session: SSOSessionRecord) throws
    /// The session whose cookie hashes to `cookieHash`, expired or not (the caller checks).
    func get(cookieHash: [UInt8]) throws -> SSOSessionRecord?
    /// Replaces the stored session with the same tenant and id; `notFound` when it is gone.
    func update(_ session: SSOSessionRecord) throws
    /// A user's sessions, newest first.
    func list(tenantID: String, userID: String) throws -> [SSOSessionRecord]
    /// Deletes one session; false when there was none.
    @discardableResult func delete(tenantID: String, id: String) throws -> Bool
    /// Deletes every session of a user; returns how many.
    @discardableResult func deleteAll(tenantID: String, userID: String) throws -> Int
    /// Deletes up to `limit` sessions that ended (idle or absolute) before `now`; returns how many.
    @discardableResult func deleteExpired(now: Date, limit: Int) throws -> Int
}

/// Legacy device keys (unique: tenant + id).
public protocol DeviceKeyRepository {
    func get(tenantID: String, id: String) throws -> DeviceKeyRecord?
    /// A user's keys, oldest first.
    func list(tenantID: String, userID: String) throws -> [DeviceKeyRecord]
    /// Every device key of a tenant, by id (moving a deployment to another store).
    func list(tenantID: String, page: Page) throws -> [DeviceKeyRecord]
    func insert(_ key: DeviceKeyRecord) throws
    /// Replaces the stored key with the same tenant and id; `notFound` when it is gone.
    func update(_ key: DeviceKeyRecord) throws
    /// Deletes one key; false when there was none.
    @discardableResult func delete(tenantID: String, id: String) throws -> Bool
}

/// Identities at other providers linked to users (unique: tenant + connection + subject).
public protocol LinkedIdentityRepository {
    func get(tenantID: String, connectionID: String, subject: String) throws -> LinkedIdentityRecord?
    /// A user's linked identities, oldest first.
    func list(tenantID: String, userID: String) throws -> [LinkedIdentityRecord]
    /// Every linked identity of a tenant, by connection then subject (moving a deployment to another store).
    func list(tenantID: String, page: Page) throws -> [LinkedIdentityRecord]
    /// `conflict(.linkedIdentity)` when the subject is linked already (to anyone).
    func insert(_ identity: LinkedIdentityRecord) throws
    /// Replaces the stored identity with the same tenant, connection and subject; `notFound` when it is gone.
    func update(_ identity: LinkedIdentityRecord) throws
    /// Unlinks one identity; false when there was none.
    @discardableResult func delete(tenantID: String, connectionID: String, subject: String) throws -> Bool
}

/// How a tenant's users sign in (docs/migration.md's `users`).
public struct UserAdoption: Sendable, Hashable {
    public var total: Int
    /// Users with at least one passkey.
    public var withPasskey: Int
    /// Users with a usable device key and no passkey.
    public var withDeviceKeyOnly: Int

    public init(total: Int, withPasskey: Int, withDeviceKeyOnly: Int) {
        self.total = total
        self.withPasskey = withPasskey
        self.withDeviceKeyOnly = withDeviceKeyOnly
    }

    /// Everyone else: users who sign in with a password (or nothing Sesame knows) only.
    public var passwordOnly: Int { max(0, total - withPasskey - withDeviceKeyOnly) }
}

/// The imported FIDO metadata BLOB and its entries, one set for the installation. Entries are
/// found by AAGUID (FIDO2) or attestation key identifier (U2F), both lowercase.
public protocol AuthenticatorMetadataRepository {
    /// The BLOB imported last; nil before the first import.
    func blob() throws -> MetadataBLOBRecord?
    /// Replaces the BLOB and every entry with these (the import; all of it or, on a throw, none).
    func replace(blob: MetadataBLOBRecord, entries: [AuthenticatorMetadataRecord]) throws
    func get(aaguid: String) throws -> AuthenticatorMetadataRecord?
    func get(attestationKeyIdentifier: String) throws -> AuthenticatorMetadataRecord?
    /// Every stored entry once, in a stable order (`sesame store copy` reads them).
    func entries() throws -> [AuthenticatorMetadataRecord]
}

import Foundation
import SesameCrypto
import SesameStore
import Synchronization

/// The token-signing keys of every tenant: creation, rotation, publication (JWKS) and a cache of
/// unsealed private keys and imported public keys.
///
/// Each tenant has one current key per algorithm (RS256, ES256, EdDSA), so a client may switch its
/// `jwt_configuration.alg` at any time. Rotation turns the current key into the previous one (still
/// published so the tokens it signed keep verifying) and the previous one into a revoked one
/// (neither signs nor is published). Private keys are stored as PKCS#8 DER sealed with the master key,
/// AAD = tenantID ‖ 0x00 ‖ kid; `kid` is the base64url SHA-256 JWK thumbprint (RFC 7638).
///
/// The cache is reloaded from the store after `refreshInterval` (so a rotation made by another
/// process is picked up), at once after a local rotation, and when a token names an unknown kid
/// (at most once a second per tenant).
public final class SigningKeyRing: Sendable {
    /// The algorithms every tenant keeps a current key for.
    public static let algorithms: [JWTAlgorithm] = [.rs256, .es256, .edDSA]

    private let store: any SesameStore
    private let masterKey: MasterKey
    private let clock: any ServiceClock
    private let random: any RandomSource
    private let refreshInterval: TimeInterval
    private let cache = Mutex(Cache())

    /// A ring over `store`. `refreshInterval` bounds how long another process's rotation stays unseen.
    public init(
        store: any SesameStore, masterKey: MasterKey, clock: any ServiceClock,
        random: any RandomSource = SystemRandom(), refreshInterval: TimeInterval = 60
    ) {
        self.store = store
        self.masterKey = masterKey
        self.clock = clock
        self.random = random
        self.refreshInterval = refreshInterval
    }

    // MARK: Creating and rotating

    /// Creates, inside the caller's transaction, a current key for every algorithm the tenant lacks
    /// one for (use it when creating a tenant). Returns the records it inserted.
    @discardableResult
    public func createKeys(tenantID: String, in transaction: any StoreTransaction) throws -> [SigningKeyRecord] {
        let existing = try transaction.signingKeys.list(tenantID: tenantID)
        var inserted: [SigningKeyRecord] = []
        for algorithm in Self.algorithms where !existing.contains(where: { Self.isCurrent($0, algorithm) }) {
            let record = try makeKey(tenantID: tenantID, algorithm: algorithm)
            try transaction.signingKeys.insert(record)
            inserted.append(record)
        }
        if !inserted.isEmpty { invalidate(tenantID: tenantID) }
        return inserted
    }

    /// Makes sure the tenant has a current key for every algorithm, generating keys outside the
    /// write transaction (RSA generation is slow) and inserting those still missing inside it.
    public func ensureKeys(tenantID: String) throws {
        let existing = try store.read { try $0.signingKeys.list(tenantID: tenantID) }
        let missing = Self.algorithms.filter { algorithm in !existing.contains { Self.isCurrent($0, algorithm) } }
        guard !missing.isEmpty else { return }
        let fresh = try missing.map { try makeKey(tenantID: tenantID, algorithm: $0) }
        try store.write(.durable) { transaction in
            let now = try transaction.signingKeys.list(tenantID: tenantID)
            for record in fresh where !now.contains(where: { Self.isCurrent($0, record.algorithm) }) {
                try transaction.signingKeys.insert(record)
            }
        }
        invalidate(tenantID: tenantID)
    }

    /// Rotates the tenant's key for `algorithm`: current → previous (published), previous → revoked,
    /// and a new current key. Returns the new key's kid.
    @discardableResult
    public func rotate(tenantID: String, algorithm: JWTAlgorithm) throws -> String {
        let fresh = try makeKey(tenantID: tenantID, algorithm: algorithm)
        let now = clock.now()
        try store.write(.durable) { transaction in
            let records = try transaction.signingKeys.list(tenantID: tenantID)
            for var record in records where record.algorithm == algorithm && record.state == .previous {
                record.state = .revoked
                try transaction.signingKeys.update(record)
            }
            for var record in records where record.algorithm == algorithm && record.state == .current {
                record.state = .previous
                record.rotatedAt = now
                try transaction.signingKeys.update(record)
            }
            try transaction.signingKeys.insert(fresh)
        }
        invalidate(tenantID: tenantID)
        return fresh.id
    }

    /// Drops the tenant's cached key lists so the next use reloads them (unsealed keys stay cached by kid).
    public func invalidate(tenantID: String) {
        cache.withLock { _ = $0.tenants.removeValue(forKey: tenantID) }
    }

    // MARK: Using

    /// The signer for the tenant's current `algorithm` key, creating the tenant's keys if it has none.
    public func signer(tenantID: String, algorithm: JWTAlgorithm) throws -> JWTSigner {
        var keys = try tenantKeys(tenantID)
        if keys.current[algorithm] == nil {
            try ensureKeys(tenantID: tenantID)
            keys = try tenantKeys(tenantID)
        }
        guard let kid = keys.current[algorithm], let record = keys.records[kid] else {
            throw SigningKeyError.noCurrentKey(tenantID: tenantID, algorithm: algorithm.rawValue)
        }
        let slot = CacheKey(tenantID: tenantID, keyID: kid)
        if let signer = cache.withLock({ $0.signers[slot] }) { return signer }
        let signer = try unseal(record, algorithm: algorithm)
        cache.withLock { $0.signers[slot] = signer }
        return signer
    }

    /// A verifier over the tenant's published keys (current and previous).
    public func verifier(tenantID: String) throws -> JWTVerifier {
        try tenantKeys(tenantID).verifier
    }

    /// Verifies a token against the tenant's published keys; an unknown kid triggers one reload
    /// (at most once a second), in case another process rotated.
    public func verify(_ token: String, tenantID: String, expecting expected: JWTExpectations) throws -> VerifiedJWT {
        let keys = try tenantKeys(tenantID)
        do {
            return try keys.verifier.verify(token, expecting: expected)
        } catch .unknownKey where clock.now().timeIntervalSince(keys.loadedAt) >= 1 {
            invalidate(tenantID: tenantID)
            return try tenantKeys(tenantID).verifier.verify(token, expecting: expected)
        }
    }

    /// The tenant's JWK Set: current then previous keys, each with kid, alg and use "sig".
    public func jwks(tenantID: String) throws -> JWKSet {
        try tenantKeys(tenantID).jwks
    }

    // MARK: Internals

    private struct CacheKey: Hashable {
        var tenantID: String
        var keyID: String
    }

    /// One tenant's key lists as last loaded.
    private struct TenantKeys: Sendable {
        var loadedAt: Date
        var current: [JWTAlgorithm: String]
        var records: [String: SigningKeyRecord]
        var verifier: JWTVerifier
        var jwks: JWKSet
    }

    private struct Cache: Sendable {
        var tenants: [String: TenantKeys] = [:]
        var signers: [CacheKey: JWTSigner] = [:]
        var publicKeys: [CacheKey: JWTVerificationKey] = [:]
    }

    private static func isCurrent(_ record: SigningKeyRecord, _ algorithm: JWTAlgorithm) -> Bool {
        record.state == .current && record.algorithm == algorithm
    }

    /// The AAD a tenant's sealed private key is bound to: tenantID ‖ 0x00 ‖ kid.
    static func associatedData(tenantID: String, keyID: String) -> [UInt8] {
        Array(tenantID.utf8) + [0] + Array(keyID.utf8)
    }

    private func makeKey(tenantID: String, algorithm: JWTAlgorithm) throws -> SigningKeyRecord {
        let key = try PrivateKey.generate(algorithm.generatedKeyType)
        let kid = JWKThumbprint.keyID(for: key.publicKey)
        let pkcs8 = key.pkcs8DER
        let spki = key.publicKey.spkiDER
        guard !pkcs8.isEmpty, !spki.isEmpty else { throw CryptoError.library("cannot encode a new signing key") }
        let sealed = try masterKey.seal(
            pkcs8, associatedData: Self.associatedData(tenantID: tenantID, keyID: kid), random: random)
        let record = SigningKeyRecord(
            tenantID: tenantID, id: kid, algorithm: algorithm, sealedPrivateKey: sealed, publicKeySPKI: spki,
            state: .current, createdAt: clock.now())
        // The new key is already in memory: keep it so the first token does not pay for unsealing.
        let signer = try JWTSigner(privateKey: key, algorithm: algorithm, keyID: kid)
        let verification = try JWTVerificationKey(keyID: kid, algorithm: algorithm, publicKey: key.publicKey)
        let slot = CacheKey(tenantID: tenantID, keyID: kid)
        cache.withLock {
            $0.signers[slot] = signer
            $0.publicKeys[slot] = verification
        }
        return record
    }

    private func unseal(_ record: SigningKeyRecord, algorithm: JWTAlgorithm) throws -> JWTSigner {
        let pkcs8: [UInt8]
        do {
            pkcs8 = try masterKey.open(
                record.sealedPrivateKey,
                associatedData: Self.associatedData(tenantID: record.tenantID, keyID: record.id))
        } catch {
            throw SigningKeyError.cannotUnseal(keyID: record.id)
        }
        let key: PrivateKey
        do {
            key = try PrivateKey(pkcs8DER: pkcs8)
        } catch {
            throw SigningKeyError.corrupt(keyID: record.id, reason: "the private key is not valid PKCS#8")
        }
        guard JWKThumbprint.keyID(for: key.publicKey) == record.id else {
            throw SigningKeyError.corrupt(keyID: record.id, reason: "the kid is not the key's thumbprint")
        }
        do {
            return try JWTSigner(privateKey: key, algorithm: algorithm, keyID: record.id)
        } catch {
            throw SigningKeyError.corrupt(keyID: record.id, reason: "the key does not fit \(algorithm.rawValue)")
        }
    }

    /// The tenant's cached key lists, reloaded when missing or older than `refreshInterval`.
    private func tenantKeys(_ tenantID: String) throws -> TenantKeys {
        let now = clock.now()
        if let cached = cache.withLock({ $0.tenants[tenantID] }),
            now.timeIntervalSince(cached.loadedAt) < refreshInterval, now >= cached.loadedAt
        {
            return cached
        }
        let records = try store.read { try $0.signingKeys.list(tenantID: tenantID) }
        let loaded = try load(tenantID: tenantID, records: records, at: now)
        cache.withLock { $0.tenants[tenantID] = loaded }
        return loaded
    }

    private func load(tenantID: String, records: [SigningKeyRecord], at now: Date) throws -> TenantKeys {
        var current: [JWTAlgorithm: SigningKeyRecord] = [:]
        var previous: [SigningKeyRecord] = []
        var byID: [String: SigningKeyRecord] = [:]
        // Keys of an algorithm this version does not know are skipped, not fatal.
        for record in records {
            let algorithm = record.algorithm
            switch record.state {
            case .current:
                // Two current keys (two processes created one at once): the newest wins, kid breaks ties.
                if let other = current[algorithm],
                    (other.createdAt, other.id) > (record.createdAt, record.id)
                {
                    previous.append(record)
                } else {
                    if let other = current[algorithm] { previous.append(other) }
                    current[algorithm] = record
                }
                byID[record.id] = record
            case .previous:
                previous.append(record)
                byID[record.id] = record
            case .revoked:
                continue
            }
        }
        let ordered =
            Self.algorithms.compactMap { current[$0] }
            + previous.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        var published: [JWTVerificationKey] = []
        var jwks: [JWK] = []
        for record in ordered {
            let algorithm = record.algorithm
            let key = try verificationKey(record, algorithm: algorithm)
            published.append(key)
            var jwk = key.publicKey.jwk
            jwk.kid = record.id
            jwk.alg = algorithm.rawValue
            jwk.use = "sig"
            jwks.append(jwk)
        }
        // Unsealed keys of revoked kids are no longer needed.
        let live = Set(byID.keys)
        cache.withLock { cache in
            cache.signers = cache.signers.filter { $0.key.tenantID != tenantID || live.contains($0.key.keyID) }
            cache.publicKeys = cache.publicKeys.filter { $0.key.tenantID != tenantID || live.contains($0.key.keyID) }
        }
        return TenantKeys(
            loadedAt: now, current: current.mapValues(\.id), records: byID, verifier: JWTVerifier(keys: published),
            jwks: JWKSet(keys: jwks))
    }

    /// The imported public key of `record`, from the cache when possible (SPKI import is slow).
    private func verificationKey(_ record: SigningKeyRecord, algorithm: JWTAlgorithm) throws -> JWTVerificationKey {
        let slot = CacheKey(tenantID: record.tenantID, keyID: record.id)
        if let cached = cache.withLock({ $0.publicKeys[slot] }), cached.algorithm == algorithm { return cached }
        let key: JWTVerificationKey
        do {
            let publicKey = try PublicKey(spkiDER: record.publicKeySPKI)
            guard JWKThumbprint.keyID(for: publicKey) == record.id else {
                throw SigningKeyError.corrupt(keyID: record.id, reason: "the kid is not the key's thumbprint")
            }
            key = try JWTVerificationKey(keyID: record.id, algorithm: algorithm, publicKey: publicKey)
        } catch let error as SigningKeyError {
            throw error
        } catch {
            throw SigningKeyError.corrupt(keyID: record.id, reason: "the public key does not fit \(algorithm.rawValue)")
        }
        cache.withLock { $0.publicKeys[slot] = key }
        return key
    }
}

import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// Legacy device keys (docs/migration.md): a P-256 key that lives on one device and re-authenticates a
/// user who is already signed in there. Registration needs a fresh sign-in and a proof of
/// possession; a re-authentication needs the user's access token to ask for the challenge, and
/// the signature to redeem it. A device key is never a first factor: nothing here signs anyone in
/// who is not signed in already.
///
/// Challenges are single use (an atomic consume of an auth-session row under a hash in this
/// service's own domain) and live five minutes. Both the registration and the re-authentication
/// sign the same shape of message (`DeviceKeySignedBytes`): the purpose, the challenge, the client
/// and the key id, so a signature for one cannot be replayed as the other.
public final class DeviceKeyService: Sendable {
    /// How long a challenge may be redeemed.
    public static let challengeLifetime: TimeInterval = 300
    /// A registration needs a sign-in at most this old (`auth_time`).
    public static let freshSignIn: TimeInterval = 300
    /// Keys (active or migrated) one user may hold.
    public static let maxPerUser = 10
    /// Pending challenges one user may hold.
    static let maxPendingPerUser = 20

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let events: AuthEventRecorder
    /// Who tells a user that a device key was added (nil: nobody).
    let notices: CredentialNotices?

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, events: AuthEventRecorder,
        notices: CredentialNotices? = nil
    ) {
        self.notices = notices
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.events = events
    }

    // MARK: Registration (My Account)

    /// `POST /me/v1/device-keys/challenge`: a challenge and the key id the new key will have. The
    /// caller's sign-in must be at most five minutes old.
    public func registrationChallenge(_ caller: AccountCaller) throws(ServiceError) -> DeviceKeyRegistrationChallenge {
        try caller.require(.create)
        let now = clock.now()
        try Self.requireFresh(caller, now: now)
        try access.read { transaction in
            let user = try Self.activeUser(caller.userID, tenant: caller.tenant, transaction)
            try Self.requireConnection(user, tenant: caller.tenant, transaction)
        }
        let keyID = try random.serviceBytes(16)
        let challenge = try random.serviceBytes(32)
        let handle = try store(
            PendingDeviceKeyChallenge(
                purpose: .register, userID: caller.userID, clientID: caller.clientID, keyID: keyID,
                challenge: challenge),
            tenant: caller.tenant, now: now)
        return DeviceKeyRegistrationChallenge(
            authSession: handle, challenge: Base64URL.encode(challenge), keyID: Base64URL.encode(keyID))
    }

    /// `POST /me/v1/device-keys`: stores the key after checking its proof of possession. A key of
    /// the same device replaces the one it had (one active key per device install).
    public func register(_ caller: AccountCaller, _ body: DeviceKeyRegistration) throws(ServiceError) -> DeviceKeyRecord
    {
        try caller.require(.create)
        let now = clock.now()
        try Self.requireFresh(caller, now: now)
        let device = try Self.validated(body.device)
        let point = try Self.point(body.publicKey)
        let signature = try Self.decodeSignature(body.signature)
        let pending = try consume(body.authSession, tenant: caller.tenant, purpose: .register, now: now)
        guard pending.userID == caller.userID, pending.clientID == caller.clientID else {
            throw .invalidGrant("the auth_session belongs to another user or client")
        }
        try Self.verify(signature, point: point, pending: pending)
        let key = DeviceKeyRecord(
            tenantID: caller.tenant.id, id: Base64URL.encode(pending.keyID), userID: caller.userID,
            clientID: caller.clientID, publicKey: point, deviceID: device.id, deviceName: device.name,
            platform: device.platform, osVersion: device.osVersion, model: device.model, createdAt: now)
        let user = try access.write(.durable) { transaction in
            let user = try Self.activeUser(caller.userID, tenant: caller.tenant, transaction)
            try Self.requireConnection(user, tenant: caller.tenant, transaction)
            try Self.insert(key, replacing: true, transaction)
            return user
        }
        events.audit?.record(
            .deviceKeyEnrolled, tenantID: caller.tenant.id, clientID: caller.clientID, user: user,
            details: AuditDetails(method: .deviceKey, target: key.id))
        notices?.added(.deviceKey(name: key.deviceName), tenant: caller.tenant, user: user)
        return key
    }

    /// Stores `key` inside the caller's write: a usable key of the same device is replaced, and
    /// the user may hold at most `maxPerUser` keys that are not revoked.
    static func insert(_ key: DeviceKeyRecord, replacing: Bool, _ transaction: any StoreTransaction) throws {
        let held = try transaction.deviceKeys.list(tenantID: key.tenantID, userID: key.userID)
        let sameDevice = held.filter { $0.deviceID == key.deviceID && $0.state != .revoked }
        if !sameDevice.isEmpty, !replacing {
            throw ServiceError.conflict("the user already has a device key on this device")
        }
        for old in sameDevice { try transaction.deviceKeys.delete(tenantID: old.tenantID, id: old.id) }
        let live = held.filter { $0.state != .revoked && $0.deviceID != key.deviceID }
        guard live.count < maxPerUser else {
            throw ServiceError.conflict("the user already has the maximum of \(maxPerUser) device keys")
        }
        try transaction.deviceKeys.insert(key)
    }

    /// `GET /me/v1/device-keys`: the caller's keys, oldest first.
    public func list(_ caller: AccountCaller) throws(ServiceError) -> [DeviceKeyRecord] {
        try caller.require(.read)
        return try access.read { try $0.deviceKeys.list(tenantID: caller.tenant.id, userID: caller.userID) }
    }

    /// `DELETE /me/v1/device-keys/{id}`: 404 unless it is one of the caller's.
    public func delete(_ caller: AccountCaller, id: String) throws(ServiceError) {
        try caller.require(.delete)
        try access.write(.durable) { transaction in
            guard let key = try transaction.deviceKeys.get(tenantID: caller.tenant.id, id: id),
                key.userID == caller.userID
            else { throw ServiceError.notFound("no such device key") }
            try transaction.deviceKeys.delete(tenantID: caller.tenant.id, id: id)
        }
        events.audit?.record(
            .deviceKeyDeleted, tenantID: caller.tenant.id, clientID: caller.clientID, userID: caller.userID,
            details: AuditDetails(method: .deviceKey, target: id))
    }

    // MARK: Re-authentication

    /// `POST /device-key/challenge`: `principal` is the user's access token on this call (only a
    /// user signed in on the device asks), `clientID` the app, `keyID` one of the user's usable
    /// keys registered by that app.
    public func reauthChallenge(
        tenant: TenantRecord, principal: Principal, request: DeviceKeyChallengeRequest
    ) throws(ServiceError) -> DeviceKeyChallenge {
        let now = clock.now()
        guard principal.isUser, let userID = principal.subject else {
            throw .invalidToken("the access token is not a user's token")
        }
        guard principal.clientID == request.clientID else {
            throw .invalidToken("the access token was issued to another client")
        }
        let keyID = try Self.decodeKeyID(request.keyID)
        try access.read { transaction in
            _ = try Self.activeUser(userID, tenant: tenant, transaction)
            guard let key = try transaction.deviceKeys.get(tenantID: tenant.id, id: Base64URL.encode(keyID)),
                key.userID == userID, key.clientID == request.clientID
            else { throw ServiceError.invalidGrant("unknown device key") }
            guard key.isUsable(at: now) else { throw ServiceError.invalidGrant("this device key no longer works") }
        }
        let challenge = try random.serviceBytes(32)
        let handle = try store(
            PendingDeviceKeyChallenge(
                purpose: .reauth, userID: userID, clientID: request.clientID, keyID: keyID, challenge: challenge),
            tenant: tenant, now: now)
        return DeviceKeyChallenge(authSession: handle, challenge: Base64URL.encode(challenge))
    }

    /// What a verified re-authentication proved.
    public struct Reauthentication: Sendable {
        public var user: UserRecord
        public var connection: ConnectionRecord
        public var key: DeviceKeyRecord
        public var authTime: Date
        /// RFC 8176: a hardware key and a user-presence gesture.
        public var amr: [String] { ["hwk", "user"] }
    }

    /// The device-key grant's check: consumes the challenge, verifies the signature against the
    /// key it named, and records the use. The challenge is spent whatever the outcome.
    func reauthenticate(
        tenant: TenantRecord, client: ClientRecord, authSession: String?, keyID: String?, signature: String?,
        osVersion: String? = nil
    ) throws(ServiceError) -> Reauthentication {
        let now = clock.now()
        if let osVersion {
            guard osVersion.utf8.count <= 32, OSVersion(osVersion) != nil else {
                throw .invalidRequest("os_version must look like 16.4 or 9")
            }
        }
        guard let authSession, !authSession.isEmpty else { throw .invalidRequest("auth_session is required") }
        guard let keyID, !keyID.isEmpty else { throw .invalidRequest("key_id is required") }
        guard let signature, !signature.isEmpty else { throw .invalidRequest("signature is required") }
        let keyBytes = try Self.decodeKeyID(keyID)
        let signatureBytes = try Self.decodeSignature(signature)
        let pending = try consume(authSession, tenant: tenant, purpose: .reauth, now: now)
        guard pending.clientID == client.id else { throw .invalidGrant("the auth_session belongs to another client") }
        guard constantTimeEquals(pending.keyID, keyBytes) else {
            throw .invalidGrant("the auth_session was issued for another key")
        }
        let (user, connection, key) = try access.read { transaction in
            let user = try Self.activeUser(pending.userID, tenant: tenant, transaction, refusal: .invalidGrant)
            let connection = try Self.requireConnection(user, tenant: tenant, transaction)
            guard let key = try transaction.deviceKeys.get(tenantID: tenant.id, id: Base64URL.encode(keyBytes)),
                key.userID == user.id
            else { throw ServiceError.invalidGrant("unknown device key") }
            return (user, connection, key)
        }
        guard key.isUsable(at: now) else {
            record(tenant, outcome: .invalidGrant, client: client.id, user: user, key: key, now: now)
            throw .invalidGrant("this device key no longer works")
        }
        do {
            try Self.verify(signatureBytes, point: key.publicKey, pending: pending)
        } catch {
            record(tenant, outcome: .invalidGrant, client: client.id, user: user, key: key, now: now)
            throw error
        }
        let used = try access.write(.relaxed) { transaction -> DeviceKeyRecord in
            // Written only if the key is still there and usable (a delete or a revocation meanwhile wins).
            guard var touched = try transaction.deviceKeys.get(tenantID: tenant.id, id: key.id),
                touched.isUsable(at: now)
            else { throw ServiceError.invalidGrant("this device key no longer works") }
            touched.lastUsedAt = now
            // The device may have been updated since the key was made: the prompt goes by today's OS.
            if let osVersion { touched.osVersion = osVersion }
            try transaction.deviceKeys.update(touched)
            return touched
        }
        record(tenant, outcome: .success, client: client.id, user: user, key: used, now: now)
        return Reauthentication(user: user, connection: connection, key: used, authTime: now)
    }

    // MARK: Checks

    static func requireFresh(_ caller: AccountCaller, now: Date) throws(ServiceError) {
        guard let authTime = caller.authTime, now.timeIntervalSince(authTime) <= freshSignIn else {
            throw .reauthenticationRequired
        }
    }

    static func activeUser(
        _ id: String, tenant: TenantRecord, _ transaction: any StoreTransaction,
        refusal: UserRefusal = .invalidToken
    ) throws -> UserRecord {
        guard let user = try transaction.users.get(tenantID: tenant.id, id: id), !user.blocked else {
            switch refusal {
            case .invalidToken: throw ServiceError.invalidToken("the token's user no longer exists or is blocked")
            case .invalidGrant: throw ServiceError.invalidGrant("the user no longer exists or is blocked")
            }
        }
        return user
    }

    /// How a missing or blocked user is refused.
    enum UserRefusal { case invalidToken, invalidGrant }

    @discardableResult
    static func requireConnection(
        _ user: UserRecord, tenant: TenantRecord, _ transaction: any StoreTransaction
    ) throws -> ConnectionRecord {
        guard let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID) else {
            throw ServiceError.conflict("the user's connection no longer exists")
        }
        return connection
    }

    /// The device as stored: every member present and bounded.
    static func validated(_ device: DeviceKeyDevice) throws(ServiceError) -> (
        id: String, name: String, platform: ClientPlatform, osVersion: String, model: String?
    ) {
        func bounded(_ value: String, _ field: String, max: Int) throws(ServiceError) -> String {
            guard !value.isEmpty, value.count <= max, !value.unicodeScalars.contains(where: { $0.value < 0x20 })
            else { throw .invalidRequest("device.\(field) must be 1 to \(max) printable characters") }
            return value
        }
        let id = try bounded(device.id, "id", max: 128)
        let name = try bounded(device.name, "name", max: 100)
        let version = try bounded(device.osVersion, "os_version", max: 32)
        guard OSVersion(version) != nil else { throw .invalidRequest("device.os_version must look like 16.4 or 9") }
        let model = try device.model.map { (value) throws(ServiceError) in try bounded(value, "model", max: 64) }
        let platform: ClientPlatform
        switch device.platform {
        case .ios: platform = .ios
        case .android: platform = .android
        case .web: platform = .web
        }
        return (id, name, platform, version, model)
    }

    /// The uncompressed point of a P-256 JWK, checked to be on the curve.
    static func point(_ jwk: ECPublicKeyJWK) throws(ServiceError) -> [UInt8] {
        guard jwk.kty == "EC", jwk.crv == "P-256" else {
            throw .invalidRequest("public_key must be an EC P-256 JWK")
        }
        guard let x = try? Base64URL.decode(jwk.x), let y = try? Base64URL.decode(jwk.y), x.count == 32, y.count == 32
        else { throw .invalidRequest("public_key x and y must be 32 bytes each, base64url") }
        let point = [0x04] + x + y
        guard (try? PublicKey(curve: .p256, uncompressedPoint: point)) != nil else {
            throw .invalidRequest("public_key is not a point on P-256")
        }
        return point
    }

    /// The uncompressed point of an imported key: a JWK, PEM or base64 SPKI, or the base64 point.
    static func importedPoint(_ input: DeviceKeyImport.PublicKeyInput) throws(ServiceError) -> [UInt8] {
        switch input {
        case .jwk(let x, let y, let kty, let crv):
            var jwk = ECPublicKeyJWK(x: x, y: y)
            jwk.kty = kty
            jwk.crv = crv
            return try point(jwk)
        case .text(let text):
            let invalid = ServiceError.invalidRequest(
                "public_key must be a P-256 JWK, an SPKI (PEM or base64 DER) or a base64 uncompressed point")
            guard text.utf8.count <= 4_096 else { throw invalid }
            let key: PublicKey?
            if text.hasPrefix("-----BEGIN") {
                key = try? PublicKey(pem: text)
            } else {
                let compact = text.filter { !$0.isWhitespace }
                // Either alphabet, padded or not, as apps export keys.
                let base64 = compact.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                guard let bytes = Base64.decodeStandard(base64) else { throw invalid }
                key =
                    bytes.count == 65 && bytes.first == 0x04
                    ? try? PublicKey(curve: .p256, uncompressedPoint: bytes) : try? PublicKey(spkiDER: bytes)
            }
            guard let key, case .ec(.p256, let x, let y) = key.components else { throw invalid }
            return [0x04] + x + y
        }
    }

    static func decodeKeyID(_ text: String) throws(ServiceError) -> [UInt8] {
        guard text.utf8.count <= 64, let bytes = try? Base64URL.decode(text), bytes.count == 16 else {
            throw .invalidRequest("key_id must be 16 bytes, base64url")
        }
        return bytes
    }

    static func decodeSignature(_ text: String) throws(ServiceError) -> [UInt8] {
        guard text.utf8.count <= 200, let bytes = try? Base64URL.decode(text), (8...72).contains(bytes.count) else {
            throw .invalidRequest("signature must be an ES256 signature (DER or r ‖ s), base64url")
        }
        return bytes
    }

    /// Verifies `signature` (DER, or raw r ‖ s when it is 64 bytes and not DER) of the pending
    /// challenge's message under `point`.
    static func verify(_ signature: [UInt8], point: [UInt8], pending: PendingDeviceKeyChallenge) throws(ServiceError) {
        let message = DeviceKeySignedBytes.message(
            purpose: pending.purpose, challenge: pending.challenge,
            clientIDDigest: Digest.sha256(Array(pending.clientID.utf8)), keyID: pending.keyID)
        guard let key = try? PublicKey(curve: .p256, uncompressedPoint: point) else {
            throw .invalidGrant("the stored device key cannot be read")
        }
        var formats: [ECDSASignatureFormat] = [.der]
        if signature.count == 64 { formats.insert(.raw, at: signature.first == 0x30 ? 1 : 0) }
        for format in formats
        where (try? key.isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256), format: format)) == true {
            return
        }
        throw .invalidGrant("the device key signature is not valid")
    }

    // MARK: Pending challenges

    private func store(
        _ pending: PendingDeviceKeyChallenge, tenant: TenantRecord, now: Date
    ) throws(ServiceError) -> String {
        let handle = Base64URL.encode(try random.serviceBytes(32))
        let record = AuthSessionRecord(
            handleHash: PendingDeviceKeyChallenge.hash(handle), tenantID: tenant.id,
            requester: "device-key:\(pending.userID)", expiresAt: now + Self.challengeLifetime,
            payload: pending.payload)
        let stored = try access.write(.relaxed) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: Self.maxPendingPerUser, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyRequests("too many device-key challenges are pending for this user", retryAfterSeconds: 60)
        }
        return handle
    }

    private func consume(
        _ handle: String, tenant: TenantRecord, purpose: DeviceKeySignedBytes.Purpose, now: Date
    ) throws(ServiceError) -> PendingDeviceKeyChallenge {
        let unknown = ServiceError.invalidGrant("the auth_session is unknown, expired or already used")
        guard !handle.isEmpty, handle.utf8.count <= 256 else { throw unknown }
        let record = try access.write(.relaxed) { transaction in
            try transaction.authSessions.consume(handleHash: PendingDeviceKeyChallenge.hash(handle))
        }
        guard let record, record.tenantID == tenant.id, record.expiresAt > now,
            let pending = PendingDeviceKeyChallenge(payload: record.payload), pending.purpose == purpose
        else { throw unknown }
        return pending
    }

    private func record(
        _ tenant: TenantRecord, outcome: AuthEventOutcome, client: String, user: UserRecord, key: DeviceKeyRecord,
        now: Date
    ) {
        events.record(
            tenantID: tenant.id, type: .login, method: .deviceKey, outcome: outcome, at: now, clientID: client,
            userID: user.id, connectionID: user.connectionID, clientPlatform: key.platform)
    }
}

/// A device-key challenge between its issue and its redemption: an auth-session row under a hash
/// of the handle in this purpose's own domain.
struct PendingDeviceKeyChallenge: Sendable, Equatable {

    var purpose: DeviceKeySignedBytes.Purpose
    var userID: String
    var clientID: String
    var keyID: [UInt8]
    var challenge: [UInt8]

    static func hash(_ handle: String) -> [UInt8] {
        Digest.sha256(Array("sesame-device-key-challenge\u{0}\(handle)".utf8))
    }

}

extension PendingDeviceKeyChallenge: TicketPayload {
    static let kind = TicketKind.deviceKeyChallenge
    static let recordFields = RecordFields<PendingDeviceKeyChallenge>(
        blank: PendingDeviceKeyChallenge(purpose: .register, userID: "", clientID: "", keyID: [], challenge: []),
        [
            .field("purpose", \.purpose),
            .field("userID", \.userID),
            .field("clientID", \.clientID),
            .field("keyID", \.keyID),
            .field("challenge", \.challenge),
        ])

    var isWellFormed: Bool { keyID.count == 16 && challenge.count == 32 }
}

extension DeviceKeyRecord {
    /// The store's vocabulary in the wire's (the same cases; a switch, so a new one must be mapped).
    var wirePlatform: DevicePlatform {
        switch platform {
        case .ios: return .ios
        case .android: return .android
        case .web: return .web
        }
    }

    var wireStatus: DeviceKeyStatus {
        switch state {
        case .active: return .active
        case .migrated: return .migrated
        case .revoked: return .revoked
        }
    }

    /// The key as My Account (`includeUser: false`) and the Management API show it.
    public func response(includeUser: Bool) -> DeviceKeyResponse {
        DeviceKeyResponse(
            id: id, createdAt: APITimestamp.string(createdAt),
            device: DeviceKeyDevice(
                id: deviceID, name: deviceName, platform: wirePlatform, osVersion: osVersion, model: model),
            status: wireStatus,
            lastUsedAt: lastUsedAt.map(APITimestamp.string),
            migratedAt: migratedAt.map(APITimestamp.string), expiresAt: expiresAt.map(APITimestamp.string),
            userID: includeUser ? userID : nil)
    }
}

extension TokenService {
    /// The user behind an access token of any of the tenant's audiences (`/userinfo`, My Account,
    /// or one of its APIs): the audience is read from the token, then the token is verified for
    /// it, so nothing unverified is trusted. For `POST /device-key/challenge`, where the app
    /// presents whichever access token it holds.
    public func userPrincipal(_ presented: PresentedToken?, tenant: TenantRecord) throws(ServiceError) -> Principal {
        let token: String
        switch presented {
        case nil: throw .invalidToken("an Authorization: Bearer (or DPoP) access token is required")
        case .bearer(let value), .dpop(let value, _): token = value
        }
        let builtIn = [Self.userInfoAudience(tenant), Self.myAccountAudience(tenant)]
        for audience in Self.claimedAudiences(token) {
            var known = builtIn.contains(audience)
            if !known {
                known = try access.read { try $0.resourceServers.get(tenantID: tenant.id, identifier: audience) != nil }
            }
            guard known else { continue }
            let principal = try principal(presented, tenant: tenant, audience: audience)
            guard principal.isUser else { throw .invalidToken("the access token is not a user's token") }
            return principal
        }
        throw .invalidToken("the access token is not valid for this tenant")
    }

    /// The `aud` values a compact JWT claims (unverified; at most 10, each at most 512 bytes).
    static func claimedAudiences(_ token: String) -> [String] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 8_192, parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { return [] }
        let values: [String]
        switch object["aud"] {
        case let single as String: values = [single]
        case let many as [Any]: values = many.compactMap { $0 as? String }
        default: values = []
        }
        return Array(values.filter { $0.utf8.count <= 512 }.prefix(10))
    }
}

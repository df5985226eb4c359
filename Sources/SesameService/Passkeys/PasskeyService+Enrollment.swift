import Foundation
import SesameStore
import SesameWire
import WebAuthn

/// Enrolling another passkey for a signed-in user (My Account API): begin returns creation options
/// for the user's existing user handle that exclude their passkeys; finish consumes the enroll
/// auth session (single use, same client and user, unexpired), verifies the registration and
/// stores the passkey durably.
extension PasskeyService {
    /// Creation options and an auth session for a new passkey of `userID`, asked for by `clientID`
    /// (the client the user's access token was issued to). 409 when the user already has the
    /// connection's maximum number of passkeys.
    public func beginEnrollment(
        tenant: TenantRecord, clientID: String, userID: String, connection realm: String?, requester: String,
        timeout: TimeInterval = PasskeyService.challengeTimeout, mediation: RegistrationMediation? = nil,
        purpose: EnrollmentPurpose = .addPasskey
    ) throws(ServiceError) -> PasskeySignupChallengeResponse {
        let now = clock.now()
        let (user, client, connection, existing) = try access.read { transaction in
            let (user, client, connection) = try Self.enrollmentParties(
                tenant: tenant, clientID: clientID, userID: userID, in: transaction)
            if let realm, realm != connection.name {
                throw ServiceError.invalidRequest("connection is not the user's connection")
            }
            let existing = try transaction.passkeys.list(tenantID: tenant.id, userID: user.id)
            try Self.requireRoom(existing.count, connection)
            return (user, client, connection, existing)
        }
        let challenge = try random.serviceBytes(32)
        var state = RelyingParty(policy: policy(tenant: tenant, client: client, connection: connection))
            .beginRegistration(challenge: challenge, userHandle: user.userHandle)
        state.mediation = mediation
        let handle = try sessions.insert(
            AuthSession(
                tenantID: tenant.id, clientID: clientID, connectionID: connection.id,
                ceremony: .enroll(state: state, userID: user.id, purpose: purpose),
                expiresAt: now.addingTimeInterval(timeout), requester: requester),
            now: now)
        let name = ProfileValidation.primaryIdentifier(user.profile)
        let options = PasskeyCreationOptions(
            challenge: Base64URL.encode(challenge), timeout: Int(timeout * 1000),
            rp: .init(id: tenant.rpID, name: tenant.rpID),
            pubKeyCredParams: state.algorithms.map { .init(alg: $0.rawValue) },
            authenticatorSelection: .init(residentKey: "required", userVerification: state.userVerification.rawValue),
            user: .init(id: Base64URL.encode(user.userHandle), name: name, displayName: user.profile.name ?? name),
            excludeCredentials: existing.sorted { $0.createdAt < $1.createdAt }.map {
                .init(id: Base64URL.encode($0.credentialID), transports: $0.transports.isEmpty ? nil : $0.transports)
            }, attestation: Self.attestationConveyance(connection))
        return PasskeySignupChallengeResponse(authnParamsPublicKey: options, authSession: handle)
    }

    /// Completes an enrollment begun by `beginEnrollment` for the same client and user. The auth
    /// session is consumed first, so it is single-use whether this succeeds or not. With
    /// `migratingDeviceKey` (the sign-in was a re-authentication with that device key), the key
    /// becomes `migrated` in the same write (docs/migration.md).
    ///
    /// `clientID` and `userID` are the caller's (nil: the auth session alone says, as for an
    /// upgrade's verify step, whose session the upgrade token began). An enrollment begun in place
    /// of the password (`requiredPurpose` `.replacePassword` insists on one) disables the password
    /// in the same write as the passkey.
    public func finishEnrollment(
        tenant: TenantRecord, clientID expectedClient: String?, userID expectedUser: String?,
        authSession handle: String,
        response: [UInt8], migratingDeviceKey: String? = nil, requiredPurpose: EnrollmentPurpose? = nil
    ) throws(ServiceError) -> (PasskeyRecord, UserRecord) {
        let now = clock.now()
        guard let session = sessions.consume(handle) else {
            throw .invalidGrant("the auth_session is unknown, expired or already used")
        }
        guard session.tenantID == tenant.id, expectedClient == nil || session.clientID == expectedClient else {
            throw .invalidGrant("the auth_session belongs to another client")
        }
        guard session.expiresAt > now else { throw .invalidGrant("the auth_session has expired") }
        guard case .enroll(let state, let userID, let purpose) = session.ceremony else {
            throw .invalidGrant("this auth_session is not a passkey enrollment")
        }
        guard expectedUser == nil || userID == expectedUser else {
            throw .invalidGrant("the auth_session belongs to another user")
        }
        if let requiredPurpose, requiredPurpose != purpose {
            throw .invalidGrant("this auth_session is not a passkey upgrade")
        }
        let clientID = session.clientID
        let (user, client, connection) = try access.read { transaction in
            try Self.enrollmentParties(tenant: tenant, clientID: clientID, userID: userID, in: transaction)
        }
        guard connection.id == session.connectionID, user.userHandle == state.userHandle else {
            throw .invalidGrant("the user's connection changed since the enrollment began")
        }
        let relyingParty = RelyingParty(policy: policy(tenant: tenant, client: client, connection: connection))
        let verified: VerifiedRegistration
        let authenticator: RegistrationMetadata
        do {
            let checked = try verifyRegistration(
                relyingParty, response: .bytes(response), state: state, connection: connection, now: now)
            verified = checked.0
            authenticator = checked.1
        } catch {
            record(tenant, .enroll, outcome: .invalidGrant, client: clientID, user: userID, platform: nil, now: now)
            throw error
        }
        let passkey = try Self.passkeyRecord(
            verified, id: "passkey|" + Hex.lowercase(try random.serviceBytes(12)), tenant: tenant, userID: user.id,
            now: now, name: authenticator.entry(for: verified)?.description)
        let platform = Origins.platform(of: verified.clientData.origin, rpID: tenant.rpID)
        // A synced passkey from a provider the AAGUID table names, beside one the user already
        // holds there, would only be a duplicate: 409 already_registered, and the user evidently
        // prefers passkeys on this platform (checked in the write, so two at once cannot both land).
        // Only where the connection asks for it (off by default: two Apple IDs share one AAGUID).
        let provider =
            connection.passkey.onePerProvider && verified.backupEligible
            ? AAGUIDRegistry.name(for: verified.aaguid) : nil
        do {
            try storeEnrolled(
                passkey, user: user, connection: connection, provider: provider, migratingDeviceKey: migratingDeviceKey,
                replacesPassword: purpose == .replacePassword, tenant: tenant, now: now)
        } catch .alreadyRegistered(let name) {
            if let known = Self.clientPlatform(platform) {
                try? access.write(.relaxed) { transaction in
                    guard var stored = try transaction.users.get(tenantID: tenant.id, id: user.id),
                        !stored.passkeyPlatforms.contains(known)
                    else { return }
                    stored.passkeyPlatforms.append(known)
                    try transaction.users.update(stored)
                }
            }
            record(
                tenant, .enroll, outcome: .invalidGrant, client: clientID, user: user.id, platform: platform, now: now)
            throw .alreadyRegistered(provider: name)
        }
        record(
            tenant, .enroll, outcome: .success, client: clientID, user: user.id, platform: platform, now: now,
            passkey: passkey, connectionID: connection.id, conditional: state.mediation == .conditional)
        if purpose == .replacePassword {
            events.record(
                tenantID: tenant.id, type: .upgrade, method: .passkey, outcome: .success, at: now, clientID: clientID,
                userID: user.id, platform: platform, connectionID: connection.id)
        }
        notices?.added(.passkey(provider: passkey.name), tenant: tenant, user: user)
        return (passkey, user)
    }

    /// The enrollment's durable write: the room and duplicate checks, the passkey, and the
    /// device key it migrates.
    private func storeEnrolled(
        _ passkey: PasskeyRecord, user: UserRecord, connection: ConnectionRecord, provider: String?,
        migratingDeviceKey: String?, replacesPassword: Bool, tenant: TenantRecord, now: Date
    ) throws(ServiceError) {
        try access.write(.durable) { transaction in
            guard var stored = try transaction.users.get(tenantID: tenant.id, id: user.id) else {
                throw ServiceError.invalidGrant("the user no longer exists")
            }
            if replacesPassword {
                // The password the upgrade was authorized for: gone or replaced meanwhile, nothing is stored.
                guard stored.password != nil, stored.passwordReplacement == nil else {
                    throw ServiceError.invalidGrant("the account changed since the upgrade was authorized")
                }
                stored.passwordReplacement = .passkey
                stored.passwordReplacedAt = now
                stored.updatedAt = now
                try transaction.users.update(stored)
                try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: user.id, at: now)
                try transaction.ssoSessions.deleteAll(tenantID: tenant.id, userID: user.id)
            }
            let held = try transaction.passkeys.list(tenantID: tenant.id, userID: user.id)
            if let provider, held.contains(where: { $0.backupEligible && $0.aaguid == passkey.aaguid }) {
                throw ServiceError.alreadyRegistered(provider: provider)
            }
            try Self.requireRoom(held.count, connection)
            if try transaction.passkeys.get(tenantID: tenant.id, credentialID: passkey.credentialID) != nil {
                throw ServiceError.invalidGrant("this credential is already registered")
            }
            try transaction.passkeys.insert(passkey)
            if let migratingDeviceKey,
                var key = try transaction.deviceKeys.get(tenantID: tenant.id, id: migratingDeviceKey),
                key.userID == user.id, key.state == .active
            {
                key.state = .migrated
                key.migratedAt = now
                key.migratedToPasskeyID = passkey.id
                key.expiresAt = now.addingTimeInterval(
                    TimeInterval(max(0, connection.passkey.migration.deviceKeyGraceDays)) * 86_400)
                try transaction.deviceKeys.update(key)
            }
        }
    }

    /// The user (existing, not blocked), the client (existing) and the user's connection (enabled
    /// for the client, passkeys on) of an enrollment.
    static func enrollmentParties(
        tenant: TenantRecord, clientID: String, userID: String, in transaction: any StoreTransaction
    ) throws -> (UserRecord, ClientRecord, ConnectionRecord) {
        guard let user = try transaction.users.get(tenantID: tenant.id, id: userID) else {
            throw ServiceError.invalidToken("the token's user no longer exists")
        }
        guard !user.blocked else { throw ServiceError.invalidToken("the user is blocked") }
        guard let client = try AccountClient.client(clientID, tenant: tenant, in: transaction) else {
            throw ServiceError.invalidToken("the token's client no longer exists")
        }
        guard let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID) else {
            throw ServiceError.conflict("the user's connection no longer exists")
        }
        if client.id != AccountClient.id, !connection.enabledClients.isEmpty,
            !connection.enabledClients.contains(client.id)
        {
            throw ServiceError.unauthorizedClient("the user's connection is not enabled for this client")
        }
        guard connection.passkey.enabled else {
            throw ServiceError.notFound("passkeys are not enabled for this connection")
        }
        return (user, client, connection)
    }

    /// 409 when a user with `count` passkeys may not add another.
    static func requireRoom(_ count: Int, _ connection: ConnectionRecord) throws(ServiceError) {
        guard count < connection.passkey.maxPasskeysPerUser else {
            throw .conflict("the user already has the maximum of \(connection.passkey.maxPasskeysPerUser) passkeys")
        }
    }
}

import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// A user the token endpoint may issue tokens for, after a passkey ceremony succeeded.
public struct AuthenticatedUser: Sendable {
    public var user: UserRecord
    public var client: ClientRecord
    public var connection: ConnectionRecord
    /// RFC 8176 methods: "pop", "hwk" (device-bound key) or "swk" (synced key), and "user" when verified.
    public var amr: [String]
    public var authTime: Date
    public var passkeyID: String
    /// Where the ceremony ran: the request's own word, else the origin (nil when it cannot tell
    /// an iOS app from a browser).
    public var platform: ClientPlatform?
    /// The refresh token written in the transaction that created the user (a signup whose caller
    /// passed `withNewUser`); nil otherwise.
    public var refreshToken: IssuedRefreshToken? = nil
}

/// What a caller writes in the transaction that creates a signup's user and first passkey, so that
/// all of it exists or none does: the webauthn grant's first refresh token. A signup answered with
/// an error then leaves no account behind that its client was never told about.
public typealias SignupWrite = (AuthenticatedUser, any StoreTransaction) throws -> IssuedRefreshToken?

/// The native passkey API: signup and login challenges, and the webauthn grant's verification.
public final class PasskeyService: Sendable {
    /// How long a challenge stays valid (WebAuthn `timeout`).
    public static let challengeTimeout: TimeInterval = 60
    /// How long a hosted page's challenge stays valid: a sign-in page with passkey autofill may sit
    /// open for minutes before the user picks a passkey.
    public static let pageChallengeTimeout: TimeInterval = 300
    /// The refusal of a credential this tenant does not hold (and did not delete): the page says
    /// the passkey is not registered here, and nothing tells the authenticator to forget it.
    public static let unknownCredentialText = "unknown credential"
    /// Credential algorithms offered at signup, in preference order (docs/api.md).
    public static let offeredAlgorithms: [COSEAlgorithm] = [.edDSA, .es256, .rs256]

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let sessions: any AuthSessionStore
    let events: AuthEventRecorder
    /// Last-used times, written in batches.
    public let usage: UsageRecorder
    let keyCache = CredentialKeyCache()
    let attestation: AttestationPolicy
    /// Who tells a user that a passkey was added to their account (nil: nobody, as in benchmarks).
    let notices: CredentialNotices?

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, sessions: any AuthSessionStore,
        events: AuthEventRecorder, attestation: AttestationPolicy = AttestationPolicy(), usage: UsageRecorder? = nil,
        notices: CredentialNotices? = nil
    ) {
        self.notices = notices
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.sessions = sessions
        self.events = events
        self.usage = usage ?? UsageRecorder(store: store)
        self.attestation = attestation
    }

    // MARK: Challenges

    /// `POST /passkey/register`: checks the client, the connection and the profile, and returns
    /// creation options with a fresh user handle and challenge. `requester` (a client-address key)
    /// may hold only so many pending ceremonies.
    public func beginSignup(
        tenant: TenantRecord, credentials: ClientCredentials, realm: String?, profile input: SignupProfileInput,
        metadata: [String: String], tokenDefaults: TokenDefaults? = nil, requester: String
    ) throws(ServiceError) -> PasskeySignupChallengeResponse {
        let (client, connection, profile) = try access.read { transaction in
            let client = try ClientAuthentication.authenticate(credentials, tenant: tenant, in: transaction)
            try ClientAuthentication.requireGrant(.webAuthn, client)
            let connection = try Self.connection(realm: realm, tenant: tenant, client: client, in: transaction)
            let profile = try ProfileValidation.validate(input, metadata: metadata, policy: connection.identifiers)
            // A tenant that hides taken identifiers answers a taken one like a free one here; the
            // token step refuses it with a generic invalid_signup.
            if tenant.revealsTakenIdentifiers {
                try Self.requireUnusedIdentifiers(profile, tenant: tenant, connection: connection, in: transaction)
            }
            return (client, connection, profile)
        }
        return try beginSignup(
            tenant: tenant, client: client, connection: connection, profile: profile, metadata: metadata,
            tokenDefaults: tokenDefaults, requester: requester)
    }

    /// A signup challenge for a client and connection already checked (the native API, or the
    /// hosted signup page for the client of a pending authorization).
    func beginSignup(
        tenant: TenantRecord, client: ClientRecord, connection: ConnectionRecord, profile: UserProfile,
        metadata: [String: String], tokenDefaults: TokenDefaults?, requester: String,
        timeout: TimeInterval = PasskeyService.challengeTimeout
    ) throws(ServiceError) -> PasskeySignupChallengeResponse {
        let now = clock.now()
        let pending = try PendingSignupProfile(profile: profile, metadata: metadata)
        let challenge = try random.serviceBytes(32)
        let userHandle = try random.serviceBytes(32)
        let state = RelyingParty(policy: policy(tenant: tenant, client: client, connection: connection))
            .beginRegistration(challenge: challenge, userHandle: userHandle)
        let handle = try sessions.insert(
            AuthSession(
                tenantID: tenant.id, clientID: client.id, connectionID: connection.id,
                ceremony: .signup(state: state, profile: pending),
                expiresAt: now.addingTimeInterval(timeout), requester: requester,
                tokenDefaults: tokenDefaults),
            now: now)
        let name = ProfileValidation.primaryIdentifier(profile)
        let options = PasskeyCreationOptions(
            challenge: Base64URL.encode(challenge), timeout: Int(timeout * 1000),
            rp: .init(id: tenant.rpID, name: tenant.rpID),
            pubKeyCredParams: state.algorithms.map { .init(alg: $0.rawValue) },
            authenticatorSelection: .init(residentKey: "required", userVerification: state.userVerification.rawValue),
            user: .init(id: Base64URL.encode(userHandle), name: name, displayName: profile.name ?? name),
            attestation: Self.attestationConveyance(connection))
        return PasskeySignupChallengeResponse(authnParamsPublicKey: options, authSession: handle)
    }

    /// `POST /passkey/challenge`: a login challenge for discoverable credentials.
    public func beginLogin(
        tenant: TenantRecord, credentials: ClientCredentials, realm: String?, tokenDefaults: TokenDefaults? = nil,
        requester: String
    ) throws(ServiceError) -> PasskeyLoginChallengeResponse {
        let (client, connection) = try access.read { transaction in
            let client = try ClientAuthentication.authenticate(credentials, tenant: tenant, in: transaction)
            try ClientAuthentication.requireGrant(.webAuthn, client)
            let connection = try Self.connection(realm: realm, tenant: tenant, client: client, in: transaction)
            return (client, connection)
        }
        return try beginLogin(
            tenant: tenant, client: client, connection: connection, tokenDefaults: tokenDefaults, requester: requester)
    }

    /// A login challenge for a client and connection already checked.
    func beginLogin(
        tenant: TenantRecord, client: ClientRecord, connection: ConnectionRecord, tokenDefaults: TokenDefaults?,
        requester: String, timeout: TimeInterval = PasskeyService.challengeTimeout
    ) throws(ServiceError) -> PasskeyLoginChallengeResponse {
        let now = clock.now()
        let challenge = try random.serviceBytes(32)
        let state = RelyingParty(policy: policy(tenant: tenant, client: client, connection: connection))
            .beginAuthentication(challenge: challenge)
        let verification = state.userVerification
        let handle = try sessions.insert(
            AuthSession(
                tenantID: tenant.id, clientID: client.id, connectionID: connection.id,
                ceremony: .login(state: state),
                expiresAt: now.addingTimeInterval(timeout), requester: requester,
                tokenDefaults: tokenDefaults),
            now: now)
        let options = PasskeyRequestOptions(
            challenge: Base64URL.encode(challenge), timeout: Int(timeout * 1000), rpId: tenant.rpID,
            userVerification: verification.rawValue)
        return PasskeyLoginChallengeResponse(authnParamsPublicKey: options, authSession: handle)
    }

    // MARK: The webauthn grant

    /// The token parameters the challenge of a pending session carried, for `client` (nil when
    /// there are none, or the session is not this client's). The session stays pending.
    public func tokenDefaults(
        tenant: TenantRecord, client: ClientRecord, authSession handle: String
    ) -> TokenDefaults? {
        guard let session = sessions.peek(handle), session.tenantID == tenant.id, session.clientID == client.id
        else { return nil }
        return session.tokenDefaults
    }

    /// Completes the ceremony the auth session names. The session is consumed first, so it is
    /// single-use whether this succeeds or not. `client` is already authenticated and granted.
    /// `withNewUser` runs inside a signup's transaction (a login never calls it).
    public func finish(
        tenant: TenantRecord, client: ClientRecord, authSession handle: String, response: CredentialJSONInput,
        realm: String?, clientPlatform: ClientPlatform? = nil, withNewUser: SignupWrite? = nil
    ) throws(ServiceError) -> AuthenticatedUser {
        let now = clock.now()
        guard let session = sessions.consume(handle) else {
            throw .invalidGrant("the auth_session is unknown, expired or already used")
        }
        guard session.tenantID == tenant.id, session.clientID == client.id else {
            throw .invalidGrant("the auth_session belongs to another client")
        }
        guard session.expiresAt > now else {
            throw .invalidGrant("the auth_session has expired")
        }
        let connection = try access.read { transaction -> ConnectionRecord in
            guard let connection = try transaction.connections.get(tenantID: tenant.id, id: session.connectionID) else {
                throw ServiceError.invalidGrant("the connection of this auth_session no longer exists")
            }
            return connection
        }
        if let realm, realm != connection.name {
            throw .invalidGrant("realm does not match the auth_session's connection")
        }
        let relyingParty = RelyingParty(policy: policy(tenant: tenant, client: client, connection: connection))
        switch session.ceremony {
        case .signup(let state, let pending):
            let (profile, metadata) = try pending.unpack()
            return try finishSignup(
                relyingParty, state: state, profile: profile, metadata: metadata, response: response, tenant: tenant,
                client: client, connection: connection, hint: clientPlatform, now: now, withNewUser: withNewUser)
        case .login(let state):
            return try finishLogin(
                relyingParty, state: state, response: response, tenant: tenant, client: client,
                connection: connection, hint: clientPlatform, now: now)
        case .enroll:
            throw .invalidGrant("this auth_session enrolls a passkey; complete it at My Account")
        }
    }

    private func finishSignup(
        _ relyingParty: RelyingParty, state: RegistrationState, profile: UserProfile, metadata: [String: String],
        response: CredentialJSONInput, tenant: TenantRecord, client: ClientRecord, connection: ConnectionRecord,
        hint: ClientPlatform?, now: Date, withNewUser: SignupWrite?
    ) throws(ServiceError) -> AuthenticatedUser {
        let verified: VerifiedRegistration
        let authenticator: RegistrationMetadata
        do {
            let checked = try verifyRegistration(
                relyingParty, response: response, state: state, connection: connection, now: now)
            verified = checked.0
            authenticator = checked.1
        } catch {
            record(tenant, .signup, outcome: .invalidGrant, client: client.id, user: nil, platform: nil, now: now)
            throw error
        }
        let userID = "sesame|" + Hex.lowercase(try random.serviceBytes(12))
        let passkeyID = "passkey|" + Hex.lowercase(try random.serviceBytes(12))
        let user = UserRecord(
            tenantID: tenant.id, id: userID, connectionID: connection.id, userHandle: state.userHandle,
            profile: profile, userMetadata: metadata, createdAt: now, updatedAt: now, lastLoginAt: now)
        let passkey = try Self.passkeyRecord(
            verified, id: passkeyID, tenant: tenant, userID: userID, now: now,
            name: authenticator.entry(for: verified)?.description)
        let platform = Origins.platform(of: verified.clientData.origin, rpID: tenant.rpID)
        let clientPlatform = hint ?? Self.clientPlatform(platform)
        var authenticated = AuthenticatedUser(
            user: user, client: client, connection: connection,
            amr: Self.amr(backupEligible: verified.backupEligible, userVerified: verified.userVerified),
            authTime: now, passkeyID: passkeyID, platform: clientPlatform)
        // One durable transaction: the user, their first passkey and what the caller adds (the
        // first refresh token) exist together or not at all.
        do {
            authenticated.refreshToken = try access.write(.durable) { transaction in
                try Self.requireUnusedIdentifiers(profile, tenant: tenant, connection: connection, in: transaction)
                if try transaction.passkeys.get(tenantID: tenant.id, credentialID: passkey.credentialID) != nil {
                    throw ServiceError.invalidGrant("this credential is already registered")
                }
                try transaction.users.insert(user)
                try transaction.passkeys.insert(passkey)
                return try withNewUser?(authenticated, transaction)
            }
        } catch .invalidRequest(_) where !tenant.revealsTakenIdentifiers {
            // A taken identifier (or a uniqueness conflict): the tenant does not say which.
            record(tenant, .signup, outcome: .invalidSignup, client: client.id, user: nil, platform: nil, now: now)
            throw .invalidSignup("Invalid sign up")
        }
        record(
            tenant, .signup, outcome: .success, client: client.id, user: userID, platform: platform, now: now,
            passkey: passkey, connectionID: connection.id, clientPlatform: clientPlatform)
        return authenticated
    }

    private func finishLogin(
        _ relyingParty: RelyingParty, state: AuthenticationState, response: CredentialJSONInput, tenant: TenantRecord,
        client: ClientRecord, connection: ConnectionRecord, hint: ClientPlatform?, now: Date
    ) throws(ServiceError) -> AuthenticatedUser {
        let credential: AuthenticationCredential
        do {
            credential = try AuthenticationCredential(json: response)
        } catch {
            throw .invalidGrant("authn_response is not a valid assertion: \(error.message)")
        }
        let (passkey, user) = try access.read { transaction -> (PasskeyRecord, UserRecord) in
            guard let passkey = try transaction.passkeys.get(tenantID: tenant.id, credentialID: credential.id),
                let user = try transaction.users.get(tenantID: tenant.id, id: passkey.userID)
            else {
                // Only a passkey this tenant deleted is one to forget; any other is not ours to judge.
                guard
                    try DeletedPasskeys.wasDeleted(
                        credentialID: credential.id, tenant: tenant, now: now, in: transaction)
                else { throw ServiceError.invalidGrant(Self.unknownCredentialText) }
                throw ServiceError.unknownCredential(rpID: tenant.rpID, credentialID: Base64URL.encode(credential.id))
            }
            return (passkey, user)
        }
        guard user.connectionID == connection.id else {
            throw .invalidGrant(Self.unknownCredentialText)
        }
        let verified: VerifiedAuthentication
        do {
            let (key, imported) = try keyCache.key(for: passkey.id, encoded: passkey.publicKey)
            let stored = StoredCredential(
                id: passkey.credentialID, publicKey: key, importedKey: imported, signCount: passkey.signCount,
                backupEligible: passkey.backupEligible, userHandle: user.userHandle)
            verified = try relyingParty.finishAuthentication(credential, state: state, stored: stored)
        } catch {
            record(tenant, .login, outcome: .invalidGrant, client: client.id, user: user.id, platform: nil, now: now)
            throw .invalidGrant("passkey verification failed: \(error.message)")
        }
        // Only a caller who proved possession of the passkey learns that its user is blocked.
        guard !user.blocked else {
            record(tenant, .login, outcome: .blocked, client: client.id, user: user.id, platform: nil, now: now)
            throw .invalidGrant("the user is blocked")
        }
        // Write synchronously only what clone detection needs: a counter or backup state that
        // changed. Synced passkeys keep their counter at 0, so most logins write nothing here; the
        // last-used times go out in the next batch.
        if verified.signCount != passkey.signCount || verified.backupState != passkey.backupState {
            try access.write(.relaxed) { transaction in
                guard let current = try transaction.passkeys.get(tenantID: tenant.id, id: passkey.id) else {
                    throw ServiceError.invalidGrant("the passkey was deleted during sign-in")
                }
                // Compare-and-set on the stored counter (§7.2 step 22), in the serialised write: a
                // login that stored its counter meanwhile wins, and an assertion whose counter is
                // not past the stored one fails, so two with the same counter cannot both succeed.
                if verified.signCount != 0 || current.signCount != 0, verified.signCount <= current.signCount {
                    throw ServiceError.invalidGrant("the signature counter did not advance")
                }
                try transaction.passkeys.recordAssertion(
                    tenantID: tenant.id, id: passkey.id, signCount: verified.signCount,
                    backupState: verified.backupState, at: now)
            }
        }
        usage.recordLogin(tenantID: tenant.id, passkeyID: passkey.id, userID: user.id, at: now)
        var updatedUser = user
        updatedUser.lastLoginAt = now
        let platform = Origins.platform(of: verified.clientData.origin, rpID: tenant.rpID)
        let clientPlatform = hint ?? Self.clientPlatform(platform)
        record(
            tenant, .login, outcome: .success, client: client.id, user: user.id, platform: platform, now: now,
            passkey: passkey, connectionID: connection.id, clientPlatform: clientPlatform)
        return AuthenticatedUser(
            user: updatedUser, client: client, connection: connection,
            amr: Self.amr(backupEligible: verified.backupEligible, userVerified: verified.userVerified),
            authTime: now, passkeyID: passkey.id, platform: clientPlatform)
    }

    /// Drops expired auth sessions (the server calls this every second).
    @discardableResult public func sweepExpiredSessions() -> Int { sessions.sweep(now: clock.now()) }

    // MARK: Helpers

    /// The WebAuthn policy for a tenant, client and connection.
    func policy(tenant: TenantRecord, client: ClientRecord, connection: ConnectionRecord) -> RelyingPartyPolicy {
        RelyingPartyPolicy(
            rpID: tenant.rpID,
            allowedOrigins: Origins.tenantOrigins(tenant).union(Origins.clientOrigins(client, rpID: tenant.rpID)),
            userVerification: Self.userVerification(connection), allowedAlgorithms: Self.offeredAlgorithms,
            attestation: attestation)
    }

    static func userVerification(_ connection: ConnectionRecord) -> UserVerificationRequirement {
        switch connection.passkey.userVerification {
        case .required: return .required
        case .preferred: return .preferred
        case .discouraged: return .discouraged
        }
    }

    static func amr(backupEligible: Bool, userVerified: Bool) -> [String] {
        var amr = ["pop", backupEligible ? "swk" : "hwk"]
        if userVerified { amr.append("user") }
        return amr
    }

    /// The connection `realm` names (or the default), enabled for `client`, with passkeys on.
    static func connection(
        realm: String?, tenant: TenantRecord, client: ClientRecord, in transaction: any StoreTransaction
    ) throws -> ConnectionRecord {
        let connection = try ConnectionLookup.connection(
            named: realm, field: "realm", tenant: tenant, client: client, in: transaction)
        guard connection.passkey.enabled else {
            throw ServiceError.notFound("passkeys are not enabled for this connection")
        }
        return connection
    }

    static func requireUnusedIdentifiers(
        _ profile: UserProfile, tenant: TenantRecord, connection: ConnectionRecord, in transaction: any StoreTransaction
    ) throws {
        let existing = try transaction.users.withIdentifiers(
            tenantID: tenant.id, connectionID: connection.id, email: profile.email, phoneNumber: profile.phoneNumber,
            username: profile.username)
        if !existing.isEmpty {
            throw ServiceError.invalidRequest("a user with this identifier already exists")
        }
    }

    static func passkeyRecord(
        _ verified: VerifiedRegistration, id: String, tenant: TenantRecord, userID: String, now: Date,
        name: String? = nil
    ) throws(ServiceError) -> PasskeyRecord {
        // Every format the core verifies is a case; one that is not would be stored as a lie.
        guard let format = AttestationFormat(rawValue: verified.attestation.format) else {
            throw .invalidGrant("the attestation format \(verified.attestation.format.prefix(32)) is not recorded")
        }
        return PasskeyRecord(
            tenantID: tenant.id, id: id, userID: userID, credentialID: verified.credentialID,
            publicKey: verified.publicKey.encoded, signCount: verified.signCount, aaguid: verified.aaguid,
            backupEligible: verified.backupEligible, backupState: verified.backupState,
            transports: verified.transports, name: name ?? AAGUIDRegistry.name(for: verified.aaguid) ?? "Passkey",
            attestationFormat: format, createdAt: now, lastUsedAt: now)
    }

    func record(
        _ tenant: TenantRecord, _ type: AuthEventKind, outcome: AuthEventOutcome, client: String?, user: String?,
        platform: AuthPlatform?, now: Date, passkey: PasskeyRecord? = nil, connectionID: String? = nil,
        clientPlatform: ClientPlatform? = nil, conditional: Bool = false
    ) {
        events.record(
            tenantID: tenant.id, type: type, method: .passkey, outcome: outcome, at: now, clientID: client,
            userID: user, platform: platform, connectionID: connectionID,
            passkeyKind: passkey.map { $0.backupEligible ? .synced : .deviceBound }, aaguid: passkey?.aaguid,
            clientPlatform: clientPlatform, conditional: conditional)
    }

    /// The platform an origin shows for certain: an Android app, or a web origin other than the
    /// site's own; nil for the site's own origin, which an iOS app and a browser share.
    static func clientPlatform(_ platform: AuthPlatform) -> ClientPlatform? {
        switch platform {
        case .android: return .android
        case .web: return .web
        case .iosOrWeb: return nil
        }
    }
}

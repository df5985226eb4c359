import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// Who asks for an upgrade authorization (docs/account-upgrades.md).
public enum UpgradeAuthority: Sendable {
    /// A signed-in user: the app's own settings, or the extension with the token the app put in `userInfo`.
    case signedIn(Principal)
    /// The system's password manager through the extension: the stored username and password.
    case password(client: ClientCredentials, username: String?, password: String?, realm: String?, address: String)
    /// The hosted pages: a sign-in the page holds, or the account page's SSO session (`sessionID`,
    /// which keeps going when the upgrade ends the user's other sessions).
    case hosted(userID: String, clientID: String, authTime: Date, amr: [String], sessionID: String?)
}

/// An authorized upgrade: `POST /me/v1/upgrades/authorize`'s 200.
public struct UpgradeAuthorization: Sendable, Hashable, Encodable {
    public var upgradeToken: String
    public var tokenType = "upgrade"
    public var expiresIn: Int
    public var type: UpgradeType
    /// The connection's rules, exactly as enforced (the extension's generated password meets them).
    public var passwordRules: String

    enum CodingKeys: String, CodingKey {
        case upgradeToken = "upgrade_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case type
        case passwordRules = "password_rules"
    }
}

/// A committed upgrade: the 200 of the strong-password and Sign in with Apple upgrades.
public struct UpgradeResult: Sendable, Hashable, Encodable {
    public var type: UpgradeType
    public var upgraded = true
    public init(type: UpgradeType) { self.type = type }
}

/// Account security upgrades (docs/account-upgrades.md, Apple's WWDC20 one-tap upgrades): a weak or breached
/// password moves to a strong password, to Sign in with Apple, or to a passkey.
///
/// `authorize` decides: the connection's `options.upgrades` (the types allowed, `max_auth_age`, the
/// step-up rule) and the user (a password to upgrade, not blocked). It answers a single-use upgrade
/// token (five minutes, bound to the user, the type and the client), a step-up (an `mfa_token` for
/// the MFA grants, whose access token then authorizes), or a refusal with its reason.
///
/// Each upgrade spends its token in the same write transaction that commits the change, so of two
/// requests racing with one token exactly one commits, and a refused change (a weak password, a
/// bad identity token) leaves the token usable for another try.
public final class AccountUpgradeService: Sendable {
    public static let tokenLifetime: TimeInterval = 300
    static let maxTokensPerUser = 10
    /// The scope the step-up's access token carries (it authorizes again, nothing else needs it).
    static let stepUpScope = "update:me:authentication_methods"

    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let passwords: PasswordService
    let mfa: MFAService
    let passkeys: PasskeyService
    let events: AuthEventRecorder
    let apple: AppleIdentityVerifier
    let redemption: AppleCodeRedemption

    init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, passwords: PasswordService,
        mfa: MFAService, passkeys: PasskeyService, events: AuthEventRecorder, apple: AppleIdentityVerifier,
        sealer: AppleKeySealer
    ) {
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.passwords = passwords
        self.mfa = mfa
        self.passkeys = passkeys
        self.events = events
        self.apple = apple
        self.redemption = AppleCodeRedemption(endpoints: apple.endpoints, verifier: apple, sealer: sealer)
    }

    // MARK: Authorize

    /// `POST /me/v1/upgrades/authorize`.
    public func authorize(tenant: TenantRecord, type: UpgradeType, by authority: UpgradeAuthority)
        throws(ServiceError) -> UpgradeAuthorization
    {
        let now = clock.now()
        let userID: String
        let clientID: String
        let authTime: Date?
        let amr: [String]
        let family: String?
        var keepSession: String?
        switch authority {
        case .hosted(let user, let client, let time, let methods, let session):
            (userID, clientID, authTime, amr, family) = (user, client, time, methods, nil)
            keepSession = session
        case .signedIn(let principal):
            guard principal.isUser, let subject = principal.subject, let client = principal.clientID else {
                throw .invalidToken("the access token is not a user's token")
            }
            (userID, clientID, authTime, amr, family) =
                (subject, client, principal.authTime, principal.amr, principal.refreshFamilyID)
        case .password(let credentials, let username, let password, let realm, let address):
            // The password grant's own client check, then its brute-force limits.
            let grant: OAuthGrantType = realm == nil ? .password : .passwordRealm
            let caller = try access.read { transaction in
                let client = try ClientAuthentication.authenticate(credentials, tenant: tenant, in: transaction)
                try ClientAuthentication.requireGrant(grant, client)
                return client
            }
            let login = try passwords.logIn(
                tenant: tenant, client: caller, grant: grant, realm: realm, username: username, password: password,
                address: address, forUpgrade: true)
            (userID, clientID, authTime, amr, family) = (login.user.id, caller.id, login.authTime, login.amr, nil)
        }
        let (user, connection) = try access.read { transaction in
            try Self.parties(tenant: tenant, userID: userID, clientID: clientID, type: type, in: transaction)
        }
        try requireNoStepUp(
            tenant: tenant, user: user, connection: connection, clientID: clientID, authTime: authTime, amr: amr,
            now: now)
        let state = UpgradeState(
            type: type, userID: user.id, clientID: clientID, passwordStamp: UpgradeState.stamp(user.password),
            keepFamily: family, keepSession: keepSession)
        let token = Base64URL.encode(try random.serviceBytes(32))
        let record = AuthSessionRecord(
            handleHash: UpgradeState.hash(token), tenantID: tenant.id, requester: "upgrade:\(user.id)",
            expiresAt: now + Self.tokenLifetime, payload: state.payload)
        let stored = try access.write(.relaxed) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: Self.maxTokensPerUser, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyRequests("too many upgrades are waiting for this user", retryAfterSeconds: 60)
        }
        return UpgradeAuthorization(
            upgradeToken: token, expiresIn: Int(Self.tokenLifetime), type: type,
            passwordRules: connection.password.rules)
    }

    /// The upgrades `userID` may make now through `clientID` (the account page's buttons), in the
    /// order the pages offer them. The account page links an Apple ID only through Apple's web
    /// sign-in, which needs the connection's Services ID.
    public func offers(tenant: TenantRecord, userID: String, clientID: String) throws(ServiceError) -> [UpgradeType] {
        try access.read { transaction in
            try [UpgradeType.passkey, .strongPassword, .signInWithApple].filter { type in
                guard
                    (try? Self.parties(tenant: tenant, userID: userID, clientID: clientID, type: type, in: transaction))
                        != nil
                else { return false }
                guard type == .signInWithApple, clientID == AccountClient.id else { return true }
                return try Self.appleConnection(tenant: tenant, clientID: clientID, in: transaction)?.1.servicesID
                    != nil
            }
        }
    }

    /// The user and their connection, if `type` may upgrade them: 403 `upgrade_not_allowed` otherwise.
    static func parties(
        tenant: TenantRecord, userID: String, clientID: String, type: UpgradeType, in transaction: any StoreTransaction
    ) throws -> (UserRecord, ConnectionRecord) {
        guard let user = try transaction.users.get(tenantID: tenant.id, id: userID) else {
            throw ServiceError.invalidToken("the token's user no longer exists")
        }
        guard !user.blocked else { throw ServiceError.upgradeNotAllowed(.userBlocked) }
        guard let connection = try transaction.connections.get(tenantID: tenant.id, id: user.connectionID),
            connection.strategy == .database
        else { throw ServiceError.conflict("the user's connection no longer exists") }
        guard connection.password.enabled, connection.upgrades.allowed.contains(type) else {
            throw ServiceError.upgradeNotAllowed(.typeDisabled)
        }
        guard user.password != nil else { throw ServiceError.upgradeNotAllowed(.noPassword) }
        guard user.passwordReplacement == nil else { throw ServiceError.upgradeNotAllowed(.alreadyUpgraded) }
        switch type {
        case .strongPassword: break
        case .passkey:
            guard connection.passkey.enabled else { throw ServiceError.upgradeNotAllowed(.typeDisabled) }
        case .signInWithApple:
            guard try appleConnection(tenant: tenant, clientID: clientID, in: transaction) != nil else {
                throw ServiceError.upgradeNotAllowed(.typeDisabled)
            }
        }
        return (user, connection)
    }

    /// The tenant's Sign in with Apple connection enabled for `clientID` (the first by name), if any.
    static func appleConnection(tenant: TenantRecord, clientID: String, in transaction: any StoreTransaction)
        throws -> (ConnectionRecord, AppleSettings)?
    {
        let all = try Page.all { try transaction.connections.list(tenantID: tenant.id, page: $0) }
        // The account page serves every user of the tenant, whatever clients a connection names.
        for connection in all.sorted(by: { $0.name < $1.name })
        where connection.strategy == .apple
            && (clientID == AccountClient.id || connection.enabledClients.isEmpty
                || connection.enabledClients.contains(clientID))
        {
            if let settings = connection.apple { return (connection, settings) }
        }
        return nil
    }

    /// 403 `step_up_required` when the sign-in is older than `max_auth_age`, or the step-up rule
    /// asks for a second factor this sign-in did not use. A passkey verified with UV counts as two
    /// factors (docs/mfa.md).
    private func requireNoStepUp(
        tenant: TenantRecord, user: UserRecord, connection: ConnectionRecord, clientID: String, authTime: Date?,
        amr: [String], now: Date
    ) throws(ServiceError) {
        let policy = connection.upgrades
        let stale = authTime.map { now.timeIntervalSince($0) > TimeInterval(max(0, policy.maxAuthAge)) } ?? true
        let usedSecondFactor = CredentialChange.usedSecondFactor(amr)
        let challenge = MFAService.requirement(tenant: tenant, user: user).flatMap { $0.kind == .challenge ? $0 : nil }
        let needed: Bool
        switch policy.stepUp {
        case .never: needed = stale
        case .whenEnrolled: needed = stale || (challenge != nil && !usedSecondFactor)
        case .always: needed = stale || !usedSecondFactor
        }
        guard needed else { return }
        // A second factor to answer, or (the tenant offers factors) one to enroll first.
        var requirement = challenge
        if requirement == nil, policy.stepUp == .always || stale {
            let offered = tenant.mfa.factors.filter { $0 != .recoveryCode }
            if !offered.isEmpty, policy.stepUp == .always {
                requirement = MFARequirement(kind: .enroll, types: offered.map(MFAService.typeName))
            }
        }
        guard let requirement else {
            throw .stepUpRequired(mfaToken: nil, challengeTypes: ["password"], requirement: nil)
        }
        let ticket = MFATicket(
            userID: user.id, clientID: clientID, scope: Self.stepUpScope,
            audience: TokenService.myAccountAudience(tenant), amr: amr.isEmpty ? ["pwd"] : amr,
            authTime: authTime ?? now)
        let token = try mfa.issueToken(tenant: tenant, ticket: ticket)
        let types = requirement.types.map { $0 == "phone" ? "oob" : $0 }
        throw .stepUpRequired(mfaToken: token, challengeTypes: types, requirement: requirement)
    }

    // MARK: Strong password

    /// `POST /me/v1/upgrades/strong-password`: the new password meets the connection's rules, is
    /// not breached (whatever the tenant's shields say), and differs from the old. The token is
    /// spent in the write that stores it; every other session and refresh-token family ends.
    ///
    /// The comparison with the old password comes last, after the rules and the breach corpus, so
    /// it answers only for strong passwords; and a match spends the token and counts as a failed
    /// password of the account from `address`, so the upgrade is no oracle for the current one.
    public func upgradeToStrongPassword(tenant: TenantRecord, token: String?, newPassword: String?, address: String)
        throws(ServiceError)
    {
        let now = clock.now()
        let state = try peek(token, type: .strongPassword, tenant: tenant, now: now)
        guard let newPassword, !newPassword.isEmpty else { throw .invalidRequest("new_password is required") }
        let text = try PasswordText(newPassword)
        let (user, connection) = try access.read { transaction in
            try Self.parties(
                tenant: tenant, userID: state.userID, clientID: state.clientID, type: .strongPassword, in: transaction)
        }
        let fresh = try passwords.upgradeCredential(for: text, connection: connection, tenant: tenant)
        if let old = user.password, try passwords.verify(text, old) {
            let limits = passwords.limits
            try access.write(.relaxed) { transaction in
                _ = try? Self.spend(token, state, tenant: tenant, now: now, in: transaction)
                try limits.reserve(
                    tenantID: tenant.id,
                    account: AttemptLimits.accountKey(user: user, identifier: "", address: address),
                    address: AttemptLimits.addressKey(address), now: now, in: transaction)
            }
            throw .signupRefused(.passwordReused)
        }
        try access.write(.durable) { transaction in
            let (stored, _) = try Self.spend(token, state, tenant: tenant, now: now, in: transaction)
            var updated = stored
            updated.password = fresh.replacing(stored.password)
            updated.updatedAt = now
            try transaction.users.update(updated)
            try Self.endOtherSessions(state, tenant: tenant, now: now, in: transaction)
        }
        record(tenant, .password, state: state, connectionID: connection.id, now: now)
    }

    // MARK: Sign in with Apple

    /// `POST /me/v1/upgrades/sign-in-with-apple`: the identity token (with the raw nonce its `nonce`
    /// claim hashes) is verified against the Apple connection, its `sub` is linked to the user
    /// (409 when another account holds it), and the password stops signing in. With an
    /// `authorization_code`, the code is redeemed too and its identity must be the same.
    public func upgradeToSignInWithApple(
        tenant: TenantRecord, token: String?, identityToken: String?, rawNonce: String?, authorizationCode: String?,
        redirectURI: String? = nil
    ) throws(ServiceError) {
        let now = clock.now()
        let state = try peek(token, type: .signInWithApple, tenant: tenant, now: now)
        guard let identityToken, !identityToken.isEmpty else { throw .invalidRequest("identity_token is required") }
        let (connection, settings) = try access.read { transaction in
            _ = try Self.parties(
                tenant: tenant, userID: state.userID, clientID: state.clientID, type: .signInWithApple, in: transaction)
            guard let found = try Self.appleConnection(tenant: tenant, clientID: state.clientID, in: transaction)
            else { throw ServiceError.upgradeNotAllowed(.typeDisabled) }
            return found
        }
        let identity = try apple.verify(
            identityToken, settings: settings, rawNonce: rawNonce, nonceRule: .required, now: now)
        if let authorizationCode, !authorizationCode.isEmpty {
            let redeemed = try redemption.redeem(
                code: authorizationCode, connection: connection, settings: settings, clientID: identity.audience,
                redirectURI: redirectURI, now: now)
            guard redeemed.subject == identity.subject else {
                throw .invalidGrant("the authorization code belongs to another Apple ID")
            }
        }
        try access.write(.durable) { transaction in
            if let linked = try transaction.linkedIdentities.get(
                tenantID: tenant.id, connectionID: connection.id, subject: identity.subject),
                linked.userID != state.userID
            {
                throw ServiceError.identityAlreadyLinked("this Apple ID is linked to another account")
            }
            let (stored, _) = try Self.spend(token, state, tenant: tenant, now: now, in: transaction)
            if try transaction.linkedIdentities.get(
                tenantID: tenant.id, connectionID: connection.id, subject: identity.subject) == nil
            {
                try transaction.linkedIdentities.insert(
                    LinkedIdentityRecord(
                        tenantID: tenant.id, connectionID: connection.id, provider: .apple, subject: identity.subject,
                        userID: stored.id, email: identity.email, emailVerified: identity.emailVerified,
                        isPrivateEmail: identity.isPrivateEmail, createdAt: now))
            }
            var updated = stored
            updated.passwordReplacement = .apple
            updated.passwordReplacedAt = now
            updated.updatedAt = now
            try transaction.users.update(updated)
            try Self.endOtherSessions(state, tenant: tenant, now: now, in: transaction)
        }
        record(tenant, .apple, state: state, connectionID: connection.id, now: now)
    }

    // MARK: Sign in with Apple on the web

    static let webStateLifetime: TimeInterval = 600
    static let webStateDomain = "sesame-apple-web-state"

    /// The account page's button: Apple's authorization URL for the connection's Services ID,
    /// with a fresh `state` (which holds the upgrade token and the raw nonce, ten minutes) and
    /// the hex SHA-256 of the raw nonce as `nonce`; Apple posts the answer to `redirectURI`.
    public func beginWebAppleUpgrade(tenant: TenantRecord, token: String, redirectURI: String)
        throws(ServiceError) -> String
    {
        let now = clock.now()
        let state = try peek(token, type: .signInWithApple, tenant: tenant, now: now)
        guard
            let (_, settings) = try access.read({
                try Self.appleConnection(tenant: tenant, clientID: state.clientID, in: $0)
            })
        else { throw .upgradeNotAllowed(.typeDisabled) }
        guard let servicesID = settings.servicesID else {
            throw .invalidRequest("the Apple connection has no Services ID (options.client_id) for the web")
        }
        let rawNonce = Base64URL.encode(try random.serviceBytes(32))
        let handle = Base64URL.encode(try random.serviceBytes(32))
        let web = AppleWebUpgradeState(token: token, rawNonce: rawNonce, redirectURI: redirectURI)
        let record = AuthSessionRecord(
            handleHash: Digest.sha256(Array("\(Self.webStateDomain)\u{0}\(handle)".utf8)), tenantID: tenant.id,
            requester: "upgrade:\(state.userID)", expiresAt: now + Self.webStateLifetime, payload: web.payload)
        let stored = try access.write(.relaxed) { transaction in
            try transaction.authSessions.insert(record, maxPerRequester: Self.maxTokensPerUser, now: now)
        }
        guard stored == .inserted else {
            throw .tooManyRequests("too many upgrades are waiting for this user", retryAfterSeconds: 60)
        }
        var components = URLComponents(string: settings.authorizeURL)
        components?.queryItems = [
            URLQueryItem(name: "response_type", value: "code id_token"),
            URLQueryItem(name: "response_mode", value: "form_post"),
            URLQueryItem(name: "client_id", value: servicesID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "state", value: handle),
            URLQueryItem(name: "nonce", value: Hex.lowercase(Digest.sha256(Array(rawNonce.utf8)))),
        ]
        guard let url = components?.url?.absoluteString else {
            throw .invalidRequest("the Apple connection's authorization_endpoint is not a URL")
        }
        return url
    }

    /// Apple's form post back (`state`, `id_token`, `code`): the state is spent, then the upgrade
    /// commits as `upgradeToSignInWithApple` does, with the code redeemed for the Services ID.
    public func finishWebAppleUpgrade(
        tenant: TenantRecord, state handle: String?, identityToken: String?, authorizationCode: String?
    ) throws(ServiceError) {
        let now = clock.now()
        guard let handle, !handle.isEmpty, handle.utf8.count <= 256,
            let record = try access.write(
                .relaxed,
                { transaction in
                    try transaction.authSessions.consume(
                        handleHash: Digest.sha256(Array("\(Self.webStateDomain)\u{0}\(handle)".utf8)))
                }),
            record.tenantID == tenant.id, record.expiresAt > now
        else { throw Self.spent }
        guard let web = AppleWebUpgradeState(payload: record.payload) else { throw Self.spent }
        // A web code is redeemed with the redirect_uri it was issued for (Apple requires it).
        try upgradeToSignInWithApple(
            tenant: tenant, token: web.token, identityToken: identityToken, rawNonce: web.rawNonce,
            authorizationCode: authorizationCode, redirectURI: web.redirectURI)
    }

    // MARK: Passkey

    /// `POST /me/v1/upgrades/passkey`: spends the token and begins the enrollment (§5's creation
    /// options) whose verify step disables the password in the same write as the passkey.
    public func beginPasskeyUpgrade(tenant: TenantRecord, token: String?, requester: String)
        throws(ServiceError) -> PasskeySignupChallengeResponse
    {
        let now = clock.now()
        let state = try peek(token, type: .passkey, tenant: tenant, now: now)
        try access.write(.relaxed) { transaction in
            _ = try Self.spend(token, state, tenant: tenant, now: now, in: transaction)
        }
        return try passkeys.beginEnrollment(
            tenant: tenant, clientID: state.clientID, userID: state.userID, connection: nil, requester: requester,
            purpose: .replacePassword)
    }

    /// `POST /me/v1/upgrades/passkey/verify`: the new passkey; the password is disabled with it.
    public func finishPasskeyUpgrade(tenant: TenantRecord, authSession: String?, response: [UInt8])
        throws(ServiceError) -> AuthenticationMethod
    {
        guard let authSession, !authSession.isEmpty else { throw .invalidRequest("auth_session is required") }
        let (passkey, user) = try passkeys.finishEnrollment(
            tenant: tenant, clientID: nil, userID: nil, authSession: authSession, response: response,
            requiredPurpose: .replacePassword)
        return AuthenticationMethod.myAccount(passkey, user: user, rpID: tenant.rpID)
    }

    // MARK: Tokens

    /// The token's state, left in place (so a refused change can be tried again): 400
    /// `invalid_grant` for an unknown, expired or spent token, or one of another type.
    private func peek(_ token: String?, type: UpgradeType, tenant: TenantRecord, now: Date) throws(ServiceError)
        -> UpgradeState
    {
        guard let token, !token.isEmpty else { throw .invalidRequest("upgrade_token is required") }
        guard token.utf8.count <= 256,
            let record = try access.read({ try $0.authSessions.get(handleHash: UpgradeState.hash(token)) }),
            record.tenantID == tenant.id, record.expiresAt > now, let state = UpgradeState(payload: record.payload),
            state.type == type
        else { throw Self.spent }
        return state
    }

    static var spent: ServiceError { .invalidGrant("the upgrade_token is unknown, expired or already used") }

    /// Spends the token inside `transaction` and returns the user as stored: `invalid_grant` when
    /// another request spent it first, and when the password changed since it was authorized.
    static func spend(
        _ token: String?, _ state: UpgradeState, tenant: TenantRecord, now: Date, in transaction: any StoreTransaction
    ) throws -> (UserRecord, AuthSessionRecord) {
        guard let token, let record = try transaction.authSessions.consume(handleHash: UpgradeState.hash(token)),
            record.tenantID == tenant.id, record.expiresAt > now
        else { throw spent }
        guard let user = try transaction.users.get(tenantID: tenant.id, id: state.userID), !user.blocked,
            user.passwordReplacement == nil, UpgradeState.stamp(user.password) == state.passwordStamp
        else { throw ServiceError.invalidGrant("the account changed since the upgrade was authorized") }
        return (user, record)
    }

    /// Ends every other session: the SSO sessions and every refresh-token family but the one the
    /// authorizing token came with.
    static func endOtherSessions(
        _ state: UpgradeState, tenant: TenantRecord, now: Date, in transaction: any StoreTransaction
    ) throws {
        if let family = state.keepFamily {
            try transaction.refreshTokens.revokeAll(
                tenantID: tenant.id, userID: state.userID, exceptFamily: family, at: now)
        } else {
            try transaction.refreshTokens.revokeAll(tenantID: tenant.id, userID: state.userID, at: now)
        }
        for session in try transaction.ssoSessions.list(tenantID: tenant.id, userID: state.userID)
        where session.id != state.keepSession {
            try transaction.ssoSessions.delete(tenantID: tenant.id, id: session.id)
        }
    }

    private func record(
        _ tenant: TenantRecord, _ method: AuthEventMethod, state: UpgradeState, connectionID: String, now: Date
    ) {
        events.record(
            tenantID: tenant.id, type: .upgrade, method: method, outcome: .success, at: now, clientID: state.clientID,
            userID: state.userID, connectionID: connectionID)
    }
}

/// What an upgrade token stands for, in the auth-session table under a hash in its own domain.
struct UpgradeState: Sendable, Equatable {
    static let domain = "sesame-upgrade-token"

    var type: UpgradeType
    var userID: String
    var clientID: String
    /// A digest of the password hash authorized to be upgraded: a change meanwhile voids the token.
    var passwordStamp: String
    /// The refresh-token family of the authorizing access token (it keeps working).
    var keepFamily: String?
    /// The SSO session of the account page that authorized it (it keeps going).
    var keepSession: String?

    static func hash(_ token: String) -> [UInt8] { Digest.sha256(Array("\(domain)\u{0}\(token)".utf8)) }

    /// 16 bytes of the SHA-256 of the stored hash, as base64url ("" for no password).
    static func stamp(_ password: PasswordCredential?) -> String {
        guard let password else { return "" }
        return Base64URL.encode(Array(Digest.sha256(Array(password.hash.utf8)).prefix(16)))
    }

}

extension UpgradeState: TicketPayload {
    static let kind = TicketKind.accountUpgrade
    static let recordFields = RecordFields<UpgradeState>(
        blank: UpgradeState(type: .passkey, userID: "", clientID: "", passwordStamp: "", keepFamily: nil),
        [
            .field("type", \.type),
            .field("userID", \.userID),
            .field("clientID", \.clientID),
            .field("passwordStamp", \.passwordStamp),
            .field("keepFamily", \.keepFamily),
            .field("keepSession", \.keepSession),
        ])
}

/// The web flow of an upgrade to Sign in with Apple between the redirect to Apple and its form
/// post: the upgrade token, the raw nonce whose digest went to Apple, and the redirect URI the code
/// is redeemed with.
struct AppleWebUpgradeState: Sendable, Equatable {
    var token: String
    var rawNonce: String
    var redirectURI: String
}

extension AppleWebUpgradeState: TicketPayload {
    static let kind = TicketKind.appleWebUpgrade
    static let recordFields = RecordFields<AppleWebUpgradeState>(
        blank: AppleWebUpgradeState(token: "", rawNonce: "", redirectURI: ""),
        [.field("token", \.token), .field("nonce", \.rawNonce), .field("redirectURI", \.redirectURI)])
}

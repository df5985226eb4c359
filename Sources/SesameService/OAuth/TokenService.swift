import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// The token endpoint and what depends on its tokens: grants (webauthn, refresh_token,
/// client_credentials), RFC 7009 revocation, userinfo, and bearer-token checks for the APIs.
public final class TokenService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    public let keyRing: SigningKeyRing
    let refreshTokens: RefreshTokens
    let passkeys: PasskeyService
    let passwords: PasswordService
    let mfa: MFAService
    let events: AuthEventRecorder
    /// DPoP proof checks and nonces (RFC 9449).
    public let dpop: DPoPVerifier
    /// Authorization codes (issued by `/authorize`, redeemed here).
    let codes: AuthorizationCodes
    /// Legacy device keys (registration at My Account, re-authentication here).
    public let deviceKeys: DeviceKeyService
    /// The `passkey_enrollment` prompts and the hosted page their links open.
    public let enrollmentTickets: PasskeyEnrollmentTickets
    /// Account security upgrades (docs/account-upgrades.md).
    public let upgrades: AccountUpgradeService
    /// Sign in with Apple at the token endpoint.
    let appleLogin: AppleSignInLogin

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, keyRing: SigningKeyRing,
        passkeys: PasskeyService, passwords: PasswordService, mfa: MFAService, events: AuthEventRecorder,
        dpop: DPoPVerifier, apple: any AppleEndpoints = UnreachableAppleEndpoints(),
        appleKeys: AppleKeySealer? = nil
    ) {
        self.passwords = passwords
        self.mfa = mfa
        self.dpop = dpop
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.keyRing = keyRing
        self.refreshTokens = RefreshTokens(store: store, clock: clock, random: random)
        self.passkeys = passkeys
        self.events = events
        self.codes = AuthorizationCodes(access: access, clock: clock, random: random)
        self.deviceKeys = DeviceKeyService(
            store: store, clock: clock, random: random, events: events, notices: passkeys.notices)
        self.enrollmentTickets = PasskeyEnrollmentTickets(
            store: store, clock: clock, random: random, passkeys: passkeys)
        let verifier = AppleIdentityVerifier(endpoints: apple)
        // Without a master key's sealer no .p8 opens, so no authorization code can be redeemed.
        let sealer = appleKeys ?? AppleKeySealer(key: [])
        self.upgrades = AccountUpgradeService(
            store: store, clock: clock, random: random, passwords: passwords, mfa: mfa, passkeys: passkeys,
            events: events, apple: verifier, sealer: sealer)
        self.appleLogin = AppleSignInLogin(
            access: access, clock: clock, verifier: verifier,
            redemption: AppleCodeRedemption(endpoints: apple, verifier: verifier, sealer: sealer), events: events)
    }

    // MARK: Audiences

    /// The OpenID Connect scopes a user login may ask for without an API (discovery lists them).
    public static let openIDScopes = ["openid", "profile", "email", "phone", "offline_access"]

    /// The issuer (`iss`) of a tenant's tokens: its public URL with one trailing slash.
    public static func issuer(_ tenant: TenantRecord) -> String { Bootstrap.issuer(publicURL: tenant.publicURL) }
    /// The audience of access tokens asked for without one: valid at /userinfo only.
    public static func userInfoAudience(_ tenant: TenantRecord) -> String { issuer(tenant) + "userinfo" }
    /// The Management API audience.
    public static func managementAudience(_ tenant: TenantRecord) -> String { issuer(tenant) + "api/v2/" }
    /// The My Account API audience.
    public static func myAccountAudience(_ tenant: TenantRecord) -> String { issuer(tenant) + "me/" }

    // MARK: Token endpoint

    /// `POST /oauth/token`.
    public func token(tenant: TenantRecord, request: TokenRequest) throws(ServiceError) -> TokenResponse {
        guard !request.grantType.isEmpty else { throw .invalidRequest("grant_type is required") }
        guard let grant = OAuthGrantType(rawValue: request.grantType) else {
            throw .unsupportedGrantType("grant_type \(request.grantType.prefix(100)) is not supported")
        }
        guard let audit = events.audit else { return try grantTokens(grant, tenant: tenant, request: request) }
        return try AuditScope.run { scope throws(ServiceError) in
            do throws(ServiceError) {
                let response = try grantTokens(grant, tenant: tenant, request: request)
                let user = scope.state.withLock { $0.user }
                audit.record(
                    TokenAudit.success(grant), tenantID: tenant.id, clientID: request.credentials.clientID, user: user,
                    details: AuditDetails(method: TokenAudit.method(grant), scope: response.scope))
                return response
            } catch {
                let (recorded, user) = scope.state.withLock { ($0.outcomeRecorded, $0.user) }
                if case .mfaRequired = error {
                    audit.record(
                        .mfaRequired, tenantID: tenant.id, clientID: request.credentials.clientID, user: user,
                        details: AuditDetails(method: TokenAudit.method(grant)))
                } else if !recorded {
                    audit.record(
                        TokenAudit.failure(grant), tenantID: tenant.id, clientID: request.credentials.clientID,
                        user: user,
                        details: AuditDetails(method: TokenAudit.method(grant), reason: TokenAudit.reason(error)))
                }
                throw error
            }
        }
    }

    private func grantTokens(
        _ grant: OAuthGrantType, tenant: TenantRecord, request: TokenRequest
    ) throws(ServiceError) -> TokenResponse {
        let proof = try tokenEndpointProof(request.dpop, tenant: tenant)
        switch grant {
        case .authorizationCode: return try authorizationCodeGrant(tenant: tenant, request: request, proof: proof)
        case .webAuthn: return try webAuthnGrant(tenant: tenant, request: request, proof: proof)
        case .refreshToken: return try refreshGrant(tenant: tenant, request: request, proof: proof)
        case .clientCredentials: return try clientCredentialsGrant(tenant: tenant, request: request, proof: proof)
        case .password, .passwordRealm:
            return try passwordGrant(grant, tenant: tenant, request: request, proof: proof)
        case .mfaOTP, .mfaOOB, .mfaRecoveryCode:
            return try mfaGrant(grant, tenant: tenant, request: request, proof: proof)
        case .deviceKey: return try deviceKeyGrant(tenant: tenant, request: request, proof: proof)
        case .tokenExchange: return try appleGrant(tenant: tenant, request: request, proof: proof)
        }
    }

    // MARK: DPoP

    /// The token request's DPoP proof, checked and recorded against replay (nil without one).
    func tokenEndpointProof(_ request: DPoPRequest, tenant: TenantRecord) throws(ServiceError) -> DPoPProof? {
        let now = clock.now()
        let proof: DPoPProof?
        do {
            proof = try dpop.verify(request, accessToken: nil, now: now)
        } catch {
            switch error {
            case .invalid(let text): throw .invalidDPoPProof(text)
            case .nonceRequired:
                throw .useDPoPNonce("the DPoP proof must carry the server's nonce", nonce: dpop.nonce(at: now))
            }
        }
        guard let proof else { return nil }
        try remember(proof, tenant: tenant, now: now)
        return proof
    }

    /// Records the proof in the replay cache; a proof seen before is refused (RFC 9449 §11.1).
    private func remember(_ proof: DPoPProof, tenant: TenantRecord, now: Date) throws(ServiceError) {
        let expiresAt = now.addingTimeInterval(DPoPVerifier.maximumAge + DPoPVerifier.maximumSkew)
        let fresh = try access.write(.relaxed) { transaction in
            try transaction.dpopProofs.record(tenantID: tenant.id, key: proof.replayKey, expiresAt: expiresAt, now: now)
        }
        guard fresh else { throw .invalidDPoPProof("the DPoP proof was already used; make a new one per request") }
    }

    /// The `cnf` claim of a token bound to `proof` (RFC 9449 §6).
    static func confirmation(_ proof: DPoPProof?) -> JWTClaimValue? {
        proof.map { .object(["jkt": .string($0.thumbprint)]) }
    }

    /// The client `credentials` name, authenticated (for routes beside the token endpoint).
    public func client(_ credentials: ClientCredentials, tenant: TenantRecord) throws(ServiceError) -> ClientRecord {
        try access.read { transaction in
            try ClientAuthentication.authenticate(credentials, tenant: tenant, in: transaction)
        }
    }

    private func authenticate(
        _ credentials: ClientCredentials, tenant: TenantRecord, grant: OAuthGrantType
    ) throws(ServiceError) -> ClientRecord {
        try access.read { transaction in
            let client = try ClientAuthentication.authenticate(credentials, tenant: tenant, in: transaction)
            try ClientAuthentication.requireGrant(grant, client)
            return client
        }
    }

    private func webAuthnGrant(
        tenant: TenantRecord, request: TokenRequest, proof: DPoPProof?
    ) throws(ServiceError) -> TokenResponse {
        let client = try authenticate(request.credentials, tenant: tenant, grant: .webAuthn)
        guard let handle = request.authSession, !handle.isEmpty else {
            throw .invalidRequest("auth_session is required")
        }
        guard let response = request.authnResponse else { throw .invalidRequest("authn_response is required") }
        // Scope and audience are checked before the session is consumed, so a typo costs no ceremony.
        // A request naming neither takes those its challenge carried.
        var scope = request.scope
        var audienceName = request.audience
        if scope == nil, audienceName == nil,
            let defaults = passkeys.tokenDefaults(tenant: tenant, client: client, authSession: handle)
        {
            scope = defaults.scope
            audienceName = defaults.audience
        }
        let (scopes, audience) = try loginScopes(scope, audience: audienceName, tenant: tenant, client: client)
        // A signup's first refresh token is written with its user, so that a failure to write it
        // (a full disk) cannot leave an account the answer never told the client about.
        var withNewUser: SignupWrite?
        if Self.startsRefreshFamily(scopes, client: client) {
            withNewUser = { [self] created, transaction in
                try startRefreshFamily(
                    tenant: tenant, client: client, userID: created.user.id, scopes: scopes,
                    audience: audience.identifier(tenant), amr: created.amr, authTime: created.authTime,
                    passkeyID: created.passkeyID, proof: proof, familyID: nil, in: transaction)
            }
        }
        let authenticated = try passkeys.finish(
            tenant: tenant, client: client, authSession: handle, response: response, realm: request.realm,
            clientPlatform: request.clientPlatform, withNewUser: withNewUser)
        notePasskeyPlatform(tenant: tenant, user: authenticated.user, platform: authenticated.platform)
        let refresh: RefreshIssue =
            if let written = authenticated.refreshToken {
                .written(written.token, familyID: written.record.familyID)
            } else {
                .newFamily(passkeyID: authenticated.passkeyID)
            }
        return try issueUserTokens(
            tenant: tenant, client: client, user: authenticated.user, scopes: scopes, audience: audience,
            amr: authenticated.amr, authTime: authenticated.authTime, refresh: refresh, proof: proof)
    }

    /// Remembers that the user signed in with a passkey on `platform` (the method hints'
    /// `prefer_passkey`): one write the first time per platform, none after. A failure costs only
    /// the hint, never the sign-in.
    func notePasskeyPlatform(tenant: TenantRecord, user: UserRecord, platform: ClientPlatform?) {
        guard let platform, !user.passkeyPlatforms.contains(platform) else { return }
        try? access.write(.relaxed) { transaction in
            guard var stored = try transaction.users.get(tenantID: tenant.id, id: user.id),
                !stored.passkeyPlatforms.contains(platform)
            else { return }
            stored.passkeyPlatforms.append(platform)
            try transaction.users.update(stored)
        }
    }

    /// Sesame's device-key grant (docs/migration.md): a signed-in user re-authenticates with the legacy
    /// key on their device. The answer is the usual token response with a fresh `auth_time`,
    /// `amr: ["hwk", "user"]`, and the passkey prompt when the device could have a passkey.
    private func deviceKeyGrant(
        tenant: TenantRecord, request: TokenRequest, proof: DPoPProof?
    ) throws(ServiceError) -> TokenResponse {
        let client = try authenticate(request.credentials, tenant: tenant, grant: .deviceKey)
        let (scopes, audience) = try loginScopes(
            request.scope, audience: request.audience, tenant: tenant, client: client)
        let proved = try deviceKeys.reauthenticate(
            tenant: tenant, client: client, authSession: request.authSession, keyID: request.keyID,
            signature: request.signature, osVersion: request.osVersion)
        // The access token names the key, so a passkey enrolled with it migrates that key.
        var response = try issueUserTokens(
            tenant: tenant, client: client, user: proved.user, scopes: scopes, audience: audience, amr: proved.amr,
            authTime: proved.authTime, refresh: .newFamily(passkeyID: nil), proof: proof,
            accessClaims: [Self.deviceKeyClaim: .string(proved.key.id)])
        let version = proved.key.osVersion
        response.passkeyEnrollment = try enrollmentTickets.prompt(
            .deviceKeyReauth, tenant: tenant, client: client, user: proved.user, connection: proved.connection,
            device: HintedDevice(platform: proved.key.platform, osVersion: OSVersion(version), webView: false),
            deviceKeyID: proved.key.id, returnTo: try Self.returnTo(request.redirectURI, client: client))
        return response
    }

    /// Where the enrollment page returns: `redirect_uri` when it is exactly one of the client's
    /// callbacks (the same rule as `/authorize`); nil without one.
    static func returnTo(_ redirectURI: String?, client: ClientRecord) throws(ServiceError) -> String? {
        guard let redirectURI, !redirectURI.isEmpty else { return nil }
        guard client.callbacks.contains(redirectURI), RedirectScheme.refusedScheme(redirectURI) == nil else {
            throw .invalidRequest("redirect_uri is not one of this client's callback URLs")
        }
        return redirectURI
    }

    /// Sign in with Apple (RFC 8693 token exchange, docs/account-upgrades.md): the linked user's tokens, with
    /// `auth_method` `apple`.
    private func appleGrant(
        tenant: TenantRecord, request: TokenRequest, proof: DPoPProof?
    ) throws(ServiceError) -> TokenResponse {
        let client = try authenticate(request.credentials, tenant: tenant, grant: .tokenExchange)
        let (scopes, audience) = try loginScopes(
            request.scope, audience: request.audience, tenant: tenant, client: client)
        let user = try appleLogin.logIn(tenant: tenant, client: client, request: request)
        return try issueUserTokens(
            tenant: tenant, client: client, user: user, scopes: scopes, audience: audience,
            amr: [SignInMethod.appleMethod], authTime: clock.now(), refresh: .newFamily(passkeyID: nil), proof: proof)
    }

    /// The access-token claim that names the device key a re-authentication used.
    public static let deviceKeyClaim = "device_key_id"
    /// The access-token claim that names the refresh-token family the token was issued with.
    public static let refreshFamilyClaim = "rt_family"

    /// The password grants: Auth0's `password-realm` (the connection as `realm`) and RFC 6749
    /// §4.3's `password` (the tenant's default connection).
    private func passwordGrant(
        _ grant: OAuthGrantType, tenant: TenantRecord, request: TokenRequest, proof: DPoPProof?
    ) throws(ServiceError) -> TokenResponse {
        let client = try authenticate(request.credentials, tenant: tenant, grant: grant)
        // Scope and audience are checked before the password, so a typo costs no hash.
        let (scopes, audience) = try loginScopes(
            request.scope, audience: request.audience, tenant: tenant, client: client)
        let login = try passwords.logIn(
            tenant: tenant, client: client, grant: grant, realm: request.realm, username: request.username,
            password: request.password, address: request.clientAddress ?? "unknown")
        AuditScope.note(login.user)
        let upgrades = try recommendedUpgrades(login, tenant: tenant, client: client)
        if let requirement = MFAService.requirement(tenant: tenant, user: login.user) {
            var ticket = MFATicket(
                userID: login.user.id, clientID: client.id, scope: scopes.joined(separator: " "),
                audience: audience.identifier(tenant), amr: login.amr, authTime: login.authTime)
            ticket.passwordStatus = login.status
            ticket.recommendedUpgrades = upgrades ?? []
            let token = try mfa.issueToken(tenant: tenant, ticket: ticket)
            throw .mfaRequired(token: token, requirement: requirement)
        }
        var response = try issueUserTokens(
            tenant: tenant, client: client, user: login.user, scopes: scopes, audience: audience, amr: login.amr,
            authTime: login.authTime, refresh: .newFamily(passkeyID: nil), proof: proof)
        response.passwordStatus = login.status
        response.recommendedUpgrades = upgrades
        response.passkeyEnrollment = try enrollmentTickets.prompt(
            .progressive, tenant: tenant, client: client, user: login.user, connection: login.connection, device: nil,
            returnTo: try Self.returnTo(request.redirectURI, client: client))
        return response
    }

    /// Auth0's MFA grants: the second factor of a login an `mfa_token` stands for. The tokens are
    /// those the first step asked for; the audience and scopes are checked again.
    private func mfaGrant(
        _ grant: OAuthGrantType, tenant: TenantRecord, request: TokenRequest, proof: DPoPProof?
    ) throws(ServiceError) -> TokenResponse {
        let client = try authenticate(request.credentials, tenant: tenant, grant: grant)
        // An MFA API access token (a JWT) in mfa_token confirms a factor it enrolled.
        var subject = MFASubject.mfaToken(request.mfaToken)
        if grant != .mfaRecoveryCode, let token = request.mfaToken, token.contains(".") {
            let principal: Principal
            do {
                principal = try self.principal(.bearer(token), tenant: tenant, audience: MFAService.audience(tenant))
            } catch {
                throw .mfaRefused(.malformedToken)
            }
            guard let userID = principal.subject, principal.clientID == client.id, principal.scopes.contains("enroll")
            else { throw .mfaRefused(.malformedToken) }
            // The tokens it gets keep the access token's sign-in: confirming a factor one just
            // enrolled is not a second factor of that sign-in.
            guard let authTime = principal.authTime else { throw .mfaRefused(.malformedToken) }
            subject = .enrollment(
                userID: userID, scope: principal.scopes.sorted().joined(separator: " "), amr: principal.amr,
                authTime: authTime)
        }
        let completion: MFACompletion
        switch grant {
        case .mfaOTP:
            completion = try mfa.completeOTP(tenant: tenant, client: client, subject: subject, otp: request.otp)
        case .mfaOOB:
            completion = try mfa.completeOOB(
                tenant: tenant, client: client, subject: subject, oobCode: request.oobCode,
                bindingCode: request.bindingCode)
        default:
            completion = try mfa.completeRecovery(
                tenant: tenant, client: client, mfaToken: request.mfaToken, recoveryCode: request.recoveryCode)
        }
        let (scopes, audience) = try loginScopes(
            completion.ticket.scope, audience: completion.ticket.audience, tenant: tenant, client: client)
        let authTime: Date
        if case .enrollment = subject { authTime = completion.ticket.authTime } else { authTime = clock.now() }
        var response = try issueUserTokens(
            tenant: tenant, client: client, user: completion.user, scopes: scopes, audience: audience,
            amr: completion.amr, authTime: authTime, refresh: .newFamily(passkeyID: nil), proof: proof)
        response.recoveryCode = completion.newRecoveryCode
        // The second factor of a password login: progressive enrollment as after the password alone.
        if completion.ticket.amr.contains("pwd"),
            let connection = try access.read({
                try $0.connections.get(tenantID: tenant.id, id: completion.user.connectionID)
            })
        {
            response.passkeyEnrollment = try enrollmentTickets.prompt(
                .progressive, tenant: tenant, client: client, user: completion.user, connection: connection,
                device: nil, returnTo: nil)
        }
        if let status = completion.ticket.passwordStatus {
            response.passwordStatus = status
            response.recommendedUpgrades =
                completion.ticket.recommendedUpgrades.isEmpty
                ? nil : completion.ticket.recommendedUpgrades
        }
        return response
    }

    /// What a weak or breached password may move to (docs/account-upgrades.md), as the connection allows: a passkey
    /// where the connection has them, Sign in with Apple where an Apple connection serves the
    /// client, and a strong password; nil for a password that is fine.
    func recommendedUpgrades(_ login: PasswordLogin, tenant: TenantRecord, client: ClientRecord) throws(ServiceError)
        -> [RecommendedUpgrade]?
    {
        guard login.status != .ok else { return nil }
        let allowed = login.connection.upgrades.allowed
        var upgrades: [RecommendedUpgrade] = []
        if allowed.contains(.passkey), login.connection.passkey.enabled { upgrades.append(.passkey) }
        if allowed.contains(.signInWithApple),
            try access.read({
                try AccountUpgradeService.appleConnection(tenant: tenant, clientID: client.id, in: $0)
            }) != nil
        {
            upgrades.append(.signInWithApple)
        }
        if allowed.contains(.strongPassword) { upgrades.append(.strongPassword) }
        return upgrades.isEmpty ? nil : upgrades
    }

    /// The refresh grant (RFC 6749 §6). Everything that can refuse the request is checked before
    /// anything is written, and the new tokens are signed before the rotation, so a refused or
    /// failed request leaves the presented token usable (RFC 9700 §4.14.2): the rotation is the
    /// last step, one write transaction that checks the token and the request again.
    ///
    /// With an `audience` other than the one the family was granted for (Auth0's multi-resource
    /// refresh token), the answer carries an access token for that audience; the family keeps its
    /// own grant, so the next plain refresh gives the original audience and scopes again.
    private func refreshGrant(
        tenant: TenantRecord, request: TokenRequest, proof: DPoPProof?
    ) throws(ServiceError) -> TokenResponse {
        let client = try authenticate(request.credentials, tenant: tenant, grant: .refreshToken)
        guard let token = request.refreshToken, !token.isEmpty else {
            throw .invalidRequest("refresh_token is required")
        }
        let requested = try Scopes.parse(request.scope)
        let policy = RefreshTokenPolicy(tenant: tenant)
        let refused = { (outcome: RefreshTokenOutcome) -> ServiceError in
            self.recordEvent(tenant, .refresh, method: .refreshToken, outcome: .invalidGrant, client: client.id)
            if case .reused(let familyID) = outcome {
                self.events.audit?.record(
                    .failedRotatingRefresh, tenantID: tenant.id, clientID: client.id,
                    details: AuditDetails(method: .refreshToken, reason: .invalidGrant, target: familyID))
            }
            return .invalidGrant(outcome.failureDescription ?? RefreshTokenOutcome.invalidDescription)
        }
        // 1. Validate, writing nothing.
        let (record, grant) = try access.read { transaction -> (RefreshTokenRecord?, RefreshGrant?) in
            let record: RefreshTokenRecord
            switch try refreshTokens.inspect(token, tenantID: tenant.id, clientID: client.id, in: transaction) {
            case .usable(let found): record = found
            case .spent(let found):
                // A deleted user's tokens are revoked; say why, as Auth0 does, before reuse detection.
                if try transaction.users.get(tenantID: tenant.id, id: found.userID) == nil {
                    throw ServiceError.deletedUserGrant(RefreshTokenOutcome.deletedUserDescription)
                }
                return (nil, nil)
            case .expired, .wrongClient, .invalid: return (nil, nil)
            }
            let grant = try Self.refreshGrant(
                record, requested: requested, audience: request.audience, client: client, proof: proof,
                tenant: tenant, in: transaction)
            return (record, grant)
        }
        let successor: PreparedRefreshToken
        do {
            successor = try refreshTokens.prepareSuccessor()
        } catch {
            throw .unavailable("the random source failed")
        }
        guard let record, let grant else {
            // Unknown, foreign, expired, or spent: the rotation revokes a spent token's family and
            // refuses everything else (its check refuses even a token that is usable by now).
            let outcome = try access.write(.relaxed) { transaction in
                try refreshTokens.rotate(
                    token, tenantID: tenant.id, clientID: client.id, policy: policy, successor: successor,
                    check: { _, _ in throw ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription) },
                    in: transaction)
            }
            throw refused(outcome)
        }
        // 2. Sign the new tokens, for the successor drawn above.
        let response = try issueUserTokens(
            tenant: tenant, client: client, user: grant.user, scopes: grant.scopes, audience: grant.audience,
            amr: record.amr, authTime: record.authTime, refresh: .successor(successor.token, familyID: record.familyID),
            proof: proof)
        // 3. Rotate: the token and the request are checked again inside the write.
        let outcome = try access.write(.relaxed) { transaction in
            try refreshTokens.rotate(
                token, tenantID: tenant.id, clientID: client.id, policy: policy, successor: successor,
                check: { current, transaction in
                    _ = try Self.refreshGrant(
                        current, requested: requested, audience: request.audience, client: client, proof: proof,
                        tenant: tenant, in: transaction)
                }, in: transaction)
        }
        guard case .rotated = outcome else { throw refused(outcome) }
        recordEvent(
            tenant, .refresh, method: .refreshToken, outcome: .success, client: client.id, user: grant.user.id,
            connection: grant.user.connectionID)
        return response
    }

    /// What one refresh request gets.
    struct RefreshGrant {
        var user: UserRecord
        var scopes: [String]
        var audience: UserTokenAudience
    }

    /// What a usable refresh token grants for this request, or the refusal.
    ///
    /// For the family's own audience, the scopes asked for must have been granted (RFC 6749 §6);
    /// none asked for means all granted. For another audience, OpenID scopes must have been
    /// granted too, and the audience's own scopes follow the login rules (`UserTokenAudience`).
    /// A deleted user is Auth0's 403; a blocked one, or a family whose API was deleted, is the
    /// unusable-token answer.
    static func refreshGrant(
        _ record: RefreshTokenRecord, requested: [String], audience requestedAudience: String?, client: ClientRecord,
        proof: DPoPProof?, tenant: TenantRecord, in transaction: any StoreTransaction
    ) throws -> RefreshGrant {
        // A bound family renews only with a proof made with its key (RFC 9449 §5).
        if let bound = record.dpopJKT {
            guard let proof, constantTimeEquals(Array(proof.thumbprint.utf8), Array(bound.utf8)) else {
                throw ServiceError.invalidDPoPProof(
                    "this refresh token is bound to a DPoP key; send a proof signed with that key")
            }
        }
        let granted = record.scope.split(separator: " ").map(String.init)
        let grantedAudience = record.audience ?? userInfoAudience(tenant)
        let target = requestedAudience.flatMap { $0.isEmpty ? nil : $0 } ?? grantedAudience
        guard let user = try transaction.users.get(tenantID: tenant.id, id: record.userID) else {
            throw ServiceError.deletedUserGrant(RefreshTokenOutcome.deletedUserDescription)
        }
        guard !user.blocked else { throw ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription) }
        let audience: UserTokenAudience
        do {
            audience = try UserTokenAudience.resolve(target, tenant: tenant, in: transaction)
        } catch ServiceError.invalidRequest(_) where target == grantedAudience {
            throw ServiceError.invalidGrant(RefreshTokenOutcome.invalidDescription)
        }
        // A credential change needs the sign-in itself (RFC 9470): no refresh reaches these scopes.
        if let changing = requested.first(where: { signInOnlyScopes.contains($0) }) {
            throw ServiceError.invalidScope("scope \(changing) needs a new sign-in; a refresh token does not grant it")
        }
        if target == grantedAudience {
            if let extra = requested.first(where: { !granted.contains($0) }) {
                throw ServiceError.invalidScope("scope \(extra.prefix(64)) was not granted to this refresh token")
            }
            let scopes = try audience.scopes(requested.isEmpty ? granted : requested, client: client)
            return RefreshGrant(
                user: user, scopes: scopes.filter { !signInOnlyScopes.contains($0) }, audience: audience)
        }
        if let extra = requested.first(where: { Scopes.openID.contains($0) && !granted.contains($0) }) {
            throw ServiceError.invalidScope("scope \(extra) was not granted to this refresh token")
        }
        let asked = requested.isEmpty ? granted.filter { Scopes.openID.contains($0) } : requested
        let scopes = try audience.scopes(asked, client: client).filter { !signInOnlyScopes.contains($0) }
        return RefreshGrant(user: user, scopes: scopes, audience: audience)
    }

    /// The MFA API's scopes that change credentials: only a sign-in grants them, never a refresh.
    static let signInOnlyScopes: Set<String> = ["enroll", "remove:authenticators"]

    private func clientCredentialsGrant(
        tenant: TenantRecord, request: TokenRequest, proof: DPoPProof?
    ) throws(ServiceError) -> TokenResponse {
        let client = try authenticate(request.credentials, tenant: tenant, grant: .clientCredentials)
        guard client.secretHash != nil else {
            throw .unauthorizedClient("client_credentials needs a confidential client")
        }
        guard let audience = request.audience, !audience.isEmpty else {
            throw .invalidRequest("audience is required for client_credentials")
        }
        guard let grant = client.grants.first(where: { $0.audience == audience }) else {
            throw .unauthorizedClient("this client has no grant for that audience")
        }
        // The Management API, or one of the tenant's APIs with its own lifetime and algorithm.
        var lifetime = tenant.accessTokenLifetime
        var algorithm = client.jwtAlgorithm
        if audience != Self.managementAudience(tenant) {
            let api = try access.read { try $0.resourceServers.get(tenantID: tenant.id, identifier: audience) }
            guard let api else { throw .unauthorizedClient("this client has no grant for that audience") }
            lifetime = api.tokenLifetime
            algorithm = api.signingAlgorithm
        }
        let requested = try Scopes.parse(request.scope)
        if let extra = requested.first(where: { !grant.scopes.contains($0) }) {
            throw .invalidScope("scope \(extra.prefix(64)) is not granted to this client for that audience")
        }
        let scopes = requested.isEmpty ? grant.scopes : requested
        let now = clock.now()
        var claims: [String: JWTClaimValue] = [
            "iss": .string(Self.issuer(tenant)), "sub": .string("\(client.id)@clients"), "aud": .string(audience),
            "iat": .int(Int64(now.timeIntervalSince1970)),
            "exp": .int(Int64(now.timeIntervalSince1970) + Int64(lifetime)),
            "jti": .string(try jti()), "client_id": .string(client.id), "azp": .string(client.id),
            "scope": .string(scopes.joined(separator: " ")), "gty": .string("client-credentials"),
        ]
        claims["cnf"] = Self.confirmation(proof)
        let accessToken = try sign(claims, type: .accessToken, tenant: tenant, algorithm: algorithm)
        recordEvent(tenant, .clientCredentials, method: .clientSecret, outcome: .success, client: client.id)
        return TokenResponse(
            accessToken: accessToken, tokenType: proof == nil ? "Bearer" : "DPoP", expiresIn: lifetime,
            scope: scopes.joined(separator: " "))
    }

    /// The scopes and audience of a user login (`UserTokenAudience` says which scopes count).
    func loginScopes(
        _ scope: String?, audience requestedAudience: String?, tenant: TenantRecord, client: ClientRecord
    ) throws(ServiceError) -> ([String], UserTokenAudience) {
        var scopes = try Scopes.parse(scope ?? Scopes.defaultLogin)
        if scopes.isEmpty { scopes = try Scopes.parse(Scopes.defaultLogin) }
        // Sesame's own audiences need no store read (the login path stays as short as it was).
        if let audience = try UserTokenAudience.builtIn(requestedAudience, tenant: tenant) {
            return (try audience.scopes(scopes, client: client), audience)
        }
        return try access.read { transaction in
            let audience = try UserTokenAudience.resolve(requestedAudience, tenant: tenant, in: transaction)
            return (try audience.scopes(scopes, client: client), audience)
        }
    }

    /// Where a token response's refresh token comes from.
    enum RefreshIssue {
        /// A login: a new family (with `offline_access`), remembering the passkey used; the
        /// family's id when it was drawn before (an authorization code's).
        case newFamily(passkeyID: String?, familyID: String? = nil)
        /// A refresh: the successor already drawn for the rotation, in its family.
        case successor(String, familyID: String)
        /// A login whose new family was already written, with the signup that created the user.
        case written(String, familyID: String)
    }

    /// Whether a login with `scopes` gets a refresh token (`offline_access`, and a client allowed
    /// the grant).
    static func startsRefreshFamily(_ scopes: [String], client: ClientRecord) -> Bool {
        scopes.contains("offline_access") && client.grantTypes.contains(.refreshToken)
    }

    /// A login's new refresh-token family, in `transaction`. A public client's family is bound to
    /// its DPoP key (RFC 9449 §5).
    func startRefreshFamily(
        tenant: TenantRecord, client: ClientRecord, userID: String, scopes: [String], audience: String,
        amr: [String], authTime: Date, passkeyID: String?, proof: DPoPProof?, familyID: String?,
        in transaction: any StoreTransaction
    ) throws -> IssuedRefreshToken {
        try refreshTokens.issue(
            tenantID: tenant.id, clientID: client.id, userID: userID, scope: scopes.joined(separator: " "),
            audience: audience, amr: amr, authTime: authTime, passkeyID: passkeyID,
            dpopJKT: client.secretHash == nil ? proof?.thumbprint : nil, familyID: familyID,
            policy: RefreshTokenPolicy(tenant: tenant), in: transaction)
    }

    /// Access token (RFC 9068), id token when `openid` was asked for, and the refresh token of `refresh`.
    func issueUserTokens(
        tenant: TenantRecord, client: ClientRecord, user: UserRecord, scopes: [String],
        audience target: UserTokenAudience,
        amr: [String], authTime: Date, refresh: RefreshIssue, proof: DPoPProof? = nil, nonce: String? = nil,
        sessionID: String? = nil, accessClaims extraAccessClaims: [String: JWTClaimValue] = [:]
    ) throws(ServiceError) -> TokenResponse {
        AuditScope.note(user)
        let now = clock.now()
        let iat = Int64(now.timeIntervalSince1970)
        let scope = scopes.joined(separator: " ")
        let audience = target.identifier(tenant)
        let lifetime = target.accessTokenLifetime(tenant)
        // Like Auth0: a token for an API that also asked for openid is valid at /userinfo too.
        let userInfo = Self.userInfoAudience(tenant)
        let aud: JWTClaimValue =
            audience != userInfo && scopes.contains("openid") ? .strings([audience, userInfo]) : .string(audience)
        var accessClaims: [String: JWTClaimValue] = [
            "iss": .string(Self.issuer(tenant)), "sub": .string(user.id), "aud": aud, "iat": .int(iat),
            "exp": .int(iat + Int64(lifetime)), "jti": .string(try jti()),
            "client_id": .string(client.id), "azp": .string(client.id), "scope": .string(scope),
            "auth_time": .int(Int64(authTime.timeIntervalSince1970)), "amr": .strings(amr),
        ]
        accessClaims["cnf"] = Self.confirmation(proof)
        // The refresh family the token goes with, so an upgrade can end every other session.
        var familyID: String?
        switch refresh {
        case .successor(_, let family), .written(_, let family): familyID = family
        case .newFamily(_, let drawn):
            if Self.startsRefreshFamily(scopes, client: client) {
                do {
                    familyID = try drawn ?? RefreshTokens.identifier("rtf_", random)
                } catch {
                    throw .unavailable("the random source failed")
                }
            }
        }
        if let familyID { accessClaims[Self.refreshFamilyClaim] = .string(familyID) }
        for (name, value) in extraAccessClaims where accessClaims[name] == nil { accessClaims[name] = value }
        let accessToken = try sign(
            accessClaims, type: .accessToken, tenant: tenant, algorithm: target.accessTokenAlgorithm(client))
        var idToken: String?
        if scopes.contains("openid") {
            var claims = Self.profileClaims(user, scopes: scopes)
            claims["iss"] = .string(Self.issuer(tenant))
            claims["sub"] = .string(user.id)
            claims["aud"] = .string(client.id)
            claims["iat"] = .int(iat)
            claims["exp"] = .int(iat + Int64(tenant.idTokenLifetime))
            claims["auth_time"] = .int(Int64(authTime.timeIntervalSince1970))
            claims["amr"] = .strings(amr)
            claims["acr"] = .string(AuthenticationContext.acr(amr: amr))
            if let method = SignInMethod.of(amr: amr) { claims["auth_method"] = .string(method.rawValue) }
            claims["azp"] = .string(client.id)
            if let nonce { claims["nonce"] = .string(nonce) }
            if let sessionID { claims["sid"] = .string(sessionID) }
            idToken = try sign(claims, type: .idToken, tenant: tenant, algorithm: client.jwtAlgorithm)
        }
        var refreshToken: String?
        switch refresh {
        case .successor(let token, _), .written(let token, _):
            refreshToken = token
        case .newFamily(let passkeyID, _):
            guard Self.startsRefreshFamily(scopes, client: client) else { break }
            refreshToken = try access.write(.relaxed) { transaction in
                try startRefreshFamily(
                    tenant: tenant, client: client, userID: user.id, scopes: scopes, audience: audience, amr: amr,
                    authTime: authTime, passkeyID: passkeyID, proof: proof, familyID: familyID, in: transaction
                ).token
            }
        }
        let method: SignInMethod?
        switch refresh {
        case .successor: method = .refresh
        case .newFamily, .written: method = SignInMethod.of(amr: amr)
        }
        return TokenResponse(
            accessToken: accessToken, idToken: idToken, refreshToken: refreshToken,
            tokenType: proof == nil ? "Bearer" : "DPoP", expiresIn: lifetime, scope: scope,
            authMethod: method)
    }

    /// OIDC standard claims the scopes release (Core §5.4).
    static func profileClaims(_ user: UserRecord, scopes: some Collection<String>) -> [String: JWTClaimValue] {
        var claims: [String: JWTClaimValue] = [:]
        let profile = user.profile
        if scopes.contains("email"), let email = profile.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(profile.emailVerified)
        }
        if scopes.contains("phone"), let phone = profile.phoneNumber {
            claims["phone_number"] = .string(phone)
            claims["phone_number_verified"] = .bool(false)
        }
        if scopes.contains("profile") {
            if let name = profile.name { claims["name"] = .string(name) }
            if let value = profile.givenName { claims["given_name"] = .string(value) }
            if let value = profile.familyName { claims["family_name"] = .string(value) }
            if let value = profile.nickname { claims["nickname"] = .string(value) }
            if let value = profile.picture { claims["picture"] = .string(value) }
            if let value = profile.username { claims["preferred_username"] = .string(value) }
            claims["updated_at"] = .int(Int64(user.updatedAt.timeIntervalSince1970))
        }
        return claims
    }

    /// Signs with the tenant's current key for `algorithm`.
    private func sign(
        _ claims: [String: JWTClaimValue], type: JWTType, tenant: TenantRecord, algorithm: JWTAlgorithm
    ) throws(ServiceError) -> String {
        do {
            return try keyRing.signer(tenantID: tenant.id, algorithm: algorithm).sign(claims, type: type)
        } catch {
            throw .unavailable("token signing failed")
        }
    }

    private func jti() throws(ServiceError) -> String {
        Base64URL.encode(try random.serviceBytes(16))
    }

    private func recordEvent(
        _ tenant: TenantRecord, _ type: AuthEventKind, method: AuthEventMethod, outcome: AuthEventOutcome,
        client: String?, user: String? = nil, connection: String? = nil
    ) {
        events.record(
            tenantID: tenant.id, type: type, method: method, outcome: outcome, at: clock.now(), clientID: client,
            userID: user, connectionID: connection)
    }

    // MARK: Revocation, userinfo, bearer tokens

    /// `POST /oauth/revoke` (RFC 7009): revokes a refresh token's family; unknown tokens are fine.
    public func revoke(tenant: TenantRecord, credentials: ClientCredentials, token: String?) throws(ServiceError) {
        let client = try access.read { transaction in
            try ClientAuthentication.authenticate(credentials, tenant: tenant, in: transaction)
        }
        guard let token, !token.isEmpty else { throw .invalidRequest("token is required") }
        let result: RefreshTokenRevocation
        do {
            result = try refreshTokens.revoke(token, tenantID: tenant.id, clientID: client.id)
        } catch {
            throw StoreAccess.map(error)
        }
        switch result {
        case .wrongClient: throw .unauthorizedClient("the token was issued to another client")
        case .revoked(let familyID):
            // The family, never the token; the user is the family's owner when the store says.
            events.audit?.record(
                .successRevocation, tenantID: tenant.id, clientID: client.id,
                userID: RefreshTokens.hash(ofToken: token).flatMap { hash in
                    try? access.read { try $0.refreshTokens.get(tenantID: tenant.id, tokenHash: hash)?.userID }
                },
                details: AuditDetails(method: .refreshToken, target: familyID))
        case .unknown: break
        }
    }

    /// Verifies a presented access token for `audience` and returns it with its scopes: a Bearer
    /// token, or a DPoP one with a proof made with the token's key (RFC 9449 §7). A DPoP-bound token
    /// presented as Bearer is refused (§7.2), so a stolen one is worthless.
    /// The principal behind `presented`, checked for `tenant` and `audience` (as `authenticate`).
    public func principal(
        _ presented: PresentedToken?, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> Principal {
        Principal(
            token: try authenticate(presented, tenant: tenant, audience: audience), tenantID: tenant.id,
            audience: audience)
    }

    public func authenticate(
        _ presented: PresentedToken?, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> VerifiedJWT {
        switch presented {
        case nil:
            throw .invalidToken("an Authorization: Bearer (or DPoP) access token is required")
        case .dpop(let token, let proof):
            return try authenticateDPoP(token, proof, tenant: tenant, audience: audience)
        case .bearer(let token):
            let verified = try verifyAccessToken(token, tenant: tenant, audience: audience)
            guard verified.claims["cnf"] == nil else {
                throw .invalidToken(
                    "this access token is bound to a DPoP key; send it as Authorization: DPoP with a proof")
            }
            return verified
        }
    }

    private func authenticateDPoP(
        _ token: String, _ request: DPoPRequest, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> VerifiedJWT {
        let now = clock.now()
        let verified: VerifiedJWT
        do {
            verified = try verifyAccessToken(token, tenant: tenant, audience: audience)
        } catch {
            guard case .invalidToken(let text) = error else { throw error }
            throw .dpopChallenge(.invalidToken, text, nonce: nil)
        }
        guard case .object(let confirmation)? = verified.claims["cnf"], let bound = confirmation["jkt"]?.stringValue
        else {
            throw .dpopChallenge(.invalidToken, "this access token is not DPoP-bound; send it as Bearer", nonce: nil)
        }
        let proof: DPoPProof?
        do {
            proof = try dpop.verify(request, accessToken: token, now: now)
        } catch {
            switch error {
            case .invalid(let text): throw .dpopChallenge(.invalidDPoPProof, text, nonce: nil)
            case .nonceRequired:
                throw .dpopChallenge(
                    .useDPoPNonce, "the DPoP proof must carry the server's nonce", nonce: dpop.nonce(at: now))
            }
        }
        guard let proof else {
            throw .dpopChallenge(.invalidDPoPProof, "the DPoP scheme needs a DPoP proof header", nonce: nil)
        }
        guard constantTimeEquals(Array(proof.thumbprint.utf8), Array(bound.utf8)) else {
            throw .dpopChallenge(.invalidDPoPProof, "the DPoP proof is not signed with the token's key", nonce: nil)
        }
        do {
            try remember(proof, tenant: tenant, now: now)
        } catch {
            throw .dpopChallenge(.invalidDPoPProof, error.message, nonce: nil)
        }
        return verified
    }

    private func verifyAccessToken(
        _ token: String, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> VerifiedJWT {
        guard !token.isEmpty else { throw .invalidToken("the access token is empty") }
        guard token.utf8.count <= 8_192 else { throw .invalidToken("the access token is too long") }
        do {
            return try keyRing.verify(
                token, tenantID: tenant.id,
                expecting: JWTExpectations(
                    issuer: Self.issuer(tenant), audience: audience, type: .accessToken, now: clock.now()))
        } catch let error as JWTError {
            throw .invalidToken("the access token is not valid: \(error)")
        } catch {
            throw .unavailable("token keys could not be loaded")
        }
    }

    /// `GET /userinfo`: the user's claims for the token's scopes.
    public func userInfo(tenant: TenantRecord, principal: Principal) throws(ServiceError) -> [String: JWTClaimValue] {
        try principal.require(tenant: tenant, audience: Self.userInfoAudience(tenant))
        guard principal.scopes.contains("openid") else { throw .insufficientScope("userinfo needs the openid scope") }
        guard let subject = principal.subject else { throw .invalidToken("the access token has no subject") }
        let user = try access.read { transaction -> UserRecord in
            guard let user = try transaction.users.get(tenantID: tenant.id, id: subject) else {
                throw ServiceError.invalidToken("the token's user no longer exists")
            }
            guard !user.blocked else { throw ServiceError.invalidToken("the token's user is blocked") }
            return user
        }
        var claims = Self.profileClaims(user, scopes: principal.scopes)
        claims["sub"] = .string(user.id)
        return claims
    }
}

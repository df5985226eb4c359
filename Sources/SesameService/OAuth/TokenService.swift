import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// The token endpoint (`POST /oauth/token`): it authenticates the client, finds the grant type in
/// its table of `TokenGrant`s, reads that grant's parameters, audits the outcome, and issues what
/// the grant decided through `TokenIssuer`. Beside it: RFC 7009 revocation, userinfo, and the
/// bearer-token checks of the APIs (`AccessTokenVerifier`).
public final class TokenService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    public let keyRing: SigningKeyRing
    let events: AuthEventRecorder
    let refreshTokens: RefreshTokens
    let issuer: TokenIssuer
    /// Bearer and DPoP access tokens, and the token requests' DPoP proofs.
    public let accessTokens: AccessTokenVerifier
    /// DPoP proof checks and nonces (RFC 9449).
    public var dpop: DPoPVerifier { accessTokens.dpop }
    /// Authorization codes (issued by `/authorize`, redeemed here).
    let codes: AuthorizationCodes
    /// Every grant, by the grant types it answers.
    let grants: [OAuthGrantType: any TokenGrant]

    /// The token endpoint over `methods`, the services its sign-in methods are built from.
    init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, keyRing: SigningKeyRing,
        events: AuthEventRecorder, dpop: DPoPVerifier, methods: GrantServices
    ) {
        let access = StoreAccess(store: store)
        self.access = access
        self.clock = clock
        self.keyRing = keyRing
        self.events = events
        let refreshTokens = RefreshTokens(store: store, clock: clock, random: random)
        self.refreshTokens = refreshTokens
        self.issuer = TokenIssuer(
            access: access, clock: clock, random: random, keyRing: keyRing, refreshTokens: refreshTokens)
        let accessTokens = AccessTokenVerifier(access: access, clock: clock, keyRing: keyRing, dpop: dpop)
        self.accessTokens = accessTokens
        let codes = AuthorizationCodes(access: access, clock: clock, random: random)
        self.codes = codes
        let all: [any TokenGrant] = [
            PasskeyGrant(access: access, passkeys: methods.passkeys),
            PasswordGrant(
                access: access, passwords: methods.passwords, mfa: methods.mfa,
                enrollmentTickets: methods.enrollmentTickets),
            MFAGrant(
                access: access, clock: clock, mfa: methods.mfa, accessTokens: accessTokens,
                enrollmentTickets: methods.enrollmentTickets),
            DeviceKeyGrant(deviceKeys: methods.deviceKeys, enrollmentTickets: methods.enrollmentTickets),
            AppleGrant(clock: clock, login: methods.apple),
            RefreshGrant(access: access, clock: clock, refreshTokens: refreshTokens, events: events),
            AuthorizationCodeGrant(access: access, codes: codes),
            ClientCredentialsGrant(access: access, clock: clock, events: events),
        ]
        var grants: [OAuthGrantType: any TokenGrant] = [:]
        for grant in all { for type in grant.grantTypes { grants[type] = grant } }
        self.grants = grants
    }

    /// Every body field some grant reads, once by name (each is one `TokenFields` declaration),
    /// not required: what the token endpoint's document lists, in the order of `OAuthGrantType`.
    public var grantFields: [WireField] {
        var fields: [WireField] = []
        for type in OAuthGrantType.allCases {
            guard let grant = grants[type] else { continue }
            for field in grant.documentedFields where !fields.contains(where: { $0.name == field.name }) {
                fields.append(WireField(field.name, field.type, description: field.description))
            }
        }
        return fields
    }

    /// Each grant's own fields, with the grant types it serves, in the order of `OAuthGrantType`:
    /// the forms of the token endpoint's body the document lists.
    public var grantForms: [(types: [OAuthGrantType], fields: [WireField])] {
        OAuthGrantType.allCases.compactMap { type in
            guard let grant = grants[type], grant.grantTypes.first == type else { return nil }
            return (grant.grantTypes, grant.documentedFields)
        }
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
    public func token(tenant: TenantRecord, request: TokenCall) throws(ServiceError) -> TokenResponse {
        guard !request.grantType.isEmpty else { throw .invalidRequest("grant_type is required") }
        guard let type = OAuthGrantType(rawValue: request.grantType), let grant = grants[type] else {
            throw .unsupportedGrantType("grant_type \(request.grantType.prefix(100)) is not supported")
        }
        guard let audit = events.audit else { return try run(grant, type, tenant: tenant, request: request) }
        let clientID = request.credentials.clientID
        return try AuditScope.run { scope throws(ServiceError) in
            do throws(ServiceError) {
                let response = try run(grant, type, tenant: tenant, request: request)
                let user = scope.state.withLock { $0.user }
                audit.record(
                    TokenAudit.success(type), tenantID: tenant.id, clientID: clientID, user: user,
                    details: AuditDetails(method: TokenAudit.method(type), scope: response.scope))
                return response
            } catch {
                let (recorded, user) = scope.state.withLock { ($0.outcomeRecorded, $0.user) }
                if case .mfaRequired = error {
                    audit.record(
                        .mfaRequired, tenantID: tenant.id, clientID: clientID, user: user,
                        details: AuditDetails(method: TokenAudit.method(type)))
                } else if !recorded {
                    audit.record(
                        TokenAudit.failure(type), tenantID: tenant.id, clientID: clientID, user: user,
                        details: AuditDetails(method: TokenAudit.method(type), reason: TokenAudit.reason(error)))
                }
                throw error
            }
        }
    }

    /// One grant, start to end: its parameters, the DPoP proof, the client, the grant's decision,
    /// and the tokens.
    private func run<Grant: TokenGrant>(
        _ grant: Grant, _ type: OAuthGrantType, tenant: TenantRecord, request: TokenCall
    ) throws(ServiceError) -> TokenResponse {
        let parameters = try Grant.Parameters.read(from: request.fields)
        let proof = try accessTokens.tokenEndpointProof(request.dpop, tenant: tenant)
        let client = try access.read { transaction in
            let client = try ClientAuthentication.authenticate(request.credentials, tenant: tenant, in: transaction)
            try ClientAuthentication.requireGrant(type, client)
            return client
        }
        let context = GrantContext(
            tenant: tenant, client: client, grantType: type, proof: proof, call: request, issuer: issuer)
        switch try grant.authenticate(parameters, context) {
        case .client(let decided):
            let response = try issuer.issue(decided, tenant: tenant, proof: proof)
            decided.finish?()
            return response
        case .user(let decided):
            var response = try issuer.issue(decided, tenant: tenant, client: client, proof: proof)
            try decided.finish?(&response)
            return response
        }
    }

    /// The client `credentials` name, authenticated (for routes beside the token endpoint).
    public func client(_ credentials: ClientCredentials, tenant: TenantRecord) throws(ServiceError) -> ClientRecord {
        try access.read { transaction in
            try ClientAuthentication.authenticate(credentials, tenant: tenant, in: transaction)
        }
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

    /// The access-token claim that names the device key a re-authentication used.
    public static let deviceKeyClaim = "device_key_id"
    /// The access-token claim that names the refresh-token family the token was issued with.
    public static let refreshFamilyClaim = "rt_family"

    /// The scopes and audience of a user login (`UserTokenAudience` says which scopes count).
    func loginScopes(
        _ scope: String?, audience: String?, tenant: TenantRecord, client: ClientRecord
    ) throws(ServiceError) -> ([String], UserTokenAudience) {
        try issuer.loginScopes(scope, audience: audience, tenant: tenant, client: client)
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

    /// The principal behind `presented`, checked for `tenant` and `audience`.
    public func principal(
        _ presented: PresentedToken?, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> Principal {
        try accessTokens.principal(presented, tenant: tenant, audience: audience)
    }

    /// A presented access token, verified for `tenant` and `audience` (`AccessTokenVerifier`).
    public func authenticate(
        _ presented: PresentedToken?, tenant: TenantRecord, audience: String
    ) throws(ServiceError) -> VerifiedJWT {
        try accessTokens.authenticate(presented, tenant: tenant, audience: audience)
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
        var claims = TokenIssuer.profileClaims(user, scopes: principal.scopes)
        claims["sub"] = .string(user.id)
        return claims
    }
}

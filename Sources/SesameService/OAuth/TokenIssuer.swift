import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// Signs every token the token endpoint answers with, for whichever grant decided: a user's access
/// token (RFC 9068), id token and refresh token, or a client's access token. One place writes the
/// claims, so every sign-in method's tokens say the same things.
struct TokenIssuer: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let keyRing: SigningKeyRing
    let refreshTokens: RefreshTokens

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
    func issue(_ grant: UserGrant, tenant: TenantRecord, client: ClientRecord, proof: DPoPProof?)
        throws(ServiceError) -> TokenResponse
    {
        let (user, scopes, target, amr, authTime, refresh) = (
            grant.user, grant.scopes, grant.audience, grant.amr, grant.authTime, grant.refresh
        )
        let (nonce, sessionID, extraAccessClaims) = (grant.nonce, grant.sessionID, grant.accessClaims)
        AuditScope.note(user)
        let now = clock.now()
        let iat = Int64(now.timeIntervalSince1970)
        let scope = scopes.joined(separator: " ")
        let audience = target.identifier(tenant)
        let lifetime = target.accessTokenLifetime(tenant)
        // Like Auth0: a token for an API that also asked for openid is valid at /userinfo too.
        let userInfo = TokenService.userInfoAudience(tenant)
        let aud: JWTClaimValue =
            audience != userInfo && scopes.contains("openid") ? .strings([audience, userInfo]) : .string(audience)
        var accessClaims: [String: JWTClaimValue] = [
            "iss": .string(TokenService.issuer(tenant)), "sub": .string(user.id), "aud": aud, "iat": .int(iat),
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
        if let familyID { accessClaims[TokenService.refreshFamilyClaim] = .string(familyID) }
        for (name, value) in extraAccessClaims where accessClaims[name] == nil { accessClaims[name] = value }
        let accessToken = try sign(
            accessClaims, type: .accessToken, tenant: tenant, algorithm: target.accessTokenAlgorithm(client))
        var idToken: String?
        if scopes.contains("openid") {
            var claims = Self.profileClaims(user, scopes: scopes)
            claims["iss"] = .string(TokenService.issuer(tenant))
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
            for attribute in ProfileAttribute.allCases {
                if let value = profile[attribute] { claims[attribute.rawValue] = .string(value) }
            }
            if let value = profile.username { claims["preferred_username"] = .string(value) }
            claims["updated_at"] = .int(Int64(user.updatedAt.timeIntervalSince1970))
        }
        return claims
    }

    /// A client's access token for an API (`client_credentials`), `sub` `<client>@clients`.
    func issue(_ grant: ClientGrant, tenant: TenantRecord, proof: DPoPProof?) throws(ServiceError) -> TokenResponse {
        let now = clock.now()
        let scope = grant.scopes.joined(separator: " ")
        var claims: [String: JWTClaimValue] = [
            "iss": .string(TokenService.issuer(tenant)), "sub": .string("\(grant.client.id)@clients"),
            "aud": .string(grant.audience), "iat": .int(Int64(now.timeIntervalSince1970)),
            "exp": .int(Int64(now.timeIntervalSince1970) + Int64(grant.lifetime)),
            "jti": .string(try jti()), "client_id": .string(grant.client.id), "azp": .string(grant.client.id),
            "scope": .string(scope), "gty": .string("client-credentials"),
        ]
        claims["cnf"] = Self.confirmation(proof)
        let accessToken = try sign(claims, type: .accessToken, tenant: tenant, algorithm: grant.algorithm)
        return TokenResponse(
            accessToken: accessToken, tokenType: proof == nil ? "Bearer" : "DPoP", expiresIn: grant.lifetime,
            scope: scope)
    }

    /// The `cnf` claim of a token bound to `proof` (RFC 9449 §6).
    static func confirmation(_ proof: DPoPProof?) -> JWTClaimValue? {
        proof.map { .object(["jkt": .string($0.thumbprint)]) }
    }

    /// Signs with the tenant's current key for `algorithm`.
    func sign(
        _ claims: [String: JWTClaimValue], type: JWTType, tenant: TenantRecord, algorithm: JWTAlgorithm
    ) throws(ServiceError) -> String {
        do {
            return try keyRing.signer(tenantID: tenant.id, algorithm: algorithm).sign(claims, type: type)
        } catch {
            throw .unavailable("token signing failed")
        }
    }

    func jti() throws(ServiceError) -> String {
        Base64URL.encode(try random.serviceBytes(16))
    }
}

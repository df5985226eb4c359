import SesameStore

/// What a user's access token is for: `/userinfo` only, the My Account API, or one of the
/// tenant's own APIs (resource servers).
enum UserTokenAudience: Equatable, Sendable {
    case userInfo
    case myAccount
    /// Auth0's MFA API (`/mfa/associate`, `/mfa/authenticators` for a signed-in user).
    case mfa
    case api(ResourceServerRecord)

    /// The `aud` value.
    func identifier(_ tenant: TenantRecord) -> String {
        switch self {
        case .userInfo: return TokenService.userInfoAudience(tenant)
        case .myAccount: return TokenService.myAccountAudience(tenant)
        case .mfa: return MFAService.audience(tenant)
        case .api(let server): return server.identifier
        }
    }

    /// Sesame's own audience the request names, found without the store (nil: an API, or none of
    /// them); the Management API is refused, it is for m2m clients only.
    static func builtIn(_ requested: String?, tenant: TenantRecord) throws(ServiceError) -> UserTokenAudience? {
        guard let requested, !requested.isEmpty else { return .userInfo }
        switch requested {
        case TokenService.userInfoAudience(tenant): return .userInfo
        case TokenService.myAccountAudience(tenant): return .myAccount
        case MFAService.audience(tenant): return .mfa
        case TokenService.managementAudience(tenant):
            throw .invalidRequest("the Management API takes client_credentials tokens only")
        default: return nil
        }
    }

    /// The audience a request names (none: `/userinfo`): one of Sesame's own, or an API of the tenant.
    static func resolve(
        _ requested: String?, tenant: TenantRecord, in transaction: any StoreTransaction
    ) throws -> UserTokenAudience {
        if let audience = try builtIn(requested, tenant: tenant) { return audience }
        switch requested {
        case nil: return .userInfo
        case let requested?:
            guard requested.utf8.count <= 600,
                let server = try transaction.resourceServers.get(tenantID: tenant.id, identifier: requested)
            else {
                throw ServiceError.invalidRequest("audience is not an API of this tenant")
            }
            return .api(server)
        }
    }

    /// The scopes a user token for this audience gets when `requested` are asked for.
    ///
    /// Scopes the audience does not define are dropped, not refused, as Auth0 does: the response's
    /// `scope` says what was granted (RFC 6749 §3.3). OpenID scopes always count; My Account gets
    /// all its scopes when none is named (Sesame has no consent step to ask for them); an API
    /// drops `offline_access` unless it allows offline access. An API's user tokens go to
    /// first-party clients only, since a third-party client would need the user's consent.
    func scopes(_ requested: [String], client: ClientRecord) throws(ServiceError) -> [String] {
        switch self {
        case .userInfo:
            return requested.filter { Scopes.openID.contains($0) }
        case .myAccount:
            var scopes = requested.filter { Scopes.openID.contains($0) || Scopes.myAccount.contains($0) }
            if !scopes.contains(where: { Scopes.myAccount.contains($0) }) { scopes += Scopes.myAccount }
            return scopes
        case .mfa:
            var scopes = requested.filter { Scopes.openID.contains($0) || MFAService.scopes.contains($0) }
            if !scopes.contains(where: { MFAService.scopes.contains($0) }) { scopes += MFAService.scopes }
            return scopes
        case .api(let server):
            guard client.isFirstParty else {
                throw .unauthorizedClient(
                    "a third-party client needs the user's consent for an API, which Sesame does not ask for yet")
            }
            let defined = Set(server.scopes.map(\.value))
            return requested.filter {
                (Scopes.openID.contains($0) && ($0 != "offline_access" || server.allowOfflineAccess))
                    || defined.contains($0)
            }
        }
    }

    /// The access token's lifetime and algorithm: an API's own, else the tenant's and client's.
    func accessTokenLifetime(_ tenant: TenantRecord) -> Int {
        if case .api(let server) = self { return server.tokenLifetime }
        return tenant.accessTokenLifetime
    }

    func accessTokenAlgorithm(_ client: ClientRecord) -> JWTAlgorithm {
        if case .api(let server) = self { return server.signingAlgorithm }
        return client.jwtAlgorithm
    }
}

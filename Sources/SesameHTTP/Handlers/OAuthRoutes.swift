import Foundation
import SesameService
import SesameStore
import SesameWire

extension SesameApplication {
    func addOAuthRoutes(to router: inout RouteGroup<TenantContext>) {
        router.post("/oauth/token") { [self] request, context in
            try Self.answeringBasicChallenge(request) { try token(request, tenant: context.tenant) }
        }

        // RFC 7009.
        router.post("/oauth/revoke") { [self] request, context in
            try Self.answeringBasicChallenge(request) {
                // Unknown parameters are ignored, as at the token endpoint.
                let body = try APIBody.jsonOrForm(request)
                try tokens.revoke(
                    tenant: context.tenant, credentials: try clientCredentials(body, request),
                    token: try body.optionalString("token", maxLength: 512))
                return .json(bytes: Array("{}".utf8))
            }
        }
    }

    /// `/userinfo` (OIDC Core §5.3), GET or POST, for the principal of a userinfo-audience token.
    func addUserInfoRoutes(to router: inout RouteGroup<PrincipalContext>) {
        let userInfo: GroupHandler<PrincipalContext> = { [self] _, context in
            try .noStoreJSON(tokens.userInfo(tenant: context.tenant, principal: context.principal))
        }
        router.get("/userinfo", handler: userInfo)
        router.post("/userinfo", handler: userInfo)
    }

    /// `POST /oauth/token`. Parameters it does not know are ignored (RFC 6749 §3.2), so an SDK that
    /// sends more (telemetry, `connection`, a newer field) still works; `organization` is refused
    /// until Organizations exist.
    func token(_ request: HTTPRequest, tenant: TenantRecord) throws -> HTTPResponse {
        let body = try APIBody.jsonOrForm(request)
        try Self.refuseOrganization(body)
        let grantType = try body.optionalString("grant_type", maxLength: 128) ?? ""
        // Each grant reads its own fields from the body (`TokenGrant`); the platform is read only
        // by the grant that counts it.
        let tokenRequest = TokenCall(
            grantType: grantType, credentials: try clientCredentials(body, request), fields: body,
            dpop: Self.dpopRequest(request, tenant: tenant),
            clientAddress: { IPAddressRange.clientKey(request.clientIP) },
            clientPlatform: { Self.clientPlatform(request) })
        let method = OAuthGrantType(rawValue: grantType)
        let label = method?.metricLabel ?? "other"
        let response: TokenResponse
        do {
            response = try tokens.token(tenant: tenant, request: tokenRequest)
        } catch {
            logins.increment([label, error.code])
            throw error
        }
        logins.increment([label, "success"])
        var answer = HTTPResponse.noStoreWireJSON(response)
        // A server that requires nonces hands out the next one with every DPoP answer (§8).
        if tokens.dpop.requireNonce, !tokenRequest.dpop.proofs.isEmpty {
            answer.headers.replaceOrAdd(name: "DPoP-Nonce", value: tokens.dpop.nonce(at: clock.now()))
        }
        return answer
    }

    /// The access token of `Authorization: Bearer …` or `Authorization: DPoP …` (schemes are
    /// case-insensitive, RFC 9110 §11.1); nil without the header; 401 for any other scheme.
    static func presentedToken(_ request: HTTPRequest, tenant: TenantRecord) throws -> PresentedToken? {
        guard let authorization = request.headers["Authorization"] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw ServiceError.invalidToken("an Authorization: Bearer (or DPoP) access token is required")
        }
        let token = HTTPRequest.trimmingOWS(parts[1])
        switch parts[0].lowercased() {
        case "bearer": return .bearer(token)
        case "dpop": return .dpop(token, dpopRequest(request, tenant: tenant))
        default: throw ServiceError.invalidToken("an Authorization: Bearer (or DPoP) access token is required")
        }
    }

    /// What DPoP needs of a request (RFC 9449 §4.3): its `DPoP` headers, its method, and the URIs
    /// it may have been sent to, the tenant's public URL and the URL as it arrived, each with the path.
    static func dpopRequest(_ request: HTTPRequest, tenant: TenantRecord) -> DPoPRequest {
        let proofs = request.headers.values(for: "DPoP")
        guard !proofs.isEmpty else { return .none }
        var issuer = TokenService.issuer(tenant)
        issuer.removeLast()
        var targets = [issuer + request.path]
        if let host = request.headers["Host"] { targets.append(request.scheme + "://" + host + request.path) }
        return DPoPRequest(proofs: proofs, method: request.method.rawValue, targets: targets)
    }

    /// RFC 6749 §5.2: a client that authenticated with HTTP Basic gets `WWW-Authenticate` on a 401.
    static func answeringBasicChallenge(
        _ request: HTTPRequest, _ body: () throws -> HTTPResponse
    ) throws -> HTTPResponse {
        do {
            return try body()
        } catch let error as ServiceError {
            guard case .invalidClient = error,
                request.headers["Authorization"]?.lowercased().hasPrefix("basic ") == true
            else { throw error }
            var challenge = error.httpError
            challenge.headers.replaceOrAdd(name: "WWW-Authenticate", value: #"Basic realm="sesame""#)
            throw challenge
        }
    }
}

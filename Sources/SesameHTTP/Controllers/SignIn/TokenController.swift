import Foundation
import SesameService
import SesameStore
import SesameWire

/// `POST /oauth/token` and RFC 7009's `POST /oauth/revoke`.
struct TokenController: Sendable {
    let tokens: TokenService
    let clock: any ServiceClock
    let logins: CounterFamily

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/oauth/token", handler: token)
        group.post("/oauth/revoke", handler: revoke)
    }

    func token(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        return try RequestInput.answeringBasicChallenge(request) { try answer(request, tenant: context.tenant) }
    }

    /// RFC 7009.
    func revoke(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        try RequestInput.answeringBasicChallenge(request) {
            // Unknown parameters are ignored, as at the token endpoint.
            let body = try APIBody.jsonOrForm(request)
            try tokens.revoke(
                tenant: context.tenant, credentials: try RequestInput.clientCredentials(body, request),
                token: try body.optionalString("token", maxLength: 512))
            return .json(bytes: Array("{}".utf8))
        }
    }

    /// `POST /oauth/token`. Parameters it does not know are ignored (RFC 6749 §3.2), so an SDK that
    /// sends more (telemetry, `connection`, a newer field) still works; `organization` is refused
    /// until Organizations exist.
    func answer(_ request: HTTPRequest, tenant: TenantRecord) throws -> HTTPResponse {
        let body = try APIBody.jsonOrForm(request)
        try RequestInput.refuseOrganization(body)
        let grantType = try body.optionalString("grant_type", maxLength: 128) ?? ""
        // Each grant reads its own fields from the body (`TokenGrant`); the platform is read only
        // by the grant that counts it.
        let tokenRequest = TokenCall(
            grantType: grantType, credentials: try RequestInput.clientCredentials(body, request), fields: body,
            dpop: RequestInput.dpopRequest(request, tenant: tenant),
            clientAddress: { IPAddressRange.clientKey(request.clientIP) },
            clientPlatform: { RequestInput.clientPlatform(request) })
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
}

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
        var tokenRequest = TokenRequest(
            grantType: grantType, credentials: try clientCredentials(body, request),
            authSession: try body.optionalString("auth_session", maxLength: 256),
            realm: try body.optionalString("realm", maxLength: 128),
            scope: try body.optionalString("scope", maxLength: 2_048),
            audience: try body.optionalString("audience", maxLength: 512),
            refreshToken: try body.optionalString("refresh_token", maxLength: 512),
            dpop: Self.dpopRequest(request, tenant: tenant))
        tokenRequest.authnResponse = try body.credentialJSON("authn_response")
        // What only the password and MFA grants read is read only for them (a passkey login or a
        // refresh is the hot path).
        let method = OAuthGrantType(rawValue: grantType)
        // Only a passkey sign-in reads the SDK's platform (the statistics, prefer-passkey).
        if method == .webAuthn { tokenRequest.clientPlatform = Self.clientPlatform(request) }
        if method == .password || method == .passwordRealm {
            tokenRequest.username = try body.optionalString("username", maxLength: 320)
            tokenRequest.password = try body.optionalString("password", maxLength: 4_096)
            tokenRequest.clientAddress = IPAddressRange.clientKey(request.clientIP)
            tokenRequest.redirectURI = try body.optionalString("redirect_uri", maxLength: 2_048)
        } else if method == .authorizationCode {
            tokenRequest.code = try body.optionalString("code", maxLength: 256)
            tokenRequest.redirectURI = try body.optionalString("redirect_uri", maxLength: 2_048)
            tokenRequest.codeVerifier = try body.optionalString("code_verifier", maxLength: 256)
        } else if method == .mfaOTP || method == .mfaOOB || method == .mfaRecoveryCode {
            tokenRequest.mfaToken = try body.optionalString("mfa_token", maxLength: 8_192)
            tokenRequest.otp = try body.optionalString("otp", maxLength: 64)
            tokenRequest.oobCode = try body.optionalString("oob_code", maxLength: 256)
            tokenRequest.bindingCode = try body.optionalString("binding_code", maxLength: 64)
            tokenRequest.recoveryCode = try body.optionalString("recovery_code", maxLength: 64)
        } else if method == .deviceKey {
            tokenRequest.keyID = try body.optionalString("key_id", maxLength: 64)
            tokenRequest.signature = try body.optionalString("signature", maxLength: 200)
            tokenRequest.osVersion = try body.optionalString("os_version", maxLength: 32)
            tokenRequest.redirectURI = try body.optionalString("redirect_uri", maxLength: 2_048)
        } else if method == .tokenExchange {
            // Auth0's `user_profile` (the name Apple sends on first consent) is not read: an Apple
            // sign-in only reaches an account already linked.
            tokenRequest.subjectToken = try body.optionalString("subject_token", maxLength: 16_384)
            tokenRequest.subjectTokenType = try body.optionalString("subject_token_type", maxLength: 256)
            tokenRequest.nonce = try body.optionalString("nonce", maxLength: 512)
        }
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

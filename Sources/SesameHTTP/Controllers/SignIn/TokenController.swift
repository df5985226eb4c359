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
        group.post("/oauth/token", body: Self.tokenBody(tokens), handler: token)
        group.post("/oauth/revoke", body: Self.revocation, handler: revoke)
    }

    /// A credential member: the object in JSON, its JSON text in a form (bounded by the body's
    /// own limit).
    static let credential = WireType.either(.component("PublicKeyCredential"), .text(ServerLimits().maxBodyBytes))

    /// The token endpoint's body as documented: the grant type, the client, and every member some
    /// grant reads (from the grants' own tables, `TokenService.grantFields`).
    static func tokenBody(_ tokens: TokenService) -> RequestBody {
        /// A grant's member: text within its limit, or a WebAuthn credential.
        func member(_ field: WireField) -> WireField {
            WireField(field.name, field.type.maxLength.map(WireType.text) ?? credential, nullable: true)
        }
        let grantFields = tokens.grantFields.map(member)
        var body = RequestBody(
            media: .jsonOrForm,
            schema: WireObject(
                [TokenFields.grantType.typed(.vocabulary(OAuthGrantType.self)).requiredByService]
                    + RequestInput.optionalClient + grantFields,
                closed: false,
                description: "Unknown parameters are ignored (RFC 6749 §3.2); each grant reads its own."),
            isChecked: false)
        // One form per grant: its grant types, the client, and the members its own table reads.
        body.variants = tokens.grantForms.map { form in
            let fields = form.fields.map { field in
                field.isRequiredByService ? member(field).requiredByService : member(field)
            }
            return WireObject(
                [TokenFields.grantType.typed(.oneOf(form.types.map(\.rawValue))).requiredByService]
                    + RequestInput.optionalClient + fields,
                closed: false)
        }
        return body
    }

    /// RFC 7009's body; unknown parameters are ignored, as at the token endpoint.
    static let revocation = RequestBody(
        media: .jsonOrForm,
        schema: WireObject(
            RequestInput.optionalClient + [
                TokenFields.token.nullable.requiredByService
            ], closed: false),
        isChecked: false)

    func token(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        return try RequestInput.answeringBasicChallenge(request) {
            try answer(request, try reader.read(), tenant: context.tenant)
        }
    }

    /// RFC 7009.
    func revoke(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        try RequestInput.answeringBasicChallenge(request) {
            let body = try reader.read()
            try tokens.revoke(
                tenant: context.tenant, credentials: try RequestInput.clientCredentials(body, request),
                token: try body.optionalString("token"))
            return .json(bytes: Array("{}".utf8))
        }
    }

    /// `POST /oauth/token`. Parameters it does not know are ignored (RFC 6749 §3.2), so an SDK that
    /// sends more (telemetry, `connection`, a newer field) still works; `organization` is refused
    /// until Organizations exist.
    func answer(_ request: HTTPRequest, _ body: APIBody, tenant: TenantRecord) throws -> HTTPResponse {
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

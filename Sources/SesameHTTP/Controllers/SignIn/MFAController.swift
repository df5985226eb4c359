import Foundation
import SesameService
import SesameStore
import SesameWire

/// Auth0's MFA API (docs/mfa.md). `/mfa/associate` and `/mfa/authenticators` take either the
/// `mfa_token` of a login in progress or an access token for the MFA API (`<issuer>mfa/`).
struct MFAController: Sendable {
    let mfa: MFAService
    let tokens: TokenService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/mfa/associate", body: Self.association, handler: associate)
        group.post("/mfa/challenge", body: Self.challenge, handler: challenge)
        group.get("/mfa/authenticators", handler: authenticators)
        group.delete("/mfa/authenticators/{id}", handler: deleteAuthenticator)
    }

    /// Enrolling a factor: its type, and for `oob` the channel and the phone (one form each).
    static let association: RequestBody = {
        var body = RequestBody.json(
            RequestInput.optionalClient + [
                MFAFields.authenticatorTypes.requiredByService, MFAFields.oobChannels, MFAFields.phoneNumber.nullable,
                MFAFields.email.nullable,
            ])
        func one(_ value: String) -> WireType { .array(.oneOf([value]), maxItems: 1, minItems: 1) }
        body.variants = [
            WireObject(
                RequestInput.optionalClient + [MFAFields.authenticatorTypes.typed(one("otp")).requiredByService],
                description: "An authenticator app."),
            WireObject(
                RequestInput.optionalClient + [
                    MFAFields.authenticatorTypes.typed(one("oob")).requiredByService,
                    MFAFields.oobChannels.typed(one("sms")).requiredByService, MFAFields.phoneNumber.requiredByService,
                ], description: "Codes by SMS to a phone."),
        ]
        return body
    }()
    /// Asking for a challenge of a factor the sign-in may use.
    static let challenge = RequestBody.json(
        RequestInput.client + [
            MFAFields.mfaToken.nullable.requiredByService, MFAFields.challengeType.nullable,
            MFAFields.authenticatorID.nullable,
        ])

    /// The caller is authenticated first, so a body is never read for a request without a token.
    func associate(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        var caller = try mfaCaller(request, tenant: context.tenant)
        caller.address = IPAddressRange.clientKey(context.clientIP)
        let body = try reader.read()
        try requireClient(body, request, tenant: context.tenant)
        let association = try mfa.associate(
            tenant: context.tenant, caller: caller, types: try body.strings("authenticator_types") ?? [],
            channels: try body.strings("oob_channels") ?? [], phoneNumber: try body.optionalString("phone_number"))
        return try .noStoreJSON(association)
    }

    func challenge(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        let client = try tokens.client(try RequestInput.clientCredentials(body, request), tenant: context.tenant)
        let answer = try mfa.challenge(
            tenant: context.tenant, client: client, mfaToken: try body.optionalString("mfa_token"),
            challengeTypes: try body.optionalString("challenge_type"),
            authenticatorID: try body.optionalString("authenticator_id"),
            address: IPAddressRange.clientKey(context.clientIP))
        return try .noStoreJSON(answer)
    }

    func authenticators(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let caller = try mfaCaller(request, tenant: context.tenant)
        return try .noStoreJSON(mfa.authenticators(tenant: context.tenant, caller: caller))
    }

    func deleteAuthenticator(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let caller = try mfaCaller(request, tenant: context.tenant)
        try mfa.deleteAuthenticator(tenant: context.tenant, caller: caller, id: try context.pathParameter("id"))
        return .empty()
    }

    /// The caller behind `Authorization`: an mfa token (no dots), or an MFA API access token.
    func mfaCaller(_ request: HTTPRequest, tenant: TenantRecord) throws -> MFACaller {
        guard let presented = try RequestInput.presentedToken(request, tenant: tenant) else {
            throw ServiceError.invalidToken("an Authorization: Bearer mfa_token or MFA API access token is required")
        }
        if case .bearer(let token) = presented, !token.contains(".") {
            return try mfa.caller(mfaToken: token, tenant: tenant)
        }
        let principal = try tokens.principal(presented, tenant: tenant, audience: MFAService.audience(tenant))
        return try mfa.caller(principal: principal, tenant: tenant)
    }

    /// A body's client, when it names one, must be a client of the tenant (and authenticate).
    func requireClient(_ body: APIBody, _ request: HTTPRequest, tenant: TenantRecord) throws {
        let credentials = try RequestInput.clientCredentials(body, request)
        guard credentials.clientID != nil else { return }
        _ = try tokens.client(credentials, tenant: tenant)
    }
}

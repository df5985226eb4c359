import Foundation
import SesameService
import SesameStore
import SesameWire

/// `/me/v1/upgrades/*` (docs/account-upgrades.md): what an account authentication modification extension, or
/// the app's own settings, calls. Only `authorize` reads a bearer token, and only when one is
/// sent (the system-initiated form gives the username and the old password instead); the
/// others are authorized by the upgrade token (or the auth session) in the body. Errors are
/// OAuth JSON (`error`, `error_description`), as the contract writes them.
struct UpgradeController: Sendable {
    let tokens: TokenService
    let upgrades: AccountUpgradeService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/me/v1/upgrades/authorize", body: Self.authorization, handler: authorize)
        group.post("/me/v1/upgrades/strong-password", body: Self.strongPasswordBody, handler: strongPassword)
        group.post("/me/v1/upgrades/sign-in-with-apple", body: Self.appleBody, handler: signInWithApple)
        group.post("/me/v1/upgrades/passkey", body: Self.passkeyBody, handler: passkeyChallenge)
        group.post("/me/v1/upgrades/passkey/verify", body: Self.passkeyVerification, handler: passkeyVerify)
    }

    /// What the upgrade is, and who asks: a bearer token, or the app's client with the username
    /// and the old password (the system-initiated form).
    static let authorization = RequestBody.json([
        UpgradeFields.type.typed(.vocabulary(UpgradeType.self)).required, ClientFields.clientID,
        UpgradeFields.clientSecret, TokenFields.username, TokenFields.password, TokenFields.realm,
    ])
    static let upgradeToken = UpgradeFields.upgradeToken.requiredByService
    static let strongPasswordBody = RequestBody.json([
        upgradeToken, UpgradeFields.newPassword.requiredByService,
    ])
    static let appleBody = RequestBody.json([
        upgradeToken, UpgradeFields.identityToken.requiredByService, TokenFields.nonce.requiredByService,
        UpgradeFields.authorizationCode.requiredByService,
    ])
    static let passkeyBody = RequestBody.json([upgradeToken])
    static let passkeyVerification = RequestBody.json([
        TokenFields.authSession.requiredByService, TokenFields.authnResponse.required,
    ])

    func authorize(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        let type = try Self.upgradeType(try body.requiredString("type"))
        let authority: UpgradeAuthority
        if let presented = try RequestInput.presentedToken(request, tenant: context.tenant) {
            guard try body.string("username") == nil, try body.string("password") == nil else {
                throw ServiceError.invalidRequest("send either a bearer token or a username and password")
            }
            authority = .signedIn(try tokens.userPrincipal(presented, tenant: context.tenant))
        } else {
            authority = .password(
                client: ClientCredentials(
                    clientID: try body.string("client_id"), clientSecret: try body.string("client_secret")),
                username: try body.string("username"), password: try body.string("password"),
                realm: try body.string("realm"),
                address: IPAddressRange.clientKey(context.clientIP))
        }
        return try .noStoreJSON(upgrades.authorize(tenant: context.tenant, type: type, by: authority))
    }

    func strongPassword(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        try upgrades.upgradeToStrongPassword(
            tenant: context.tenant, token: try body.string("upgrade_token"),
            newPassword: try body.string("new_password"),
            address: IPAddressRange.clientKey(context.clientIP))
        return try .noStoreJSON(UpgradeResult(type: .strongPassword))
    }

    func signInWithApple(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse
    {
        let body = try reader.read()
        try upgrades.upgradeToSignInWithApple(
            tenant: context.tenant, token: try body.string("upgrade_token"),
            identityToken: try body.string("identity_token"), rawNonce: try body.string("nonce"),
            authorizationCode: try body.string("authorization_code"))
        return try .noStoreJSON(UpgradeResult(type: .signInWithApple))
    }

    func passkeyChallenge(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse
    {
        let body = try reader.read()
        let challenge = try upgrades.beginPasskeyUpgrade(
            tenant: context.tenant, token: try body.string("upgrade_token"),
            requester: IPAddressRange.clientKey(context.clientIP))
        return try .noStoreJSON(challenge, status: 202)
    }

    func passkeyVerify(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        guard let response = try body.rawObject("authn_response") else {
            throw ServiceError.invalidRequest("authn_response is required")
        }
        let method = try upgrades.finishPasskeyUpgrade(
            tenant: context.tenant, authSession: try body.string("auth_session"), response: response
        )
        return try .noStoreJSON(method, status: 201)
    }

    /// The upgrade a request names: 400 for anything else.
    static func upgradeType(_ text: String) throws -> UpgradeType {
        guard let type = UpgradeType(rawValue: text) else {
            throw ServiceError.invalidRequest(
                "type must be one of \(UpgradeType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return type
    }
}

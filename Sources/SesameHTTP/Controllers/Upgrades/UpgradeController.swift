import Foundation
import SesameService
import SesameStore

/// `/me/v1/upgrades/*` (docs/account-upgrades.md): what an account authentication modification extension, or
/// the app's own settings, calls. Only `authorize` reads a bearer token, and only when one is
/// sent (the system-initiated form gives the username and the old password instead); the
/// others are authorized by the upgrade token (or the auth session) in the body. Errors are
/// OAuth JSON (`error`, `error_description`), as the contract writes them.
struct UpgradeController: Sendable {
    let tokens: TokenService
    let upgrades: AccountUpgradeService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/me/v1/upgrades/authorize", handler: authorize)
        group.post("/me/v1/upgrades/strong-password", handler: strongPassword)
        group.post("/me/v1/upgrades/sign-in-with-apple", handler: signInWithApple)
        group.post("/me/v1/upgrades/passkey", handler: passkeyChallenge)
        group.post("/me/v1/upgrades/passkey/verify", handler: passkeyVerify)
    }

    func authorize(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["type", "client_id", "client_secret", "username", "password", "realm"])
        let type = try Self.upgradeType(try body.requiredString("type", maxLength: 64))
        let authority: UpgradeAuthority
        if let presented = try RequestInput.presentedToken(request, tenant: context.tenant) {
            guard try body.string("username") == nil, try body.string("password") == nil else {
                throw ServiceError.invalidRequest("send either a bearer token or a username and password")
            }
            authority = .signedIn(try tokens.userPrincipal(presented, tenant: context.tenant))
        } else {
            authority = .password(
                client: ClientCredentials(
                    clientID: try body.string("client_id", maxLength: 128),
                    clientSecret: try body.string("client_secret", maxLength: 512)),
                username: try body.string("username", maxLength: 320),
                password: try body.string("password", maxLength: 4_096),
                realm: try body.string("realm", maxLength: 128),
                address: IPAddressRange.clientKey(context.clientIP))
        }
        return try .noStoreJSON(upgrades.authorize(tenant: context.tenant, type: type, by: authority))
    }

    func strongPassword(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["upgrade_token", "new_password"])
        try upgrades.upgradeToStrongPassword(
            tenant: context.tenant, token: try body.string("upgrade_token", maxLength: 256),
            newPassword: try body.string("new_password", maxLength: 4_096),
            address: IPAddressRange.clientKey(context.clientIP))
        return try .noStoreJSON(UpgradeResult(type: .strongPassword))
    }

    func signInWithApple(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["upgrade_token", "identity_token", "nonce", "authorization_code"])
        try upgrades.upgradeToSignInWithApple(
            tenant: context.tenant, token: try body.string("upgrade_token", maxLength: 256),
            identityToken: try body.string("identity_token", maxLength: 16_384),
            rawNonce: try body.string("nonce", maxLength: 512),
            authorizationCode: try body.string("authorization_code", maxLength: 1_024))
        return try .noStoreJSON(UpgradeResult(type: .signInWithApple))
    }

    func passkeyChallenge(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["upgrade_token"])
        let challenge = try upgrades.beginPasskeyUpgrade(
            tenant: context.tenant, token: try body.string("upgrade_token", maxLength: 256),
            requester: IPAddressRange.clientKey(context.clientIP))
        return try .noStoreJSON(challenge, status: 202)
    }

    func passkeyVerify(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["auth_session", "authn_response"])
        guard let response = try body.rawObject("authn_response") else {
            throw ServiceError.invalidRequest("authn_response is required")
        }
        let method = try upgrades.finishPasskeyUpgrade(
            tenant: context.tenant, authSession: try body.string("auth_session", maxLength: 256), response: response
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

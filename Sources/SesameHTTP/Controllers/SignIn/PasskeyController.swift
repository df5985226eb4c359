import Foundation
import SesameService

/// The native passkey API's challenges (docs/api.md): signup and login.
struct PasskeyController: Sendable {
    let passkeys: PasskeyService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/passkey/register", handler: signupChallenge)
        group.post("/passkey/challenge", handler: loginChallenge)
    }

    /// docs/api.md: signup challenge.
    func signupChallenge(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly([
            "client_id", "client_secret", "realm", "organization", "user_profile", "user_metadata", "scope",
            "audience",
        ])
        try RequestInput.refuseOrganization(body)
        guard let profile = try body.object("user_profile") else {
            throw ServiceError.invalidRequest("user_profile is required")
        }
        try profile.allowOnly(RequestInput.profileFields)
        let input = SignupProfileInput(
            email: try profile.optionalString("email", maxLength: 254),
            phoneNumber: try profile.optionalString("phone_number", maxLength: 16),
            username: try profile.optionalString("username", maxLength: 128),
            attributes: try RequestInput.profileAttributes(profile))
        let metadata = try body.object("user_metadata")?.stringMap() ?? [:]
        let result = try passkeys.beginSignup(
            tenant: context.tenant, credentials: try RequestInput.clientCredentials(body, request),
            realm: try body.optionalString("realm", maxLength: 128), profile: input, metadata: metadata,
            tokenDefaults: try RequestInput.tokenDefaults(body), requester: IPAddressRange.clientKey(context.clientIP))
        return .noStoreWireJSON(result)
    }

    /// docs/api.md: login challenge.
    func loginChallenge(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["client_id", "client_secret", "realm", "organization", "scope", "audience"])
        try RequestInput.refuseOrganization(body)
        let result = try passkeys.beginLogin(
            tenant: context.tenant, credentials: try RequestInput.clientCredentials(body, request),
            realm: try body.optionalString("realm", maxLength: 128),
            tokenDefaults: try RequestInput.tokenDefaults(body),
            requester: IPAddressRange.clientKey(context.clientIP))
        return .noStoreWireJSON(result)
    }
}

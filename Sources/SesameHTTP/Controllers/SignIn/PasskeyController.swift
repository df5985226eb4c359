import Foundation
import SesameService
import SesameWire

/// The native passkey API's challenges (docs/api.md): signup and login.
struct PasskeyController: Sendable {
    let passkeys: PasskeyService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/passkey/register", body: Self.signup, handler: signupChallenge)
        group.post("/passkey/challenge", body: Self.login, handler: loginChallenge)
    }

    static let realm = TokenFields.realm.nullable
    /// A signup challenge: the new user's profile, and the client asking.
    static let signup = RequestBody.json(
        RequestInput.client + [
            realm, RequestInput.organization,
            SignupFields.userProfile.required,
            RequestInput.metadata,
        ] + RequestInput.tokenDefaultFields)
    /// A login challenge.
    static let login = RequestBody.json(
        RequestInput.client + [realm, RequestInput.organization] + RequestInput.tokenDefaultFields)

    /// docs/api.md: signup challenge.
    func signupChallenge(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse
    {
        let body = try reader.read()
        try RequestInput.refuseOrganization(body)
        guard let profile = try body.object("user_profile") else {
            throw ServiceError.invalidRequest("user_profile is required")
        }
        let input = SignupProfileInput(
            email: try profile.optionalString("email"), phoneNumber: try profile.optionalString("phone_number"),
            username: try profile.optionalString("username"),
            attributes: try RequestInput.profileAttributes(profile))
        let metadata = try body.object("user_metadata")?.stringMap() ?? [:]
        let result = try passkeys.beginSignup(
            tenant: context.tenant, credentials: try RequestInput.clientCredentials(body, request),
            realm: try body.optionalString("realm"), profile: input, metadata: metadata,
            tokenDefaults: try RequestInput.tokenDefaults(body), requester: IPAddressRange.clientKey(context.clientIP))
        return .noStoreWireJSON(result)
    }

    /// docs/api.md: login challenge.
    func loginChallenge(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        try RequestInput.refuseOrganization(body)
        let result = try passkeys.beginLogin(
            tenant: context.tenant, credentials: try RequestInput.clientCredentials(body, request),
            realm: try body.optionalString("realm"),
            tokenDefaults: try RequestInput.tokenDefaults(body),
            requester: IPAddressRange.clientKey(context.clientIP))
        return .noStoreWireJSON(result)
    }
}

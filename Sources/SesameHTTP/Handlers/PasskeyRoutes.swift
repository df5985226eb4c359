import Foundation
import SesameService

extension SesameApplication {
    static let profileFields: Set<String> = [
        "email", "phone_number", "username", "name", "given_name", "family_name", "nickname", "picture",
    ]

    func addPasskeyRoutes(to router: inout RouteGroup<TenantContext>) {
        // docs/api.md: signup challenge.
        router.post("/passkey/register") { [self] request, context in
            let body = try APIBody.json(request)
            try body.allowOnly([
                "client_id", "client_secret", "realm", "organization", "user_profile", "user_metadata", "scope",
                "audience",
            ])
            try Self.refuseOrganization(body)
            guard let profile = try body.object("user_profile") else {
                throw ServiceError.invalidRequest("user_profile is required")
            }
            try profile.allowOnly(Self.profileFields)
            let input = SignupProfileInput(
                email: try profile.optionalString("email", maxLength: 254),
                phoneNumber: try profile.optionalString("phone_number", maxLength: 16),
                username: try profile.optionalString("username", maxLength: 128),
                name: try profile.optionalString("name"),
                givenName: try profile.optionalString("given_name"),
                familyName: try profile.optionalString("family_name"),
                nickname: try profile.optionalString("nickname"), picture: try profile.optionalString("picture"))
            let metadata = try body.object("user_metadata")?.stringMap() ?? [:]
            let result = try passkeys.beginSignup(
                tenant: context.tenant, credentials: try clientCredentials(body, request),
                realm: try body.optionalString("realm", maxLength: 128), profile: input, metadata: metadata,
                tokenDefaults: try Self.tokenDefaults(body), requester: IPAddressRange.clientKey(context.clientIP))
            return .noStoreWireJSON(result)
        }

        // docs/api.md: login challenge.
        router.post("/passkey/challenge") { [self] request, context in
            let body = try APIBody.json(request)
            try body.allowOnly(["client_id", "client_secret", "realm", "organization", "scope", "audience"])
            try Self.refuseOrganization(body)
            let result = try passkeys.beginLogin(
                tenant: context.tenant, credentials: try clientCredentials(body, request),
                realm: try body.optionalString("realm", maxLength: 128), tokenDefaults: try Self.tokenDefaults(body),
                requester: IPAddressRange.clientKey(context.clientIP))
            return .noStoreWireJSON(result)
        }
    }

    /// `scope` and `audience` on a challenge, kept for the token request that follows.
    static func tokenDefaults(_ body: APIBody) throws -> TokenDefaults? {
        try TokenDefaults.make(
            scope: try body.optionalString("scope", maxLength: TokenDefaults.maxBytes),
            audience: try body.optionalString("audience", maxLength: TokenDefaults.maxBytes))
    }

    /// Organizations do not exist yet: `organization` is refused as Auth0 refuses an unknown one.
    static func refuseOrganization(_ body: APIBody) throws {
        guard body.has("organization") else { return }
        throw ServiceError.invalidRequest("organization is not supported by this tenant")
    }

    /// `client_id`/`client_secret` from the body, or HTTP Basic (RFC 6749 §2.3.1); not both.
    func clientCredentials(_ body: APIBody, _ request: HTTPRequest) throws -> ClientCredentials {
        let id = try body.optionalString("client_id", maxLength: 128)
        let secret = try body.optionalString("client_secret", maxLength: 256)
        guard let authorization = request.headers["Authorization"], authorization.lowercased().hasPrefix("basic ")
        else {
            return ClientCredentials(clientID: id, clientSecret: secret)
        }
        guard secret == nil else {
            throw ServiceError.invalidRequest("use one client authentication method, not Basic and client_secret")
        }
        let encoded = HTTPRequest.trimmingOWS(authorization.dropFirst(6))
        guard let data = Data(base64Encoded: encoded), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":")
        else {
            throw ServiceError.invalidClient("malformed Basic client authentication")
        }
        let basicID = String(text[..<colon]).removingPercentEncoding ?? ""
        let basicSecret = String(text[text.index(after: colon)...]).removingPercentEncoding ?? ""
        if let id, id != basicID { throw ServiceError.invalidRequest("client_id differs from the Basic credentials") }
        return ClientCredentials(clientID: basicID, clientSecret: basicSecret)
    }
}

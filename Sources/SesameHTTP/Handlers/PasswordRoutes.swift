import Foundation
import SesameService
import SesameStore

extension SesameApplication {
    /// Auth0's database-connection routes (docs/passwords.md), whose errors take the database shape.
    func addDatabaseConnectionRoutes(to router: inout RouteGroup<TenantContext>) {
        router.post("/dbconnections/signup") { [self] request, context in
            try Self.asSignupError { try signup(request, context) }
        }
        // Auth0's answer is text/html and the same whether or not the user exists.
        router.post("/dbconnections/change_password") { [self] request, context in
            let body = try APIBody.json(request)
            try body.allowOnly(["client_id", "email", "connection", "organization"])
            try Self.refuseOrganization(body)
            try passwords.requestReset(
                tenant: context.tenant, clientID: try body.optionalString("client_id", maxLength: 128),
                email: try body.optionalString("email", maxLength: 254),
                connection: try body.optionalString("connection", maxLength: 128))
            var response = HTTPResponse.html(PasswordService.changePasswordAnswer)
            response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
            return response
        }
        // The reset link's ticket as JSON, for an app with its own reset screen; the link itself
        // opens the hosted page, /u/reset-password (docs/hosted-pages.md).
        router.post("/dbconnections/reset_password") { [self] request, context in
            let body = try APIBody.json(request)
            try body.allowOnly(["ticket", "password"])
            try passwords.resetPassword(
                tenant: context.tenant, ticket: try body.optionalString("ticket", maxLength: 256),
                password: try body.optionalString("password", maxLength: 4_096))
            return try .noStoreJSON(["message": "Your password has been changed."])
        }
    }

    /// Auth0 answers a malformed signup with `invalid_signup` (docs/passwords.md): what is elsewhere
    /// `invalid_request` takes that code here, with the same description.
    static func asSignupError(_ body: () throws -> HTTPResponse) throws -> HTTPResponse {
        do {
            return try body()
        } catch let error as any HTTPErrorConvertible {
            var http = error.httpError
            if http.status == 400, http.error == "invalid_request" { http.error = "invalid_signup" }
            throw http
        }
    }

    private func signup(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(
            Self.profileFields.union(["client_id", "connection", "password", "user_metadata"]))
        let profile = SignupProfileInput(
            email: try body.optionalString("email", maxLength: 254),
            phoneNumber: try body.optionalString("phone_number", maxLength: 16),
            username: try body.optionalString("username", maxLength: 128),
            name: try body.optionalString("name"), givenName: try body.optionalString("given_name"),
            familyName: try body.optionalString("family_name"), nickname: try body.optionalString("nickname"),
            picture: try body.optionalString("picture"))
        let user = try passwords.signup(
            tenant: context.tenant,
            PasswordSignupRequest(
                clientID: try body.optionalString("client_id", maxLength: 128),
                connection: try body.optionalString("connection", maxLength: 128),
                password: try body.optionalString("password", maxLength: 4_096), profile: profile,
                metadata: try body.object("user_metadata")?.stringMap() ?? [:]))
        return try .noStoreJSON(SignedUpUser(user))
    }

    /// `GET /password-rules?client_id=…[&connection=…]`: the connection's rules string, unchanged,
    /// for a sign-up form's `passwordrules` attribute or iOS's `UITextInputPasswordRules`.
    func addPasswordRulesRoute(to router: inout RouteGroup<TenantContext>) {
        router.get("/password-rules") { [self] request, context in
            let rules = try passwords.rules(
                tenant: context.tenant, clientID: request.query("client_id"), connection: request.query("connection"))
            return try .noStoreJSON(["rules": rules])
        }
    }
}

/// The `/dbconnections/signup` answer, as Auth0 records it: the bare id (no provider prefix), the
/// email with `email_verified`, and the profile fields that were set.
struct SignedUpUser: Encodable {
    var id: String
    var email: String?
    var emailVerified: Bool
    var username: String?
    var phoneNumber: String?
    var name: String?
    var givenName: String?
    var familyName: String?
    var nickname: String?
    var picture: String?
    var userMetadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case email, username, name, nickname, picture
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case givenName = "given_name"
        case familyName = "family_name"
        case userMetadata = "user_metadata"
    }

    init(_ user: UserRecord) {
        id = ManagedUser.bareID(user.id)
        email = user.profile.email
        emailVerified = user.profile.emailVerified
        username = user.profile.username
        phoneNumber = user.profile.phoneNumber
        name = user.profile.name
        givenName = user.profile.givenName
        familyName = user.profile.familyName
        nickname = user.profile.nickname
        picture = user.profile.picture
        userMetadata = user.userMetadata.isEmpty ? nil : user.userMetadata
    }
}

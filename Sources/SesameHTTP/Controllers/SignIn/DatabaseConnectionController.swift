import Foundation
import SesameService
import SesameStore

/// Auth0's database-connection routes (docs/passwords.md), whose errors take the database shape.
struct DatabaseConnectionController: Sendable {
    let passwords: PasswordService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/dbconnections/signup", handler: signup)
        group.post("/dbconnections/change_password", handler: changePassword)
        group.post("/dbconnections/reset_password", handler: resetPassword)
    }

    func signup(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        return try Self.asSignupError { try createUser(request, context) }
    }

    /// Auth0's answer is text/html and the same whether or not the user exists.
    func changePassword(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["client_id", "email", "connection", "organization"])
        try RequestInput.refuseOrganization(body)
        try passwords.requestReset(
            tenant: context.tenant, clientID: try body.optionalString("client_id", maxLength: 128),
            email: try body.optionalString("email", maxLength: 254),
            connection: try body.optionalString("connection", maxLength: 128))
        var response = HTTPResponse.html(PasswordService.changePasswordAnswer)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }

    /// The reset link's ticket as JSON, for an app with its own reset screen; the link itself
    /// opens the hosted page, /u/reset-password (docs/hosted-pages.md).
    func resetPassword(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(["ticket", "password"])
        try passwords.resetPassword(
            tenant: context.tenant, ticket: try body.optionalString("ticket", maxLength: 256),
            password: try body.optionalString("password", maxLength: 4_096))
        return try .noStoreJSON(["message": "Your password has been changed."])
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

    private func createUser(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let body = try APIBody.json(request)
        try body.allowOnly(
            RequestInput.profileFields.union(["client_id", "connection", "password", "user_metadata"]))
        let profile = SignupProfileInput(
            email: try body.optionalString("email", maxLength: 254),
            phoneNumber: try body.optionalString("phone_number", maxLength: 16),
            username: try body.optionalString("username", maxLength: 128),
            attributes: try RequestInput.profileAttributes(body))
        let user = try passwords.signup(
            tenant: context.tenant,
            PasswordSignupRequest(
                clientID: try body.optionalString("client_id", maxLength: 128),
                connection: try body.optionalString("connection", maxLength: 128),
                password: try body.optionalString("password", maxLength: 4_096), profile: profile,
                metadata: try body.object("user_metadata")?.stringMap() ?? [:]))
        return try .noStoreJSON(SignedUpUser(user))
    }
}

import Foundation
import SesameService
import SesameStore
import SesameWire

/// Auth0's database-connection routes (docs/passwords.md), whose errors take the database shape.
struct DatabaseConnectionController: Sendable {
    let passwords: PasswordService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.post("/dbconnections/signup", body: Self.signupBody, handler: signup)
        group.post("/dbconnections/change_password", body: Self.changePasswordBody, handler: changePassword)
        group.post("/dbconnections/reset_password", body: Self.resetPasswordBody, handler: resetPassword)
    }

    static let clientID = ClientFields.clientID.nullable.requiredByService
    static let connection = SignupFields.connection.nullable.requiredByService
    static let signupBody = RequestBody.json(
        RequestInput.profileFields(nullable: true) + [
            clientID, connection, SignupFields.password.nullable.requiredByService,
            RequestInput.metadata,
        ])
    static let changePasswordBody = RequestBody.json([
        clientID, WireField(SignupFields.email.name, .text(254), nullable: true).requiredByService, connection,
        RequestInput.organization,
    ])
    static let resetPasswordBody = RequestBody.json([
        WireField("ticket", .text(256), nullable: true).requiredByService,
        WireField("password", .text(4_096), nullable: true).requiredByService,
    ])

    /// A body the table refuses is `invalid_signup` here too.
    func signup(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        return try Self.asSignupError {
            try createUser(reader, context)
        }
    }

    /// Auth0's answer is text/html and the same whether or not the user exists.
    func changePassword(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        try RequestInput.refuseOrganization(body)
        try passwords.requestReset(
            tenant: context.tenant, clientID: try body.optionalString("client_id"),
            email: try body.optionalString("email"), connection: try body.optionalString("connection"))
        var response = HTTPResponse.html(PasswordService.changePasswordAnswer)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }

    /// The reset link's ticket as JSON, for an app with its own reset screen; the link itself
    /// opens the hosted page, /u/reset-password (docs/hosted-pages.md).
    func resetPassword(_ request: HTTPRequest, _ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        try passwords.resetPassword(
            tenant: context.tenant, ticket: try body.optionalString("ticket"),
            password: try body.optionalString("password"))
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

    private func createUser(_ reader: BodyReader, _ context: TenantContext) throws -> HTTPResponse {
        let body = try reader.read()
        let profile = SignupProfileInput(
            email: try body.optionalString("email"), phoneNumber: try body.optionalString("phone_number"),
            username: try body.optionalString("username"), attributes: try RequestInput.profileAttributes(body))
        let user = try passwords.signup(
            tenant: context.tenant,
            PasswordSignupRequest(
                clientID: try body.optionalString("client_id"), connection: try body.optionalString("connection"),
                password: try body.optionalString("password"), profile: profile,
                metadata: try body.object("user_metadata")?.stringMap() ?? [:]))
        return try .noStoreJSON(SignedUpUser(user))
    }
}

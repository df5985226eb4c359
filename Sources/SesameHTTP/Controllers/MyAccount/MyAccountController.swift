import Foundation
import SesameService

/// `/me/v1` (docs/management-api.md). Each route checks the user's bearer token and its scope first. Errors
/// are RFC 9457 problems, as Auth0's My Account API writes them.
struct MyAccountController: Sendable, MyAccountRouting {
    /// The placeholder id Auth0's My Account API uses for a passkey being enrolled.
    static let newPasskeyID = "passkey|new"

    let myAccount: MyAccountService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/me/v1/authentication-methods", handler: list)
        group.post("/me/v1/authentication-methods", handler: enroll)
        group.post("/me/v1/authentication-methods/{id}/verify", handler: verify)
        group.get("/me/v1/authentication-methods/{id}", handler: read)
        group.patch("/me/v1/authentication-methods/{id}", handler: rename)
        group.delete("/me/v1/authentication-methods/{id}", handler: delete)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .read)
        return try .noStoreJSON(myAccount.authenticationMethods(caller, type: request.query("type")))
    }

    func enroll(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        let body = try APIBody.json(request)
        try body.allowOnly(["type", "connection", "identity_user_id"])
        guard let type = try body.string("type", maxLength: 64) else {
            throw ServiceError.invalidRequest("type is required")
        }
        let challenge = try myAccount.beginEnrollment(
            caller, type: type, connection: try body.string("connection", maxLength: 128),
            identityUserID: try body.string("identity_user_id", maxLength: 256),
            requester: IPAddressRange.clientKey(context.clientIP))
        var response = try HTTPResponse.noStoreJSON(challenge, status: 202)
        // The method being enrolled; SDKs take its last segment as the id and POST `<Location>/verify`.
        response.headers.replaceOrAdd(
            name: "Location",
            value: TokenService.issuer(caller.tenant) + "me/v1/authentication-methods/passkey%7Cnew")
        return response
    }

    func verify(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        guard try context.pathParameter("id") == Self.newPasskeyID else {
            throw ServiceError.notFound("only passkey|new can be verified")
        }
        let body = try APIBody.json(request)
        try body.allowOnly(["auth_session", "authn_response"])
        guard let session = try body.string("auth_session", maxLength: 256), !session.isEmpty else {
            throw ServiceError.invalidRequest("auth_session is required")
        }
        guard let authnResponse = try body.rawObject("authn_response") else {
            throw ServiceError.invalidRequest("authn_response is required")
        }
        let method = try myAccount.finishEnrollment(caller, authSession: session, response: authnResponse)
        var response = try HTTPResponse.noStoreJSON(method, status: 201)
        let encodedID = method.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? method.id
        response.headers.replaceOrAdd(
            name: "Location",
            value: TokenService.issuer(caller.tenant) + "me/v1/authentication-methods/\(encodedID)")
        return response
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .read)
        return try .noStoreJSON(myAccount.authenticationMethod(caller, id: try context.pathParameter("id")))
    }

    func rename(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .update)
        let body = try APIBody.json(request)
        try body.allowOnly(["name"])
        guard let name = try body.string("name", maxLength: 1_024) else {
            throw ServiceError.invalidRequest("name is required")
        }
        return try .noStoreJSON(
            myAccount.renameAuthenticationMethod(caller, id: try context.pathParameter("id"), name: name))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .delete)
        try myAccount.deleteAuthenticationMethod(caller, id: try context.pathParameter("id"))
        return .empty()
    }
}

import Foundation
import SesameService
import SesameWire

/// `/me/v1` (docs/management-api.md). Each route checks the user's bearer token and its scope first. Errors
/// are RFC 9457 problems, as Auth0's My Account API writes them.
struct MyAccountController: Sendable, MyAccountRouting {
    /// The placeholder id Auth0's My Account API uses for a passkey being enrolled.
    static let newPasskeyID = "passkey|new"

    let myAccount: MyAccountService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/me/v1/authentication-methods", query: Self.listQuery, handler: list)
        group.post("/me/v1/authentication-methods", body: Self.enrollment, handler: enroll)
        group.post("/me/v1/authentication-methods/{id}/verify", body: Self.verification, handler: verify)
        group.get("/me/v1/authentication-methods/{id}", handler: read)
        group.patch("/me/v1/authentication-methods/{id}", body: Self.renaming, handler: rename)
        group.delete("/me/v1/authentication-methods/{id}", handler: delete)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .read)
        return try .noStoreJSON(myAccount.authenticationMethods(caller, type: request.query(Self.methodType)))
    }

    /// Only the methods of this type.
    static let methodType = WireField("type", .text(64))
    static let listQuery = RequestQuery([methodType])

    /// Enrolling a passkey (the one type My Account enrolls here).
    static let enrollment = RequestBody.json([
        MyAccountFields.type.required, MyAccountFields.connection, MyAccountFields.identityUserID,
    ])
    /// The new passkey's credential, for the enrollment's auth session.
    static let verification = RequestBody.json([
        TokenFields.authSession.required, TokenFields.authnResponse.required,
    ])
    static let renaming = RequestBody.json([MyAccountFields.name.requiredByService])

    func enroll(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        let body = try reader.read()
        let challenge = try myAccount.beginEnrollment(
            caller, type: try body.requiredString("type"), connection: try body.string("connection"),
            identityUserID: try body.string("identity_user_id"),
            requester: IPAddressRange.clientKey(context.clientIP))
        var response = try HTTPResponse.noStoreJSON(challenge, status: 202)
        // The method being enrolled; SDKs take its last segment as the id and POST `<Location>/verify`.
        response.headers.replaceOrAdd(
            name: "Location",
            value: TokenService.issuer(caller.tenant) + "me/v1/authentication-methods/passkey%7Cnew")
        return response
    }

    func verify(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .create)
        guard try context.pathParameter("id") == Self.newPasskeyID else {
            throw ServiceError.notFound("only passkey|new can be verified")
        }
        let body = try reader.read()
        let session = try body.requiredString("auth_session")
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

    func rename(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .update)
        let body = try reader.read()
        // An empty name is the service's to refuse, with the length it allows.
        guard let name = try body.string("name") else { throw ServiceError.invalidRequest("name is required") }
        return try .noStoreJSON(
            myAccount.renameAuthenticationMethod(caller, id: try context.pathParameter("id"), name: name))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try accountCaller(context, .delete)
        try myAccount.deleteAuthenticationMethod(caller, id: try context.pathParameter("id"))
        return .empty()
    }
}

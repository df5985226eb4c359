import SesameService
import SesameStore
import SesameWire

/// `/api/v2/client-grants` (Auth0's): which m2m client may call which API with which scopes.
struct ClientGrantsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/client-grants", query: Self.filters, handler: list)
        group.post("/api/v2/client-grants", body: Self.creation, handler: create)
        group.patch("/api/v2/client-grants/{id}", body: Self.change, handler: update)
        group.delete("/api/v2/client-grants/{id}", handler: delete)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readClientGrants)
        return try .json(
            management.clientGrants(
                caller, clientID: request.query(RequestQuery.clientID), audience: request.query(Self.audience)))
    }

    static let audience = WireField("audience", .text(512))
    static let filters = RequestQuery([RequestQuery.clientID, audience])

    /// The scopes a grant gives.
    static let scope = WireField("scope", .texts(2_048, maxItems: 100))
    static let creation = RequestBody.json([
        WireField("client_id", .text(128)).required, WireField("audience", .text(512)).required, scope,
    ])
    static let change = RequestBody.json([scope.required])

    func create(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createClientGrants)
        let body = try reader.read()
        let clientID = try body.requiredString("client_id")
        let audience = try body.requiredString("audience")
        let scope = try body.strings("scope") ?? []
        return try .json(
            management.createClientGrant(caller, clientID: clientID, audience: audience, scope: scope), status: 201)
    }

    func update(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateClientGrants)
        let body = try reader.read()
        guard let scope = try body.strings("scope") else { throw ServiceError.invalidRequest("scope is required") }
        return try .json(management.updateClientGrant(caller, id: try context.pathParameter("id"), scope: scope))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteClientGrants)
        try management.deleteClientGrant(caller, id: try context.pathParameter("id"))
        return .empty()
    }
}

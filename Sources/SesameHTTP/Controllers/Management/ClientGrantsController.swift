import SesameService
import SesameStore

/// `/api/v2/client-grants` (Auth0's): which m2m client may call which API with which scopes.
struct ClientGrantsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/client-grants", handler: list)
        group.post("/api/v2/client-grants", handler: create)
        group.patch("/api/v2/client-grants/{id}", handler: update)
        group.delete("/api/v2/client-grants/{id}", handler: delete)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readClientGrants)
        return try .json(
            management.clientGrants(
                caller, clientID: request.query("client_id"), audience: request.query("audience")))
    }

    func create(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createClientGrants)
        let body = try APIBody.json(request)
        try body.allowOnly(["client_id", "audience", "scope"])
        guard let clientID = try body.string("client_id", maxLength: 128) else {
            throw ServiceError.invalidRequest("client_id is required")
        }
        guard let audience = try body.string("audience", maxLength: 512) else {
            throw ServiceError.invalidRequest("audience is required")
        }
        let scope = try body.strings("scope") ?? []
        return try .json(
            management.createClientGrant(caller, clientID: clientID, audience: audience, scope: scope), status: 201)
    }

    func update(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateClientGrants)
        let body = try APIBody.json(request)
        try body.allowOnly(["scope"])
        guard let scope = try body.strings("scope") else { throw ServiceError.invalidRequest("scope is required") }
        return try .json(management.updateClientGrant(caller, id: try context.pathParameter("id"), scope: scope))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteClientGrants)
        try management.deleteClientGrant(caller, id: try context.pathParameter("id"))
        return .empty()
    }
}

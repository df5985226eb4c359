import SesameService

extension SesameApplication {
    /// `/api/v2/client-grants` (Auth0's): which m2m client may call which API with which scopes.
    func addClientGrantRoutes(to router: inout Router) {
        router.get("/api/v2/client-grants") { [self] request, _ in
            let caller = try managementCaller(request, .readClientGrants)
            return try .json(
                management.clientGrants(
                    caller, clientID: request.query("client_id"), audience: request.query("audience")))
        }
        router.post("/api/v2/client-grants") { [self] request, _ in
            let caller = try managementCaller(request, .createClientGrants)
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
        router.patch("/api/v2/client-grants/{id}") { [self] request, context in
            let caller = try managementCaller(request, .updateClientGrants)
            let body = try APIBody.json(request)
            try body.allowOnly(["scope"])
            guard let scope = try body.strings("scope") else { throw ServiceError.invalidRequest("scope is required") }
            return try .json(management.updateClientGrant(caller, id: try context.pathParameter("id"), scope: scope))
        }
        router.delete("/api/v2/client-grants/{id}") { [self] request, context in
            let caller = try managementCaller(request, .deleteClientGrants)
            try management.deleteClientGrant(caller, id: try context.pathParameter("id"))
            return .empty()
        }
    }
}

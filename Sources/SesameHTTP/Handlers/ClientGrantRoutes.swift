import SesameService
import SesameStore

extension SesameApplication {
    /// `/api/v2/client-grants` (Auth0's): which m2m client may call which API with which scopes.
    func addClientGrantRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/client-grants") { [self] request, context in
            let caller = try managementCaller(context, .readClientGrants)
            return try .json(
                management.clientGrants(
                    caller, clientID: request.query("client_id"), audience: request.query("audience")))
        }
        router.post("/api/v2/client-grants") { [self] request, context in
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
        router.patch("/api/v2/client-grants/{id}") { [self] request, context in
            let caller = try managementCaller(context, .updateClientGrants)
            let body = try APIBody.json(request)
            try body.allowOnly(["scope"])
            guard let scope = try body.strings("scope") else { throw ServiceError.invalidRequest("scope is required") }
            return try .json(management.updateClientGrant(caller, id: try context.pathParameter("id"), scope: scope))
        }
        router.delete("/api/v2/client-grants/{id}") { [self] request, context in
            let caller = try managementCaller(context, .deleteClientGrants)
            try management.deleteClientGrant(caller, id: try context.pathParameter("id"))
            return .empty()
        }
    }

    /// `/api/v2/resource-servers` (Auth0's): the tenant's own APIs, their scopes and token settings.
    func addResourceServerRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/resource-servers") { [self] request, context in
            let caller = try managementCaller(context, .readResourceServers)
            return try .noStoreJSON(management.listResourceServers(caller, try Self.listRequest(request)))
        }
        router.post("/api/v2/resource-servers") { [self] request, context in
            let caller = try managementCaller(context, .createResourceServers)
            let input = try Self.resourceServerInput(try APIBody.json(request))
            return try .noStoreJSON(management.createResourceServer(caller, input), status: 201)
        }
        router.get("/api/v2/resource-servers/{id}") { [self] request, context in
            let caller = try managementCaller(context, .readResourceServers)
            return try .noStoreJSON(management.resourceServer(caller, id: try context.pathParameter("id")))
        }
        router.patch("/api/v2/resource-servers/{id}") { [self] request, context in
            let caller = try managementCaller(context, .updateResourceServers)
            let input = try Self.resourceServerInput(try APIBody.json(request))
            return try .noStoreJSON(
                management.updateResourceServer(caller, id: try context.pathParameter("id"), input))
        }
        router.delete("/api/v2/resource-servers/{id}") { [self] request, context in
            let caller = try managementCaller(context, .deleteResourceServers)
            try management.deleteResourceServer(caller, id: try context.pathParameter("id"))
            return .empty()
        }
    }

    static func resourceServerInput(_ body: APIBody) throws -> ResourceServerInput {
        try body.allowOnly([
            "identifier", "name", "scopes", "signing_alg", "token_lifetime", "allow_offline_access",
            "skip_consent_for_verifiable_first_party_clients",
        ])
        let scopes = try body.objects("scopes", maxCount: ManagementService.maxResourceServerScopes)?.map { scope in
            try scope.allowOnly(["value", "description"])
            return ResourceServerScope(
                value: try scope.requiredString("value", maxLength: 280),
                description: try scope.string("description", maxLength: 2_048) ?? "")
        }
        return ResourceServerInput(
            identifier: try body.string("identifier", maxLength: 600), name: try body.string("name", maxLength: 1_024),
            scopes: scopes, signingAlgorithm: try body.string("signing_alg", maxLength: 16),
            tokenLifetime: try body.int("token_lifetime"), allowOfflineAccess: try body.bool("allow_offline_access"),
            skipConsentForVerifiableFirstPartyClients: try body.bool(
                "skip_consent_for_verifiable_first_party_clients"))
    }
}

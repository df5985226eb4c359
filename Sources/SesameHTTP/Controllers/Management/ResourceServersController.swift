import SesameService
import SesameStore

/// `/api/v2/resource-servers` (Auth0's): the tenant's own APIs, their scopes and token settings.
struct ResourceServersController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/resource-servers", handler: list)
        group.post("/api/v2/resource-servers", handler: create)
        group.get("/api/v2/resource-servers/{id}", handler: read)
        group.patch("/api/v2/resource-servers/{id}", handler: update)
        group.delete("/api/v2/resource-servers/{id}", handler: delete)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readResourceServers)
        return try .noStoreJSON(management.listResourceServers(caller, try RequestInput.listRequest(request)))
    }

    func create(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createResourceServers)
        let input = try Self.resourceServerInput(try APIBody.json(request))
        return try .noStoreJSON(management.createResourceServer(caller, input), status: 201)
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readResourceServers)
        return try .noStoreJSON(management.resourceServer(caller, id: try context.pathParameter("id")))
    }

    func update(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateResourceServers)
        let input = try Self.resourceServerInput(try APIBody.json(request))
        return try .noStoreJSON(
            management.updateResourceServer(caller, id: try context.pathParameter("id"), input))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteResourceServers)
        try management.deleteResourceServer(caller, id: try context.pathParameter("id"))
        return .empty()
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

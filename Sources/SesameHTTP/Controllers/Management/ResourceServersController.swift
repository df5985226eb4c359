import SesameService
import SesameStore
import SesameWire

/// `/api/v2/resource-servers` (Auth0's): the tenant's own APIs, their scopes and token settings.
struct ResourceServersController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/resource-servers", handler: list)
        group.post("/api/v2/resource-servers", body: Self.creation, handler: create)
        group.get("/api/v2/resource-servers/{id}", handler: read)
        group.patch("/api/v2/resource-servers/{id}", body: Self.change, handler: update)
        group.delete("/api/v2/resource-servers/{id}", handler: delete)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readResourceServers)
        return try .noStoreJSON(management.listResourceServers(caller, try RequestInput.listRequest(request)))
    }

    func create(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createResourceServers)
        let body = try reader.read()
        let input = try Self.resourceServerInput(body)
        return try .noStoreJSON(management.createResourceServer(caller, input), status: 201)
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readResourceServers)
        return try .noStoreJSON(management.resourceServer(caller, id: try context.pathParameter("id")))
    }

    func update(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateResourceServers)
        let body = try reader.read()
        let input = try Self.resourceServerInput(body)
        return try .noStoreJSON(
            management.updateResourceServer(caller, id: try context.pathParameter("id"), input))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteResourceServers)
        try management.deleteResourceServer(caller, id: try context.pathParameter("id"))
        return .empty()
    }

    /// An API's settings: `POST` needs its identifier (the audience), `PATCH` changes what it is given.
    static let fields: [WireField] = [
        WireField("identifier", .text(600)), WireField("name", .text(1_024)),
        WireField(
            "scopes",
            .array(
                .object(
                    WireObject([WireField("value", .text(280)).required, WireField("description", .text(2_048))])),
                maxItems: ManagementService.maxResourceServerScopes)),
        WireField("signing_alg", .vocabulary(JWTAlgorithm.self)),
        WireField("token_lifetime", .integer(ManagementService.resourceServerTokenLifetimes)),
        WireField("allow_offline_access", .boolean),
        WireField("skip_consent_for_verifiable_first_party_clients", .boolean),
    ]
    static let creation = RequestBody.json(fields.map { $0.name == "identifier" ? $0.required : $0 })
    static let change = RequestBody.json(fields)

    static func resourceServerInput(_ body: APIBody) throws -> ResourceServerInput {
        let scopes = try body.objects("scopes")?.map { scope in
            ResourceServerScope(
                value: try scope.requiredString("value"), description: try scope.string("description") ?? "")
        }
        return ResourceServerInput(
            identifier: try body.string("identifier"), name: try body.string("name"),
            scopes: scopes, signingAlgorithm: try body.string("signing_alg"),
            tokenLifetime: try body.int("token_lifetime"), allowOfflineAccess: try body.bool("allow_offline_access"),
            skipConsentForVerifiableFirstPartyClients: try body.bool(
                "skip_consent_for_verifiable_first_party_clients"))
    }
}

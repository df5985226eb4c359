import SesameService
import SesameStore
import SesameWire

/// `/api/v2/resource-servers` (Auth0's): the tenant's own APIs, their scopes and token settings.
struct ResourceServersController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        ManagementCollection(
            path: "/api/v2/resource-servers",
            scopes: .init(
                read: .readResourceServers, create: .createResourceServers, update: .updateResourceServers,
                delete: .deleteResourceServers),
            creation: Self.creation, change: Self.change, input: { body, _ in try Self.resourceServerInput(body) },
            list: management.listResourceServers, create: management.createResourceServer,
            read: management.resourceServer, update: management.updateResourceServer,
            delete: management.deleteResourceServer
        ).register(to: &group, management: management)
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

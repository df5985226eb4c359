import Foundation
import SesameService
import SesameStore
import SesameWire

/// `/api/v2/clients` (docs/management-api.md): applications, their settings and secrets.
struct ClientsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        ManagementCollection(
            path: "/api/v2/clients",
            scopes: .init(read: .readClients, create: .createClients, update: .updateClients, delete: .deleteClients),
            creation: Self.creation, change: Self.change, input: { body, _ in try Self.clientInput(body) },
            list: management.listClients, create: management.createClient, read: management.client,
            update: management.updateClient, delete: management.deleteClient
        ).register(to: &group, management: management)
        group.post("/api/v2/clients/{id}/rotate-secret", handler: rotateSecret)
    }

    func rotateSecret(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateClientKeys)
        return try .noStoreJSON(management.rotateClientSecret(caller, id: try context.pathParameter("id")))
    }

    /// A client's settings: `POST` needs a name, `PATCH` changes what it is given.
    static let name = WireField("name", .characters(255))
    static let appType = WireField("app_type", .vocabulary(ClientAppType.self))
    static let fields: [WireField] = [
        name, appType,
        WireField("grant_types", .array(.vocabulary(OAuthGrantType.self), maxItems: 20)),
        WireField("callbacks", .array(.string(maxLength: 2_048, format: "uri"), maxItems: 100)),
        WireField("allowed_logout_urls", .array(.string(maxLength: 2_048, format: "uri"), maxItems: 100)),
        WireField(
            "allowed_origins", .array(.string(maxLength: 2_048, pattern: "^https?://[^/?#@]+/?$"), maxItems: 100)),
        WireField("is_first_party", .boolean),
        WireField("token_endpoint_auth_method", .vocabulary(TokenEndpointAuthMethod.self)),
        WireField("jwt_configuration", .object(WireObject([WireField("alg", .vocabulary(JWTAlgorithm.self))]))),
        WireField(
            "mobile",
            .object(
                WireObject([
                    WireField(
                        "ios",
                        .object(
                            WireObject([
                                WireField("team_id", .string(maxLength: 64, pattern: "^[A-Z0-9]{10}$")),
                                WireField(
                                    "app_bundle_identifier",
                                    .string(maxLength: 256, pattern: "^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$")),
                            ])), nullable: true),
                    WireField(
                        "android",
                        .object(
                            WireObject([
                                WireField(
                                    "app_package_name",
                                    .string(
                                        maxLength: 256, pattern: "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$")),
                                WireField(
                                    "sha256_cert_fingerprints",
                                    .array(
                                        .string(maxLength: 128, pattern: "^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$"),
                                        maxItems: 20)),
                            ])), nullable: true),
                ])), nullable: true),
    ]
    static let creation = RequestBody.json(fields.map { $0.name == "name" ? $0.required : $0 })
    static let change = RequestBody.json(fields)

    static func clientInput(_ body: APIBody) throws -> ClientInput {
        var input = ClientInput(
            name: try body.string("name"), appType: try body.string("app_type"),
            grantTypes: try body.strings("grant_types"), callbacks: try body.strings("callbacks"),
            allowedOrigins: try body.strings("allowed_origins"), isFirstParty: try body.bool("is_first_party"),
            tokenEndpointAuthMethod: try body.string("token_endpoint_auth_method"))
        input.allowedLogoutURLs = try body.strings("allowed_logout_urls")
        if let jwt = try body.object("jwt_configuration") {
            input.jwtAlgorithm = try jwt.string("alg")
        }
        switch try body.nullableObject("mobile") {
        case .keep: break
        case .remove:
            input.ios = .remove
            input.android = .remove
        case .set(let mobile):
            switch try mobile.nullableObject("ios") {
            case .keep: break
            case .remove: input.ios = .remove
            case .set(let ios):
                input.ios = .set(
                    IOSAppInput(
                        teamID: try ios.string("team_id"), bundleIdentifier: try ios.string("app_bundle_identifier")))
            }
            switch try mobile.nullableObject("android") {
            case .keep: break
            case .remove: input.android = .remove
            case .set(let android):
                input.android = .set(
                    AndroidAppInput(
                        packageName: try android.string("app_package_name"),
                        sha256CertFingerprints: try android.strings("sha256_cert_fingerprints")))
            }
        }
        return input
    }
}

import Foundation
import SesameService
import SesameStore

/// `/api/v2/clients` (docs/management-api.md): applications, their settings and secrets.
struct ClientsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/clients", handler: list)
        group.post("/api/v2/clients", handler: create)
        group.get("/api/v2/clients/{id}", handler: read)
        group.patch("/api/v2/clients/{id}", handler: update)
        group.delete("/api/v2/clients/{id}", handler: delete)
        group.post("/api/v2/clients/{id}/rotate-secret", handler: rotateSecret)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readClients)
        return try .noStoreJSON(management.listClients(caller, try RequestInput.listRequest(request)))
    }

    func create(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .createClients)
        let input = try Self.clientInput(try APIBody.json(request))
        return try .noStoreJSON(management.createClient(caller, input), status: 201)
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readClients)
        return try .noStoreJSON(management.client(caller, id: try context.pathParameter("id")))
    }

    func update(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateClients)
        let input = try Self.clientInput(try APIBody.json(request))
        return try .noStoreJSON(management.updateClient(caller, id: try context.pathParameter("id"), input))
    }

    func delete(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .deleteClients)
        try management.deleteClient(caller, id: try context.pathParameter("id"))
        return .empty()
    }

    func rotateSecret(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateClientKeys)
        return try .noStoreJSON(management.rotateClientSecret(caller, id: try context.pathParameter("id")))
    }

    static func clientInput(_ body: APIBody) throws -> ClientInput {
        try body.allowOnly([
            "name", "app_type", "grant_types", "callbacks", "allowed_logout_urls", "allowed_origins", "is_first_party",
            "token_endpoint_auth_method", "jwt_configuration", "mobile",
        ])
        var input = ClientInput(
            name: try body.string("name", maxLength: 1_024), appType: try body.string("app_type", maxLength: 64),
            grantTypes: try body.strings("grant_types", maxCount: 20, maxLength: 256),
            callbacks: try body.strings("callbacks"), allowedOrigins: try body.strings("allowed_origins"),
            isFirstParty: try body.bool("is_first_party"),
            tokenEndpointAuthMethod: try body.string("token_endpoint_auth_method", maxLength: 64))
        input.allowedLogoutURLs = try body.strings("allowed_logout_urls")
        if let jwt = try body.object("jwt_configuration") {
            try jwt.allowOnly(["alg"])
            input.jwtAlgorithm = try jwt.string("alg", maxLength: 16)
        }
        switch try body.nullableObject("mobile") {
        case .keep: break
        case .remove:
            input.ios = .remove
            input.android = .remove
        case .set(let mobile):
            try mobile.allowOnly(["ios", "android"])
            switch try mobile.nullableObject("ios") {
            case .keep: break
            case .remove: input.ios = .remove
            case .set(let ios):
                try ios.allowOnly(["team_id", "app_bundle_identifier"])
                input.ios = .set(
                    IOSAppInput(
                        teamID: try ios.string("team_id", maxLength: 64),
                        bundleIdentifier: try ios.string("app_bundle_identifier", maxLength: 256)))
            }
            switch try mobile.nullableObject("android") {
            case .keep: break
            case .remove: input.android = .remove
            case .set(let android):
                try android.allowOnly(["app_package_name", "sha256_cert_fingerprints"])
                input.android = .set(
                    AndroidAppInput(
                        packageName: try android.string("app_package_name", maxLength: 256),
                        sha256CertFingerprints: try android.strings(
                            "sha256_cert_fingerprints", maxCount: 20, maxLength: 128)))
            }
        }
        return input
    }
}

import SesameService
import WebAuthn

/// `GET /openapi.json`: the OpenAPI 3.1 document of every route (Sources/SesameHTTP/OpenAPI,
/// docs/openapi.md), with the tenant's public URL as its one server. No token; cacheable.
struct OpenAPIController: Sendable {

    func register(to group: inout RouteGroup<TenantContext>) {
        group.get("/openapi.json", handler: document)
    }

    func document(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        var issuer = TokenService.issuer(context.tenant)
        if issuer.hasSuffix("/") { issuer.removeLast() }
        var response = HTTPResponse.json(bytes: OpenAPIDocument.served(serverURL: issuer))
        response.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=300")
        return response
    }
}

import SesameService
import SesameStore

/// The context of a route that serves one tenant: the transport's context, and the tenant the
/// request's Host names, resolved once (404 `not_found` for a host no tenant has) before the
/// handler runs.
struct TenantContext: Sendable {
    /// What the transport knows (request id, client address, route, path parameters).
    let request: RequestContext
    /// The tenant the request is for.
    let tenant: TenantRecord

    var requestID: String { request.requestID }
    var clientIP: String { request.clientIP }
    /// The value of path parameter `name`; 404 when the route has none.
    func pathParameter(_ name: String) throws -> String { try request.pathParameter(name) }
}

/// The context of a route that acts for someone: the tenant's, and the principal its credential
/// established for the route group's audience (401 before the handler runs when it does not).
struct PrincipalContext: Sendable {
    /// What the transport knows.
    let request: RequestContext
    /// The tenant the request is for.
    let tenant: TenantRecord
    /// Who the request acts for.
    let principal: Principal

    var requestID: String { request.requestID }
    var clientIP: String { request.clientIP }
    /// The value of path parameter `name`; 404 when the route has none.
    func pathParameter(_ name: String) throws -> String { try request.pathParameter(name) }
}

/// The context of a page a browser opens: the tenant when the Host names one (the landing page
/// also answers a bare server).
struct PageContext: Sendable {
    let request: RequestContext
    let tenant: TenantRecord?
}

extension RouteGroup where Context == RequestContext {
    /// The child group whose handlers get the request's tenant. The whole request is one
    /// `TenancyService.serving` unit: configuration is validated against the store once.
    func tenant(_ tenancy: TenancyService) -> RouteGroup<TenantContext> {
        wrapped { request, context, next in
            // The audit log's view of the request: the client's address and its User-Agent.
            try AuditOrigin.run(AuditOrigin(ip: request.clientIP, userAgent: request.headers["User-Agent"])) {
                try tenancy.serving { try next(request, context) }
            }
        }
        .derived { request, context in
            TenantContext(request: context, tenant: try tenancy.tenant(host: request.host))
        }
    }
}

extension RouteGroup where Context == TenantContext {
    /// The child group whose handlers get the principal of the request's access token, checked for
    /// the audience `audience(tenant)` names.
    func principal(
        _ tokens: TokenService, audience: @escaping @Sendable (TenantRecord) -> String
    ) -> RouteGroup<PrincipalContext> {
        derived { request, context in
            let presented = try RequestInput.presentedToken(request, tenant: context.tenant)
            return PrincipalContext(
                request: context.request, tenant: context.tenant,
                principal: try tokens.principal(presented, tenant: context.tenant, audience: audience(context.tenant)))
        }
    }
}

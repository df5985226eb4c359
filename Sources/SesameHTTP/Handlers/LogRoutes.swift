import Foundation
import SesameService
import SesameStore

extension SesameApplication {
    /// `GET /api/v2/logs`, `/api/v2/logs/{id}`, `/api/v2/users/{id}/logs` (docs/audit-log.md).
    func addLogRoutes(to router: inout RouteGroup<PrincipalContext>) {
        router.get("/api/v2/logs") { [self] request, context in
            let caller = try managementCaller(context, .readLogs)
            return try .noStoreJSON(management.logs(caller, try Self.logListRequest(request)))
        }
        router.get("/api/v2/logs/{id}") { [self] _, context in
            let caller = try managementCaller(context, .readLogs)
            return try .noStoreJSON(management.log(caller, id: try context.pathParameter("id")))
        }
        router.get("/api/v2/users/{id}/logs") { [self] request, context in
            let caller = try managementCaller(context, .readLogs)
            try Self.refuseUnknownParameters(request, allowed: ["page", "per_page", "include_totals"])
            return try .noStoreJSON(
                management.userLogs(caller, userID: try context.pathParameter("id"), try Self.listRequest(request)))
        }
    }

    static func logListRequest(_ request: HTTPRequest) throws -> LogListRequest {
        try refuseUnknownParameters(
            request, allowed: ["page", "per_page", "include_totals", "from", "take", "q", "sort"])
        if let sort = request.query("sort"), sort != "date:-1" {
            throw ServiceError.invalidRequest(
                "sort: only date:-1 (newest first) is supported; use from for oldest first")
        }
        var list = LogListRequest(
            list: try listRequest(request), query: try ManagementService.logQuery(request.query("q")))
        list.from = request.query("from")
        if let take = request.query("take") {
            guard let value = Int(take) else { throw ServiceError.invalidRequest("take must be an integer") }
            list.take = value
        }
        return list
    }

    static func refuseUnknownParameters(_ request: HTTPRequest, allowed: Set<String>) throws {
        if let unknown = request.queryItems.first(where: { !allowed.contains($0.name) }) {
            throw ServiceError.invalidRequest("unknown query parameter \(unknown.name.prefix(40))")
        }
    }
}

extension RouteGroup where Context == PrincipalContext {
    /// Records every Management API write (POST, PUT, PATCH, DELETE) in the audit log with the
    /// acting client and the answer's status, through `management.recordOperation`.
    func audited(_ management: ManagementService) -> RouteGroup<PrincipalContext> {
        wrapped { request, context, next in
            guard let method = AuditRequestMethod(rawValue: request.method.rawValue) else {
                return try next(request, context)
            }
            do {
                let response = try next(request, context)
                management.recordOperation(
                    tenant: context.tenant, principal: context.principal, method: method, path: request.path,
                    status: response.status)
                return response
            } catch {
                let status =
                    (error as? any HTTPErrorConvertible)?.httpError.status ?? (error as? HTTPError)?.status ?? 500
                management.recordOperation(
                    tenant: context.tenant, principal: context.principal, method: method, path: request.path,
                    status: status)
                throw error
            }
        }
    }
}

import Foundation
import SesameService
import SesameStore

/// `GET /api/v2/logs`, `/api/v2/logs/{id}`, `/api/v2/users/{id}/logs` (docs/audit-log.md).
struct LogsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/logs", handler: list)
        group.get("/api/v2/logs/{id}", handler: read)
        group.get("/api/v2/users/{id}/logs", handler: userLogs)
    }

    func list(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readLogs)
        return try .noStoreJSON(management.logs(caller, try Self.logListRequest(request)))
    }

    func read(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readLogs)
        return try .noStoreJSON(management.log(caller, id: try context.pathParameter("id")))
    }

    func userLogs(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readLogs)
        try Self.refuseUnknownParameters(request, allowed: ["page", "per_page", "include_totals"])
        return try .noStoreJSON(
            management.userLogs(caller, userID: try context.pathParameter("id"), try RequestInput.listRequest(request)))
    }

    static func logListRequest(_ request: HTTPRequest) throws -> LogListRequest {
        try refuseUnknownParameters(
            request, allowed: ["page", "per_page", "include_totals", "from", "take", "q", "sort"])
        if let sort = request.query("sort"), sort != "date:-1" {
            throw ServiceError.invalidRequest(
                "sort: only date:-1 (newest first) is supported; use from for oldest first")
        }
        var list = LogListRequest(
            list: try RequestInput.listRequest(request), query: try ManagementService.logQuery(request.query("q")))
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

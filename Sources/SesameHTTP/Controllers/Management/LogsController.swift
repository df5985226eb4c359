import Foundation
import SesameService
import SesameStore
import SesameWire

/// `GET /api/v2/logs`, `/api/v2/logs/{id}`, `/api/v2/users/{id}/logs` (docs/audit-log.md).
struct LogsController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/logs", query: Self.logQuery, handler: list)
        group.get("/api/v2/logs/{id}", handler: read)
        group.get("/api/v2/users/{id}/logs", query: .list, handler: userLogs)
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
        try Self.refuseUnknownParameters(request, allowed: .list)
        return try .noStoreJSON(
            management.userLogs(caller, userID: try context.pathParameter("id"), try RequestInput.listRequest(request)))
    }

    static func logListRequest(_ request: HTTPRequest) throws -> LogListRequest {
        try refuseUnknownParameters(request, allowed: logQuery)
        if let sort = request.query(Self.sort), sort != "date:-1" {
            throw ServiceError.invalidRequest(
                "sort: only date:-1 (newest first) is supported; use from for oldest first")
        }
        var list = LogListRequest(
            list: try RequestInput.listRequest(request),
            query: try ManagementService.logQuery(request.query(Self.terms)))
        list.from = request.query(Self.from)
        if let take = request.query(Self.take) {
            guard let value = Int(take) else { throw ServiceError.invalidRequest("take must be an integer") }
            list.take = value
        }
        return list
    }

    static let from = WireField(
        "from", .string(maxLength: 64, pattern: "^log_[0-9a-z]{1,60}$"),
        description: "A log id: the entries after it, oldest first (checkpoint paging).")
    static let take = WireField(
        "take", .integer(1...100), description: "How many entries checkpoint paging returns (default 50).")
    static let terms = WireField(
        "q", .text(1_000),
        description:
            "Terms joined by spaces or AND: type:CODE (several are alternatives), user_id:ID, client_id:ID, date:[FROM TO UNTIL] (FROM included, UNTIL not; ISO 8601 times, YYYY-MM-DD dates or *). Values may be double-quoted."
    )
    static let sort = WireField(
        "sort", .oneOf(["date:-1"]), description: "Only newest first; use from for oldest first.")
    static let logQuery = RequestQuery.list + RequestQuery([from, take, terms, sort])

    /// The log's routes refuse a parameter their table does not name, as Auth0's do.
    static func refuseUnknownParameters(_ request: HTTPRequest, allowed query: RequestQuery) throws {
        let allowed = Set(query.fields.map(\.name))
        if let unknown = request.queryItems.first(where: { !allowed.contains($0.name) }) {
            throw ServiceError.invalidRequest("unknown query parameter \(unknown.name.prefix(40))")
        }
    }
}

import Foundation
import SesameStore

/// `GET /api/v2/logs`'s parameters (Auth0's, as far as docs/audit-log.md says): page paging
/// (`page`, `per_page`, `include_totals`) or checkpoint paging (`from` + `take`), and `q`.
public struct LogListRequest: Sendable, Hashable {
    public var list: ListRequest
    /// A log id: entries after it, oldest first (checkpoint paging; no totals).
    public var from: String?
    /// How many entries checkpoint paging returns (1–100, default 50).
    public var take: Int?
    public var query: AuditQuery

    public init(
        list: ListRequest = ListRequest(), from: String? = nil, take: Int? = nil, query: AuditQuery = AuditQuery()
    ) {
        self.list = list
        self.from = from
        self.take = take
        self.query = query
    }
}

extension ManagementService {
    /// `GET /api/v2/logs` (scope `read:logs`): newest first, or after a checkpoint oldest first.
    public func logs(_ caller: ManagementCaller, _ request: LogListRequest) throws(ServiceError) -> ManagedList<
        AuditEntry
    > {
        try caller.require(.readLogs)
        let tenantID = caller.tenant.id
        if request.from != nil || request.take != nil {
            guard !request.list.includeTotals, request.list.page == 0 else {
                throw .invalidRequest("from and take cannot be combined with page or include_totals")
            }
            let take = request.take ?? ListRequest.defaultPerPage
            guard (1...ListRequest.maxPerPage).contains(take) else {
                throw .invalidRequest("take must be an integer from 1 to \(ListRequest.maxPerPage)")
            }
            if let from = request.from { try Self.checkLogID(from) }
            return try access.read { transaction in
                let events = try transaction.auditEvents.list(
                    tenantID: tenantID, query: request.query, after: request.from, limit: take)
                return ManagedList(
                    name: "logs", items: try AuditEntry.make(events, in: transaction), start: 0, limit: take, total: nil
                )
            }
        }
        let list = try request.list.validated()
        return try access.read { transaction in
            let events = try transaction.auditEvents.list(
                tenantID: tenantID, query: request.query,
                page: Page(offset: list.page * list.perPage, limit: list.perPage))
            let total =
                list.includeTotals ? try transaction.auditEvents.count(tenantID: tenantID, query: request.query) : nil
            return ManagedList(
                name: "logs", items: try AuditEntry.make(events, in: transaction), start: list.page * list.perPage,
                limit: list.perPage, total: total)
        }
    }

    /// `GET /api/v2/logs/{id}`.
    public func log(_ caller: ManagementCaller, id: String) throws(ServiceError) -> AuditEntry {
        try caller.require(.readLogs)
        try Self.checkLogID(id)
        return try access.read { transaction in
            guard let event = try transaction.auditEvents.get(tenantID: caller.tenant.id, id: id) else {
                throw ServiceError.notFound("log event not found")
            }
            return try AuditEntry.make([event], in: transaction)[0]
        }
    }

    /// `GET /api/v2/users/{id}/logs` (scopes `read:logs` and `read:users`): the user's entries,
    /// newest first. The user need not exist any more (their deletion is an entry too).
    public func userLogs(_ caller: ManagementCaller, userID: String, _ list: ListRequest) throws(ServiceError)
        -> ManagedList<AuditEntry>
    {
        try caller.require(.readUsers)
        return try logs(caller, LogListRequest(list: list, query: AuditQuery(userID: userID)))
    }

    static func checkLogID(_ id: String) throws(ServiceError) {
        guard id.hasPrefix("log_"), id.utf8.count <= 64, id.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw .invalidRequest("not a log id")
        }
    }

    /// Records a Management API write (`sapi`, or `fapi` for a status of 400 or more) for the
    /// client that made it. `path` is the request's path, which holds only ids (never a query).
    public func recordOperation(
        tenant: TenantRecord, principal: Principal, method: AuditRequestMethod, path: String, status: Int
    ) {
        tokens.events.audit?.record(
            status < 400 ? .successAPIOperation : .failedAPIOperation, tenantID: tenant.id,
            clientID: principal.clientID,
            details: AuditDetails(
                reason: status < 400 ? nil : Self.reason(status: status), requestMethod: method,
                requestPath: String(path.prefix(256)), status: status))
    }

    /// An entry of what a Management call changed (after its write committed), with the acting client.
    func audit(
        _ type: AuditEventType, _ caller: ManagementCaller, user: UserRecord? = nil, userID: String? = nil,
        target: String? = nil, method: AuthEventMethod? = nil
    ) {
        guard let audit = tokens.events.audit else { return }
        if let user {
            audit.record(
                type, tenantID: caller.tenant.id, clientID: caller.clientID, user: user,
                details: AuditDetails(method: method, target: target))
        } else {
            audit.record(
                type, tenantID: caller.tenant.id, clientID: caller.clientID, userID: userID,
                details: AuditDetails(method: method, target: target))
        }
    }

    private static func reason(status: Int) -> AuditReason {
        switch status {
        case 400: return .invalidRequest
        case 401, 403: return .forbidden
        case 404: return .notFound
        case 409: return .conflict
        case 429: return .tooManyAttempts
        case 500...: return .unavailable
        default: return .other
        }
    }

    // MARK: The q parameter

    /// The subset of Auth0's Lucene `q` that Sesame answers (docs/audit-log.md): terms joined by
    /// spaces or `AND`, each `type:CODE` (several are alternatives), `user_id:ID`, `client_id:ID`,
    /// or `date:[FROM TO UNTIL]` (FROM included, UNTIL not; either may be `*`; ISO 8601 times or
    /// `YYYY-MM-DD`). Values may be double-quoted. Anything else is 400.
    public static func logQuery(_ text: String?) throws(ServiceError) -> AuditQuery {
        var query = AuditQuery()
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return query }
        guard text.utf8.count <= 1_000 else { throw .invalidRequest("q is longer than 1000 bytes") }
        for term in try terms(text) {
            guard let colon = term.firstIndex(of: ":") else {
                throw .invalidRequest("q: unsupported term; use type:, user_id:, client_id: or date:")
            }
            let field = String(term[..<colon])
            let value = unquoted(String(term[term.index(after: colon)...]))
            guard !value.isEmpty else { throw .invalidRequest("q: \(field.prefix(32)) needs a value") }
            switch field {
            case "type":
                guard let type = AuditEventType(rawValue: value) else {
                    throw .invalidRequest("q: \(value.prefix(40)) is not a log event type")
                }
                query.types.append(type)
            case "user_id":
                guard query.userID == nil else { throw .invalidRequest("q: user_id may appear once") }
                query.userID = value
            case "client_id":
                guard query.clientID == nil else { throw .invalidRequest("q: client_id may appear once") }
                query.clientID = value
            case "date":
                guard query.from == nil, query.to == nil else { throw .invalidRequest("q: date may appear once") }
                (query.from, query.to) = try dateRange(value)
            default:
                throw .invalidRequest("q: the field \(field.prefix(32)) is not supported")
            }
        }
        return query
    }

    /// Splits `q` on spaces and `AND` outside quotes and brackets.
    private static func terms(_ text: String) throws(ServiceError) -> [String] {
        var terms: [String] = []
        var current = ""
        var quoted = false
        var bracket = false
        for character in text {
            switch character {
            case "\"": quoted.toggle()
            case "[" where !quoted: bracket = true
            case "]" where !quoted: bracket = false
            default: break
            }
            if character == " " && !quoted && !bracket {
                if !current.isEmpty { terms.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted, !bracket else { throw .invalidRequest("q: an unclosed quote or bracket") }
        if !current.isEmpty { terms.append(current) }
        let kept = terms.filter { $0 != "AND" }
        if kept.contains(where: { $0 == "OR" || $0 == "NOT" || $0.hasPrefix("(") || $0.hasPrefix("-") }) {
            throw .invalidRequest("q: only terms joined by AND are supported (several type: terms are alternatives)")
        }
        return kept
    }

    private static func unquoted(_ value: String) -> String {
        value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
            ? String(value.dropFirst().dropLast()) : value
    }

    private static func dateRange(_ value: String) throws(ServiceError) -> (Date?, Date?) {
        guard value.hasPrefix("["), value.hasSuffix("]") else {
            throw .invalidRequest("q: date takes a range, date:[FROM TO UNTIL]")
        }
        let parts = value.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[1] == "TO" else { throw .invalidRequest("q: date takes [FROM TO UNTIL]") }
        return (try date(String(parts[0])), try date(String(parts[2])))
    }

    private static func date(_ text: String) throws(ServiceError) -> Date? {
        if text == "*" { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        if text.utf8.count == 10, let date = formatter.date(from: text) { return date }
        throw .invalidRequest("q: \(text.prefix(40)) is not an ISO 8601 date")
    }
}

import Foundation
import SesameStore

/// One audit-log entry as `GET /api/v2/logs`, the JSON-lines file and the webhook show it (Auth0's
/// log event shape). Names (client, connection, strategy) are looked up when the entry is shown.
public struct AuditEntry: Sendable, Hashable, Encodable {
    public var logID: String
    public var date: String
    public var type: String
    public var description: String
    public var clientID: String?
    public var clientName: String?
    public var ip: String?
    public var userAgent: String?
    public var userID: String?
    public var userName: String?
    public var connection: String?
    public var connectionID: String?
    public var strategy: String?
    public var details: Details
    /// The tenant, for a sink that receives several tenants' entries (not part of the API answer).
    public var tenantID: String

    /// `details`: only typed, secret-free facts (AuditDetails).
    public struct Details: Sendable, Hashable, Encodable {
        public var method: String?
        public var reason: String?
        public var request: Request?
        public var status: Int?
        public var target: String?
        public var scope: String?

        public struct Request: Sendable, Hashable, Encodable {
            public var method: String
            public var path: String
        }

        init(_ details: AuditDetails) {
            method = details.method?.rawValue
            reason = details.reason?.rawValue
            if let verb = details.requestMethod, let path = details.requestPath {
                request = Request(method: verb.rawValue, path: path)
            }
            status = details.status
            target = details.target
            scope = details.scope
        }
    }

    /// The names an entry shows beside its ids.
    struct Names {
        var clients: [String: String] = [:]
        var connections: [String: ConnectionRecord] = [:]
    }

    init(_ event: AuditEventRecord, names: Names) {
        logID = event.id
        date = APITimestamp.string(event.at)
        type = event.type.rawValue
        description = event.type.summary
        clientID = event.clientID
        clientName = event.clientID.flatMap { names.clients[$0] }
        ip = event.ip
        userAgent = event.userAgent
        userID = event.userID
        userName = event.userName
        connectionID = event.connectionID
        let connection = event.connectionID.flatMap { names.connections[$0] }
        self.connection = connection?.name
        strategy = connection?.strategy.rawValue
        details = Details(event.details)
        tenantID = event.tenantID
    }

    /// The entries of `events`, with the names their clients and connections have now.
    static func make(_ events: [AuditEventRecord], in transaction: any StoreTransaction) throws -> [AuditEntry] {
        var names = Names()
        for event in events {
            if let id = event.clientID, names.clients[id] == nil,
                let client = try transaction.clients.get(tenantID: event.tenantID, id: id)
            {
                names.clients[id] = client.name
            }
            if let id = event.connectionID, names.connections[id] == nil,
                let connection = try transaction.connections.get(tenantID: event.tenantID, id: id)
            {
                names.connections[id] = connection
            }
        }
        return events.map { AuditEntry($0, names: names) }
    }

    /// Up to `limit` of the tenant's entries that match `query`, newest first, with their names
    /// (`sesame logs` reads the store with it).
    public static func newest(
        in store: any SesameStore, tenantID: String, query: AuditQuery, limit: Int
    ) throws -> [AuditEntry] {
        try store.read { transaction in
            var events: [AuditEventRecord] = []
            while events.count < limit {
                let wanted = min(100, limit - events.count)
                let page = try transaction.auditEvents.list(
                    tenantID: tenantID, query: query, page: Page(offset: events.count, limit: wanted))
                events += page
                if page.count < wanted { break }
            }
            return try make(events, in: transaction)
        }
    }

    enum CodingKeys: String, CodingKey {
        case logID = "log_id"
        case date, type, description
        case clientID = "client_id"
        case clientName = "client_name"
        case ip
        case userAgent = "user_agent"
        case userID = "user_id"
        case userName = "user_name"
        case connection
        case connectionID = "connection_id"
        case strategy, details
        case tenantID = "tenant_id"
    }

    /// Encodes without `tenant_id` (the API answer; `jsonLine` adds it for the sinks).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(logID, forKey: .logID)
        try c.encode(date, forKey: .date)
        try c.encode(type, forKey: .type)
        try c.encode(description, forKey: .description)
        try c.encodeIfPresent(clientID, forKey: .clientID)
        try c.encodeIfPresent(clientName, forKey: .clientName)
        try c.encodeIfPresent(ip, forKey: .ip)
        try c.encodeIfPresent(userAgent, forKey: .userAgent)
        try c.encodeIfPresent(userID, forKey: .userID)
        try c.encodeIfPresent(userName, forKey: .userName)
        try c.encodeIfPresent(connection, forKey: .connection)
        try c.encodeIfPresent(connectionID, forKey: .connectionID)
        try c.encodeIfPresent(strategy, forKey: .strategy)
        try c.encode(details, forKey: .details)
    }

    /// The entry with `tenant_id` beside its fields.
    struct Tagged: Encodable {
        var entry: AuditEntry
        func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(entry.tenantID, forKey: .tenantID)
        }
    }

    /// One JSON object on one line (no newline inside), with `tenant_id`: the file and the webhook.
    public func jsonLine() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(Tagged(entry: self))) ?? Data("{}".utf8))
    }
}

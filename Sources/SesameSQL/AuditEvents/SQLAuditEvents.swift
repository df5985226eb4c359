import Foundation
import SesameStore

/// The audit log of a SQL transaction: the filtered columns (type, user, client, time) beside the
/// whole entry in `data`. Ids grow with time, so "newest first" is the primary key read backwards.
struct SQLAuditEvents: AuditEventRepository {
    let tx: SQLTransaction

    func append(_ events: [AuditEventRecord]) throws {
        try tx.checkWritable()
        try tx.atomically {
            for event in events {
                try tx.connection.execute(
                    """
                    INSERT INTO audit_events (tenant_id, id, at, type, user_id, client_id, data)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(event.tenantID), .text(event.id), SQLTransaction.time(event.at),
                        .text(event.type.rawValue), .optionalText(event.userID), .optionalText(event.clientID),
                        tx.encode(event),
                    ])
            }
        }
    }

    func get(tenantID: String, id: String) throws -> AuditEventRecord? {
        try tx.checkOpen()
        return try tx.record(
            AuditEventRecord.self, table: "audit_events",
            "SELECT data FROM audit_events WHERE tenant_id = ? AND id = ?",
            [.text(tenantID), .text(id)])
    }

    /// The WHERE clause of `query` for `tenantID`, and its values.
    private static func condition(_ tenantID: String, _ query: AuditQuery) -> (String, [SQLValue]) {
        var sql = "tenant_id = ?"
        var values: [SQLValue] = [.text(tenantID)]
        if !query.types.isEmpty {
            sql += " AND type IN (" + query.types.map { _ in "?" }.joined(separator: ", ") + ")"
            values += query.types.map { .text($0.rawValue) }
        }
        if let userID = query.userID {
            sql += " AND user_id = ?"
            values.append(.text(userID))
        }
        if let clientID = query.clientID {
            sql += " AND client_id = ?"
            values.append(.text(clientID))
        }
        if let from = query.from {
            sql += " AND at >= ?"
            values.append(SQLTransaction.time(from))
        }
        if let to = query.to {
            sql += " AND at < ?"
            values.append(SQLTransaction.time(to))
        }
        return (sql, values)
    }

    func list(tenantID: String, query: AuditQuery, page: Page) throws -> [AuditEventRecord] {
        try tx.checkOpen()
        let (condition, values) = Self.condition(tenantID, query)
        return try tx.records(
            AuditEventRecord.self, table: "audit_events",
            "SELECT data FROM audit_events WHERE \(condition) ORDER BY id DESC LIMIT ? OFFSET ?",
            values + SQLTransaction.paging(page))
    }

    func count(tenantID: String, query: AuditQuery) throws -> Int {
        try tx.checkOpen()
        let (condition, values) = Self.condition(tenantID, query)
        return try tx.count("SELECT COUNT(*) FROM audit_events WHERE \(condition)", values)
    }

    func list(tenantID: String, query: AuditQuery, after: String?, limit: Int) throws -> [AuditEventRecord] {
        try tx.checkOpen()
        var (condition, values) = Self.condition(tenantID, query)
        if let after {
            condition += " AND id > ?"
            values.append(.text(after))
        }
        return try tx.records(
            AuditEventRecord.self, table: "audit_events",
            "SELECT data FROM audit_events WHERE \(condition) ORDER BY id LIMIT ?",
            values + [.integer(Int64(min(max(0, limit), 100)))])
    }

    func deleteOlder(tenantID: String, than before: Date, limit: Int) throws -> Int {
        try tx.checkWritable()
        // The oldest first, by the key; the subquery keeps the batch bounded on both backends.
        return try tx.connection.executeNarrow(
            """
            DELETE FROM audit_events WHERE tenant_id = ? AND id IN (
                SELECT id FROM audit_events WHERE tenant_id = ? AND at < ? ORDER BY id LIMIT ?)
            """,
            [.text(tenantID), .text(tenantID), SQLTransaction.time(before), .integer(Int64(max(0, limit)))])
    }
}

import Foundation
import SesameStore

/// The auth event repository of a SQL transaction.
struct SQLAuthEvents: AuthEventRepository {
    let tx: SQLTransaction

    func insert(_ events: [AuthEventRecord]) throws {
        try tx.checkWritable()
        try tx.atomically {
            for event in events {
                try tx.connection.execute(
                    "INSERT INTO auth_events (tenant_id, id, at, data) VALUES (?, ?, ?, ?)",
                    [
                        .text(event.tenantID), .text(event.id), SQLTransaction.time(event.at),
                        tx.encode(event),
                    ])
            }
            try SQLAuthEvents.addDailyCounts(of: events, tx.connection)
        }
    }

    /// Adds the events that count to the roll-up (`auth_daily_counts`), one upsert per cell.
    static func addDailyCounts(of events: [AuthEventRecord], _ connection: any SQLConnection) throws {
        // A batch may hold several tenants' events: each tenant's cells go under its id.
        var byTenant: [String: [AuthEventRecord]] = [:]
        for event in events { byTenant[event.tenantID, default: []].append(event) }
        for (tenantID, tenantEvents) in byTenant {
            for cell in AuthEventRecord.dailyCounts(tenantEvents) {
                try connection.execute(
                    """
                    INSERT INTO auth_daily_counts (tenant_id, day, client_id, connection_id, method, passkey_kind,
                        aaguid, platform, count)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (tenant_id, day, method, passkey_kind, aaguid, platform, client_id, connection_id)
                    DO UPDATE SET count = auth_daily_counts.count + excluded.count
                    """,
                    [
                        .text(tenantID), .text(cell.day), .text(cell.clientID), .text(cell.connectionID),
                        .text(cell.method.rawValue), .text(cell.passkeyKind?.rawValue ?? ""), .text(cell.aaguid),
                        .text(cell.platform?.rawValue ?? ""), .integer(Int64(cell.count)),
                    ])
            }
        }
    }

    func dailyCounts(
        tenantID: String, from: String, to: String, clientID: String?, connectionID: String?
    ) throws -> [AuthDailyCount] {
        try tx.checkOpen()
        // Summed over the dimensions the query does not name (clients and connections), so a
        // year reads one row per day and kind of authentication rather than one per client too.
        let client = clientID == nil ? "''" : "client_id"
        let connection = connectionID == nil ? "''" : "connection_id"
        var sql = """
            SELECT day, \(client), \(connection), method, passkey_kind, aaguid, platform, SUM(count)
            FROM auth_daily_counts WHERE tenant_id = ? AND day >= ? AND day <= ?
            """
        var values: [SQLValue] = [.text(tenantID), .text(from), .text(to)]
        if let clientID {
            sql += " AND client_id = ?"
            values.append(.text(clientID))
        }
        if let connectionID {
            sql += " AND connection_id = ?"
            values.append(.text(connectionID))
        }
        // In the key's order, so SQLite groups as it reads.
        let named = [clientID == nil ? nil : "client_id", connectionID == nil ? nil : "connection_id"].compactMap { $0 }
        sql +=
            " GROUP BY " + (["day", "method", "passkey_kind", "aaguid", "platform"] + named).joined(separator: ", ")
            + " ORDER BY day"
        return try tx.connection.query(sql, values) { row in
            let method = row.text(3) ?? ""
            let kind = row.text(4) ?? ""
            let platform = row.text(6) ?? ""
            guard let counted = AuthStatsMethod(rawValue: method),
                kind.isEmpty || PasskeyKind(rawValue: kind) != nil,
                platform.isEmpty || ClientPlatform(rawValue: platform) != nil
            else {
                throw StoreError.corrupt("a row of auth_daily_counts names an unknown method, kind or platform")
            }
            return AuthDailyCount(
                day: row.text(0) ?? "", clientID: row.text(1) ?? "", connectionID: row.text(2) ?? "",
                method: counted, passkeyKind: PasskeyKind(rawValue: kind), aaguid: row.text(5) ?? "",
                platform: ClientPlatform(rawValue: platform), count: Int(row.integer(7)))
        }
    }

    func list(tenantID: String, page: Page) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        return try tx.records(
            AuthEventRecord.self, table: "auth_events",
            "SELECT data FROM auth_events WHERE tenant_id = ? ORDER BY at, id LIMIT ? OFFSET ?",
            [.text(tenantID)] + SQLTransaction.paging(page))
    }

    func since(tenantID: String, since: Date, limit: Int) throws -> [AuthEventRecord] {
        try tx.checkOpen()
        return try tx.records(
            AuthEventRecord.self, table: "auth_events",
            "SELECT data FROM auth_events WHERE tenant_id = ? AND at >= ? ORDER BY at, id LIMIT ?",
            [.text(tenantID), SQLTransaction.time(since), .integer(Int64(max(0, limit)))])
    }
}

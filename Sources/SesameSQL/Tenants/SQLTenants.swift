import Foundation
import SesameStore

/// The tenant repository of a SQL transaction.
struct SQLTenants: TenantRepository {
    let tx: SQLTransaction

    func get(id: String) throws -> TenantRecord? {
        try tx.checkOpen()
        return try tx.record(TenantRecord.self, table: "tenants", "SELECT data FROM tenants WHERE id = ?", [.text(id)])
    }

    func get(host: String) throws -> TenantRecord? {
        try tx.checkOpen()
        return try tx.record(
            TenantRecord.self, table: "tenants",
            "SELECT t.data FROM tenant_hosts h JOIN tenants t ON t.id = h.tenant_id WHERE h.host = ?",
            [.text(host.lowercased())])
    }

    func all() throws -> [TenantRecord] {
        try tx.checkOpen()
        return try tx.records(
            TenantRecord.self, table: "tenants", "SELECT data FROM tenants ORDER BY created_at, id", [])
    }

    func insert(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        let data = tx.encode(tenant)
        try tx.atomically {
            try tx.connection.execute(
                "INSERT INTO tenants (id, created_at, version, data) VALUES (?, ?, ?, ?)",
                [.text(tenant.id), SQLTransaction.time(tenant.createdAt), .integer(Int64(tenant.version)), data])
            try insertHosts(of: tenant)
        }
    }

    func update(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        let data = tx.encode(tenant)
        try tx.atomically {
            let changed = try tx.connection.execute(
                "UPDATE tenants SET created_at = ?, version = ?, data = ? WHERE id = ?",
                [SQLTransaction.time(tenant.createdAt), .integer(Int64(tenant.version)), data, .text(tenant.id)])
            guard changed > 0 else { throw StoreError.notFound("tenant \(tenant.id)") }
            try tx.connection.execute("DELETE FROM tenant_hosts WHERE tenant_id = ?", [.text(tenant.id)])
            try insertHosts(of: tenant)
        }
    }

    fileprivate func insertHosts(of tenant: TenantRecord) throws {
        let hosts = Set(([tenant.domain] + tenant.customDomains).map { $0.lowercased() })
        for host in hosts.sorted() {
            try tx.connection.execute(
                "INSERT INTO tenant_hosts (host, tenant_id) VALUES (?, ?)", [.text(host), .text(tenant.id)])
        }
    }
}

import Foundation

/// The tenant repository of a memory transaction.
struct MemoryTenants: TenantRepository {
    let tx: MemoryTransaction

    func get(id: String) throws -> TenantRecord? {
        try tx.checkOpen()
        return tx.state.tenants[id]
    }

    func get(host: String) throws -> TenantRecord? {
        try tx.checkOpen()
        let wanted = host.lowercased()
        return tx.state.tenants.values.first { MemoryTransaction.hosts(of: $0).contains(wanted) }
    }

    func all() throws -> [TenantRecord] {
        try tx.checkOpen()
        return tx.state.tenants.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func insert(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.tenants[tenant.id] == nil else { throw StoreError.conflict(.tenantID) }
        try checkHosts(of: tenant)
        tx.state.tenants[tenant.id] = tenant
    }

    func update(_ tenant: TenantRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.tenants[tenant.id] != nil else { throw StoreError.notFound("tenant \(tenant.id)") }
        try checkHosts(of: tenant)
        tx.state.tenants[tenant.id] = tenant
    }

    fileprivate func checkHosts(of tenant: TenantRecord) throws {
        let mine = MemoryTransaction.hosts(of: tenant)
        for other in tx.state.tenants.values where other.id != tenant.id {
            if !mine.isDisjoint(with: MemoryTransaction.hosts(of: other)) { throw StoreError.conflict(.tenantHost) }
        }
    }
}

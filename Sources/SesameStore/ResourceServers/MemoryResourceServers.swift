import Foundation

/// The resource server repository of a memory transaction.
struct MemoryResourceServers: ResourceServerRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return tx.state.resourceServers[MemoryKey(tenantID: tenantID, id: id)]
    }

    func get(tenantID: String, identifier: String) throws -> ResourceServerRecord? {
        try tx.checkOpen()
        return tx.state.resourceServers.values.first { $0.tenantID == tenantID && $0.identifier == identifier }
    }

    func list(tenantID: String, page: Page) throws -> [ResourceServerRecord] {
        try tx.checkOpen()
        let all = tx.state.resourceServers.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insert(_ server: ResourceServerRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: server.tenantID, id: server.id)
        guard tx.state.resourceServers[key] == nil else { throw StoreError.conflict(.resourceServerID) }
        try checkIdentifier(of: server)
        tx.state.resourceServers[key] = server
    }

    func update(_ server: ResourceServerRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: server.tenantID, id: server.id)
        guard tx.state.resourceServers[key] != nil else { throw StoreError.notFound("resource server \(server.id)") }
        try checkIdentifier(of: server)
        tx.state.resourceServers[key] = server
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.resourceServers.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("resource server \(id)")
        }
    }

    fileprivate func checkIdentifier(of server: ResourceServerRecord) throws {
        let taken = tx.state.resourceServers.values.contains {
            $0.tenantID == server.tenantID && $0.id != server.id && $0.identifier == server.identifier
        }
        if taken { throw StoreError.conflict(.resourceServerIdentifier) }
    }
}

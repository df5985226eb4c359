import Foundation

/// The client repository of a memory transaction.
struct MemoryClients: ClientRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> ClientRecord? {
        try tx.checkOpen()
        return tx.state.clients[MemoryKey(tenantID: tenantID, id: id)]
    }

    func list(tenantID: String, page: Page) throws -> [ClientRecord] {
        try tx.checkOpen()
        let all = tx.state.clients.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insert(_ client: ClientRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: client.tenantID, id: client.id)
        guard tx.state.clients[key] == nil else { throw StoreError.conflict(.clientID) }
        tx.state.clients[key] = client
    }

    func update(_ client: ClientRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: client.tenantID, id: client.id)
        guard tx.state.clients[key] != nil else { throw StoreError.notFound("client \(client.id)") }
        tx.state.clients[key] = client
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.clients.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("client \(id)")
        }
    }
}

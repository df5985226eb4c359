import Foundation

/// The connection repository of a memory transaction.
struct MemoryConnections: ConnectionRepository {
    let tx: MemoryTransaction

    func get(tenantID: String, id: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return tx.state.connections[MemoryKey(tenantID: tenantID, id: id)]
    }

    func get(tenantID: String, name: String) throws -> ConnectionRecord? {
        try tx.checkOpen()
        return tx.state.connections.values.first { $0.tenantID == tenantID && $0.name == name }
    }

    func list(tenantID: String, page: Page) throws -> [ConnectionRecord] {
        try tx.checkOpen()
        let all = tx.state.connections.values.filter { $0.tenantID == tenantID }
        return MemoryTransaction.paged(all.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }, page)
    }

    func insert(_ connection: ConnectionRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: connection.tenantID, id: connection.id)
        guard tx.state.connections[key] == nil else { throw StoreError.conflict(.connectionID) }
        try checkName(of: connection)
        tx.state.connections[key] = connection
    }

    func update(_ connection: ConnectionRecord) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        let key = MemoryKey(tenantID: connection.tenantID, id: connection.id)
        guard tx.state.connections[key] != nil else { throw StoreError.notFound("connection \(connection.id)") }
        try checkName(of: connection)
        tx.state.connections[key] = connection
    }

    func delete(tenantID: String, id: String) throws {
        try tx.checkWritable()
        tx.state.configurationGeneration += 1
        guard tx.state.connections.removeValue(forKey: MemoryKey(tenantID: tenantID, id: id)) != nil else {
            throw StoreError.notFound("connection \(id)")
        }
    }

    fileprivate func checkName(of connection: ConnectionRecord) throws {
        let taken = tx.state.connections.values.contains {
            $0.tenantID == connection.tenantID && $0.id != connection.id && $0.name == connection.name
        }
        if taken { throw StoreError.conflict(.connectionName) }
    }
}

import SesameStore

/// The connection a request names (or the tenant's default), enabled for the client: what the
/// passkey and the password flows both start from before checking their own method is on.
enum ConnectionLookup {
    /// `name` as the request gave it in `field` (`realm`, `connection`); nil for the default.
    static func connection(
        named name: String?, field: String, tenant: TenantRecord, client: ClientRecord,
        in transaction: any StoreTransaction
    ) throws -> ConnectionRecord {
        let found: ConnectionRecord?
        if let name {
            guard name.utf8.count <= 128,
                let connection = try transaction.connections.get(tenantID: tenant.id, name: name)
            else { throw ServiceError.invalidRequest("\(field) is not a connection of this tenant") }
            found = connection
        } else if let id = tenant.defaultConnectionID {
            found = try transaction.connections.get(tenantID: tenant.id, id: id)
        } else {
            found = nil
        }
        guard let connection = found else {
            throw ServiceError.invalidRequest("\(field) is required: the tenant has no default connection")
        }
        // A social connection (Sign in with Apple) holds no users of its own.
        guard connection.strategy == .database else {
            throw ServiceError.invalidRequest("\(field) is not a database connection")
        }
        // The account page serves every user of the tenant, whatever clients their connection has.
        if client.id != AccountClient.id, !connection.enabledClients.isEmpty,
            !connection.enabledClients.contains(client.id)
        {
            throw ServiceError.unauthorizedClient("the connection is not enabled for this client")
        }
        return connection
    }
}

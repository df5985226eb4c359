import Foundation
import SesameCrypto
import SesameStore
import SesameWire
import WebAuthn

/// A client's access to an API, as Auth0's `/api/v2/client-grants` shows it.
public struct ManagedClientGrant: Encodable, Sendable, Hashable {
    public var id: String
    public var clientID: String
    public var audience: String
    public var scope: [String]

    enum CodingKeys: String, CodingKey {
        case id
        case clientID = "client_id"
        case audience
        case scope
    }

    /// Grants are stored on their client; the id is derived from client and audience, so it is stable.
    static func id(clientID: String, audience: String) -> String {
        "cgr_" + Hex.lowercase(Array(Digest.sha256(Array("\(clientID)\n\(audience)".utf8)).prefix(12)))
    }

    init(clientID: String, grant: ClientGrantSettings) {
        self.id = Self.id(clientID: clientID, audience: grant.audience)
        self.clientID = clientID
        self.audience = grant.audience
        self.scope = grant.scopes
    }
}

extension ManagementService {
    /// Checks a grant's scopes against the API it names, in `transaction`: the Management API's
    /// scopes (and only those the caller holds, so no grant outranks its maker), or the scopes an
    /// API (resource server) of the tenant defines. Anything else is 400.
    static func validateGrant(
        audience: String, scope: [String], _ caller: ManagementCaller, in transaction: any StoreTransaction
    ) throws {
        if audience == TokenService.managementAudience(caller.tenant) {
            try validateGrantScopes(scope)
            try caller.requireHolding(scope, "this grant")
            return
        }
        guard let api = try transaction.resourceServers.get(tenantID: caller.tenant.id, identifier: audience) else {
            throw ServiceError.invalidRequest("audience is not an API of this tenant")
        }
        let defined = Set(api.scopes.map(\.value))
        if let unknown = scope.first(where: { !defined.contains($0) }) {
            throw ServiceError.invalidRequest("scope \(unknown.prefix(64)) is not a scope of this API")
        }
    }

    /// `GET /client-grants`, optionally for one client or audience.
    public func clientGrants(
        _ caller: ManagementCaller, clientID: String?, audience: String?
    ) throws(ServiceError) -> [ManagedClientGrant] {
        try caller.require(.readClientGrants)
        let clients = try access.read { transaction in
            try Page.all { try transaction.clients.list(tenantID: caller.tenant.id, page: $0) }
        }
        return clients.filter { clientID == nil || $0.id == clientID }.flatMap { client in
            client.grants.filter { audience == nil || $0.audience == audience }.map {
                ManagedClientGrant(clientID: client.id, grant: $0)
            }
        }
    }

    /// `POST /client-grants` `{client_id, audience, scope}`: 409 when the client already has a grant
    /// for that audience.
    public func createClientGrant(
        _ caller: ManagementCaller, clientID: String, audience: String, scope: [String]
    ) throws(ServiceError) -> ManagedClientGrant {
        try caller.require(.createClientGrants)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            try Self.validateGrant(audience: audience, scope: scope, caller, in: transaction)
            guard var client = try transaction.clients.get(tenantID: caller.tenant.id, id: clientID) else {
                throw ServiceError.notFound("client not found")
            }
            guard !client.grants.contains(where: { $0.audience == audience }) else {
                throw ServiceError.conflict("the client already has a grant for this audience")
            }
            let grant = ClientGrantSettings(audience: audience, scopes: scope)
            client.grants.append(grant)
            client.updatedAt = now
            try transaction.clients.update(client)
            return ManagedClientGrant(clientID: client.id, grant: grant)
        }
    }

    /// `PATCH /client-grants/{id}` `{scope}`.
    public func updateClientGrant(
        _ caller: ManagementCaller, id: String, scope: [String]
    ) throws(ServiceError) -> ManagedClientGrant {
        try caller.require(.updateClientGrants)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            var (client, index) = try Self.findGrant(id, tenant: caller.tenant, in: transaction)
            try Self.validateGrant(audience: client.grants[index].audience, scope: scope, caller, in: transaction)
            client.grants[index].scopes = scope
            client.updatedAt = now
            try transaction.clients.update(client)
            return ManagedClientGrant(clientID: client.id, grant: client.grants[index])
        }
    }

    /// `DELETE /client-grants/{id}`.
    public func deleteClientGrant(_ caller: ManagementCaller, id: String) throws(ServiceError) {
        try caller.require(.deleteClientGrants)
        let now = clock.now()
        try access.write(.durable) { transaction in
            var (client, index) = try Self.findGrant(id, tenant: caller.tenant, in: transaction)
            client.grants.remove(at: index)
            client.updatedAt = now
            try transaction.clients.update(client)
        }
    }

    static func validateGrantScopes(_ scope: [String]) throws(ServiceError) {
        let known = Set(ManagementScope.allCases.map(\.rawValue))
        if let unknown = scope.first(where: { !known.contains($0) }) {
            throw .invalidRequest("scope \(unknown.prefix(64)) is not a Management API scope")
        }
    }

    static func findGrant(
        _ id: String, tenant: TenantRecord, in transaction: any StoreTransaction
    ) throws -> (ClientRecord, Int) {
        let clients = try Page.all { try transaction.clients.list(tenantID: tenant.id, page: $0) }
        for client in clients {
            if let index = client.grants.firstIndex(where: {
                ManagedClientGrant.id(clientID: client.id, audience: $0.audience) == id
            }) {
                return (client, index)
            }
        }
        throw ServiceError.notFound("client grant not found")
    }
}

import Foundation
import SesameStore
import SesameWire

/// `POST`/`PATCH /resource-servers` input; nil members are left as they are (or defaulted on create).
public struct ResourceServerInput: Sendable {
    public var identifier: String?
    public var name: String?
    public var scopes: [ResourceServerScope]?
    public var signingAlgorithm: String?
    public var tokenLifetime: Int?
    public var allowOfflineAccess: Bool?
    public var skipConsentForVerifiableFirstPartyClients: Bool?

    public init(
        identifier: String? = nil, name: String? = nil, scopes: [ResourceServerScope]? = nil,
        signingAlgorithm: String? = nil, tokenLifetime: Int? = nil, allowOfflineAccess: Bool? = nil,
        skipConsentForVerifiableFirstPartyClients: Bool? = nil
    ) {
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
        self.signingAlgorithm = signingAlgorithm
        self.tokenLifetime = tokenLifetime
        self.allowOfflineAccess = allowOfflineAccess
        self.skipConsentForVerifiableFirstPartyClients = skipConsentForVerifiableFirstPartyClients
    }
}

/// An API as Auth0's `/api/v2/resource-servers` shows it.
public struct ManagedResourceServer: Encodable, Sendable, Hashable {
    public struct Scope: Encodable, Sendable, Hashable {
        public var value: String
        public var description: String
    }

    public var id: String
    public var name: String
    public var identifier: String
    public var scopes: [Scope]
    public var signingAlg: String
    public var tokenLifetime: Int
    public var allowOfflineAccess: Bool
    public var skipConsentForVerifiableFirstPartyClients: Bool
    public var isSystem: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, identifier, scopes
        case signingAlg = "signing_alg"
        case tokenLifetime = "token_lifetime"
        case allowOfflineAccess = "allow_offline_access"
        case skipConsentForVerifiableFirstPartyClients = "skip_consent_for_verifiable_first_party_clients"
        case isSystem = "is_system"
    }

    init(_ record: ResourceServerRecord) {
        id = record.id
        name = record.name
        identifier = record.identifier
        scopes = record.scopes.map { Scope(value: $0.value, description: $0.description) }
        signingAlg = record.signingAlgorithm.rawValue
        tokenLifetime = record.tokenLifetime
        allowOfflineAccess = record.allowOfflineAccess
        skipConsentForVerifiableFirstPartyClients = record.skipConsentForVerifiableFirstPartyClients
        isSystem = false
    }
}

extension ManagementService {
    /// The most scopes one API defines.
    public static let maxResourceServerScopes = 200
    /// Access token lifetimes an API may set, in seconds (one minute to 30 days, as Auth0 allows).
    public static let resourceServerTokenLifetimes = 60...2_592_000

    /// `GET /resource-servers`.
    public func listResourceServers(
        _ caller: ManagementCaller, _ list: ListRequest
    ) throws(ServiceError) -> ManagedList<ManagedResourceServer> {
        try caller.require(.readResourceServers)
        let list = try list.validated()
        let (items, total) = try access.read { transaction in
            try Self.page(list) { try transaction.resourceServers.list(tenantID: caller.tenant.id, page: $0) }
        }
        return ManagedList(
            name: "resource_servers", items: items.map(ManagedResourceServer.init), start: list.page * list.perPage,
            limit: list.perPage, total: total)
    }

    /// `GET /resource-servers/{id}`: by id, or (as Auth0 allows) by identifier.
    public func resourceServer(_ caller: ManagementCaller, id: String) throws(ServiceError) -> ManagedResourceServer {
        try caller.require(.readResourceServers)
        return ManagedResourceServer(try access.read { try Self.existingResourceServer(id, caller, $0) })
    }

    /// `POST /resource-servers`: 409 when the identifier is taken.
    public func createResourceServer(
        _ caller: ManagementCaller, _ input: ResourceServerInput
    ) throws(ServiceError) -> ManagedResourceServer {
        try caller.require(.createResourceServers)
        guard let identifier = input.identifier else { throw .invalidRequest("identifier is required") }
        let checked = try Self.resourceServerIdentifier(identifier, tenant: caller.tenant)
        let now = clock.now()
        let blank = ResourceServerRecord(
            tenantID: caller.tenant.id, id: "rs_" + Hex.lowercase(try random.serviceBytes(16)),
            identifier: checked, name: input.name == nil ? checked : "", createdAt: now, updatedAt: now)
        let record = try Self.apply(input, to: blank)
        try access.write(.durable) { transaction in
            if try transaction.resourceServers.get(tenantID: caller.tenant.id, identifier: record.identifier) != nil {
                throw ServiceError.conflict("an API with this identifier already exists")
            }
            try transaction.resourceServers.insert(record)
        }
        return ManagedResourceServer(record)
    }

    /// `PATCH /resource-servers/{id}`. The identifier cannot change (tokens carry it). Scopes that
    /// are removed are also removed from client grants for the API, in the same transaction.
    public func updateResourceServer(
        _ caller: ManagementCaller, id: String, _ input: ResourceServerInput
    ) throws(ServiceError) -> ManagedResourceServer {
        try caller.require(.updateResourceServers)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            let existing = try Self.existingResourceServer(id, caller, transaction)
            if let identifier = input.identifier, identifier != existing.identifier {
                throw ServiceError.invalidRequest("identifier cannot be changed")
            }
            var record = try Self.apply(input, to: existing)
            record.updatedAt = now
            try transaction.resourceServers.update(record)
            let kept = Set(record.scopes.map(\.value))
            try Self.editGrants(for: record.identifier, caller, transaction, now: now) {
                $0.scopes.filter(kept.contains)
            }
            return ManagedResourceServer(record)
        }
    }

    /// `DELETE /resource-servers/{id}`: the API and every client grant for it go together.
    public func deleteResourceServer(_ caller: ManagementCaller, id: String) throws(ServiceError) {
        try caller.require(.deleteResourceServers)
        let now = clock.now()
        try access.write(.durable) { transaction in
            let existing = try Self.existingResourceServer(id, caller, transaction)
            try transaction.resourceServers.delete(tenantID: caller.tenant.id, id: existing.id)
            try Self.editGrants(for: existing.identifier, caller, transaction, now: now) { _ in nil }
        }
    }

    static func existingResourceServer(
        _ id: String, _ caller: ManagementCaller, _ transaction: any StoreTransaction
    ) throws -> ResourceServerRecord {
        guard id.utf8.count <= 600 else { throw ServiceError.notFound("API not found") }
        if let record = try transaction.resourceServers.get(tenantID: caller.tenant.id, id: id)
            ?? transaction.resourceServers.get(tenantID: caller.tenant.id, identifier: id)
        {
            return record
        }
        throw ServiceError.notFound("API not found")
    }

    /// Rewrites every client's grant for `audience`: `change` returns its new scopes, or nil to remove it.
    static func editGrants(
        for audience: String, _ caller: ManagementCaller, _ transaction: any StoreTransaction, now: Date,
        _ change: (ClientGrantSettings) -> [String]?
    ) throws {
        let clients = try Page.all { try transaction.clients.list(tenantID: caller.tenant.id, page: $0) }
        for var client in clients where client.grants.contains(where: { $0.audience == audience }) {
            let before = client.grants
            client.grants = client.grants.compactMap { grant in
                guard grant.audience == audience else { return grant }
                return change(grant).map { ClientGrantSettings(audience: audience, scopes: $0) }
            }
            guard client.grants != before else { continue }
            client.updatedAt = now
            try transaction.clients.update(client)
        }
    }

    static func apply(
        _ input: ResourceServerInput, to record: ResourceServerRecord
    ) throws(ServiceError) -> ResourceServerRecord {
        var record = record
        if let name = input.name { record.name = try ManagementValidation.text(name, "name", max: 200) }
        if let scopes = input.scopes { record.scopes = try resourceServerScopes(scopes) }
        if let algorithm = input.signingAlgorithm {
            record.signingAlgorithm = try ManagementValidation.oneOf(algorithm, "signing_alg", as: JWTAlgorithm.self)
        }
        if let lifetime = input.tokenLifetime {
            record.tokenLifetime = try ManagementValidation.bounded(
                lifetime, "token_lifetime", resourceServerTokenLifetimes)
        }
        if let allow = input.allowOfflineAccess { record.allowOfflineAccess = allow }
        if let skip = input.skipConsentForVerifiableFirstPartyClients {
            record.skipConsentForVerifiableFirstPartyClients = skip
        }
        return record
    }

    /// An API identifier: 1–600 printable ASCII characters without spaces, and not one of the
    /// audiences Sesame itself serves.
    static func resourceServerIdentifier(_ value: String, tenant: TenantRecord) throws(ServiceError) -> String {
        guard (1...600).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidRequest("identifier must be 1 to 600 printable ASCII characters without spaces")
        }
        let reserved = [
            TokenService.managementAudience(tenant), TokenService.myAccountAudience(tenant),
            TokenService.userInfoAudience(tenant),
        ]
        guard !reserved.contains(value) else { throw .invalidRequest("identifier names one of Sesame's own APIs") }
        return value
    }

    /// Scope values: scope-token characters (RFC 6749 §3.3), 1–280 of them, unique, and not an
    /// OpenID Connect scope; descriptions are display text up to 500 characters.
    static func resourceServerScopes(_ scopes: [ResourceServerScope]) throws(ServiceError) -> [ResourceServerScope] {
        guard scopes.count <= maxResourceServerScopes else {
            throw .invalidRequest("scopes holds at most \(maxResourceServerScopes) values")
        }
        var seen = Set<String>()
        var out: [ResourceServerScope] = []
        for (index, scope) in scopes.enumerated() {
            let field = "scopes[\(index)]"
            guard (1...280).contains(scope.value.utf8.count), Scopes.isScopeToken(scope.value) else {
                throw .invalidRequest("\(field).value must be 1 to 280 scope characters (RFC 6749 §3.3)")
            }
            guard !Scopes.openID.contains(scope.value) else {
                throw .invalidRequest("\(field).value \(scope.value) is an OpenID Connect scope")
            }
            guard seen.insert(scope.value).inserted else {
                throw .invalidRequest("\(field).value \(scope.value) is given twice")
            }
            let description =
                scope.description.isEmpty
                ? "" : try ManagementValidation.text(scope.description, "\(field).description", max: 500)
            out.append(ResourceServerScope(value: scope.value, description: description))
        }
        return out
    }
}

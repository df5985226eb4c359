import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// `/api/v2/clients`.
extension ManagementService {
    static let maxFingerprints = 20

    /// `GET /clients`.
    public func listClients(_ caller: ManagementCaller, _ list: ListRequest) throws(ServiceError) -> ManagedList<
        ManagedClient
    > {
        try caller.require(.readClients)
        let list = try list.validated()
        let tenantID = caller.tenant.id
        let (items, total) = try access.read { transaction in
            try Self.page(list) { try transaction.clients.list(tenantID: tenantID, page: $0) }
        }
        return ManagedList(
            name: "clients", items: items.map { ManagedClient($0) }, start: list.page * list.perPage,
            limit: list.perPage, total: total)
    }

    /// `GET /clients/{id}`.
    public func client(_ caller: ManagementCaller, id: String) throws(ServiceError) -> ManagedClient {
        try caller.require(.readClients)
        return ManagedClient(try access.read { try Self.existingClient(id, caller, $0) })
    }

    /// `POST /clients`: a confidential client's secret is returned in this response only.
    public func createClient(_ caller: ManagementCaller, _ input: ClientInput) throws(ServiceError) -> ManagedClient {
        try caller.require(.createClients)
        guard input.name != nil else { throw .invalidRequest("name is required") }
        let now = clock.now()
        let appType =
            try input.appType.map { v throws(ServiceError) in
                try ManagementValidation.oneOf(v, "app_type", as: ClientAppType.self)
            } ?? .native
        var defaults = input
        let grants: [OAuthGrantType] = appType.isInteractive ? [.webAuthn, .refreshToken] : [.clientCredentials]
        defaults.grantTypes = input.grantTypes ?? grants.map(\.rawValue)
        let method: TokenEndpointAuthMethod =
            appType == .native || appType == .spa ? .none : .clientSecretPost
        defaults.tokenEndpointAuthMethod = input.tokenEndpointAuthMethod ?? method.rawValue
        let id: String
        do {
            id = try Identifiers.clientID(random)
        } catch {
            throw .unavailable("the random source failed")
        }
        let blank = ClientRecord(
            tenantID: caller.tenant.id, id: id, name: "", appType: appType, grantTypes: [], createdAt: now,
            updatedAt: now)
        let (record, secret) = try apply(defaults, to: blank)
        // The response carries the new client's secret: a credential (it has no grants yet).
        if secret != nil { try caller.require(.readClientKeys) }
        try access.write(.durable) { try $0.clients.insert(record) }
        return ManagedClient(record, secret: secret)
    }

    /// `PATCH /clients/{id}`: merges the given fields; a switch to a confidential method makes a
    /// secret and returns it, which needs `update:client_keys` and access to the client's secret.
    /// Read, merge and write happen in one transaction, so a concurrent change is never undone.
    public func updateClient(
        _ caller: ManagementCaller, id: String, _ input: ClientInput
    ) throws(ServiceError) -> ManagedClient {
        try caller.require(.updateClients)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            let existing = try Self.existingClient(id, caller, transaction)
            var (record, secret) = try apply(input, to: existing)
            if secret != nil {
                try caller.require(.updateClientKeys)
                try caller.requireSecretAccess(to: record)
            }
            record.updatedAt = now
            try transaction.clients.update(record)
            return ManagedClient(record, secret: secret)
        }
    }

    /// `POST /clients/{id}/rotate-secret` (`update:client_keys`): a new secret for a confidential
    /// client, returned once. The caller must be able to see it (`read:client_keys`) and must hold
    /// every scope the client is granted: otherwise the secret would let it act beyond its token.
    public func rotateClientSecret(_ caller: ManagementCaller, id: String) throws(ServiceError) -> ManagedClient {
        try caller.require(.updateClientKeys)
        let now = clock.now()
        let secret = try newSecret()
        return try access.write(.durable) { transaction in
            var record = try Self.existingClient(id, caller, transaction)
            guard record.tokenEndpointAuthMethod != .none else {
                throw ServiceError.invalidRequest(
                    "the client is public (token_endpoint_auth_method none) and has no secret")
            }
            try caller.requireSecretAccess(to: record)
            record.secretHash = Digest.sha256(Array(secret.utf8))
            record.updatedAt = now
            try transaction.clients.update(record)
            return ManagedClient(record, secret: secret)
        }
    }

    /// `DELETE /clients/{id}`. A client cannot delete itself (that would lock the operator out).
    public func deleteClient(_ caller: ManagementCaller, id: String) throws(ServiceError) {
        try caller.require(.deleteClients)
        guard id != caller.clientID else {
            throw .conflict("a client cannot delete itself; use another management client")
        }
        try access.write(.durable) { transaction in
            _ = try Self.existingClient(id, caller, transaction)
            try transaction.clients.delete(tenantID: caller.tenant.id, id: id)
        }
    }

    // MARK: Helpers

    static func existingClient(
        _ id: String, _ caller: ManagementCaller, _ transaction: any StoreTransaction
    ) throws -> ClientRecord {
        guard id.utf8.count <= 128, let client = try transaction.clients.get(tenantID: caller.tenant.id, id: id) else {
            throw ServiceError.notFound("no client with this id")
        }
        return client
    }

    /// Checks every given field and merges it into `record`; returns the new secret when one was made.
    func apply(_ input: ClientInput, to original: ClientRecord) throws(ServiceError) -> (ClientRecord, String?) {
        typealias V = ManagementValidation
        var record = original
        if let name = input.name { record.name = try V.text(name, "name") }
        if let appType = input.appType { record.appType = try V.oneOf(appType, "app_type", as: ClientAppType.self) }
        if let grantTypes = input.grantTypes {
            let checked = try V.list(grantTypes, "grant_types", max: OAuthGrantType.allCases.count) {
                value, field throws(ServiceError) in
                guard OAuthGrantType(rawValue: value) != nil else {
                    throw .invalidRequest(
                        "\(field) is not a grant type Sesame supports (\(V.names(OAuthGrantType.self)))")
                }
                return value
            }
            record.grantTypes = checked.compactMap(OAuthGrantType.init(rawValue:))
        }
        if let callbacks = input.callbacks {
            record.callbacks = try V.list(callbacks, "callbacks", V.callback)
        }
        if let urls = input.allowedLogoutURLs {
            record.allowedLogoutURLs = try V.list(urls, "allowed_logout_urls", V.callback)
        }
        if let origins = input.allowedOrigins {
            record.allowedOrigins = try V.list(origins, "allowed_origins", V.origin)
        }
        if let firstParty = input.isFirstParty { record.isFirstParty = firstParty }
        if let method = input.tokenEndpointAuthMethod {
            record.tokenEndpointAuthMethod = try V.oneOf(
                method, "token_endpoint_auth_method", as: TokenEndpointAuthMethod.self)
        }
        if let algorithm = input.jwtAlgorithm {
            record.jwtAlgorithm = try V.oneOf(algorithm, "jwt_configuration.alg", as: JWTAlgorithm.self)
        }
        switch input.ios {
        case .keep: break
        case .remove: record.ios = nil
        case .set(let ios):
            guard let teamID = ios.teamID ?? record.ios?.teamID else {
                throw .invalidRequest("mobile.ios.team_id is required")
            }
            guard let bundle = ios.bundleIdentifier ?? record.ios?.bundleIdentifier else {
                throw .invalidRequest("mobile.ios.app_bundle_identifier is required")
            }
            record.ios = IOSAppSettings(
                teamID: try V.teamID(teamID, "mobile.ios.team_id"),
                bundleIdentifier: try V.bundleIdentifier(bundle, "mobile.ios.app_bundle_identifier"))
        }
        switch input.android {
        case .keep: break
        case .remove: record.android = nil
        case .set(let android):
            guard let package = android.packageName ?? record.android?.packageName else {
                throw .invalidRequest("mobile.android.app_package_name is required")
            }
            let given = android.sha256CertFingerprints ?? record.android?.sha256CertFingerprints ?? []
            guard !given.isEmpty else {
                throw .invalidRequest("mobile.android.sha256_cert_fingerprints needs at least one fingerprint")
            }
            let fingerprints = try V.list(
                given, "mobile.android.sha256_cert_fingerprints", max: Self.maxFingerprints, V.fingerprint)
            record.android = AndroidAppSettings(
                packageName: try V.packageName(package, "mobile.android.app_package_name"),
                sha256CertFingerprints: fingerprints)
        }
        if record.grantTypes.contains(.clientCredentials), record.tokenEndpointAuthMethod == .none {
            throw .invalidRequest(
                "grant_types includes client_credentials, which needs a confidential token_endpoint_auth_method")
        }
        var secret: String?
        if record.tokenEndpointAuthMethod == .none {
            record.secretHash = nil
        } else if record.secretHash == nil {
            let fresh = try newSecret()
            record.secretHash = Digest.sha256(Array(fresh.utf8))
            secret = fresh
        }
        return (record, secret)
    }

    private func newSecret() throws(ServiceError) -> String {
        do {
            return try Identifiers.secret(random)
        } catch {
            throw .unavailable("the random source failed")
        }
    }
}

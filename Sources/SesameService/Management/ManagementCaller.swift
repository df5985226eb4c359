import SesameStore

/// Proof that a Management API request was authorized: only `ManagementService.authorize` makes
/// one, and every management operation takes one, so none can run unauthenticated.
public struct ManagementCaller: Sendable {
    /// The tenant the token was issued by and the request is for.
    public let tenant: TenantRecord
    /// The m2m client the token was issued to.
    public let clientID: String?
    /// The token's scopes.
    public let scopes: Set<String>

    init(tenant: TenantRecord, clientID: String?, scopes: Set<String>) {
        self.tenant = tenant
        self.clientID = clientID
        self.scopes = scopes
    }

    /// 403 `insufficient_scope` unless the token carries `scope`.
    func require(_ scope: ManagementScope) throws(ServiceError) {
        guard scopes.contains(scope.rawValue) else {
            throw .insufficientScope("this operation needs the \(scope.rawValue) scope")
        }
    }

    /// 403 `insufficient_scope` unless the token carries every one of `granted`: no call may give
    /// a client, or hand the caller the secret of a client, that can do more than the caller.
    func requireHolding(_ granted: [String], _ what: String) throws(ServiceError) {
        if let missing = granted.first(where: { !scopes.contains($0) }) {
            throw .insufficientScope("\(what) would give \(missing.prefix(64)), which this token does not hold")
        }
    }

    /// May this caller receive (or make) the secret of `client`? It needs `read:client_keys` and
    /// every Management API scope the client is granted, or the secret would let it act with more
    /// than it holds. (Grants for the tenant's own APIs give nothing on the Management API.)
    func requireSecretAccess(to client: ClientRecord) throws(ServiceError) {
        try require(.readClientKeys)
        let management = TokenService.managementAudience(tenant)
        try requireHolding(
            client.grants.filter { $0.audience == management }.flatMap(\.scopes),
            "the secret of client \(client.id.prefix(64))")
    }
}

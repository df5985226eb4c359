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
}

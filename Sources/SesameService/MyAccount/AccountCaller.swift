import Foundation
import SesameStore

/// Proof that a My Account request carried a valid user access token: only
/// `MyAccountService.authorize` makes one, and every My Account operation takes one.
public struct AccountCaller: Sendable {
    /// The tenant the token was issued by.
    public let tenant: TenantRecord
    /// The signed-in user (the token's `sub`).
    public let userID: String
    /// The client the token was issued to (its origins apply to enrollment).
    public let clientID: String
    /// The token's scopes.
    public let scopes: Set<String>
    /// When the user last proved who they are (the token's `auth_time`), if it says.
    public let authTime: Date?
    /// The device key the token's sign-in used, when it was a device-key re-authentication.
    public let deviceKeyID: String?
    /// How the user signed in (the token's or session's RFC 8176 `amr`).
    public let amr: [String]

    init(
        tenant: TenantRecord, userID: String, clientID: String, scopes: Set<String>, authTime: Date? = nil,
        deviceKeyID: String? = nil, amr: [String] = []
    ) {
        self.authTime = authTime
        self.amr = amr
        self.deviceKeyID = deviceKeyID
        self.tenant = tenant
        self.userID = userID
        self.clientID = clientID
        self.scopes = scopes
    }

    /// 403 `insufficient_scope` unless the token carries `scope`.
    func require(_ scope: MyAccountScope) throws(ServiceError) {
        guard scopes.contains(scope.rawValue) else {
            throw .insufficientScope("this operation needs the \(scope.rawValue) scope")
        }
    }
}

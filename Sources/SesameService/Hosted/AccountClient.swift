import Foundation
import SesameStore

/// The account page's own client: a client that exists in no store, so every tenant has it, and
/// that the hosted sign-in treats as first-party. A sign-in for it ends with the session cookie
/// and a redirect to the page, never a code. Client ids the Management API makes are random
/// base64url, so none can take this one.
public enum AccountClient {
    public static let id = "sesame-account"

    /// The client as a record, for the checks that take one (origins, connections).
    public static func record(_ tenant: TenantRecord) -> ClientRecord {
        ClientRecord(
            tenantID: tenant.id, id: id, name: tenant.name, appType: .regularWeb, grantTypes: [.authorizationCode],
            callbacks: [tenant.publicURL + "/account"], createdAt: tenant.createdAt, updatedAt: tenant.createdAt)
    }

    /// The client `id` names: this one, or one in the store.
    static func client(_ id: String, tenant: TenantRecord, in transaction: any StoreTransaction) throws
        -> ClientRecord?
    {
        id == Self.id ? record(tenant) : try transaction.clients.get(tenantID: tenant.id, id: id)
    }
}

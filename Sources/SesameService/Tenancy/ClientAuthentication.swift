import SesameCrypto
import SesameStore

/// The client identification a request carried (body `client_id`/`client_secret`, or HTTP Basic).
public struct ClientCredentials: Sendable, Hashable {
    public var clientID: String?
    public var clientSecret: String?
    public init(clientID: String?, clientSecret: String?) {
        self.clientID = clientID
        self.clientSecret = clientSecret
    }
}

enum ClientAuthentication {
    /// Finds the client and checks its secret when it is confidential (constant-time, on hashes).
    static func authenticate(
        _ credentials: ClientCredentials, tenant: TenantRecord, in transaction: any StoreTransaction
    ) throws -> ClientRecord {
        guard let clientID = credentials.clientID, !clientID.isEmpty else {
            throw ServiceError.invalidRequest("client_id is required")
        }
        guard clientID.utf8.count <= 128, let client = try transaction.clients.get(tenantID: tenant.id, id: clientID)
        else {
            throw ServiceError.invalidClient("unknown client")
        }
        if let secretHash = client.secretHash, client.tokenEndpointAuthMethod != .none {
            guard let secret = credentials.clientSecret, !secret.isEmpty else {
                throw ServiceError.invalidClient("client authentication is required for this client")
            }
            guard constantTimeEquals(Digest.sha256(Array(secret.utf8)), secretHash) else {
                throw ServiceError.invalidClient("client authentication failed")
            }
        } else if let secret = credentials.clientSecret, !secret.isEmpty {
            throw ServiceError.invalidClient("this client is public and has no secret")
        }
        return client
    }

    /// 403 unless the client has `grantType` enabled.
    static func requireGrant(_ grantType: OAuthGrantType, _ client: ClientRecord) throws {
        guard client.grantTypes.contains(grantType) else {
            throw ServiceError.unauthorizedClient("the grant type \(grantType.rawValue) is not enabled for this client")
        }
    }
}

import Foundation
import SesameStore
import SesameWire

/// The `client_credentials` grant (RFC 6749 §4.4): a confidential client's own token for the
/// Management API or one of the tenant's APIs it has a grant for.
struct ClientCredentialsGrant: TokenGrant {
    struct Parameters: ScopedGrantParameters {
        var scope: String?
        var audience: String?

        static let fields: [GrantField<Self>] = GrantField.scopeAndAudience
    }

    let access: StoreAccess
    let clock: any ServiceClock
    let events: AuthEventRecorder
    var grantTypes: [OAuthGrantType] { [.clientCredentials] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (tenant, client) = (context.tenant, context.client)
        guard client.secretHash != nil else {
            throw .unauthorizedClient("client_credentials needs a confidential client")
        }
        guard let audience = parameters.audience, !audience.isEmpty else {
            throw .invalidRequest("audience is required for client_credentials")
        }
        guard let grant = client.grants.first(where: { $0.audience == audience }) else {
            throw .unauthorizedClient("this client has no grant for that audience")
        }
        // The Management API, or one of the tenant's APIs with its own lifetime and algorithm.
        var lifetime = tenant.accessTokenLifetime
        var algorithm = client.jwtAlgorithm
        if audience != TokenService.managementAudience(tenant) {
            let api = try access.read { try $0.resourceServers.get(tenantID: tenant.id, identifier: audience) }
            guard let api else { throw .unauthorizedClient("this client has no grant for that audience") }
            lifetime = api.tokenLifetime
            algorithm = api.signingAlgorithm
        }
        let requested = try Scopes.parse(parameters.scope)
        if let extra = requested.first(where: { !grant.scopes.contains($0) }) {
            throw .invalidScope("scope \(extra.prefix(64)) is not granted to this client for that audience")
        }
        return .client(
            ClientGrant(
                client: client, audience: audience, scopes: requested.isEmpty ? grant.scopes : requested,
                lifetime: lifetime, algorithm: algorithm,
                finish: { [events, clock] in
                    // Recorded once the token is signed, so a failed signing is no success.
                    events.record(
                        tenantID: tenant.id, type: .clientCredentials, method: .clientSecret, outcome: .success,
                        at: clock.now(), clientID: client.id, userID: nil, connectionID: nil)
                }))
    }
}

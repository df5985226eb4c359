import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// The Management API (`/api/v2`): clients, connections, users and their authentication methods,
/// tenant settings. Every call is authorized by an m2m access token with the route's scope.
public final class ManagementService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock
    let random: any RandomSource
    let tokens: TokenService
    let passwords: PasswordService
    let sealer: MessageSealer
    /// Seals Apple connections' `.p8` keys.
    let appleKeys: AppleKeySealer
    /// Tells users when an administrator removes a way to sign in.
    let notices: CredentialNotices

    public init(
        store: any SesameStore, clock: any ServiceClock, random: any RandomSource, tokens: TokenService,
        passwords: PasswordService, sealer: MessageSealer, appleKeys: AppleKeySealer, messages: any MessageSender
    ) {
        self.notices = CredentialNotices(messages: messages)
        self.appleKeys = appleKeys
        self.sealer = sealer
        self.passwords = passwords
        self.access = StoreAccess(store: store)
        self.clock = clock
        self.random = random
        self.tokens = tokens
    }

    // MARK: Authorization

    /// Checks that `principal` may call the Management API (audience `<issuer>api/v2/`) with
    /// `scope`: 401 `invalid_token` for a principal of another API, 403 `insufficient_scope`
    /// without the scope.
    ///
    /// The token is only as good as its client is now: a deleted client's tokens stop at once, and
    /// the scopes in force are those of the token that the client's grant still holds.
    public func authorize(
        _ principal: Principal, tenant: TenantRecord, scope: ManagementScope
    ) throws(ServiceError) -> ManagementCaller {
        let audience = TokenService.managementAudience(tenant)
        try principal.require(tenant: tenant, audience: audience)
        guard let clientID = principal.clientID else {
            throw .invalidToken("the access token names no client")
        }
        let granted = try access.read { transaction -> Set<String> in
            guard let client = try transaction.clients.get(tenantID: tenant.id, id: clientID),
                client.grantTypes.contains(.clientCredentials)
            else {
                throw ServiceError.invalidToken("the token's client no longer exists or may no longer use the API")
            }
            return Set(client.grants.filter { $0.audience == audience }.flatMap(\.scopes))
        }
        let caller = ManagementCaller(
            tenant: tenant, clientID: clientID, scopes: principal.scopes.intersection(granted))
        try caller.require(scope)
        return caller
    }

    // MARK: Shared helpers

    /// One page of a list, with the total when asked for (Auth0's `include_totals`).
    static func page<T>(
        _ request: ListRequest, _ fetch: (Page) throws -> [T]
    ) throws -> (items: [T], total: Int?) {
        let items = try fetch(Page(offset: request.page * request.perPage, limit: request.perPage))
        guard request.includeTotals else { return (items, nil) }
        return (items, try Page.all(fetch).count)
    }

}

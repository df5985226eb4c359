import Foundation

/// One `InMemoryStore` transaction: works on its own copy of the state. Every check runs before the
/// first change, so an operation that throws leaves the copy as it was.
final class MemoryTransaction: StoreTransaction {
    var state: MemoryState
    private let writable: Bool
    private var open = true

    init(state: MemoryState, writable: Bool) {
        self.state = state
        self.writable = writable
    }

    /// Ends the transaction: any later call throws.
    func close() { open = false }

    func checkOpen() throws {
        guard open else { throw StoreError.unavailable("the transaction has ended") }
    }

    func checkWritable() throws {
        try checkOpen()
        guard writable else { throw StoreError.unavailable("write in a read transaction") }
    }

    // MARK: Helpers

    /// The lowercased hosts a tenant answers on: its domain and custom domains.
    static func hosts(of tenant: TenantRecord) -> Set<String> {
        Set(([tenant.domain] + tenant.customDomains).map { $0.lowercased() })
    }

    func configurationGeneration() throws -> Int64 {
        try checkOpen()
        return state.configurationGeneration
    }

    static func paged<T>(_ items: [T], _ page: Page) -> [T] {
        Array(items.dropFirst(page.offset).prefix(page.limit))
    }

    // MARK: Repositories

    var tenants: any TenantRepository { MemoryTenants(tx: self) }
    var clients: any ClientRepository { MemoryConfigurations<ClientRecord>(tx: self) }
    var connections: any ConnectionRepository { MemoryConfigurations<ConnectionRecord>(tx: self) }
    var resourceServers: any ResourceServerRepository { MemoryConfigurations<ResourceServerRecord>(tx: self) }
    var users: any UserRepository { MemoryUsers(tx: self) }
    var passkeys: any PasskeyRepository { MemoryPasskeys(tx: self) }
    var signingKeys: any SigningKeyRepository { MemoryConfigurations<SigningKeyRecord>(tx: self) }
    var refreshTokens: any RefreshTokenRepository { MemoryRefreshTokens(tx: self) }
    var authSessions: any AuthSessionRepository { MemoryAuthSessions(tx: self) }
    var dpopProofs: any DPoPProofRepository { MemoryDPoPProofs(tx: self) }
    var authEvents: any AuthEventRepository { MemoryAuthEvents(tx: self) }
    var attemptCounters: any AttemptCounterRepository { MemoryAttemptCounters(tx: self) }
    var outbox: any OutboxRepository { MemoryOutbox(tx: self) }
    var ssoSessions: any SSOSessionRepository { MemorySSOSessions(tx: self) }
    var deviceKeys: any DeviceKeyRepository { MemoryDeviceKeys(tx: self) }
    var linkedIdentities: any LinkedIdentityRepository { MemoryLinkedIdentities(tx: self) }
    var authenticatorMetadata: any AuthenticatorMetadataRepository { MemoryAuthenticatorMetadata(tx: self) }
    var auditEvents: any AuditEventRepository { MemoryAuditEvents(tx: self) }
}

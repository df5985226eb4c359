import SesameStore

/// What the HTTP layer needs before a request reaches an API: the tenant a host serves, the
/// clients the well-known files list, and whether the store answers. Handlers open no store
/// transaction; they ask this.
public final class TenancyService: Sendable {
    let access: StoreAccess

    public init(store: any SesameStore) {
        access = StoreAccess(store: store)
    }

    /// Runs one request's work. The store's configuration generation is compared at its first
    /// read and trusted for the rest of it, unless this process changes configuration meanwhile;
    /// a change made by another process shows from the next request on.
    public func serving<T>(_ body: () throws -> T) rethrows -> T {
        try ConfigurationScope.run(body)
    }

    /// The tenant served at `host` (a domain or custom domain, without port); 404 when none is.
    public func tenant(host: String) throws(ServiceError) -> TenantRecord {
        guard !host.isEmpty, host.utf8.count <= 253 else { throw .notFound("no tenant is served at this host") }
        guard let tenant = try access.read({ try $0.tenants.get(host: host) }) else {
            throw .notFound("no tenant is served at this host")
        }
        return tenant
    }

    /// Every client of `tenant` (for `apple-app-site-association`, `assetlinks.json`, the demo page).
    public func clients(of tenant: TenantRecord) throws(ServiceError) -> [ClientRecord] {
        try access.read { transaction in try Page.all { try transaction.clients.list(tenantID: tenant.id, page: $0) } }
    }

    /// Throws 503 unless the store answers a read.
    public func checkHealth() throws(ServiceError) {
        _ = try access.read { try $0.configurationGeneration() }
    }
}

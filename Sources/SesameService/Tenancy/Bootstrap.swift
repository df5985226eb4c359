import Foundation
import SesameCrypto
import SesameStore
import SesameWire

/// What `sesame init` prints: the ids to configure apps with, and the management secret (once).
public struct BootstrapResult: Sendable, Hashable, Codable {
    public var tenant: String
    public var rpID: String
    public var connection: String
    public var clientID: String
    public var managementClientID: String
    public var managementClientSecret: String
    /// The one-time link that makes the first admin (`/admin/setup?token=…`), when one was made.
    public var adminSetupURL: String?

    enum CodingKeys: String, CodingKey {
        case tenant
        case rpID = "rp_id"
        case connection
        case clientID = "client_id"
        case managementClientID = "management_client_id"
        case managementClientSecret = "management_client_secret"
        case adminSetupURL = "admin_setup_url"
    }
}

/// Creates the first tenant of an empty store.
public enum Bootstrap {
    /// The default database connection's name (Auth0's).
    public static let defaultConnectionName = "Username-Password-Authentication"

    /// Every Management API scope a management client can be granted.
    public static let managementScopes = ManagementScope.allCases.map(\.rawValue)

    /// The issuer for a public URL: the URL with exactly one trailing slash.
    public static func issuer(publicURL: String) -> String {
        var base = publicURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/"
    }

    /// Checks a public URL: http(s), a host, no path, query or fragment.
    public static func validatePublicURL(_ publicURL: String) throws(ServiceError) -> (host: String, origin: String) {
        guard let components = URLComponents(string: publicURL), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
            components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil, let origin = Origins.origin(of: publicURL)
        else {
            throw .invalidRequest("public URL must be http(s)://host[:port] with no path, query or fragment")
        }
        return (host, origin)
    }

    /// Creates the tenant, its default connection, a native client and a management client in
    /// one durable transaction. Refuses when the store already has a tenant.
    ///
    /// A new tenant refuses breached passwords at signup, reset and change (NIST SP 800-63B
    /// §3.1.1.2: a verifier SHALL); blocking at login stays the operator's choice. Tenants made
    /// before keep the setting they had. `breachDetection: false` makes a tenant as those were.
    public static func initialize(
        store: any SesameStore, publicURL: String, random: any RandomSource, now: Date, breachDetection: Bool = true
    ) throws(ServiceError) -> (BootstrapResult, TenantRecord) {
        let (host, origin) = try validatePublicURL(publicURL)
        let access = StoreAccess(store: store)
        do {
            let tenantID = try Identifiers.make("tnt_", random)
            let connectionID = try Identifiers.make("con_", random)
            let clientID = try Identifiers.clientID(random)
            let managementID = try Identifiers.clientID(random)
            let secret = try Identifiers.secret(random)
            var tenant = TenantRecord(
                id: tenantID, name: host, domain: host, rpID: host, publicURL: origin, allowedOrigins: [origin],
                defaultConnectionID: connectionID, createdAt: now, updatedAt: now)
            tenant.breachedPasswords = BreachedPasswordSettings(enabled: breachDetection)
            // Like Auth0's Username-Password-Authentication: passkeys and passwords side by side.
            let connection = ConnectionRecord(
                tenantID: tenantID, id: connectionID, name: defaultConnectionName,
                password: PasswordPolicy(enabled: true), createdAt: now, updatedAt: now)
            let native = ClientRecord(
                tenantID: tenantID, id: clientID, name: "Default Native App", appType: .native,
                grantTypes: [
                    .webAuthn, .authorizationCode, .refreshToken, .passwordRealm, .password, .mfaOTP, .mfaOOB,
                    .mfaRecoveryCode, .deviceKey, .tokenExchange,
                ],
                // The landing page signs in through /authorize as this client (a demo to copy).
                callbacks: [origin + "/"], tokenEndpointAuthMethod: .none, allowedLogoutURLs: [origin + "/"],
                createdAt: now, updatedAt: now)
            let management = ClientRecord(
                tenantID: tenantID, id: managementID, name: "Sesame Management (m2m)", appType: .nonInteractive,
                grantTypes: [.clientCredentials], tokenEndpointAuthMethod: .clientSecretPost,
                secretHash: Digest.sha256(Array(secret.utf8)),
                grants: [
                    ClientGrantSettings(audience: issuer(publicURL: origin) + "api/v2/", scopes: managementScopes)
                ],
                createdAt: now, updatedAt: now)
            try access.write(.durable) { transaction in
                guard try transaction.tenants.all().isEmpty else {
                    throw ServiceError.conflict("this data directory is already initialised")
                }
                try transaction.tenants.insert(tenant)
                try transaction.connections.insert(connection)
                try transaction.clients.insert(native)
                try transaction.clients.insert(management)
            }
            return (
                BootstrapResult(
                    tenant: tenantID, rpID: host, connection: defaultConnectionName, clientID: clientID,
                    managementClientID: managementID, managementClientSecret: secret),
                tenant
            )
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .unavailable("the random source failed")
        }
    }
}

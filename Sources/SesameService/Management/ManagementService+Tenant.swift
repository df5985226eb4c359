import Foundation
import SesameStore

/// `/api/v2/tenant/settings` and `/api/v2/keys/signing/rotate`.
extension ManagementService {
    public static let accessTokenLifetimes = 60...2_592_000
    public static let idTokenLifetimes = 60...2_592_000
    public static let refreshTokenLifetimes = 3_600...31_557_600
    public static let refreshTokenIdleLifetimes = 300...31_557_600
    /// Hours: one hour to one year.
    public static let sessionLifetimes = 1...8_760

    /// `GET /tenant/settings`.
    public func tenantSettings(_ caller: ManagementCaller) throws(ServiceError) -> ManagedTenantSettings {
        try caller.require(.readTenantSettings)
        return try access.read { transaction in
            let tenant = try Self.currentTenant(caller, transaction)
            return ManagedTenantSettings(tenant, defaultConnection: try Self.defaultConnectionName(tenant, transaction))
        }
    }

    /// `PATCH /tenant/settings`.
    public func updateTenantSettings(
        _ caller: ManagementCaller, _ patch: TenantSettingsPatch
    ) throws(ServiceError) -> ManagedTenantSettings {
        try caller.require(.updateTenantSettings)
        typealias V = ManagementValidation
        let now = clock.now()
        return try access.write(.durable) { transaction in
            var tenant = try Self.currentTenant(caller, transaction)
            if let name = patch.friendlyName { tenant.name = try V.text(name, "friendly_name") }
            if let domains = patch.customDomains {
                tenant.customDomains = try V.list(domains, "custom_domains", max: 20) {
                    value, field throws(ServiceError) in
                    let host = try V.hostname(value, field)
                    guard host != tenant.domain else { throw .invalidRequest("\(field) is the tenant's own domain") }
                    return host
                }
                for (index, host) in tenant.customDomains.enumerated() {
                    if let owner = try transaction.tenants.get(host: host), owner.id != tenant.id {
                        throw ServiceError.conflict("custom_domains[\(index)] is served by another tenant")
                    }
                }
            }
            if let rpID = patch.rpID {
                let host = try V.hostname(rpID, "rp_id")
                let suffix = tenant.domain.hasSuffix("." + host) && host.contains(".")
                guard host == tenant.domain || suffix else {
                    throw ServiceError.invalidRequest(
                        "rp_id must be the tenant's domain or a registrable suffix of it (not a top-level domain)")
                }
                tenant.rpID = host
            }
            if let origins = patch.allowedOrigins {
                tenant.allowedOrigins = try V.list(origins, "allowed_origins", V.origin)
            }
            if let origins = patch.relatedOrigins {
                tenant.relatedOrigins = try V.list(origins, "related_origins") { value, field throws(ServiceError) in
                    let origin = try V.origin(value, field)
                    guard origin.hasPrefix("https://") else {
                        throw .invalidRequest("\(field) must be an https origin")
                    }
                    return origin
                }
            }
            if let name = patch.defaultConnection {
                guard let connection = try transaction.connections.get(tenantID: tenant.id, name: name) else {
                    throw ServiceError.invalidRequest("default_connection is not a connection of this tenant")
                }
                tenant.defaultConnectionID = connection.id
            }
            if let value = patch.accessTokenLifetime {
                tenant.accessTokenLifetime = try V.bounded(value, "access_token_lifetime", Self.accessTokenLifetimes)
            }
            if let value = patch.idTokenLifetime {
                tenant.idTokenLifetime = try V.bounded(value, "id_token_lifetime", Self.idTokenLifetimes)
            }
            if let value = patch.refreshTokenLifetime {
                tenant.refreshTokenLifetime = try V.bounded(
                    value, "refresh_token_lifetime", Self.refreshTokenLifetimes)
            }
            if let value = patch.refreshTokenIdleLifetime {
                tenant.refreshTokenIdleLifetime = try V.bounded(
                    value, "refresh_token_idle_lifetime", Self.refreshTokenIdleLifetimes)
            }
            if let hours = patch.sessionLifetime {
                tenant.sessionLifetime = try V.bounded(hours, "session_lifetime", Self.sessionLifetimes) * 3_600
            }
            if let hours = patch.idleSessionLifetime {
                tenant.idleSessionLifetime =
                    try V.bounded(hours, "idle_session_lifetime", Self.sessionLifetimes) * 3_600
            }
            if let days = patch.auditLogRetentionDays {
                tenant.auditRetentionDays = try V.bounded(
                    days, "audit_log_retention_days", TenantRecord.auditRetentionDaysRange)
            }
            if let days = patch.deletedPasskeyRetentionDays {
                tenant.deletedPasskeyRetentionDays = try V.bounded(
                    days, "deleted_passkey_retention_days", TenantRecord.deletedPasskeyRetentionDaysRange)
            }
            guard tenant.idleSessionLifetime <= tenant.sessionLifetime else {
                throw ServiceError.invalidRequest("idle_session_lifetime must not exceed session_lifetime")
            }
            if let flag = patch.enablePublicSignupUserExistsError { tenant.signupUserExistsError = flag }
            guard tenant.refreshTokenIdleLifetime <= tenant.refreshTokenLifetime else {
                throw ServiceError.invalidRequest(
                    "refresh_token_idle_lifetime must not exceed refresh_token_lifetime")
            }
            tenant.updatedAt = now
            try transaction.tenants.update(tenant)
            return ManagedTenantSettings(tenant, defaultConnection: try Self.defaultConnectionName(tenant, transaction))
        }
    }

    /// `POST /keys/signing/rotate`: rotates every algorithm's key (current → previous, still
    /// published; previous → revoked) and returns the new kids. Needs `update:tenant_settings`.
    public func rotateSigningKeys(_ caller: ManagementCaller) throws(ServiceError) -> RotatedSigningKeys {
        try caller.require(.updateTenantSettings)
        var keys: [RotatedSigningKeys.Key] = []
        for algorithm in SigningKeyRing.algorithms {
            do {
                let kid = try tokens.keyRing.rotate(tenantID: caller.tenant.id, algorithm: algorithm)
                keys.append(RotatedSigningKeys.Key(kid: kid, alg: algorithm.rawValue))
                // Each algorithm's rotation commits on its own: its entry follows it.
                audit(.signingKeyRotated, caller, target: kid)
            } catch {
                throw StoreAccess.map(error)
            }
        }
        return RotatedSigningKeys(kid: keys.first { $0.alg == "RS256" }?.kid ?? "", keys: keys)
    }

    static func currentTenant(_ caller: ManagementCaller, _ transaction: any StoreTransaction) throws -> TenantRecord {
        guard let tenant = try transaction.tenants.get(id: caller.tenant.id) else {
            throw ServiceError.notFound("the tenant no longer exists")
        }
        return tenant
    }

    static func defaultConnectionName(_ tenant: TenantRecord, _ transaction: any StoreTransaction) throws -> String? {
        guard let id = tenant.defaultConnectionID else { return nil }
        return try transaction.connections.get(tenantID: tenant.id, id: id)?.name
    }
}

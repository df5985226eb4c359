import Foundation
import SesameService
import SesameStore

/// `/api/v2/tenant/settings`, `/api/v2/branding` and signing-key rotation (docs/management-api.md).
struct TenantController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/tenant/settings", handler: settings)
        group.patch("/api/v2/tenant/settings", handler: updateSettings)
        group.get("/api/v2/branding", handler: branding)
        group.patch("/api/v2/branding", handler: updateBranding)
        group.post("/api/v2/keys/signing/rotate", handler: rotateSigningKey)
    }

    func settings(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readTenantSettings)
        return try .noStoreJSON(management.tenantSettings(caller))
    }

    func updateSettings(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateTenantSettings)
        let patch = try Self.tenantSettingsPatch(try APIBody.json(request))
        return try .noStoreJSON(management.updateTenantSettings(caller, patch))
    }

    func branding(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.branding(try managementCaller(context, .readTenantSettings)))
    }

    func updateBranding(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateTenantSettings)
        return try .noStoreJSON(
            management.updateBranding(caller, try Self.brandingPatch(try APIBody.json(request))))
    }

    func rotateSigningKey(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateTenantSettings)
        return try .noStoreJSON(management.rotateSigningKeys(caller), status: 201)
    }

    static func tenantSettingsPatch(_ body: APIBody) throws -> TenantSettingsPatch {
        for fixed in ["domain", "issuer"] where body.has(fixed) {
            throw ServiceError.invalidRequest("\(fixed) is read-only")
        }
        try body.allowOnly([
            "friendly_name", "custom_domains", "rp_id", "allowed_origins", "related_origins", "default_connection",
            "access_token_lifetime", "id_token_lifetime", "refresh_token_lifetime", "refresh_token_idle_lifetime",
            "session_lifetime", "idle_session_lifetime", "audit_log_retention_days", "deleted_passkey_retention_days",
            "flags",
        ])
        var flag: Bool?
        if let flags = try body.object("flags") {
            try flags.allowOnly(["enable_public_signup_user_exists_error"])
            flag = try flags.bool("enable_public_signup_user_exists_error")
        }
        var patch = TenantSettingsPatch(
            friendlyName: try body.string("friendly_name", maxLength: 1_024),
            customDomains: try body.strings("custom_domains", maxCount: 20, maxLength: 253),
            rpID: try body.string("rp_id", maxLength: 253), allowedOrigins: try body.strings("allowed_origins"),
            relatedOrigins: try body.strings("related_origins"),
            defaultConnection: try body.string("default_connection", maxLength: 128),
            accessTokenLifetime: try body.int("access_token_lifetime"),
            idTokenLifetime: try body.int("id_token_lifetime"),
            refreshTokenLifetime: try body.int("refresh_token_lifetime"),
            refreshTokenIdleLifetime: try body.int("refresh_token_idle_lifetime"),
            enablePublicSignupUserExistsError: flag)
        patch.sessionLifetime = try body.int("session_lifetime")
        patch.idleSessionLifetime = try body.int("idle_session_lifetime")
        patch.auditLogRetentionDays = try body.int("audit_log_retention_days")
        patch.deletedPasskeyRetentionDays = try body.int("deleted_passkey_retention_days")
        return patch
    }

    /// `PATCH /branding`: `colors.primary`, `colors.page_background`, `logo_url` (null removes),
    /// and `texts` (`{"login.title": {"en": …, "ja": …}}`, replacing every override).
    static func brandingPatch(_ body: APIBody) throws -> BrandingPatch {
        try body.allowOnly(["colors", "logo_url", "texts"])
        var patch = BrandingPatch()
        if let colors = try body.object("colors") {
            try colors.allowOnly(["primary", "page_background"])
            patch.primaryColor = try colors.nullableString("primary", maxLength: 16)
            patch.pageBackground = try colors.nullableString("page_background", maxLength: 16)
        }
        patch.logoURL = try body.nullableString("logo_url", maxLength: 2_048)
        if let texts = try body.object("texts") {
            var map: [String: [String: String]] = [:]
            for name in texts.memberNames.prefix(32) {
                guard let languages = try texts.object(name) else { continue }
                map[name] = try languages.stringMap(maxLength: 1_024)
            }
            patch.texts = map
        }
        return patch
    }
}

import Foundation
import SesameService
import SesameStore
import SesameWire

/// `/api/v2/tenant/settings`, `/api/v2/branding` and signing-key rotation (docs/management-api.md).
struct TenantController: Sendable, ManagementRouting {
    let management: ManagementService

    func register(to group: inout RouteGroup<PrincipalContext>) {
        group.get("/api/v2/tenant/settings", handler: settings)
        group.patch("/api/v2/tenant/settings", body: Self.settingsChange, handler: updateSettings)
        group.get("/api/v2/branding", handler: branding)
        group.patch("/api/v2/branding", body: Self.brandingChange, handler: updateBranding)
        group.post("/api/v2/keys/signing/rotate", handler: rotateSigningKey)
    }

    func settings(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .readTenantSettings)
        return try .noStoreJSON(management.tenantSettings(caller))
    }

    func updateSettings(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws
        -> HTTPResponse
    {
        let caller = try managementCaller(context, .updateTenantSettings)
        let body = try reader.read()
        let patch = try Self.tenantSettingsPatch(body)
        return try .noStoreJSON(management.updateTenantSettings(caller, patch))
    }

    func branding(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        return try .noStoreJSON(management.branding(try managementCaller(context, .readTenantSettings)))
    }

    func updateBranding(_ request: HTTPRequest, _ reader: BodyReader, _ context: PrincipalContext) throws
        -> HTTPResponse
    {
        let caller = try managementCaller(context, .updateTenantSettings)
        let body = try reader.read()
        return try .noStoreJSON(management.updateBranding(caller, try Self.brandingPatch(body)))
    }

    func rotateSigningKey(_ request: HTTPRequest, _ context: PrincipalContext) throws -> HTTPResponse {
        let caller = try managementCaller(context, .updateTenantSettings)
        return try .noStoreJSON(management.rotateSigningKeys(caller), status: 201)
    }

    /// `PATCH /tenant/settings`: lifetimes in seconds, sessions in hours, retention in days.
    static let settingsChange = RequestBody.json([
        WireField("friendly_name", .text(1_024)), WireField("custom_domains", .texts(253, maxItems: 20)),
        WireField("rp_id", .text(253)), WireField("allowed_origins", .texts(2_048, maxItems: 100)),
        WireField("related_origins", .texts(2_048, maxItems: 100)), WireField("default_connection", .text(128)),
        WireField("access_token_lifetime", .integer(ManagementService.accessTokenLifetimes)),
        WireField("id_token_lifetime", .integer(ManagementService.idTokenLifetimes)),
        WireField("refresh_token_lifetime", .integer(ManagementService.refreshTokenLifetimes)),
        WireField("refresh_token_idle_lifetime", .integer(ManagementService.refreshTokenIdleLifetimes)),
        WireField("session_lifetime", .integer(ManagementService.sessionLifetimes)),
        WireField("idle_session_lifetime", .integer(ManagementService.sessionLifetimes)),
        WireField("audit_log_retention_days", .integer(TenantRecord.auditRetentionDaysRange)),
        WireField(
            "deleted_passkey_retention_days", .integer(TenantRecord.deletedPasskeyRetentionDaysRange),
            description:
                "Days a deleted passkey's credential id is remembered, so a sign-in with it signals the authenticator to forget it (0: never). Default 90."
        ),
        WireField(
            "flags", .object(WireObject([WireField("enable_public_signup_user_exists_error", .boolean)]))),
        WireField("domain", .refused("Read-only: 400.")), WireField("issuer", .refused("Read-only: 400.")),
    ])

    static func tenantSettingsPatch(_ body: APIBody) throws -> TenantSettingsPatch {
        for fixed in ["domain", "issuer"] where body.has(fixed) {
            throw ServiceError.invalidRequest("\(fixed) is read-only")
        }
        let flag = try body.object("flags")?.bool("enable_public_signup_user_exists_error")
        var patch = TenantSettingsPatch(
            friendlyName: try body.string("friendly_name"), customDomains: try body.strings("custom_domains"),
            rpID: try body.string("rp_id"), allowedOrigins: try body.strings("allowed_origins"),
            relatedOrigins: try body.strings("related_origins"),
            defaultConnection: try body.string("default_connection"),
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
    static let brandingChange = RequestBody.json([
        WireField(
            "colors",
            .object(
                WireObject([
                    WireField("primary", .string(maxLength: 16, pattern: "^#[0-9A-Fa-f]{6}$"), nullable: true),
                    WireField(
                        "page_background", .string(maxLength: 16, pattern: "^#[0-9A-Fa-f]{6}$"), nullable: true),
                ]))),
        WireField("logo_url", .string(maxLength: 2_048, format: "uri"), nullable: true),
        WireField("texts", .map(.map(.text(1_024), maxMembers: nil), maxMembers: 32)),
    ])

    static func brandingPatch(_ body: APIBody) throws -> BrandingPatch {
        var patch = BrandingPatch()
        if let colors = try body.object("colors") {
            patch.primaryColor = try colors.nullableString("primary")
            patch.pageBackground = try colors.nullableString("page_background")
        }
        patch.logoURL = try body.nullableString("logo_url")
        if let texts = try body.object("texts") {
            var map: [String: [String: String]] = [:]
            for name in texts.memberNames {
                guard let languages = try texts.object(name) else { continue }
                map[name] = try languages.stringMap(maxLength: 1_024)
            }
            patch.texts = map
        }
        return patch
    }
}

import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// The discovery documents (OIDC, JWKS) and the association files apps and browsers read
/// (Apple's, Android's, WebAuthn related origins, passkey endpoints).
struct DiscoveryController: Sendable {
    let tokens: TokenService
    let tenancy: TenancyService

    func register(to group: inout RouteGroup<TenantContext>) {
        group.get("/.well-known/openid-configuration", handler: openIDConfiguration)
        group.get("/.well-known/jwks.json", handler: jwks)
        group.get("/.well-known/apple-app-site-association", handler: appleAppSiteAssociation)
        group.get("/apple-app-site-association", handler: appleAppSiteAssociation)
        group.get("/.well-known/assetlinks.json", handler: assetLinks)
        group.get("/.well-known/webauthn", handler: relatedOrigins)
        group.get("/.well-known/passkey-endpoints", handler: passkeyEndpoints)
    }

    func openIDConfiguration(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let tenant = context.tenant
        let issuer = TokenService.issuer(tenant)
        let configuration: KeyValuePairs<String, JSONValue> = [
            "issuer": .string(issuer),
            "authorization_endpoint": .string(issuer + "authorize"),
            "token_endpoint": .string(issuer + "oauth/token"),
            "userinfo_endpoint": .string(issuer + "userinfo"),
            "revocation_endpoint": .string(issuer + "oauth/revoke"),
            "jwks_uri": .string(issuer + ".well-known/jwks.json"),
            "end_session_endpoint": .string(issuer + "oidc/logout"),
            "grant_types_supported": .strings(OAuthGrantType.allCases.map(\.rawValue)),
            "response_types_supported": .strings(["code"]),
            "response_modes_supported": .strings(ResponseMode.allCases.map(\.rawValue)),
            // RFC 7636: S256 only; plain is refused.
            "code_challenge_methods_supported": .strings(["S256"]),
            "prompt_values_supported": .strings(AuthorizationPrompt.allCases.map(\.rawValue)),
            "ui_locales_supported": .strings(PageLocale.allCases.map(\.rawValue)),
            "acr_values_supported": .strings(AuthenticationContext.all),
            // RFC 9207: every answer at the redirect URI carries iss.
            "authorization_response_iss_parameter_supported": .bool(true),
            "request_parameter_supported": .bool(false),
            "request_uri_parameter_supported": .bool(false),
            "claims_parameter_supported": .bool(false),
            "subject_types_supported": .strings(["public"]),
            "id_token_signing_alg_values_supported": .strings(JWTAlgorithm.allCases.map(\.rawValue)),
            "token_endpoint_auth_methods_supported": .strings(TokenEndpointAuthMethod.allCases.map(\.rawValue)),
            "revocation_endpoint_auth_methods_supported": .strings(
                TokenEndpointAuthMethod.allCases.map(\.rawValue)),
            "scopes_supported": .strings(TokenService.openIDScopes),
            // RFC 9449 §5.1.
            "dpop_signing_alg_values_supported": .strings(DPoPVerifier.algorithms.map(\.rawValue)),
            "claims_supported": .strings(
                [
                    "sub", "iss", "aud", "exp", "iat", "auth_time", "amr", "acr", "auth_method", "nonce", "sid", "azp",
                    "email", "email_verified",
                ] + ProfileAttribute.allCases.map(\.rawValue) + ["preferred_username", "phone_number", "updated_at"]),
        ]
        return .json(bytes: JSONValue.document(configuration).serialized)
    }

    func jwks(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let tenant = context.tenant
        do {
            return try .json(tokens.keyRing.jwks(tenantID: tenant.id))
        } catch {
            throw ServiceError.unavailable("signing keys could not be loaded")
        }
    }

    /// Apple: served at both paths, application/json, 200, never a redirect.
    func appleAppSiteAssociation(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let clients = try tenancy.clients(of: context.tenant)
        let apps = clients.compactMap { client in client.ios.map { "\($0.teamID).\($0.bundleIdentifier)" } }
        let document = JSONValue.document(["webcredentials": .document(["apps": .strings(apps)])])
        return .json(bytes: document.serialized)
    }

    /// Digital Asset Links with the relation Credential Manager checks for passkeys.
    func assetLinks(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let clients = try tenancy.clients(of: context.tenant)
        let statements: [JSONValue] = clients.compactMap { client in
            guard let android = client.android else { return nil }
            return .document([
                "relation": .strings([
                    "delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds",
                ]),
                "target": .document([
                    "namespace": .string("android_app"), "package_name": .string(android.packageName),
                    "sha256_cert_fingerprints": .strings(android.sha256CertFingerprints),
                ]),
            ])
        }
        return .json(bytes: JSONValue.array(statements).serialized)
    }

    /// WebAuthn related origins (Level 3 §5.11.1), only when the tenant lists some.
    func relatedOrigins(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let tenant = context.tenant
        guard !tenant.relatedOrigins.isEmpty else {
            throw ServiceError.notFound("this tenant lists no related origins")
        }
        return .json(bytes: JSONValue.document(["origins": .strings(tenant.relatedOrigins)]).serialized)
    }

    /// W3C passkey endpoints: where a password manager can send a user to enroll or manage passkeys.
    func passkeyEndpoints(_ request: HTTPRequest, _ context: TenantContext) throws -> HTTPResponse {
        let issuer = TokenService.issuer(context.tenant)
        let document = JSONValue.document([
            "enroll": .string(issuer + "account/passkeys/enroll"), "manage": .string(issuer + "account"),
        ])
        return .json(bytes: document.serialized)
    }
}

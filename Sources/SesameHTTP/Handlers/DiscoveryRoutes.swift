import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

extension SesameApplication {
    func addDiscoveryRoutes(to router: inout RouteGroup<TenantContext>) {
        router.get("/.well-known/openid-configuration") { _, context in
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
                "claims_supported": .strings([
                    "sub", "iss", "aud", "exp", "iat", "auth_time", "amr", "acr", "auth_method", "nonce", "sid", "azp",
                    "email",
                    "email_verified", "name",
                    "given_name", "family_name", "nickname", "picture", "preferred_username", "phone_number",
                    "updated_at",
                ]),
            ]
            return .json(bytes: JSONValue.document(configuration).serialized)
        }

        router.get("/.well-known/jwks.json") { [self] _, context in
            let tenant = context.tenant
            do {
                return try .json(tokens.keyRing.jwks(tenantID: tenant.id))
            } catch {
                throw ServiceError.unavailable("signing keys could not be loaded")
            }
        }

        // Apple: served at both paths, application/json, 200, never a redirect.
        let appleAppSiteAssociation: GroupHandler<TenantContext> = { [self] _, context in
            let clients = try allClients(context.tenant)
            let apps = clients.compactMap { client in client.ios.map { "\($0.teamID).\($0.bundleIdentifier)" } }
            let document = JSONValue.document(["webcredentials": .document(["apps": .strings(apps)])])
            return .json(bytes: document.serialized)
        }
        router.get(
            "/.well-known/apple-app-site-association", handler: appleAppSiteAssociation)
        router.get("/apple-app-site-association", handler: appleAppSiteAssociation)

        // Digital Asset Links with the relation Credential Manager checks for passkeys.
        router.get("/.well-known/assetlinks.json") { [self] _, context in
            let clients = try allClients(context.tenant)
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

        // WebAuthn related origins (Level 3 §5.11.1), only when the tenant lists some.
        router.get("/.well-known/webauthn") { _, context in
            let tenant = context.tenant
            guard !tenant.relatedOrigins.isEmpty else {
                throw ServiceError.notFound("this tenant lists no related origins")
            }
            return .json(bytes: JSONValue.document(["origins": .strings(tenant.relatedOrigins)]).serialized)
        }

        // W3C passkey endpoints: where a password manager can send a user to enroll or manage passkeys.
        router.get("/.well-known/passkey-endpoints") { _, context in
            let issuer = TokenService.issuer(context.tenant)
            let document = JSONValue.document([
                "enroll": .string(issuer + "account/passkeys/enroll"), "manage": .string(issuer + "account"),
            ])
            return .json(bytes: document.serialized)
        }
    }

    /// Every client of the tenant.
    func allClients(_ tenant: TenantRecord) throws -> [ClientRecord] {
        try tenancy.clients(of: tenant)
    }
}

extension JSONValue {
    /// An object with members in the order given.
    static func document(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { JSONMember(name: $0.key, value: $0.value) })
    }

    /// An array of strings.
    static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}

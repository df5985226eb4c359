import Foundation
import SesameStore
import SesameWire
import WebAuthn

/// The native passkey sign-in (`urn:okta:params:oauth:grant-type:webauthn`, docs/passkeys.md): the
/// answer to the challenge an `auth_session` names, which signs a user in or, for a signup
/// challenge, creates the user and their first passkey.
struct PasskeyGrant: TokenGrant {
    struct Parameters: ScopedGrantParameters {
        var authSession: String?
        var authnResponse: CredentialJSONInput?
        var realm: String?
        var scope: String?
        var audience: String?

        static let fields: [GrantField<Self>] =
            [
                .text(TokenFields.authSession, \.authSession).required,
                .credential(TokenFields.authnResponse, \.authnResponse).required,
                .text(TokenFields.realm, \.realm),
            ] + GrantField.scopeAndAudience
    }

    let access: StoreAccess
    let passkeys: PasskeyService
    var grantTypes: [OAuthGrantType] { [.webAuthn] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (tenant, client, issuer) = (context.tenant, context.client, context.issuer)
        guard let handle = parameters.authSession, !handle.isEmpty else {
            throw .invalidRequest("auth_session is required")
        }
        guard let response = parameters.authnResponse else { throw .invalidRequest("authn_response is required") }
        // Scope and audience are checked before the session is consumed, so a typo costs no ceremony.
        // A request naming neither takes those its challenge carried.
        var scope = parameters.scope
        var audienceName = parameters.audience
        if scope == nil, audienceName == nil,
            let defaults = passkeys.tokenDefaults(tenant: tenant, client: client, authSession: handle)
        {
            scope = defaults.scope
            audienceName = defaults.audience
        }
        let (scopes, audience) = try context.loginScopes(scope, audience: audienceName)
        // A signup's first refresh token is written with its user, so that a failure to write it
        // (a full disk) cannot leave an account the answer never told the client about.
        var withNewUser: SignupWrite?
        if TokenIssuer.startsRefreshFamily(scopes, client: client) {
            let proof = context.proof
            withNewUser = { created, transaction in
                try issuer.startRefreshFamily(
                    tenant: tenant, client: client, userID: created.user.id, scopes: scopes,
                    audience: audience.identifier(tenant), amr: created.amr, authTime: created.authTime,
                    passkeyID: created.passkeyID, proof: proof, familyID: nil, in: transaction)
            }
        }
        let authenticated = try passkeys.finish(
            tenant: tenant, client: client, authSession: handle, response: response, realm: parameters.realm,
            clientPlatform: context.call.clientPlatform(), withNewUser: withNewUser)
        notePasskeyPlatform(tenant: tenant, user: authenticated.user, platform: authenticated.platform)
        let refresh: TokenIssuer.RefreshIssue =
            if let written = authenticated.refreshToken {
                .written(written.token, familyID: written.record.familyID)
            } else {
                .newFamily(passkeyID: authenticated.passkeyID)
            }
        return .user(
            UserGrant(
                user: authenticated.user, scopes: scopes, audience: audience, amr: authenticated.amr,
                authTime: authenticated.authTime, refresh: refresh))
    }

    /// Remembers that the user signed in with a passkey on `platform` (the method hints'
    /// `prefer_passkey`): one write the first time per platform, none after. A failure costs only
    /// the hint, never the sign-in.
    func notePasskeyPlatform(tenant: TenantRecord, user: UserRecord, platform: ClientPlatform?) {
        guard let platform, !user.passkeyPlatforms.contains(platform) else { return }
        try? access.write(.relaxed) { transaction in
            guard var stored = try transaction.users.get(tenantID: tenant.id, id: user.id),
                !stored.passkeyPlatforms.contains(platform)
            else { return }
            stored.passkeyPlatforms.append(platform)
            try transaction.users.update(stored)
        }
    }
}

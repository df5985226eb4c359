import Foundation
import SesameStore
import SesameWire

/// The `authorization_code` grant (RFC 6749 §4.1.3) with PKCE (RFC 7636 §4.5). The code is consumed
/// before anything else is checked, so it is single use whatever the outcome; a code presented
/// again revokes the refresh tokens its redemption issued.
struct AuthorizationCodeGrant: TokenGrant {
    struct Parameters: GrantParameters {
        var code: String?
        var redirectURI: String?
        var codeVerifier: String?

        static let fields: [GrantField<Self>] = [
            .text(TokenFields.code, \.code).required,
            .text(TokenFields.redirectURI, \.redirectURI).required,
            .text(TokenFields.codeVerifier, \.codeVerifier),
        ]
    }

    let access: StoreAccess
    let codes: AuthorizationCodes
    var grantTypes: [OAuthGrantType] { [.authorizationCode] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (tenant, client) = (context.tenant, context.client)
        guard let value = parameters.code, !value.isEmpty else { throw .invalidRequest("code is required") }
        guard let redirectURI = parameters.redirectURI, !redirectURI.isEmpty else {
            throw .invalidRequest("redirect_uri is required")
        }
        let code = try codes.redeem(value, tenant: tenant, clientID: client.id)
        guard redirectURI == code.redirectURI else {
            throw .invalidGrant("redirect_uri is not the one the authorization request named")
        }
        switch (code.codeChallenge, parameters.codeVerifier) {
        case (let challenge?, let verifier?):
            guard AuthorizationCodes.verifierMatches(verifier, challenge: challenge) else {
                throw .invalidGrant("code_verifier does not match the code_challenge")
            }
        case (.some, nil):
            throw .invalidGrant("code_verifier is required: the authorization request had a code_challenge")
        case (nil, .some):
            // RFC 9700 §2.1.1: a verifier for a code made without a challenge is a downgrade attempt.
            throw .invalidGrant("this code was issued without a code_challenge; send no code_verifier")
        case (nil, nil):
            break
        }
        let user = try access.read { transaction -> UserRecord in
            guard let user = try transaction.users.get(tenantID: tenant.id, id: code.userID), !user.blocked else {
                throw ServiceError.invalidGrant("the user of this code is blocked or no longer exists")
            }
            return user
        }
        let (scopes, audience) = try context.loginScopes(code.scope, audience: code.audience)
        return .user(
            UserGrant(
                user: user, scopes: scopes, audience: audience, amr: code.amr, authTime: code.authTime,
                refresh: .newFamily(passkeyID: nil, familyID: code.familyID), nonce: code.nonce,
                sessionID: code.sessionID,
                finish: { [codes] _ throws(ServiceError) in try codes.confirm(value, code: code, tenant: tenant) }))
    }
}

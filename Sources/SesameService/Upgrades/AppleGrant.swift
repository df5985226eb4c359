import Foundation
import SesameStore
import SesameWire

/// Sign in with Apple at the token endpoint (RFC 8693 token exchange, docs/account-upgrades.md): the
/// linked user's tokens, with `auth_method` `apple`.
struct AppleGrant: TokenGrant {
    struct Parameters: ScopedGrantParameters {
        /// An Apple authorization code or identity token.
        var subjectToken: String?
        var subjectTokenType: String?
        /// The raw nonce an identity token's `nonce` hashes.
        var nonce: String?
        var scope: String?
        var audience: String?

        // Auth0's `user_profile` (the name Apple sends on first consent) is not read: an Apple
        // sign-in only reaches an account already linked.
        static let fields: [GrantField<Self>] =
            [
                .text(TokenFields.subjectToken, \.subjectToken).required,
                .text(TokenFields.subjectTokenType, \.subjectTokenType).required,
                .text(TokenFields.nonce, \.nonce),
            ] + GrantField.scopeAndAudience
    }

    let clock: any ServiceClock
    let login: AppleSignInLogin
    var grantTypes: [OAuthGrantType] { [.tokenExchange] }

    func authenticate(_ parameters: Parameters, _ context: GrantContext) throws(ServiceError) -> GrantOutcome {
        let (scopes, audience) = try context.loginScopes(parameters.scope, audience: parameters.audience)
        let user = try login.logIn(tenant: context.tenant, client: context.client, parameters: parameters)
        return .user(
            UserGrant(
                user: user, scopes: scopes, audience: audience, amr: [SignInMethod.appleMethod],
                authTime: clock.now(), refresh: .newFamily(passkeyID: nil)))
    }
}

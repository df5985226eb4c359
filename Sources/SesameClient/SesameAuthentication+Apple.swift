import Foundation
import SesameWire

/// Sign in with Apple after an upgrade (docs/account-upgrades.md): the token exchange of Apple's credential for
/// Sesame's tokens (`urn:ietf:params:oauth:grant-type:token-exchange`).
extension SesameAuthentication {
    /// The token-exchange grant and the subject token types it takes.
    public enum AppleTokenExchange {
        /// RFC 8693's grant type.
        public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"
        /// Auth0's type for an Apple authorization code.
        public static let authorizationCodeType = "http://auth0.com/oauth/token-type/apple-authz-code"
        /// RFC 8693's type for an id token: Sesame's form, with the Apple identity token.
        public static let identityTokenType = "urn:ietf:params:oauth:token-type:id_token"
    }

    /// Signs in with an Apple authorization code (`ASAuthorizationAppleIDCredential.authorizationCode`
    /// as text), Auth0's form. Apple sends the user's name only the first time they consent:
    /// pass `fullName` then, and it goes as `user_profile` (a JSON string, as Auth0.swift sends it).
    /// The credentials say `authMethod == "apple"`.
    public func login(
        appleAuthorizationCode authorizationCode: String, fullName: PersonNameComponents? = nil,
        audience: String? = nil, scope: String = SesameAuthentication.defaultScope
    ) async throws(AuthenticationError) -> Credentials {
        var body = tokenExchange(authorizationCode, AppleTokenExchange.authorizationCodeType, audience, scope)
        var name: [String: WireValue] = [:]
        if let given = fullName?.givenName, !given.isEmpty { name["firstName"] = .string(given) }
        if let family = fullName?.familyName, !family.isEmpty { name["lastName"] = .string(family) }
        if !name.isEmpty { body[TokenFields.userProfile] = .string(WireValue.map(["name": .map(name)]).json) }
        return try await token(body)
    }

    /// Signs in with an Apple identity token (`ASAuthorizationAppleIDCredential.identityToken` as
    /// text), Sesame's form; `rawNonce` is the nonce before hashing, when the request carried one.
    public func login(
        appleIdentityToken identityToken: String, rawNonce: String? = nil, audience: String? = nil,
        scope: String = SesameAuthentication.defaultScope
    ) async throws(AuthenticationError) -> Credentials {
        var body = tokenExchange(identityToken, AppleTokenExchange.identityTokenType, audience, scope)
        body[TokenFields.nonce] = .text(rawNonce)
        return try await token(body)
    }

    private func tokenExchange(_ subjectToken: String, _ type: String, _ audience: String?, _ scope: String)
        -> WireBody
    {
        [
            TokenFields.grantType: .string(AppleTokenExchange.grantType),
            ClientFields.clientID: .string(configuration.clientID), TokenFields.subjectToken: .string(subjectToken),
            TokenFields.subjectTokenType: .string(type), TokenFields.scope: .string(scope),
            TokenFields.audience: .text(audience),
        ]
    }
}

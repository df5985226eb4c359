import Foundation
import SesameStore
import WebAuthn

/// A checked RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2).
public struct LogoutRequest: Sendable, Equatable {
    /// The client the request is for (from `client_id`, or the `id_token_hint`'s audience).
    public var clientID: String?
    /// Exactly one of the client's `allowed_logout_urls`, when given.
    public var postLogoutRedirectURI: String?
    public var state: String?
    /// The `sub` of a valid `id_token_hint`.
    public var hintSubject: String?

    /// Where the browser goes afterwards: the URI with `state`, or nil (Sesame's own page).
    public var location: String? {
        guard let uri = postLogoutRedirectURI else { return nil }
        guard let state else { return uri }
        return AuthorizationResponse(
            redirectURI: uri, mode: .query, parameters: [.init(name: "state", value: state)]
        ).location
    }

    /// Whether the logout may happen without asking: a valid hint for the signed-in user (or no
    /// session at all). Without one, the page asks, so another site cannot sign the user out.
    public func isConfirmed(by session: SSOSession?) -> Bool {
        guard let session else { return true }
        return hintSubject == session.user.id
    }
}

extension AuthorizationService {
    /// Checks `/oidc/logout`'s parameters. Errors are shown on a page: none of them may redirect.
    public func logoutRequest(
        tenant: TenantRecord, parameters: [(name: String, value: String)]
    ) throws(ServiceError) -> LogoutRequest {
        let (values, repeated) = Self.single(parameters)
        if let repeated { throw .invalidRequest("\(repeated.prefix(64)) is given more than once") }
        var clientID = values["client_id"].flatMap { $0.isEmpty ? nil : $0 }
        var subject: String?
        if let hint = values["id_token_hint"], !hint.isEmpty {
            guard hint.utf8.count <= 8_192, let audience = clientID ?? Self.unverifiedAudience(hint) else {
                throw .invalidRequest("id_token_hint is not an id token of this tenant")
            }
            do {
                // An expired hint is still a hint (§2): a year of leeway, the signature and issuer exact.
                let verified = try tokens.keyRing.verify(
                    hint, tenantID: tenant.id,
                    expecting: JWTExpectations(
                        issuer: TokenService.issuer(tenant), audience: audience, type: .idToken, now: clock.now(),
                        leeway: 31_536_000))
                subject = verified.claims["sub"]?.stringValue
            } catch {
                throw .invalidRequest("id_token_hint is not an id token of this tenant for this client")
            }
            clientID = audience
        }
        let uri = values["post_logout_redirect_uri"].flatMap { $0.isEmpty ? nil : $0 }
        if let clientID {
            guard clientID.utf8.count <= 128,
                let client = try access.read({ try $0.clients.get(tenantID: tenant.id, id: clientID) })
            else { throw .invalidRequest("client_id is not a client of this tenant") }
            if let uri, !client.allowedLogoutURLs.contains(uri) {
                throw .invalidRequest("post_logout_redirect_uri is not one of this client's allowed logout URLs")
            }
            if let uri, RedirectScheme.refusedScheme(uri) != nil {
                throw .invalidRequest("post_logout_redirect_uri uses a scheme that is never a redirect target")
            }
        } else if uri != nil {
            throw .invalidRequest("post_logout_redirect_uri needs client_id or id_token_hint")
        }
        let state = values["state"].flatMap { $0.isEmpty || $0.utf8.count > 2_048 ? nil : $0 }
        return LogoutRequest(
            clientID: clientID, postLogoutRedirectURI: uri, state: uri == nil ? nil : state, hintSubject: subject)
    }

    /// The `aud` of a JWT read without checking it (only to find the client whose key check follows).
    static func unverifiedAudience(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { return nil }
        if let audience = object["aud"] as? String { return audience }
        if let audiences = object["aud"] as? [String], audiences.count == 1 { return audiences[0] }
        return nil
    }
}

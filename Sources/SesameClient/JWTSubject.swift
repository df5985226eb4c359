import Foundation

/// Reads the `sub` claim of a JWT without checking its signature: only to tell which user a token
/// the token endpoint just returned (over TLS) belongs to, never to trust a token from elsewhere.
enum JWTSubject {
    /// The `sub` of a compact JWS; nil when `token` is not one or has no string `sub`.
    static func of(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let subject = claims["sub"] as? String, !subject.isEmpty
        else { return nil }
        return subject
    }
}

extension Credentials {
    /// The signed-in user's id: the id token's `sub`, else the access token's (Sesame's access
    /// tokens are JWTs); nil when neither says.
    public var userID: String? {
        idToken.flatMap(JWTSubject.of) ?? JWTSubject.of(accessToken)
    }
}

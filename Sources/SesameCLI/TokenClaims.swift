import Foundation
import WebAuthn

/// The claims of a JWT read WITHOUT checking its signature: for display only (who is signed in),
/// never for a decision the server has not already made.
struct TokenClaims {
    /// The payload's members; empty when the token is not a readable JWT.
    let claims: [String: Any]

    init(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else {
            claims = [:]
            return
        }
        claims = object
    }

    /// `sub`: the user id.
    var subject: String? { claims["sub"] as? String }
    /// `email`.
    var email: String? { claims["email"] as? String }
    /// `name`.
    var name: String? { claims["name"] as? String }
}

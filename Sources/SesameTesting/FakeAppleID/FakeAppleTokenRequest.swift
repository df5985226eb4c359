import SesameHTTP
import SesameService

/// One request to the fake's `POST /auth/token`, as received and as answered, so a test can check
/// what the server under test asked for (say the claims of the client secret it made).
public struct FakeAppleTokenRequest: Sendable {
    /// The form fields as sent, in order (`client_secret` included: it is a test fake).
    public var form: [HTTPQueryItem]
    /// The client secret's JOSE header, decoded without checking anything; nil if it is not a JWT.
    public var clientSecretHeader: [String: JWTClaimValue]?
    /// The client secret's claims, decoded without checking anything; nil if it is not a JWT.
    public var clientSecretClaims: [String: JWTClaimValue]?
    /// The status answered: 200 or 400.
    public var status: Int
    /// The refusal, nil for a 200.
    public var refusal: FakeAppleTokenError?

    /// The first value of the form field `name`.
    public func field(_ name: String) -> String? { form.first { $0.name == name }?.value }
    /// `grant_type`.
    public var grantType: String? { field("grant_type") }
    /// `client_id`.
    public var clientID: String? { field("client_id") }
    /// `code`.
    public var code: String? { field("code") }
    /// `refresh_token`.
    public var refreshToken: String? { field("refresh_token") }
    /// `redirect_uri`.
    public var redirectURI: String? { field("redirect_uri") }
}

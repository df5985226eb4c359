/// `GET /me/v1/authentication-methods`: `{"authentication_methods": [...]}`.
public struct AuthenticationMethodList: Encodable, Sendable {
    public var authenticationMethods: [AuthenticationMethod]
    enum CodingKeys: String, CodingKey { case authenticationMethods = "authentication_methods" }
}

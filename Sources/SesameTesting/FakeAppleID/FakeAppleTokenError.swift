/// A refusal of Apple's token endpoint: 400 with `{"error": code}` on the wire (Apple says no
/// more), and the fake's own reason for the tests and the tester's log.
public struct FakeAppleTokenError: Error, Equatable, Sendable {
    /// `invalid_request`, `invalid_client`, `invalid_grant` or `unsupported_grant_type`.
    public var code: String
    /// Why, in the fake's words; never sent.
    public var reason: String

    /// A refusal with `code` for `reason`.
    public init(code: String, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// A parameter is missing, repeated, or the body is not a form.
    static func invalidRequest(_ reason: String) -> Self { Self(code: "invalid_request", reason: reason) }
    /// The client secret does not check out.
    static func invalidClient(_ reason: String) -> Self { Self(code: "invalid_client", reason: reason) }
    /// The code or refresh token is not good for this client (unknown, expired, used, another client's).
    static func invalidGrant(_ reason: String) -> Self { Self(code: "invalid_grant", reason: reason) }
    /// A `grant_type` other than `authorization_code` and `refresh_token`.
    static func unsupportedGrantType(_ reason: String) -> Self { Self(code: "unsupported_grant_type", reason: reason) }
}

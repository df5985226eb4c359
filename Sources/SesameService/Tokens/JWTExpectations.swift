import Foundation

/// What a verified token's claims and header must say, and the time to check them at.
public struct JWTExpectations: Sendable {
    /// The exact `iss` required (e.g. "https://login.example.com/").
    public var issuer: String
    /// A value `aud` must equal (string form) or contain (array form).
    public var audience: String
    /// Other values `aud` may name instead of `audience` (an Apple identity token carries any one of
    /// a connection's app ids).
    public var alternativeAudiences: [String] = []
    /// The required `typ` header: `.accessToken` requires "at+jwt" (or "application/at+jwt"),
    /// `.idToken` requires "JWT" or no typ; nil checks nothing.
    public var type: JWTType?
    /// The current time (injected; never read from the system here).
    public var now: Date
    /// Allowed clock skew, in seconds, for `exp`, `nbf` and `iat`.
    public var leeway: TimeInterval

    /// Expectations for one verification; the leeway defaults to 60 seconds.
    public init(issuer: String, audience: String, type: JWTType?, now: Date, leeway: TimeInterval = 60) {
        self.issuer = issuer
        self.audience = audience
        self.type = type
        self.now = now
        self.leeway = leeway
    }
}

import Foundation

/// Where the SDK talks to: a Sesame tenant's public URL and the app's client id.
public struct SesameConfiguration: Sendable, Hashable {
    /// The tenant's public URL, e.g. `https://login.example.com` or `http://localhost:8080`.
    public var domain: URL
    /// The app's `client_id` (a native client).
    public var clientID: String
    /// Seconds every request may take before it fails with `AuthenticationError.Kind.timeout`.
    public var timeout: TimeInterval
    /// What the `Auth0-Client` header of every request says (this SDK and this device's OS by
    /// default); nil sends no such header.
    public var clientInfo: SesameClientInfo?

    /// A configuration; `timeout` applies to every request, `clientInfo` is sent with each.
    public init(
        domain: URL, clientID: String, timeout: TimeInterval = 15,
        clientInfo: SesameClientInfo? = SesameClientInfo.current()
    ) {
        self.domain = domain
        self.clientID = clientID
        self.timeout = timeout
        self.clientInfo = clientInfo
    }

    /// The domain without a trailing slash, the base of every route.
    var base: String {
        var text = domain.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The audience of My Account API tokens: `<domain>/me/`.
    public var myAccountAudience: String { base + "/me/" }

    /// The audience of MFA API tokens (`/mfa/associate`, `/mfa/authenticators`): `<domain>/mfa/`.
    public var mfaAudience: String { base + "/mfa/" }
}

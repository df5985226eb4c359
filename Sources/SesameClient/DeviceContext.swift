/// Where the sign-in happens: the platform, its OS version as the system reports it, and whether
/// the page runs inside an app's web view. What `SignInMethodSelector` decides from, and what the
/// method-hint routes are asked about.
public struct DeviceContext: Sendable, Hashable {
    /// Whether the sign-in runs in an app's embedded web view, and whether that web view can use
    /// the app's passkeys.
    public enum WebView: Sendable, Hashable {
        /// Not a web view: the app's own screens, or a browser.
        case none
        /// A web view whose page is on a domain linked to the app, so WebAuthn works in it: on iOS
        /// a `WKWebView` showing a domain listed in the app's Associated Domains
        /// (`webcredentials:`); on Android a `WebView` with WebAuthn turned on
        /// (`WebSettingsCompat.setWebAuthenticationSupport`) for a domain whose Digital Asset
        /// Links name the app.
        case linkedToApp
        /// A web view that cannot do WebAuthn: another domain, or WebAuthn not turned on.
        case unlinked
    }

    /// The platform the sign-in runs on.
    public var platform: ClientPlatform
    /// The OS version as the system reports it ("17.4", "14"); parsed by the selector, and sent
    /// as it is in method-hint queries.
    public var osVersion: String
    /// Whether it runs in an app's web view, and whether that one can do WebAuthn.
    public var webView: WebView

    /// A context from its parts.
    public init(platform: ClientPlatform, osVersion: String, webView: WebView = .none) {
        self.platform = platform
        self.osVersion = osVersion
        self.webView = webView
    }

    /// This device, outside any web view.
    public static var current: DeviceContext {
        DeviceContext(platform: .current, osVersion: OSVersion.current.description)
    }

    /// Whether the sign-in runs in a web view (the method-hint routes' `webview`).
    public var isWebView: Bool { webView != .none }
}

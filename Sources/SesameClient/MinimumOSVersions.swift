import SesameWire

/// The oldest OS versions on which `SignInMethodSelector` registers a passkey rather than a
/// device key, in the app and in a linked web view. The defaults are the migration table's (iOS
/// 16.4, Android 9, web views alike); a tenant sets its own per connection
/// (`options.passkey_options.min_os_versions`), and the method hints carry them, so an app can
/// keep the server's (`init(hints:)`) and apply them offline.
public struct MinimumOSVersions: Sendable, Hashable {
    /// iOS and iPadOS, the app's own screens.
    public var iOS: OSVersion
    /// Android, the app's own screens.
    public var android: OSVersion
    /// iOS and iPadOS, a `WKWebView` showing a domain of the app's Associated Domains.
    public var iOSWebView: OSVersion
    /// Android, a `WebView` with WebAuthn turned on for a domain whose asset links name the app.
    public var androidWebView: OSVersion
    /// Platforms outside the table, by `ClientPlatform.other` name ("macOS": 13), in the app and
    /// in a web view alike. None by default, so those platforms register a device key unless the
    /// app lists them.
    public var other: [String: OSVersion]

    /// Minimums from their parts; a web view's minimum is its platform's unless given.
    public init(
        iOS: OSVersion, android: OSVersion, iOSWebView: OSVersion? = nil, androidWebView: OSVersion? = nil,
        other: [String: OSVersion] = [:]
    ) {
        self.iOS = iOS
        self.android = android
        self.iOSWebView = iOSWebView ?? iOS
        self.androidWebView = androidWebView ?? android
        self.other = other
    }

    /// iOS 16.4 and Android 9, in the app and in web views.
    public static let `default` = MinimumOSVersions(
        iOS: OSVersion(major: 16, minor: 4), android: OSVersion(major: 9))

    /// The names of the server's `min_os_versions` (docs/migration.md).
    enum Key {
        static let iOS = "ios"
        static let android = "android"
        static let iOSWebView = "ios_webview"
        static let androidWebView = "android_webview"
    }

    /// The server's minimums: a connection's `min_os_versions` as the method hints carry it
    /// (`ios`, `android`, `ios_webview`, `android_webview`). An entry that is missing or does not
    /// parse keeps `fallback`'s; other names are ignored, and `other` is `fallback`'s.
    public init(minOSVersions: [String: String], fallback: MinimumOSVersions = .default) {
        func version(_ key: String, _ kept: OSVersion) -> OSVersion {
            minOSVersions[key].flatMap { OSVersion($0) } ?? kept
        }
        self.init(
            iOS: version(Key.iOS, fallback.iOS), android: version(Key.android, fallback.android),
            iOSWebView: version(Key.iOSWebView, fallback.iOSWebView),
            androidWebView: version(Key.androidWebView, fallback.androidWebView), other: fallback.other)
    }

    /// The minimums a method-hints answer carries (`GET /me/v1/method-hints` or
    /// `GET /passkey/method-hints`); nil when it carries none (a server before `min_os_versions`).
    public init?(hints: MethodHints, fallback: MinimumOSVersions = .default) {
        guard let minOSVersions = hints.minOSVersions else { return nil }
        self.init(minOSVersions: minOSVersions, fallback: fallback)
    }

    /// The minimum for `platform` in the app's own screens; nil when the table has none (`web`
    /// needs none, an unlisted `other` gets none).
    public func minimum(for platform: ClientPlatform) -> OSVersion? {
        minimum(for: platform, inWebView: false)
    }

    /// The minimum for `platform`, in a linked web view when `inWebView`; nil when the table has
    /// none (`web` needs none, an unlisted `other` gets none).
    public func minimum(for platform: ClientPlatform, inWebView: Bool) -> OSVersion? {
        switch platform {
        case .iOS: return inWebView ? iOSWebView : iOS
        case .android: return inWebView ? androidWebView : android
        case .web: return nil
        case .other(let name): return other[name]
        }
    }
}

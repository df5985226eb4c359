/// The oldest OS versions on which `SignInMethodSelector` registers a passkey rather than a
/// device key. The defaults are the migration table's (iOS 16.4, Android 9); a tenant can set its
/// own per connection (`options.passkey_options.min_os_versions`), and an app that knows them can
/// pass them here.
public struct MinimumOSVersions: Sendable, Hashable {
    /// iOS and iPadOS, native screens and linked `WKWebView`s alike.
    public var iOS: OSVersion
    /// Android, native screens and linked `WebView`s alike.
    public var android: OSVersion
    /// Platforms outside the table, by `ClientPlatform.other` name ("macOS": 13). None by default,
    /// so those platforms register a device key unless the app lists them.
    public var other: [String: OSVersion]

    /// Minimums from their parts.
    public init(iOS: OSVersion, android: OSVersion, other: [String: OSVersion] = [:]) {
        self.iOS = iOS
        self.android = android
        self.other = other
    }

    /// iOS 16.4 and Android 9.
    public static let `default` = MinimumOSVersions(
        iOS: OSVersion(major: 16, minor: 4), android: OSVersion(major: 9))

    /// The minimum for `platform`; nil when the table has none (`web` needs none, an unlisted
    /// `other` gets none).
    public func minimum(for platform: ClientPlatform) -> OSVersion? {
        switch platform {
        case .iOS: return iOS
        case .android: return android
        case .web: return nil
        case .other(let name): return other[name]
        }
    }
}

import SesameWire

/// The platform an app runs on, as the sign-in rules and the `Auth0-Client` header name it.
public enum ClientPlatform: Sendable, Hashable, CustomStringConvertible {
    /// iOS and iPadOS.
    case iOS
    /// Android.
    case android
    /// A browser page (not an app's web view: see `DeviceContext.WebView`).
    case web
    /// Anything else, by name: "macOS", "visionOS", "linux", "windows".
    case other(String)

    /// The platform this code is compiled for.
    public static var current: ClientPlatform {
        #if os(iOS)
            return .iOS
        #elseif os(Android)
            return .android
        #elseif os(macOS)
            return .other("macOS")
        #elseif os(visionOS)
            return .other("visionOS")
        #elseif os(tvOS)
            return .other("tvOS")
        #elseif os(watchOS)
            return .other("watchOS")
        #elseif os(Linux)
            return .other("linux")
        #elseif os(Windows)
            return .other("windows")
        #else
            return .other("unknown")
        #endif
    }

    /// The name in the `Auth0-Client` header's `env` ("iOS", "android", "web", or the other name).
    public var description: String {
        switch self {
        case .iOS: return "iOS"
        case .android: return "android"
        case .web: return "web"
        case .other(let name): return name
        }
    }

    /// The platform as the device-key and method-hint routes name it; nil for the others, which
    /// those routes do not know.
    public var devicePlatform: DevicePlatform? {
        switch self {
        case .iOS: return .ios
        case .android: return .android
        case .web: return .web
        case .other: return nil
        }
    }
}

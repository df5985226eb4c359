import Foundation
import SesameStore
import SesameWire

/// An OS version as numbers ("16.4" → [16, 4]); compared component by component, a missing
/// component counting as 0 ("16" == "16.0", "16.10" > "16.4").
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let components: [Int]

    /// nil unless `text` is 1 to 4 dot-separated numbers of at most 5 digits each.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var components: [Int] = []
        for part in parts {
            guard (1...5).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part)
            else { return nil }
            components.append(value)
        }
        self.components = components
    }

    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    public static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }
    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    public var description: String { components.map(String.init).joined(separator: ".") }
}

/// The device a method hint is asked for.
public struct HintedDevice: Sendable, Hashable {
    public var platform: ClientPlatform
    /// nil when absent or not a version: treated as too old for passkeys.
    public var osVersion: OSVersion?
    /// An embedded web view (WKWebView, Android WebView) rather than the app or a browser.
    public var webView: Bool

    public init(platform: ClientPlatform, osVersion: OSVersion?, webView: Bool) {
        self.platform = platform
        self.osVersion = osVersion
        self.webView = webView
    }
}

/// Which method an app uses (docs/migration.md, the table in docs/migration.md), from the connection's
/// minimum OS versions, the device, and what the user has.
public enum MethodChoice {
    /// Whether the device can create and use passkeys of the tenant's RP ID.
    ///
    /// | platform | app | web view |
    /// |---|---|---|
    /// | ios | ≥ `minIOSVersion` (16.4) | ≥ `minIOSWebViewVersion` (16.4) |
    /// | android | ≥ `minAndroidVersion` (9) | ≥ `minAndroidWebViewVersion` (9) |
    /// | web | always (a browser with WebAuthn) | — |
    public static func supportsPasskeys(_ device: HintedDevice, policy: PasskeyMigrationPolicy) -> Bool {
        let minimum: String
        switch (device.platform, device.webView) {
        case (.web, _): return true
        case (.ios, false): minimum = policy.minIOSVersion
        case (.ios, true): minimum = policy.minIOSWebViewVersion
        case (.android, false): minimum = policy.minAndroidVersion
        case (.android, true): minimum = policy.minAndroidWebViewVersion
        }
        guard let version = device.osVersion, let floor = OSVersion(minimum) else { return false }
        return version >= floor
    }

    /// The minimums as the hints and the Management API name them.
    public static func minimums(_ policy: PasskeyMigrationPolicy) -> [String: String] {
        [
            "ios": policy.minIOSVersion, "android": policy.minAndroidVersion,
            "ios_webview": policy.minIOSWebViewVersion,
            "android_webview": policy.minAndroidWebViewVersion,
        ]
    }

    /// `register`: a passkey where the device supports them and the connection has them on, else
    /// a device key.
    public static func register(
        _ device: HintedDevice, connection: ConnectionRecord
    ) -> RegistrationMethod {
        connection.passkey.enabled && supportsPasskeys(device, policy: connection.passkey.migration)
            ? .passkey : .deviceKey
    }

    /// `reauth`, in order: a passkey first when the user has one and prefers it (has signed in
    /// with one on this platform), else the device key first and a passkey as the fallback.
    public static func reauth(hasPasskey: Bool, hasDeviceKey: Bool, preferPasskey: Bool) -> [RegistrationMethod] {
        switch (hasPasskey, hasDeviceKey) {
        case (true, true): return preferPasskey ? [.passkey, .deviceKey] : [.deviceKey, .passkey]
        case (true, false): return [.passkey]
        case (false, true): return [.deviceKey]
        case (false, false): return []
        }
    }
}

/// The method hints (`GET /me/v1/method-hints`, `GET /passkey/method-hints`) and the passkey
/// prompt's snooze.
public final class MethodHintService: Sendable {
    let access: StoreAccess
    let clock: any ServiceClock

    public init(store: any SesameStore, clock: any ServiceClock) {
        self.access = StoreAccess(store: store)
        self.clock = clock
    }

    /// Parses the query's `platform`, `os_version` and `webview` (`true`/`false`/`1`/`0`).
    public static func device(platform: String?, osVersion: String?, webView: String?) throws(ServiceError)
        -> HintedDevice
    {
        guard let platform, let known = ClientPlatform(rawValue: platform) else {
            throw .invalidRequest("platform must be one of ios, android, web")
        }
        var version: OSVersion?
        if let osVersion, !osVersion.isEmpty {
            guard let parsed = OSVersion(osVersion) else { throw .invalidRequest("os_version must look like 16.4") }
            version = parsed
        } else if known != .web {
            throw .invalidRequest("os_version is required for ios and android")
        }
        let isWebView: Bool
        switch webView {
        case nil, "", "false", "0": isWebView = false
        case "true", "1": isWebView = true
        default: throw .invalidRequest("webview must be true or false")
        }
        return HintedDevice(platform: known, osVersion: version, webView: isWebView)
    }

    /// The unauthenticated form: `register` only, by the client's default connection.
    public func registerHint(tenant: TenantRecord, clientID: String?, device: HintedDevice) throws(ServiceError)
        -> MethodHints
    {
        guard let clientID, !clientID.isEmpty, clientID.utf8.count <= 128 else {
            throw .invalidRequest("client_id is required")
        }
        let connection = try access.read { transaction -> ConnectionRecord in
            guard let client = try AccountClient.client(clientID, tenant: tenant, in: transaction) else {
                throw ServiceError.invalidClient("unknown client")
            }
            return try ConnectionLookup.connection(
                named: nil, field: "connection", tenant: tenant, client: client, in: transaction)
        }
        return MethodHints(
            register: MethodChoice.register(device, connection: connection),
            minOSVersions: MethodChoice.minimums(connection.passkey.migration))
    }

    /// The signed-in form: every member, for the caller.
    public func hints(_ caller: AccountCaller, device: HintedDevice) throws(ServiceError) -> MethodHints {
        try caller.require(.read)
        let now = clock.now()
        let (user, connection, passkeys, keys) = try access.read { transaction in
            let user = try DeviceKeyService.activeUser(caller.userID, tenant: caller.tenant, transaction)
            let connection = try DeviceKeyService.requireConnection(user, tenant: caller.tenant, transaction)
            return (
                user, connection, try transaction.passkeys.list(tenantID: caller.tenant.id, userID: user.id),
                try transaction.deviceKeys.list(tenantID: caller.tenant.id, userID: user.id)
            )
        }
        let hasPasskey = !passkeys.isEmpty
        let hasDeviceKey = keys.contains { $0.isUsable(at: now) && $0.clientID == caller.clientID }
        let prefer = hasPasskey && user.passkeyPlatforms.contains(device.platform)
        let register = MethodChoice.register(device, connection: connection)
        let snoozed = user.passkeyPromptSnoozedUntil.map { now < $0 } ?? false
        return MethodHints(
            register: register,
            reauth: MethodChoice.reauth(hasPasskey: hasPasskey, hasDeviceKey: hasDeviceKey, preferPasskey: prefer),
            hasPasskey: hasPasskey, hasDeviceKey: hasDeviceKey,
            promptPasskeyEnrollment: register == .passkey && !hasPasskey && !snoozed, preferPasskey: prefer,
            minOSVersions: MethodChoice.minimums(connection.passkey.migration))
    }

    /// `POST /me/v1/passkey-enrollment/snooze`: hides the prompt for the connection's snooze
    /// period; returns when it shows again (ISO 8601).
    public func snooze(_ caller: AccountCaller) throws(ServiceError) -> String {
        try caller.require(.update)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            var user = try DeviceKeyService.activeUser(caller.userID, tenant: caller.tenant, transaction)
            let connection = try DeviceKeyService.requireConnection(user, tenant: caller.tenant, transaction)
            let until = now.addingTimeInterval(TimeInterval(connection.passkey.migration.promptSnoozeDays) * 86_400)
            user.passkeyPromptSnoozedUntil = until
            try transaction.users.update(user)
            return APITimestamp.string(until)
        }
    }
}

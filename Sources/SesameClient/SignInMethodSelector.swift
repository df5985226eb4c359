import SesameWire

/// Which credentials a user has that could re-authenticate them on this device.
public struct RegistrationState: Sendable, Hashable {
    /// The user has at least one passkey (for this tenant's RP ID).
    public var hasPasskey: Bool
    /// This device holds a device key registered for the user.
    public var hasDeviceKey: Bool

    /// A state from its parts.
    public init(hasPasskey: Bool, hasDeviceKey: Bool) {
        self.hasPasskey = hasPasskey
        self.hasDeviceKey = hasDeviceKey
    }
}

/// What `SignInMethodSelector` chose: the kind of credential to register on this device, and the
/// methods to re-authenticate with, the first to try first. An empty `reauthenticate` means none
/// can: the user signs in again.
public struct SignInMethods: Sendable, Hashable {
    /// The kind of credential to create on this device.
    public var register: RegistrationMethod
    /// The methods to re-authenticate with, the first to try first.
    public var reauthenticate: [RegistrationMethod]

    /// Methods from their parts.
    public init(register: RegistrationMethod, reauthenticate: [RegistrationMethod]) {
        self.register = register
        self.reauthenticate = reauthenticate
    }
}

/// Chooses between a passkey and a legacy device key, as the migration rules of docs/migration.md say
/// (the seed is Yahoo! JAPAN's table). Pure: the same inputs always give the same answer, and it
/// reads no clock, file or network.
///
/// **Register.** Without server hints, by the device:
///
/// | platform | web view | OS version | register |
/// |---|---|---|---|
/// | iOS | none | ≥ `minimumVersions.iOS` (16.4) | passkey |
/// | iOS | none | older, or unparsable | device key |
/// | iOS | linked to the app (Associated Domains) | ≥ `minimumVersions.iOSWebView` (16.4) | passkey |
/// | iOS | linked to the app | older, or unparsable | device key |
/// | Android | none | ≥ `minimumVersions.android` (9) | passkey |
/// | Android | none | older, or unparsable | device key |
/// | Android | linked to the app (asset links, WebAuthn on) | ≥ `minimumVersions.androidWebView` (9) | passkey |
/// | Android | linked to the app | older, or unparsable | device key |
/// | web (a browser) | none | any | passkey |
/// | other ("macOS", "linux") | none or linked | ≥ the app's `minimumVersions.other` entry | passkey |
/// | other | none or linked | no entry, older, or unparsable | device key |
/// | any | unlinked | any | device key |
///
/// The tenant's own minimums come with the method hints: `MinimumOSVersions(hints:)` makes a
/// selector that applies them offline. With server hints, their `register` replaces the version
/// table (the server asked about this device), but an unlinked web view still registers a device
/// key: only the device knows its web view cannot do WebAuthn.
///
/// **Re-authenticate.** From the user's credentials, where the server's hints, when given, win:
/// `has_passkey` replaces `state.hasPasskey`; a device key counts only when this device holds one
/// and the server did not say the user has none; and when the hints list `reauth` methods, only
/// those are used. "Preferred" is the local prefer-passkey flag or the server's `prefer_passkey`.
///
/// | passkey | device key | passkey preferred | re-authenticate with |
/// |---|---|---|---|
/// | yes | yes | yes | passkey, then device key |
/// | yes | yes | no | device key, then passkey |
/// | yes | no | either | passkey |
/// | no | yes | either | device key |
/// | no | no | either | nothing: sign in again |
public struct SignInMethodSelector: Sendable, Hashable {
    /// The version table for registration.
    public var minimumVersions: MinimumOSVersions

    /// A selector with `minimumVersions` (the migration table's by default).
    public init(minimumVersions: MinimumOSVersions = .default) {
        self.minimumVersions = minimumVersions
    }

    /// The method to register and the re-authentication order for `device` and `state`.
    /// `prefersPasskey` is the app's own flag (`PreferPasskeyStore`); `hints` the server's answer
    /// of `GET /me/v1/method-hints` (or only `register`, from `GET /passkey/method-hints`).
    public func select(
        device: DeviceContext, state: RegistrationState, prefersPasskey: Bool, hints: MethodHints? = nil
    ) -> SignInMethods {
        SignInMethods(
            register: registration(device: device, hints: hints),
            reauthenticate: reauthentication(state: state, prefersPasskey: prefersPasskey, hints: hints))
    }

    /// The kind of credential to register on `device` (the first table).
    public func registration(device: DeviceContext, hints: MethodHints? = nil) -> RegistrationMethod {
        if device.webView == .unlinked { return .deviceKey }
        if let hints { return hints.register }
        if device.platform == .web { return .passkey }
        guard let minimum = minimumVersions.minimum(for: device.platform, inWebView: device.isWebView),
            let version = OSVersion(device.osVersion), version >= minimum
        else { return .deviceKey }
        return .passkey
    }

    /// The methods to re-authenticate with, the first to try first (the second table).
    public func reauthentication(state: RegistrationState, prefersPasskey: Bool, hints: MethodHints? = nil)
        -> [RegistrationMethod]
    {
        let hasPasskey = hints?.hasPasskey ?? state.hasPasskey
        let hasDeviceKey = state.hasDeviceKey && hints?.hasDeviceKey != false
        let preferred = prefersPasskey || hints?.preferPasskey == true
        let allowed = hints?.reauth.map(Set.init) ?? Set(RegistrationMethod.allCases)

        var methods: [RegistrationMethod] = []
        if hasPasskey, allowed.contains(.passkey) { methods.append(.passkey) }
        if hasDeviceKey, allowed.contains(.deviceKey) {
            if preferred { methods.append(.deviceKey) } else { methods.insert(.deviceKey, at: 0) }
        }
        return methods
    }
}

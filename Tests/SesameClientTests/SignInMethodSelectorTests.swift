import SesameClient
import SesameWire
import Testing

@Suite("OSVersion")
struct OSVersionTests {
    @Test(arguments: [
        ("16.10", "16.4"), ("16.4.1", "16.4"), ("17", "16.9.9"), ("10", "9"), ("9.0.1", "9"), ("16.04.1", "16.4"),
    ])
    func comparesNumericallyPerComponent(newer: String, older: String) throws {
        let newer = try #require(OSVersion(newer))
        let older = try #require(OSVersion(older))
        #expect(newer > older)
        #expect(older < newer)
        #expect(newer != older)
    }

    @Test(arguments: [("16", "16.0"), ("16", "16.0.0"), ("9.0", "9"), ("016.4", "16.4")])
    func missingComponentsCountAsZero(left: String, right: String) throws {
        let left = try #require(OSVersion(left))
        let right = try #require(OSVersion(right))
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
        #expect(!(left < right) && !(right < left))
    }

    @Test(arguments: [
        "", ".", "16.", ".4", "16..4", "16.4 beta", " 16.4", "16.4\n", "-16", "+16", "16.-4", "v16", "R", "16,4",
        "１６.4", "16.4a", "99999999999999999999",
    ])
    func anythingButDottedDecimalsDoesNotParse(text: String) {
        #expect(OSVersion(text) == nil)
    }

    @Test func keepsItsComponentsAndPrintsThem() throws {
        let version = try #require(OSVersion("17.4.0"))
        #expect(version.components == [17, 4, 0])
        #expect(version.description == "17.4.0")
        #expect(OSVersion(major: 16, minor: 4) == OSVersion("16.4"))
        #expect(OSVersion(components: []) == nil)
        #expect(OSVersion(components: [1, -1]) == nil)
    }

    @Test func theCurrentVersionParsesBack() {
        #expect(OSVersion(OSVersion.current.description) == OSVersion.current)
    }
}

@Suite("SignInMethodSelector")
struct SignInMethodSelectorTests {
    let selector = SignInMethodSelector()

    /// One row of the registration table: platform, web view, OS version, expected method.
    struct RegisterRow: Sendable, CustomTestStringConvertible {
        var platform: ClientPlatform
        var webView: DeviceContext.WebView
        var osVersion: String
        var expected: RegistrationMethod
        var testDescription: String { "\(platform) \(webView) \(osVersion.debugDescription) → \(expected)" }
    }

    static let registerTable: [RegisterRow] = [
        // iOS, native: 16.4 and later.
        RegisterRow(platform: .iOS, webView: .none, osVersion: "16.4", expected: .passkey),
        RegisterRow(platform: .iOS, webView: .none, osVersion: "16.10", expected: .passkey),
        RegisterRow(platform: .iOS, webView: .none, osVersion: "17", expected: .passkey),
        RegisterRow(platform: .iOS, webView: .none, osVersion: "16.3.1", expected: .deviceKey),
        RegisterRow(platform: .iOS, webView: .none, osVersion: "16", expected: .deviceKey),
        RegisterRow(platform: .iOS, webView: .none, osVersion: "15.8", expected: .deviceKey),
        RegisterRow(platform: .iOS, webView: .none, osVersion: "sixteen", expected: .deviceKey),
        // iOS, a WKWebView on the app's associated domain: the same versions.
        RegisterRow(platform: .iOS, webView: .linkedToApp, osVersion: "16.4", expected: .passkey),
        RegisterRow(platform: .iOS, webView: .linkedToApp, osVersion: "16.3", expected: .deviceKey),
        RegisterRow(platform: .iOS, webView: .linkedToApp, osVersion: "", expected: .deviceKey),
        // Any unlinked web view: never WebAuthn.
        RegisterRow(platform: .iOS, webView: .unlinked, osVersion: "18.0", expected: .deviceKey),
        RegisterRow(platform: .android, webView: .unlinked, osVersion: "14", expected: .deviceKey),
        RegisterRow(platform: .other("macOS"), webView: .unlinked, osVersion: "15", expected: .deviceKey),
        RegisterRow(platform: .web, webView: .unlinked, osVersion: "", expected: .deviceKey),
        // Android, native: 9 and later.
        RegisterRow(platform: .android, webView: .none, osVersion: "9", expected: .passkey),
        RegisterRow(platform: .android, webView: .none, osVersion: "14", expected: .passkey),
        RegisterRow(platform: .android, webView: .none, osVersion: "8.1.0", expected: .deviceKey),
        RegisterRow(platform: .android, webView: .none, osVersion: "Pie", expected: .deviceKey),
        // Android, a WebView with WebAuthn for a linked domain: Android 9 too.
        RegisterRow(platform: .android, webView: .linkedToApp, osVersion: "9.0", expected: .passkey),
        RegisterRow(platform: .android, webView: .linkedToApp, osVersion: "8", expected: .deviceKey),
        // A browser: always.
        RegisterRow(platform: .web, webView: .none, osVersion: "", expected: .passkey),
        RegisterRow(platform: .web, webView: .none, osVersion: "1", expected: .passkey),
        // Other platforms: no minimum by default.
        RegisterRow(platform: .other("macOS"), webView: .none, osVersion: "15.0", expected: .deviceKey),
        RegisterRow(platform: .other("linux"), webView: .none, osVersion: "6.8", expected: .deviceKey),
    ]

    @Test(arguments: registerTable)
    func registersByTheTable(row: RegisterRow) {
        let device = DeviceContext(platform: row.platform, osVersion: row.osVersion, webView: row.webView)
        #expect(selector.registration(device: device) == row.expected)
    }

    @Test func otherPlatformsFollowTheAppsMinimums() {
        let selector = SignInMethodSelector(
            minimumVersions: MinimumOSVersions(
                iOS: OSVersion(major: 16, minor: 4), android: OSVersion(major: 9),
                other: ["macOS": OSVersion(major: 13, minor: 5)]))
        #expect(selector.registration(device: DeviceContext(platform: .other("macOS"), osVersion: "13.5")) == .passkey)
        #expect(
            selector.registration(device: DeviceContext(platform: .other("macOS"), osVersion: "13.4")) == .deviceKey)
        #expect(
            selector.registration(device: DeviceContext(platform: .other("linux"), osVersion: "13.5")) == .deviceKey)
    }

    @Test func theServersMinimumsCanBePassed() {
        let selector = SignInMethodSelector(
            minimumVersions: MinimumOSVersions(iOS: OSVersion(major: 17), android: OSVersion(major: 11)))
        #expect(selector.registration(device: DeviceContext(platform: .iOS, osVersion: "16.4")) == .deviceKey)
        #expect(selector.registration(device: DeviceContext(platform: .iOS, osVersion: "17.0")) == .passkey)
        #expect(selector.registration(device: DeviceContext(platform: .android, osVersion: "10")) == .deviceKey)
        #expect(selector.registration(device: DeviceContext(platform: .android, osVersion: "11")) == .passkey)
        #expect(MinimumOSVersions.default.iOS == OSVersion("16.4"))
        #expect(MinimumOSVersions.default.android == OSVersion("9"))
    }

    @Test func webViewsHaveTheirOwnMinimums() {
        let selector = SignInMethodSelector(
            minimumVersions: MinimumOSVersions(
                iOS: OSVersion(major: 16, minor: 4), android: OSVersion(major: 9),
                iOSWebView: OSVersion(major: 17), androidWebView: OSVersion(major: 12)))
        #expect(selector.registration(device: DeviceContext(platform: .iOS, osVersion: "16.4")) == .passkey)
        #expect(
            selector.registration(device: DeviceContext(platform: .iOS, osVersion: "16.4", webView: .linkedToApp))
                == .deviceKey)
        #expect(
            selector.registration(device: DeviceContext(platform: .iOS, osVersion: "17.0", webView: .linkedToApp))
                == .passkey)
        #expect(selector.registration(device: DeviceContext(platform: .android, osVersion: "11")) == .passkey)
        #expect(
            selector.registration(device: DeviceContext(platform: .android, osVersion: "11", webView: .linkedToApp))
                == .deviceKey)
        // Without web-view minimums, a web view is held to its platform's.
        let same = MinimumOSVersions(iOS: OSVersion(major: 17), android: OSVersion(major: 11))
        #expect(same.iOSWebView == OSVersion(major: 17) && same.androidWebView == OSVersion(major: 11))
        #expect(MinimumOSVersions.default.iOSWebView == OSVersion("16.4"))
        #expect(MinimumOSVersions.default.androidWebView == OSVersion("9"))
        #expect(same.minimum(for: .iOS) == same.minimum(for: .iOS, inWebView: false))
        #expect(same.minimum(for: .web, inWebView: true) == nil)
    }

    @Test func theServersMinimumsComeWithTheHints() throws {
        let hints = MethodHints(
            register: .passkey,
            minOSVersions: ["ios": "17", "android": "10", "ios_webview": "17.2", "android_webview": "11"])
        let minimums = try #require(MinimumOSVersions(hints: hints))
        #expect(
            minimums
                == MinimumOSVersions(
                    iOS: OSVersion(major: 17), android: OSVersion(major: 10),
                    iOSWebView: OSVersion(major: 17, minor: 2),
                    androidWebView: OSVersion(major: 11)))
        // Offline, the kept minimums decide as the server would.
        let offline = SignInMethodSelector(minimumVersions: minimums)
        #expect(offline.registration(device: DeviceContext(platform: .iOS, osVersion: "16.4")) == .deviceKey)
        #expect(offline.registration(device: DeviceContext(platform: .iOS, osVersion: "17.1")) == .passkey)
        #expect(
            offline.registration(device: DeviceContext(platform: .iOS, osVersion: "17.1", webView: .linkedToApp))
                == .deviceKey)
        #expect(
            offline.registration(device: DeviceContext(platform: .android, osVersion: "11", webView: .linkedToApp))
                == .passkey)
        // An older server sends none.
        #expect(MinimumOSVersions(hints: MethodHints(register: .passkey)) == nil)
    }

    @Test func aMinimumTheServerLeftOutOrGarbledKeepsTheFallback() {
        let fallback = MinimumOSVersions(
            iOS: OSVersion(major: 16, minor: 4), android: OSVersion(major: 9),
            other: ["macOS": OSVersion(major: 13, minor: 5)])
        let minimums = MinimumOSVersions(
            minOSVersions: ["ios": "18", "android": "nine", "ios_webview": "", "windows": "11"], fallback: fallback)
        #expect(minimums.iOS == OSVersion(major: 18))
        #expect(minimums.android == OSVersion(major: 9))
        #expect(minimums.iOSWebView == OSVersion(major: 16, minor: 4))
        #expect(minimums.androidWebView == OSVersion(major: 9))
        #expect(minimums.other == ["macOS": OSVersion(major: 13, minor: 5)])
        #expect(MinimumOSVersions(minOSVersions: [:]) == .default)
    }

    @Test func theServersRegisterHintReplacesTheVersionTable() {
        let old = DeviceContext(platform: .iOS, osVersion: "15.0")
        let new = DeviceContext(platform: .iOS, osVersion: "18.0")
        #expect(selector.registration(device: old, hints: MethodHints(register: .passkey)) == .passkey)
        #expect(selector.registration(device: new, hints: MethodHints(register: .deviceKey)) == .deviceKey)
        // Only the device knows its web view cannot do WebAuthn.
        let unlinked = DeviceContext(platform: .iOS, osVersion: "18.0", webView: .unlinked)
        #expect(selector.registration(device: unlinked, hints: MethodHints(register: .passkey)) == .deviceKey)
    }

    /// One row of the re-authentication table.
    struct ReauthRow: Sendable, CustomTestStringConvertible {
        var hasPasskey: Bool
        var hasDeviceKey: Bool
        var prefersPasskey: Bool
        var expected: [RegistrationMethod]
        var testDescription: String {
            "passkey \(hasPasskey), device key \(hasDeviceKey), preferred \(prefersPasskey) → \(expected)"
        }
    }

    static let reauthTable: [ReauthRow] = [
        ReauthRow(hasPasskey: true, hasDeviceKey: true, prefersPasskey: true, expected: [.passkey, .deviceKey]),
        ReauthRow(hasPasskey: true, hasDeviceKey: true, prefersPasskey: false, expected: [.deviceKey, .passkey]),
        ReauthRow(hasPasskey: true, hasDeviceKey: false, prefersPasskey: true, expected: [.passkey]),
        ReauthRow(hasPasskey: true, hasDeviceKey: false, prefersPasskey: false, expected: [.passkey]),
        ReauthRow(hasPasskey: false, hasDeviceKey: true, prefersPasskey: true, expected: [.deviceKey]),
        ReauthRow(hasPasskey: false, hasDeviceKey: true, prefersPasskey: false, expected: [.deviceKey]),
        ReauthRow(hasPasskey: false, hasDeviceKey: false, prefersPasskey: true, expected: []),
        ReauthRow(hasPasskey: false, hasDeviceKey: false, prefersPasskey: false, expected: []),
    ]

    @Test(arguments: reauthTable)
    func reauthenticatesByTheTable(row: ReauthRow) {
        let state = RegistrationState(hasPasskey: row.hasPasskey, hasDeviceKey: row.hasDeviceKey)
        #expect(selector.reauthentication(state: state, prefersPasskey: row.prefersPasskey) == row.expected)
    }

    @Test func theServersPreferPasskeyCountsLikeTheLocalFlag() {
        let state = RegistrationState(hasPasskey: true, hasDeviceKey: true)
        let hints = MethodHints(register: .passkey, preferPasskey: true)
        #expect(selector.reauthentication(state: state, prefersPasskey: false, hints: hints) == [.passkey, .deviceKey])
        let notPreferred = MethodHints(register: .passkey, preferPasskey: false)
        // The local flag still counts when the server says no.
        #expect(
            selector.reauthentication(state: state, prefersPasskey: true, hints: notPreferred) == [
                .passkey, .deviceKey,
            ])
        #expect(
            selector.reauthentication(state: state, prefersPasskey: false, hints: notPreferred) == [
                .deviceKey, .passkey,
            ])
    }

    @Test func theServersCredentialsReplaceWhatTheAppBelieves() {
        let believed = RegistrationState(hasPasskey: true, hasDeviceKey: true)
        // The passkey was deleted on the server: a stale local flag must not open a dead-end sheet.
        let noPasskey = MethodHints(register: .passkey, hasPasskey: false, hasDeviceKey: true)
        #expect(selector.reauthentication(state: believed, prefersPasskey: true, hints: noPasskey) == [.deviceKey])
        // The server knows of a passkey the app did not.
        let unaware = RegistrationState(hasPasskey: false, hasDeviceKey: true)
        let hasPasskey = MethodHints(register: .passkey, hasPasskey: true)
        #expect(
            selector.reauthentication(state: unaware, prefersPasskey: false, hints: hasPasskey) == [
                .deviceKey, .passkey,
            ])
        // The key was revoked on the server: this device's copy does not count.
        let revoked = MethodHints(register: .passkey, hasPasskey: true, hasDeviceKey: false)
        #expect(selector.reauthentication(state: believed, prefersPasskey: false, hints: revoked) == [.passkey])
        // The server cannot make a key appear on this device.
        let noLocalKey = RegistrationState(hasPasskey: false, hasDeviceKey: false)
        let serverKey = MethodHints(register: .passkey, hasPasskey: false, hasDeviceKey: true)
        #expect(selector.reauthentication(state: noLocalKey, prefersPasskey: false, hints: serverKey) == [])
    }

    @Test func theServersReauthListLimitsTheMethods() {
        let both = RegistrationState(hasPasskey: true, hasDeviceKey: true)
        let passkeyOnly = MethodHints(register: .passkey, reauth: [.passkey])
        #expect(selector.reauthentication(state: both, prefersPasskey: false, hints: passkeyOnly) == [.passkey])
        // The server's order is advice: the local rule orders what is left.
        let serverOrder = MethodHints(register: .passkey, reauth: [.deviceKey, .passkey])
        #expect(
            selector.reauthentication(state: both, prefersPasskey: true, hints: serverOrder) == [.passkey, .deviceKey])
        let none = MethodHints(register: .passkey, reauth: [])
        #expect(selector.reauthentication(state: both, prefersPasskey: true, hints: none) == [])
    }

    @Test func selectAnswersBothQuestions() {
        let methods = selector.select(
            device: DeviceContext(platform: .iOS, osVersion: "17.4"),
            state: RegistrationState(hasPasskey: false, hasDeviceKey: true), prefersPasskey: false)
        #expect(methods == SignInMethods(register: .passkey, reauthenticate: [.deviceKey]))
    }

    @Test func platformsNameThemselvesAsTheHeaderAndTheRoutesDo() {
        #expect(ClientPlatform.iOS.description == "iOS")
        #expect(ClientPlatform.android.description == "android")
        #expect(ClientPlatform.other("linux").description == "linux")
        #expect(ClientPlatform.iOS.devicePlatform == .ios)
        #expect(ClientPlatform.web.devicePlatform == .web)
        #expect(ClientPlatform.other("macOS").devicePlatform == nil)
        #if os(Linux)
            #expect(ClientPlatform.current == .other("linux"))
        #endif
        #expect(DeviceContext.current.webView == .none)
        #expect(!DeviceContext.current.isWebView)
    }
}

import Foundation
import SesameSoftwarePasskey
import SesameWire
import Synchronization
import Testing

@testable import SesameClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Reauthentication over a stubbed transport")
struct ReauthenticationTests {
    let ada = Fixture.user("user-ada")
    let signedIn = Credentials(
        accessToken: Fixture.jwt(sub: "user-ada"), idToken: Fixture.jwt(sub: "user-ada"), refreshToken: "rt-1",
        expiresAt: Fixture.start.addingTimeInterval(60))
    let iPhone = DeviceContext(platform: .iOS, osVersion: "17.4")

    static func tokens(_ method: String, sub: String = "user-ada", extra: String = "") -> String {
        #"{"access_token":"\#(Fixture.jwt(sub: sub))","id_token":"\#(Fixture.jwt(sub: sub))","refresh_token":"rt-\#(sub)","#
            + #""token_type":"Bearer","expires_in":3600,"auth_method":"\#(method)"\#(extra)}"#
    }

    static let prompt =
        #","passkey_enrollment":{"recommended":true,"reason":"device_key_reauth","#
        + #""enroll_url":"https://login.example.com/u/passkey-enroll?ticket=t1"}"#
    static let unknownPasskey =
        #"{"error":"invalid_grant","error_description":"unknown credential","#
        + #""unknown_credential":{"rp_id":"login.example.com","credential_id":"Y3JlZC0x"}}"#
    static let revokedKey = #"{"error":"invalid_grant","error_description":"the device key is revoked"}"#

    /// A re-authentication with both providers and a device key made for it.
    func setUp(
        _ transport: StubTransport, store: InMemoryPreferPasskeyStore = InMemoryPreferPasskeyStore(),
        passkey: StubProvider? = StubProvider()
    ) async throws -> (Reauthentication, RegisteredDeviceKey) {
        let keys = SoftwareDeviceKeyProvider()
        let key = try await keys.createKey()
        let registered = RegisteredDeviceKey(
            keyID: DeviceKeyFixture.keyID, handle: key.handle, device: DeviceKeyFixture.device)
        let reauthentication = Reauthentication(
            authentication: Fixture.authentication(transport), preferPasskeyStore: store, passkeyProvider: passkey,
            deviceKeyProvider: keys, device: iPhone, digest: SesameCryptoDigest())
        return (reauthentication, registered)
    }

    func paths(_ transport: StubTransport) -> [String] {
        transport.requests.map { "\($0.httpMethod ?? "") \($0.url?.path ?? "")" }
    }

    @Test func withoutTheFlagTheDeviceKeyGoesFirstAndThePromptComesBack() async throws {
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.reauthChallenge), .http(200, Self.tokens("device_key", extra: Self.prompt)),
        ])
        let store = InMemoryPreferPasskeyStore()
        let (reauthentication, key) = try await setUp(transport, store: store)
        #expect(
            reauthentication.methods(userID: "user-ada", deviceKey: key, hasPasskey: true).reauthenticate == [
                .deviceKey, .passkey,
            ])
        let result = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key, hasPasskey: true)
        #expect(result.method == .deviceKey)
        #expect(result.failures.isEmpty)
        #expect(result.credentials.authMethod == .deviceKey)
        #expect(result.passkeyEnrollment?.reason == .deviceKeyReauth)
        #expect(result.passkeyEnrollment?.enrollURL == "https://login.example.com/u/passkey-enroll?ticket=t1")
        #expect(paths(transport) == ["POST /device-key/challenge", "POST /oauth/token"])
        #expect(transport.requests[0].value(forHTTPHeaderField: "Authorization") == "Bearer \(signedIn.accessToken)")
        #expect(store.flagged.isEmpty)
        // The grant says which OS the phone runs today, and no return the app did not give.
        let grant = try transport.body(1)
        #expect(grant["os_version"] as? String == "17.4")
        #expect(grant["redirect_uri"] == nil)
    }

    @Test func theEnrollmentReturnGoesWithTheDeviceKeyGrant() async throws {
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.reauthChallenge), .http(200, Self.tokens("device_key", extra: Self.prompt)),
        ])
        let (reauthentication, key) = try await setUp(transport)
        let back = try #require(URL(string: "com.example.notes://enrolled"))
        _ = try await reauthentication.reauthenticate(
            credentials: signedIn, deviceKey: key, enrollmentRedirectURL: back)
        #expect(try transport.body(1)["redirect_uri"] as? String == "com.example.notes://enrolled")
    }

    @Test func withTheFlagThePasskeyGoesFirst() async throws {
        let transport = StubTransport([.http(200, Fixture.loginChallenge), .http(200, Self.tokens("passkey"))])
        let store = InMemoryPreferPasskeyStore([ada])
        let (reauthentication, key) = try await setUp(transport, store: store)
        let result = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key)
        #expect(result.method == .passkey)
        #expect(result.credentials.userID == "user-ada")
        #expect(paths(transport) == ["POST /passkey/challenge", "POST /oauth/token"])
        #expect(store.flagged == [ada])
    }

    @Test func aRefusedDeviceKeyFallsBackToThePasskeyWhichSetsTheFlag() async throws {
        let transport = StubTransport([
            .http(400, Self.revokedKey), .http(200, Fixture.loginChallenge), .http(200, Self.tokens("passkey")),
        ])
        let store = InMemoryPreferPasskeyStore()
        let (reauthentication, key) = try await setUp(transport, store: store)
        let result = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key, hasPasskey: true)
        #expect(result.method == .passkey)
        #expect(result.failures.map(\.method) == [.deviceKey])
        #expect(result.failures.first?.error.code == "invalid_grant")
        #expect(paths(transport) == ["POST /device-key/challenge", "POST /passkey/challenge", "POST /oauth/token"])
        #expect(store.flagged == [ada])
    }

    @Test func anUnknownPasskeyClearsTheFlagAndFallsBackToTheDeviceKey() async throws {
        let transport = StubTransport([
            .http(200, Fixture.loginChallenge), .http(400, Self.unknownPasskey),
            .http(200, DeviceKeyFixture.reauthChallenge), .http(200, Self.tokens("device_key")),
        ])
        let store = InMemoryPreferPasskeyStore([ada, Fixture.user("user-bob")])
        let (reauthentication, key) = try await setUp(transport, store: store)
        let result = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key)
        #expect(result.method == .deviceKey)
        let failure = try #require(result.failures.first)
        #expect(failure.method == .passkey)
        #expect(failure.error.isUnknownCredential)
        #expect(
            failure.error.unknownCredential == UnknownCredential(rpID: "login.example.com", credentialID: "Y3JlZC0x"))
        // Only this user's flag goes.
        #expect(store.flagged == [Fixture.user("user-bob")])
        #expect(
            paths(transport) == [
                "POST /passkey/challenge", "POST /oauth/token", "POST /device-key/challenge", "POST /oauth/token",
            ])
    }

    @Test func anUnknownCredentialByCodeClearsTheFlagToo() async throws {
        let transport = StubTransport([
            .http(200, Fixture.loginChallenge),
            .http(400, #"{"error":"unknown_credential","error_description":"no such passkey"}"#),
        ])
        let store = InMemoryPreferPasskeyStore([ada])
        let (reauthentication, _) = try await setUp(transport, store: store)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.reauthenticate(credentials: signedIn)
        }
        #expect(error?.isUnknownCredential == true)
        #expect(store.flagged.isEmpty)
    }

    @Test func aLostLocalKeyFallsBackWithoutAGrant() async throws {
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.reauthChallenge), .http(200, Fixture.loginChallenge),
            .http(200, Self.tokens("passkey")),
        ])
        let (reauthentication, _) = try await setUp(transport)
        let lost = RegisteredDeviceKey(
            keyID: DeviceKeyFixture.keyID, handle: "restored-from-backup", device: DeviceKeyFixture.device)
        let result = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: lost, hasPasskey: true)
        #expect(result.method == .passkey)
        #expect(result.failures.first?.error.code == "device_key_not_found")
        #expect(paths(transport) == ["POST /device-key/challenge", "POST /passkey/challenge", "POST /oauth/token"])
    }

    @Test func anotherAccountsPasskeyIsRefusedRevokedAndTheDeviceKeyTried() async throws {
        let transport = StubTransport([
            .http(200, Fixture.loginChallenge), .http(200, Self.tokens("passkey", sub: "user-eve")), .http(200, "{}"),
            .http(200, DeviceKeyFixture.reauthChallenge), .http(200, Self.tokens("device_key")),
        ])
        let store = InMemoryPreferPasskeyStore([ada])
        let (reauthentication, key) = try await setUp(transport, store: store)
        let result = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key)
        #expect(result.method == .deviceKey)
        #expect(result.failures.first?.error.code == "user_mismatch")
        #expect(
            paths(transport) == [
                "POST /passkey/challenge", "POST /oauth/token", "POST /oauth/revoke", "POST /device-key/challenge",
                "POST /oauth/token",
            ])
        #expect(try transport.body(2)["token"] as? String == "rt-user-eve")
        // Eve's sign-in set no flag for Eve, and Ada keeps hers.
        #expect(store.flagged == [ada])
        #expect(result.credentials.userID == "user-ada")
    }

    @Test func aCancelEndsItThere() async throws {
        let transport = StubTransport([.http(200, Fixture.loginChallenge)])
        let store = InMemoryPreferPasskeyStore([ada])
        let (reauthentication, key) = try await setUp(
            transport, store: store, passkey: StubProvider(error: AuthenticationError.cancelled()))
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key)
        }
        #expect(error?.isCancelled == true)
        #expect(paths(transport) == ["POST /passkey/challenge"])
        #expect(store.flagged == [ada])
    }

    @Test(arguments: [
        StubTransport.Reply.failure(URLError(.notConnectedToInternet)), .failure(URLError(.timedOut)),
        .http(503, #"{"error":"temporarily_unavailable","error_description":"store down"}"#),
        .http(429, #"{"error":"too_many_requests","error_description":"slow down"}"#),
    ])
    func aFailureThatMayPassLaterDoesNotFallBack(reply: StubTransport.Reply) async throws {
        let transport = StubTransport([reply])
        let (reauthentication, key) = try await setUp(transport)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key, hasPasskey: true)
        }
        #expect(error?.isRetryable == true)
        #expect(paths(transport) == ["POST /device-key/challenge"])
    }

    @Test func whenEveryMethodFailsTheLastErrorIsThrown() async throws {
        let transport = StubTransport([.http(400, Self.revokedKey), .http(200, Fixture.loginChallenge)])
        let (reauthentication, key) = try await setUp(
            transport, passkey: StubProvider(error: AuthenticationError.passkey("no passkey", code: "NotAllowedError")))
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.reauthenticate(credentials: signedIn, deviceKey: key, hasPasskey: true)
        }
        #expect(error?.code == "NotAllowedError")
    }

    @Test func theServersHintsAreFetchedAndWin() async throws {
        let transport = StubTransport([
            .http(
                200,
                #"{"register":"passkey","reauth":["passkey","device_key"],"has_passkey":true,"#
                    + #""has_device_key":true,"prompt_passkey_enrollment":false,"prefer_passkey":true}"#),
            .http(200, Fixture.loginChallenge), .http(200, Self.tokens("passkey")),
        ])
        let (reauthentication, key) = try await setUp(transport)
        let account = MyAccount(configuration: Fixture.configuration, accessToken: "me-token", transport: transport)
        // No local flag, and the app does not know of a passkey: the server says both.
        let result = try await reauthentication.reauthenticate(
            credentials: signedIn, deviceKey: key, myAccount: account)
        #expect(result.method == .passkey)
        #expect(result.hints?.preferPasskey == true)
        #expect(
            transport.requests.first?.url?.absoluteString
                == "https://login.example.com/me/v1/method-hints?platform=ios&os_version=17.4&webview=false")
        #expect(paths(transport) == ["GET /me/v1/method-hints", "POST /passkey/challenge", "POST /oauth/token"])
    }

    @Test func hintsThatCannotBeFetchedAreDoneWithout() async throws {
        let transport = StubTransport([
            .http(403, #"{"error":"insufficient_scope","error_description":"not a My Account token"}"#),
            .http(200, DeviceKeyFixture.reauthChallenge), .http(200, Self.tokens("device_key")),
        ])
        let (reauthentication, key) = try await setUp(transport)
        let account = MyAccount(configuration: Fixture.configuration, accessToken: "at", transport: transport)
        let result = try await reauthentication.reauthenticate(
            credentials: signedIn, deviceKey: key, myAccount: account)
        #expect(result.method == .deviceKey)
        #expect(result.hints == nil)
    }

    @Test func givenHintsAreNotFetchedAgain() async throws {
        let transport = StubTransport([
            .http(200, DeviceKeyFixture.reauthChallenge), .http(200, Self.tokens("device_key")),
        ])
        let (reauthentication, key) = try await setUp(transport)
        let account = MyAccount(configuration: Fixture.configuration, accessToken: "me", transport: transport)
        let hints = MethodHints(register: .passkey, reauth: [.deviceKey], hasPasskey: false, hasDeviceKey: true)
        let result = try await reauthentication.reauthenticate(
            credentials: signedIn, deviceKey: key, hints: hints, myAccount: account)
        #expect(result.method == .deviceKey)
        #expect(paths(transport) == ["POST /device-key/challenge", "POST /oauth/token"])
    }

    @Test func nothingToTryMeansSignInAgainWithoutARequest() async throws {
        let transport = StubTransport()
        let (reauthentication, _) = try await setUp(transport)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.reauthenticate(credentials: signedIn)
        }
        #expect(error?.code == "no_reauthentication_method")
        #expect(error?.kind == .unauthorized)
        #expect(transport.requests.isEmpty)
    }

    @Test func aMethodWithoutItsProviderIsNotOffered() async throws {
        let transport = StubTransport()
        let (withBoth, key) = try await setUp(transport, store: InMemoryPreferPasskeyStore([ada]))
        var withoutPasskeys = withBoth
        withoutPasskeys.passkeyProvider = nil
        let hints = MethodHints(register: .passkey, hasPasskey: true, preferPasskey: true)
        #expect(
            withoutPasskeys.methods(userID: "user-ada", deviceKey: key, hints: hints).reauthenticate == [.deviceKey])
        var withoutKeys = withBoth
        withoutKeys.deviceKeyProvider = nil
        #expect(withoutKeys.methods(userID: "user-ada", deviceKey: key).reauthenticate == [.passkey])
        #expect(withBoth.methods(userID: "user-ada", deviceKey: key).register == .passkey)
    }

    @Test func credentialsThatDoNotSayWhoAreRefused() async throws {
        let transport = StubTransport()
        let (reauthentication, key) = try await setUp(transport)
        let opaque = Credentials(accessToken: "opaque", expiresAt: Fixture.start)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.reauthenticate(credentials: opaque, deviceKey: key)
        }
        #expect(error?.kind == .invalidResponse)
        #expect(transport.requests.isEmpty)
    }

    @Test func enrollingAPasskeySetsTheFlag() async throws {
        let location = "https://login.example.com/me/v1/authentication-methods/passkey%7Cnew"
        let transport = StubTransport([
            .http(202, Fixture.signupChallenge, headers: ["Location": location]),
            .http(201, #"{"id":"passkey|abc","type":"passkey","name":"Phone","key_id":"Y3JlZC0x"}"#),
        ])
        let store = InMemoryPreferPasskeyStore()
        let (reauthentication, _) = try await setUp(transport, store: store)
        let account = MyAccount(
            configuration: Fixture.configuration, accessToken: Fixture.jwt(sub: "user-ada"), transport: transport)
        let method = try await reauthentication.enrollPasskey(account: account)
        #expect(method.id == "passkey|abc")
        #expect(store.flagged == [ada])
    }

    /// A device-key re-authentication whose answer carries the prompt.
    func prompted(enrollURL: String = "https://login.example.com/u/passkey-enroll?ticket=t1") -> ReauthenticationResult
    {
        var fresh = Credentials(
            accessToken: Fixture.jwt(sub: "user-ada"), idToken: Fixture.jwt(sub: "user-ada"),
            expiresAt: Fixture.start.addingTimeInterval(3600))
        fresh.passkeyEnrollment = PasskeyEnrollmentPrompt(reason: .deviceKeyReauth, enrollURL: enrollURL)
        return ReauthenticationResult(credentials: fresh, method: .deviceKey)
    }

    @Test(arguments: [
        ("created", PasskeyEnrollmentOutcome.created, true), ("skipped", .skipped, false),
        ("already_registered", .alreadyRegistered, true),
    ])
    func theEnrollmentPageEndsWithItsOutcome(value: String, outcome: PasskeyEnrollmentOutcome, flags: Bool)
        async throws
    {
        let store = InMemoryPreferPasskeyStore()
        let (reauthentication, _) = try await setUp(StubTransport(), store: store)
        let back = try #require(URL(string: "com.example.notes://enrolled"))
        let web = RecordingWebAuthProvider(query: "passkey_enrollment=\(value)")
        let returned = try await reauthentication.openPasskeyEnrollment(prompted(), provider: web, redirectURL: back)
        #expect(returned == outcome)
        #expect(web.opened.map(\.absoluteString) == ["https://login.example.com/u/passkey-enroll?ticket=t1"])
        #expect(web.redirects == [back])
        #expect(store.flagged == (flags ? [ada] : []))
    }

    @Test func theRedirectsOwnQueryIsKeptApart() async throws {
        let (reauthentication, _) = try await setUp(StubTransport())
        let back = try #require(URL(string: "https://notes.example.com/enrolled?from=prompt"))
        // The page adds its item after the redirect's own: the last one is the page's.
        let web = RecordingWebAuthProvider(query: "from=prompt&passkey_enrollment=skipped&passkey_enrollment=created")
        #expect(
            try await reauthentication.openPasskeyEnrollment(prompted(), provider: web, redirectURL: back) == .created)
    }

    @Test(arguments: ["passkey_enrollment=maybe", "passkey_enrollment=", "passkey_enrollment", "other=created", ""])
    func anOutcomeTheSDKDoesNotKnowIsATypedError(query: String) async throws {
        let store = InMemoryPreferPasskeyStore()
        let (reauthentication, _) = try await setUp(StubTransport(), store: store)
        let back = try #require(URL(string: "com.example.notes://enrolled"))
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.openPasskeyEnrollment(
                prompted(), provider: RecordingWebAuthProvider(query: query), redirectURL: back)
        }
        #expect(error?.code == "unknown_enrollment_outcome")
        #expect(error?.kind == .invalidResponse)
        #expect(store.flagged.isEmpty)
    }

    @Test func aReturnToAnotherURLIsNotAnOutcome() throws {
        let back = try #require(URL(string: "com.example.notes://enrolled"))
        let elsewhere = try #require(URL(string: "com.example.notes://other?passkey_enrollment=created"))
        #expect(
            throws: AuthenticationError.invalidResponse("the enrollment page returned to another URL than redirectURL")
        ) {
            _ = try PasskeyEnrollmentOutcome(callback: elsewhere, redirectURL: back)
        }
        let here = try #require(URL(string: "COM.EXAMPLE.NOTES://enrolled?passkey_enrollment=already_registered"))
        #expect(try PasskeyEnrollmentOutcome(callback: here, redirectURL: back) == .alreadyRegistered)
    }

    @Test func closingThePageIsACancelAndSetsNothing() async throws {
        let store = InMemoryPreferPasskeyStore()
        let (reauthentication, _) = try await setUp(StubTransport(), store: store)
        let back = try #require(URL(string: "com.example.notes://enrolled"))
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.openPasskeyEnrollment(
                prompted(), provider: RecordingWebAuthProvider(error: .cancelled("closed")), redirectURL: back)
        }
        #expect(error?.isCancelled == true)
        #expect(store.flagged.isEmpty)
    }

    @Test func onlyAnHTTPSOrTenantPageIsOpened() async throws {
        let (reauthentication, _) = try await setUp(StubTransport())
        let web = RecordingWebAuthProvider(query: "passkey_enrollment=created")
        let back = try #require(URL(string: "com.example.notes://enrolled"))
        for bad in ["http://evil.example.com/u/passkey-enroll", "javascript:alert(1)", "not a url"] {
            let error = await #expect(throws: AuthenticationError.self) {
                _ = try await reauthentication.openPasskeyEnrollment(
                    prompted(enrollURL: bad), provider: web, redirectURL: back)
            }
            #expect(error?.kind == .invalidResponse)
        }
        let withoutPrompt = ReauthenticationResult(credentials: signedIn, method: .passkey)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await reauthentication.openPasskeyEnrollment(withoutPrompt, provider: web, redirectURL: back)
        }
        #expect(error?.code == "no_enrollment_prompt")
        #expect(web.opened.isEmpty)
    }

    @Test func aPasswordLoginsPromptOpensFromTheClientWithItsStore() async throws {
        let store = InMemoryPreferPasskeyStore()
        let transport = StubTransport([
            .http(
                200,
                Self.tokens(
                    "password",
                    extra: #","passkey_enrollment":{"recommended":true,"reason":"progressive","#
                        + #""enroll_url":"https://login.example.com/u/passkey-enroll?ticket=t2"}"#))
        ])
        let authentication = SesameAuthentication(
            configuration: Fixture.configuration, transport: transport, now: { Fixture.start },
            preferPasskeyStore: store)
        let back = try #require(URL(string: "com.example.notes://enrolled"))
        let credentials = try await authentication.login(
            usernameOrEmail: "ada", password: "pw", realmOrConnection: "db", enrollmentRedirectURL: back)
        let web = RecordingWebAuthProvider(query: "passkey_enrollment=created")
        let outcome = try await authentication.openPasskeyEnrollment(credentials, provider: web, redirectURL: back)
        #expect(outcome == .created)
        #expect(web.opened.map(\.absoluteString) == ["https://login.example.com/u/passkey-enroll?ticket=t2"])
        #expect(store.flagged == [ada])
    }

    @Test func fallBackRules() {
        func error(_ kind: AuthenticationError.Kind, _ status: Int? = nil) -> AuthenticationError {
            AuthenticationError(kind: kind, code: "x", errorDescription: "x", statusCode: status)
        }
        let cases: [(AuthenticationError, Bool)] = [
            (error(.passkey), true), (error(.deviceKey), true), (error(.server, 400), true),
            (error(.server, 401), true), (error(.server, 403), true), (error(.server, 404), true),
            (error(.unauthorized, 401), true), (error(.server, 429), false), (error(.server, 500), false),
            (error(.server, 503), false), (error(.cancelled), false), (error(.network), false),
            (error(.timeout), false),
            (error(.invalidResponse, 200), false), (error(.storage), false),
        ]
        for (failure, expected) in cases {
            #expect(Reauthentication.fallsBack(failure) == expected, "\(failure.kind) \(failure.statusCode ?? 0)")
        }
    }
}

/// A web-auth provider that records what it opened and comes back at once: to the redirect URL
/// with `query` added (as the enrollment page's link does), or with `error`.
final class RecordingWebAuthProvider: WebAuthProvider {
    private let calls = Mutex<[(url: URL, redirect: URL)]>([])
    let query: String?
    let error: AuthenticationError?

    init(query: String? = nil, error: AuthenticationError? = nil) {
        self.query = query
        self.error = error
    }

    var opened: [URL] { calls.withLock { $0.map(\.url) } }
    var redirects: [URL] { calls.withLock { $0.map(\.redirect) } }

    func authorize(url: URL, redirectURL: URL) async throws(AuthenticationError) -> URL {
        calls.withLock { $0.append((url, redirectURL)) }
        if let error { throw error }
        guard let query, var components = URLComponents(url: redirectURL, resolvingAgainstBaseURL: false) else {
            return redirectURL
        }
        components.percentEncodedQuery = query
        return components.url ?? redirectURL
    }
}

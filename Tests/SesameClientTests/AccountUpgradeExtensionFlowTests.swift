import Foundation
import SesameClient
import SesameSoftwarePasskey
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that holds every request to `path` until the test opens the gate, so a test can
/// act while that call is under way (no sleeps); other requests go straight to the stub.
final class GateTransport: HTTPTransport {
    let stub: StubTransport
    let path: String
    /// One element each time a request to `path` arrives.
    let arrivals: AsyncStream<Void>
    private let arrived: AsyncStream<Void>.Continuation
    private let gate: AsyncStream<Void>
    private let opener: AsyncStream<Void>.Continuation

    init(_ stub: StubTransport, holding path: String) {
        self.stub = stub
        self.path = path
        let arrivals = AsyncStream<Void>.makeStream()
        self.arrivals = arrivals.stream
        arrived = arrivals.continuation
        let gate = AsyncStream<Void>.makeStream()
        self.gate = gate.stream
        opener = gate.continuation
    }

    /// Lets one held request through.
    func open() { opener.yield() }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if request.url?.path == path {
            arrived.yield()
            var iterator = gate.makeAsyncIterator()
            _ = await iterator.next()
        }
        return try await stub.send(request)
    }
}

/// The paths the stub was asked for, in order.
private func paths(_ transport: StubTransport) -> [String] {
    transport.requests.map { $0.url?.path ?? "" }
}

private enum Paths {
    static let authorize = "/me/v1/upgrades/authorize"
    static let strongPassword = "/me/v1/upgrades/strong-password"
    static let signInWithApple = "/me/v1/upgrades/sign-in-with-apple"
    static let token = "/oauth/token"
    static let challenge = "/mfa/challenge"
}

@Suite("The extension's upgrade flow")
struct AccountUpgradeExtensionFlowTests {
    static let generated = "Gen-Strong-Passw0rd-1"
    /// The system-initiated request: the saved password, no userInfo.
    static let systemPassword = AccountUpgradeExtensionRequest(
        kind: .strongPassword(newPassword: generated), user: "ada@example.com", existingPassword: "weak-1",
        userInfo: nil)
    static let systemApple = AccountUpgradeExtensionRequest(
        kind: .signInWithApple, user: "ada@example.com", existingPassword: "weak-1", userInfo: nil)
    static let stepUp = UpgradeStepUp(
        mfaToken: "mfa-1", challengeTypes: [.otp, .oob], description: "a second factor is needed for this upgrade")

    /// Every random byte is 7, so the nonce and the state are known.
    static let rawNonce = base64URL(Data(repeating: 7, count: 32))
    static let state = base64URL(Data(repeating: 7, count: 16))
    static var hashedNonce: String {
        SesameCryptoDigest().sha256(Array(rawNonce.utf8)).map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    func flow(_ transport: any HTTPTransport) -> AccountUpgradeExtensionFlow {
        AccountUpgradeExtensionFlow(
            upgrade: AccountUpgrade(configuration: Fixture.configuration, transport: transport, now: { Fixture.start }),
            realm: "Users", digest: SesameCryptoDigest(), random: { Array(repeating: 7, count: $0) })
    }

    // MARK: Strong password

    @Test func anAllowedUpgradeCommitsTheGeneratedPasswordThenCompletes() async throws {
        let transport = StubTransport([
            .http(200, UpgradeFixture.authorized()), .http(200, UpgradeFixture.committed(.strongPassword)),
        ])
        let flow = flow(transport)
        let action = await flow.begin(Self.systemPassword)
        #expect(action == .completeChangePassword(user: "ada@example.com", newPassword: Self.generated))
        #expect(await flow.phase == .completed)
        #expect(paths(transport) == [Paths.authorize, Paths.strongPassword])
        #expect(
            try transport.body(0) as NSDictionary == [
                "type": "strong_password", "client_id": "client-1", "username": "ada@example.com",
                "password": "weak-1", "realm": "Users",
            ])
        #expect(try transport.body(1) as NSDictionary == ["upgrade_token": "ut-1", "new_password": Self.generated])
    }

    @Test func aStepUpCancelsWithUserInteractionRequiredThenTOTPCommitsTheSamePassword() async throws {
        let transport = StubTransport([
            .http(403, UpgradeFixture.stepUp), .http(200, UpgradeFixture.stepUpTokens),
            .http(200, UpgradeFixture.authorized(token: "ut-2")), .http(200, UpgradeFixture.committed(.strongPassword)),
        ])
        let flow = flow(transport)
        let first = await flow.begin(Self.systemPassword)
        #expect(first == .cancel(.userInteractionRequired(Self.stepUp)))
        #expect(AccountUpgradeError.userInteractionRequired(Self.stepUp).extensionErrorCode.rawValue == 100)

        // The system comes back with the interface; the form comes without another call.
        let again = AccountUpgradeExtensionRequest(
            kind: .strongPassword(newPassword: "Another-Generated-9"), user: "ada@example.com",
            existingPassword: "weak-1", userInfo: nil)
        #expect(await flow.prepareInterface(again) == .presentStepUp(Self.stepUp))
        #expect(paths(transport) == [Paths.authorize])

        let done = await flow.submitStepUp(otp: "123456")
        #expect(done == .completeChangePassword(user: "ada@example.com", newPassword: Self.generated))
        #expect(paths(transport) == [Paths.authorize, Paths.token, Paths.authorize, Paths.strongPassword])
        #expect(try transport.body(1)["otp"] as? String == "123456")
        #expect(try transport.body(1)["mfa_token"] as? String == "mfa-1")
        #expect(transport.requests[2].value(forHTTPHeaderField: "Authorization") == "Bearer me-fresh")
        #expect(try transport.body(2) as NSDictionary == ["type": "strong_password"])
        #expect(try transport.body(3) as NSDictionary == ["upgrade_token": "ut-2", "new_password": Self.generated])
    }

    @Test func aNewExtensionInstanceAuthorizesAgainBeforeTheStepUpForm() async throws {
        let transport = StubTransport([
            .http(403, UpgradeFixture.stepUp), .http(200, UpgradeFixture.stepUpTokens),
            .http(200, UpgradeFixture.authorized()), .http(200, UpgradeFixture.committed(.strongPassword)),
        ])
        let flow = flow(transport)  // the system's second call reaches a fresh view controller
        #expect(await flow.prepareInterface(Self.systemPassword) == .presentStepUp(Self.stepUp))
        #expect(
            await flow.submitStepUp(otp: "123456")
                == .completeChangePassword(user: "ada@example.com", newPassword: Self.generated))
        #expect(try transport.body(3)["new_password"] as? String == Self.generated)
    }

    @Test func theSMSStepUpSendsACodeAndTheOOBGrant() async throws {
        let transport = StubTransport([
            .http(403, UpgradeFixture.stepUp), .http(200, UpgradeFixture.smsChallenge),
            .http(200, UpgradeFixture.stepUpTokens), .http(200, UpgradeFixture.authorized()),
            .http(200, UpgradeFixture.committed(.strongPassword)),
        ])
        let flow = flow(transport)
        #expect(await flow.prepareInterface(Self.systemPassword) == .presentStepUp(Self.stepUp))
        #expect(await flow.submitStepUp(smsCode: "654321") == .none)  // no code was sent yet
        #expect(await flow.sendStepUpCode() == .stepUpCodeSent)
        #expect(
            await flow.submitStepUp(smsCode: "654321")
                == .completeChangePassword(user: "ada@example.com", newPassword: Self.generated))
        #expect(
            paths(transport) == [Paths.authorize, Paths.challenge, Paths.token, Paths.authorize, Paths.strongPassword])
        #expect(try transport.body(1)["challenge_type"] as? String == "oob")
        let grant = try transport.body(2)
        #expect(grant["grant_type"] as? String == "http://auth0.com/oauth/grant-type/mfa-oob")
        #expect(grant["oob_code"] as? String == "oob-1")
        #expect(grant["binding_code"] as? String == "654321")
    }

    @Test func aWrongCodeLetsTheUserTryAgain() async throws {
        let transport = StubTransport([
            .http(403, UpgradeFixture.stepUp), .http(403, UpgradeFixture.wrongOTP),
            .http(200, UpgradeFixture.stepUpTokens), .http(200, UpgradeFixture.authorized()),
            .http(200, UpgradeFixture.committed(.strongPassword)),
        ])
        let flow = flow(transport)
        _ = await flow.prepareInterface(Self.systemPassword)
        let retry = await flow.submitStepUp(otp: "000000")
        guard case .stepUpRetry(let failure) = retry else {
            Issue.record("expected a retry, got \(retry)")
            return
        }
        #expect(failure.reason == .wrongCode)
        #expect(failure.message == "The code is not correct. Try again.")
        #expect(await flow.phase == .awaitingStepUp(Self.stepUp))
        #expect(
            await flow.submitStepUp(otp: "123456")
                == .completeChangePassword(user: "ada@example.com", newPassword: Self.generated))
    }

    @Test func aStepUpOnlyThePasswordSatisfiesFails() async throws {
        let transport = StubTransport([.http(403, UpgradeFixture.stepUpPasswordOnly)])
        let failure = try #require(await flow(transport).begin(Self.systemPassword).failure)
        #expect(failure.reason == .signInRequired)
        #expect(failure.message == "Sign in to the app to upgrade this account.")
        #expect(failure.error?.isStepUpRequired == true)
    }

    @Test func aRefusedUpgradeFailsWithItsReason() async throws {
        let transport = StubTransport([.http(403, UpgradeFixture.notAllowed)])
        let action = await flow(transport).begin(Self.systemPassword)
        let failure = try #require(action.failure)
        #expect(failure.reason == .notAllowed(.alreadyUpgraded))
        #expect(failure.message == "This account has been upgraded already.")
        #expect(paths(transport) == [Paths.authorize])
    }

    @Test func aWrongSavedPasswordFails() async throws {
        let transport = StubTransport([.http(403, UpgradeFixture.wrongPassword)])
        let failure = try #require(await flow(transport).begin(Self.systemPassword).failure)
        #expect(failure.reason == .wrongPassword)
    }

    @Test(arguments: [
        (UpgradeFixture.weakPassword, AccountUpgradeFailure.Reason.passwordNotStrongEnough),
        (UpgradeFixture.leakedPassword, .passwordLeaked), (UpgradeFixture.reusedPassword, .passwordReused),
    ])
    func aRefusedPasswordFailsAndNeverCompletes(body: String, reason: AccountUpgradeFailure.Reason) async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized()), .http(400, body)])
        let flow = flow(transport)
        let action = await flow.begin(Self.systemPassword)
        let failure = try #require(action.failure)
        #expect(failure.reason == reason)
        #expect(failure.message == AccountUpgradeFailure.text(for: reason))
        #expect(failure.error?.statusCode == 400)
        #expect(await flow.phase == .ended(.failed(failure)))
    }

    @Test func theRequestCompletesOnlyAfterTheServerAnswered200() async throws {
        let stub = StubTransport([
            .http(200, UpgradeFixture.authorized()), .http(200, UpgradeFixture.committed(.strongPassword)),
        ])
        let gate = GateTransport(stub, holding: Paths.strongPassword)
        let flow = flow(gate)
        let pending = Task { await flow.begin(Self.systemPassword) }
        var arrivals = gate.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        #expect(await flow.phase == .working)  // the commit is under way: nothing completed yet
        gate.open()
        #expect(await pending.value == .completeChangePassword(user: "ada@example.com", newPassword: Self.generated))
    }

    @Test func aCommitThatFailsNeverCompletes() async throws {
        let transport = StubTransport([
            .http(200, UpgradeFixture.authorized()), .http(503, #"{"error":"temporarily_unavailable"}"#),
        ])
        let failure = try #require(await flow(transport).begin(Self.systemPassword).failure)
        #expect(failure.error?.statusCode == 503)
        let offline = StubTransport([
            .http(200, UpgradeFixture.authorized()), .failure(URLError(.notConnectedToInternet)),
        ])
        #expect(try #require(await flow(offline).begin(Self.systemPassword).failure).reason == .network)
    }

    // MARK: App-initiated

    @Test func theAppsUpgradeTokenSkipsAuthorize() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.committed(.strongPassword))])
        let request = AccountUpgradeExtensionRequest(
            kind: .strongPassword(newPassword: Self.generated), user: "ada@example.com", existingPassword: "",
            userInfo: [AccountUpgrade.userInfoUpgradeTokenKey: "ut-app"])
        #expect(request.authority == .upgradeToken("ut-app"))
        let action = await flow(transport).begin(request)
        #expect(action == .completeChangePassword(user: "ada@example.com", newPassword: Self.generated))
        #expect(paths(transport) == [Paths.strongPassword])
        #expect(try transport.body(0)["upgrade_token"] as? String == "ut-app")
    }

    @Test func neitherTokenNorPasswordFailsWithoutARequest() async throws {
        let transport = StubTransport()
        let request = AccountUpgradeExtensionRequest(
            kind: .signInWithApple, user: "ada@example.com", existingPassword: "", userInfo: ["other": 1])
        #expect(request.authority == .none)
        let failure = try #require(await flow(transport).begin(request).failure)
        #expect(failure.reason == .signInRequired)
        #expect(transport.requests.isEmpty)
    }

    // MARK: Sign in with Apple

    @Test func signInWithAppleAsksForTheCredentialThenSendsItsTokenAndTheRawNonce() async throws {
        let transport = StubTransport([
            .http(200, UpgradeFixture.authorized(.signInWithApple)),
            .http(200, UpgradeFixture.committed(.signInWithApple)),
        ])
        let flow = flow(transport)
        let ask = await flow.begin(Self.systemApple)
        #expect(ask == .requestAppleCredential(state: Self.state, nonce: Self.hashedNonce))
        #expect(paths(transport) == [Paths.authorize])
        let done = await flow.appleCredential(
            .credential(identityToken: "apple.id.token", authorizationCode: "code-1", state: Self.state))
        #expect(done == .completeUpgradeToSignInWithApple)
        #expect(
            try transport.body(1) as NSDictionary == [
                "upgrade_token": "ut-1", "identity_token": "apple.id.token", "nonce": Self.rawNonce,
                "authorization_code": "code-1",
            ])
    }

    @Test func theAppsTokenWorksForSignInWithAppleToo() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.committed(.signInWithApple))])
        let request = AccountUpgradeExtensionRequest(
            kind: .signInWithApple, user: "ada@example.com", existingPassword: "",
            userInfo: [AccountUpgrade.userInfoUpgradeTokenKey: "ut-app"])
        let flow = flow(transport)
        #expect(await flow.begin(request) == .requestAppleCredential(state: Self.state, nonce: Self.hashedNonce))
        #expect(
            await flow.appleCredential(.credential(identityToken: "t", authorizationCode: nil, state: nil))
                == .completeUpgradeToSignInWithApple)
        #expect(try transport.body(0)["upgrade_token"] as? String == "ut-app")
    }

    @Test func noAppleCredentialFails() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized(.signInWithApple))])
        let flow = flow(transport)
        _ = await flow.begin(Self.systemApple)
        let failure = try #require(await flow.appleCredential(.unavailable).failure)
        #expect(failure.reason == .appleCredentialUnavailable)
        #expect(AccountUpgradeError.failed(failure).extensionErrorCode.rawValue == 0)
        #expect(paths(transport) == [Paths.authorize])
    }

    @Test func aCredentialWithoutIdentityTokenFails() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized(.signInWithApple))])
        let flow = flow(transport)
        _ = await flow.begin(Self.systemApple)
        let action = await flow.appleCredential(.credential(identityToken: nil, authorizationCode: "c", state: nil))
        #expect(action.failure?.reason == .appleCredentialUnavailable)
    }

    @Test func theUserCancellingTheAppleSheetIsUserCanceled() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized(.signInWithApple))])
        let flow = flow(transport)
        _ = await flow.begin(Self.systemApple)
        let action = await flow.appleCredential(.canceled)
        #expect(action == .cancel(.userCanceled))
        #expect(AccountUpgradeError.userCanceled.extensionErrorCode.rawValue == 1)
        #expect(paths(transport) == [Paths.authorize])
    }

    @Test func anAppleIDOfAnotherAccountFailsWithItsText() async throws {
        let transport = StubTransport([
            .http(200, UpgradeFixture.authorized(.signInWithApple)), .http(409, UpgradeFixture.alreadyLinked),
        ])
        let flow = flow(transport)
        _ = await flow.begin(Self.systemApple)
        let action = await flow.appleCredential(
            .credential(identityToken: "t", authorizationCode: nil, state: Self.state))
        let failure = try #require(action.failure)
        #expect(failure.reason == .identityAlreadyLinked)
        #expect(failure.message == "This Apple ID is already used by another account.")
        #expect(failure.error?.statusCode == 409)
    }

    @Test func aCredentialForAnotherStateFails() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized(.signInWithApple))])
        let flow = flow(transport)
        _ = await flow.begin(Self.systemApple)
        let action = await flow.appleCredential(.credential(identityToken: "t", authorizationCode: nil, state: "x"))
        #expect(action.failure?.reason == .other)
        #expect(paths(transport) == [Paths.authorize])
    }

    @Test func theAppleStepUpGoesThroughTheSameForm() async throws {
        let transport = StubTransport([
            .http(403, UpgradeFixture.stepUp), .http(200, UpgradeFixture.stepUpTokens),
            .http(200, UpgradeFixture.authorized(.signInWithApple)),
            .http(200, UpgradeFixture.committed(.signInWithApple)),
        ])
        let flow = flow(transport)
        #expect(await flow.begin(Self.systemApple) == .cancel(.userInteractionRequired(Self.stepUp)))
        #expect(await flow.prepareInterface(Self.systemApple) == .presentStepUp(Self.stepUp))
        #expect(
            await flow.submitStepUp(otp: "123456")
                == .requestAppleCredential(state: Self.state, nonce: Self.hashedNonce))
        #expect(
            await flow.appleCredential(.credential(identityToken: "t", authorizationCode: nil, state: Self.state))
                == .completeUpgradeToSignInWithApple)
    }

    // MARK: The system's Cancel

    @Test func aCancelDuringTheStepUpFormEndsEverything() async throws {
        let transport = StubTransport([.http(403, UpgradeFixture.stepUp)])
        let flow = flow(transport)
        _ = await flow.begin(Self.systemPassword)
        _ = await flow.prepareInterface(Self.systemPassword)
        await flow.cancel()
        #expect(await flow.phase == .canceled)
        #expect(await flow.submitStepUp(otp: "123456") == .none)
        #expect(await flow.sendStepUpCode() == .none)
        #expect(paths(transport) == [Paths.authorize])
    }

    @Test func aCancelWhileTheStepUpIsCheckedDropsItsAnswer() async throws {
        let stub = StubTransport([.http(403, UpgradeFixture.stepUp), .http(200, UpgradeFixture.stepUpTokens)])
        let gate = GateTransport(stub, holding: Paths.token)
        let flow = flow(gate)
        _ = await flow.prepareInterface(Self.systemPassword)
        let pending = Task { await flow.submitStepUp(otp: "123456") }
        var arrivals = gate.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        await flow.cancel()
        gate.open()
        #expect(await pending.value == .none)
        #expect(await flow.phase == .canceled)
        #expect(paths(stub) == [Paths.authorize, Paths.token])  // no second authorize, no commit
    }

    @Test func aCancelWhileTheAppleSheetIsUpDropsTheCredential() async throws {
        let transport = StubTransport([.http(200, UpgradeFixture.authorized(.signInWithApple))])
        let flow = flow(transport)
        _ = await flow.begin(Self.systemApple)
        await flow.cancel()
        #expect(
            await flow.appleCredential(.credential(identityToken: "t", authorizationCode: nil, state: Self.state))
                == .none)
        #expect(paths(transport) == [Paths.authorize])
    }
}

extension AccountUpgradeExtensionAction {
    /// The failure of a `.cancel(.failed(…))`.
    var failure: AccountUpgradeFailure? {
        guard case .cancel(.failed(let failure)) = self else { return nil }
        return failure
    }
}

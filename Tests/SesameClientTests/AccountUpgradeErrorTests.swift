import Foundation
import SesameClient
import Testing

@Suite("AccountUpgradeError and ASExtensionError")
struct AccountUpgradeErrorTests {
    static let reasonKey = "ASExtensionLocalizedFailureReasonErrorKey"

    static func serverError(_ status: Int, _ body: String) async -> AuthenticationError {
        let transport = StubTransport([.http(status, body)])
        do {
            _ = try await UpgradeFixture.upgrade(transport, accessToken: "me").authorize(type: .strongPassword)
        } catch {
            return error
        }
        return AuthenticationError.invalidResponse("the stub answered 2xx")
    }

    @Test func theRawCodesAreApples() {
        #expect(ExtensionErrorCode.failed.rawValue == 0)
        #expect(ExtensionErrorCode.userCanceled.rawValue == 1)
        #expect(ExtensionErrorCode.userInteractionRequired.rawValue == 100)
        #expect(ExtensionErrorCode.allCases.count == 3)
    }

    @Test func eachCaseHasItsCodeAndOnlyAFailureHasAReason() {
        let stepUp = UpgradeStepUp(mfaToken: "m", challengeTypes: [.otp], description: "d")
        let failure = AccountUpgradeFailure(.identityAlreadyLinked)
        #expect(AccountUpgradeError.failed(failure).extensionErrorCode == .failed)
        #expect(AccountUpgradeError.userInteractionRequired(stepUp).extensionErrorCode == .userInteractionRequired)
        #expect(AccountUpgradeError.userCanceled.extensionErrorCode == .userCanceled)

        let failed = AccountUpgradeError.failed(failure).extensionError(failureReasonKey: Self.reasonKey)
        #expect(failed.code == 0)
        #expect(failed.userInfo == [Self.reasonKey: "This Apple ID is already used by another account."])
        let stepping = AccountUpgradeError.userInteractionRequired(stepUp).extensionError(
            failureReasonKey: Self.reasonKey)
        #expect(stepping.code == 100)
        #expect(stepping.userInfo.isEmpty)
        let canceled = AccountUpgradeError.userCanceled.extensionError(failureReasonKey: Self.reasonKey)
        #expect(canceled.code == 1)
        #expect(canceled.userInfo.isEmpty)
    }

    @Test func aSecondFactorStepUpIsUserInteractionRequired() async {
        let error = await Self.serverError(403, UpgradeFixture.stepUp)
        guard case .userInteractionRequired(let stepUp) = AccountUpgradeError(error, type: .strongPassword) else {
            Issue.record("expected userInteractionRequired")
            return
        }
        #expect(stepUp.mfaToken == "mfa-1")
    }

    @Test func aPasswordOnlyStepUpIsAFailure() async {
        let error = await Self.serverError(403, UpgradeFixture.stepUpPasswordOnly)
        #expect(
            AccountUpgradeError(error, type: .strongPassword)
                == .failed(AccountUpgradeFailure(.signInRequired, error: error)))
    }

    @Test func aCancelledCallIsUserCanceled() {
        #expect(AccountUpgradeError(.cancelled(), type: .signInWithApple) == .userCanceled)
    }

    @Test func serverErrorsWithoutATextOfTheirOwnShowTheServersDescription() async {
        let error = await Self.serverError(
            400,
            #"{"error":"invalid_grant","error_description":"the upgrade_token is unknown, expired or already used"}"#)
        guard case .failed(let failure) = AccountUpgradeError(error, type: .strongPassword) else {
            Issue.record("expected failed")
            return
        }
        #expect(failure.reason == .other)
        #expect(failure.message == "the upgrade_token is unknown, expired or already used")
    }

    @Test(arguments: [
        (429, #"{"error":"too_many_attempts","error_description":"slow down"}"#, "tooManyAttempts"),
        (403, UpgradeFixture.wrongPassword, "wrongPassword"),
        (403, #"{"error":"upgrade_not_allowed","error_description":"x","reason":"no_password"}"#, "noPassword"),
        (403, #"{"error":"upgrade_not_allowed","error_description":"x","reason":"something_new"}"#, "notAllowed"),
        (409, UpgradeFixture.alreadyLinked, "identityAlreadyLinked"),
        (400, UpgradeFixture.weakPassword, "passwordNotStrongEnough"),
        (400, UpgradeFixture.reusedPassword, "passwordReused"),
        (400, UpgradeFixture.leakedPassword, "passwordLeaked"),
    ])
    func eachKnownErrorHasItsReason(status: Int, body: String, expected: String) async {
        let error = await Self.serverError(status, body)
        let reasons: [String: AccountUpgradeFailure.Reason] = [
            "tooManyAttempts": .tooManyAttempts, "wrongPassword": .wrongPassword,
            "noPassword": .notAllowed(.noPassword),
            "notAllowed": .notAllowed(nil), "identityAlreadyLinked": .identityAlreadyLinked,
            "passwordNotStrongEnough": .passwordNotStrongEnough, "passwordReused": .passwordReused,
            "passwordLeaked": .passwordLeaked,
        ]
        let failure = AccountUpgradeFailure(error, type: .strongPassword)
        #expect(failure.reason == reasons[expected])
        #expect(failure.message == AccountUpgradeFailure.text(for: failure.reason, error: error))
        #expect(failure.error == error)
    }

    @Test func aNetworkFailureHasItsOwnText() {
        let failure = AccountUpgradeFailure(.transport(URLError(.notConnectedToInternet)), type: .passkey)
        #expect(failure.reason == .network)
        #expect(failure.message == "Cannot reach the server. Try again later.")
    }

    @Test func whatTheSystemReportsToTheAppMapsBack() {
        #expect(AccountUpgradeError(extensionCode: 1, failureReason: nil, description: "x") == .userCanceled)
        #expect(
            AccountUpgradeError(extensionCode: nil, canceled: true, failureReason: nil, description: "x")
                == .userCanceled)
        #expect(
            AccountUpgradeError(extensionCode: 0, failureReason: "This Apple ID is taken.", description: "x")
                == .failed(AccountUpgradeFailure(reason: .system, message: "This Apple ID is taken.")))
        #expect(
            AccountUpgradeError(extensionCode: nil, failureReason: nil, description: "The operation failed.")
                == .failed(AccountUpgradeFailure(reason: .system, message: "The operation failed.")))
        #expect(
            AccountUpgradeError(extensionCode: 101, failureReason: nil, description: "other")
                == .failed(AccountUpgradeFailure(reason: .system, message: "other")))
    }
}

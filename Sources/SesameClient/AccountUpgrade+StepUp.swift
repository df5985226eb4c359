import Foundation

/// What the server asks for before it authorizes an upgrade (403 `step_up_required`): a second
/// factor answered with the MFA API (`mfaToken`), or, when the user has none and the session is
/// too old, the password (`challengeTypes == [.password]`, no `mfaToken`).
public struct UpgradeStepUp: Sendable, Equatable {
    /// A way to step up, as `challenge_types` names it.
    public enum ChallengeType: String, Sendable, Hashable, CaseIterable {
        /// A TOTP code from an authenticator app (`mfa-otp` grant).
        case otp
        /// A code sent by SMS (`/mfa/challenge` then the `mfa-oob` grant).
        case oob
        /// The password: sign in again, or authorize with the password form.
        case password
    }

    /// The token of the MFA grants; nil when only the password helps.
    public let mfaToken: String?
    /// The ways the user can step up, in the server's order (values the SDK does not know are left out).
    public let challengeTypes: [ChallengeType]
    /// The server's `error_description`.
    public let description: String

    /// A step-up from its parts.
    public init(mfaToken: String?, challengeTypes: [ChallengeType], description: String) {
        self.mfaToken = mfaToken
        self.challengeTypes = challengeTypes
        self.description = description
    }

    /// Whether a second factor can satisfy it (an mfa token and `otp` or `oob`).
    public var acceptsSecondFactor: Bool {
        mfaToken != nil && (challengeTypes.contains(.otp) || challengeTypes.contains(.oob))
    }
}

/// The user's answer to a step-up.
public enum StepUpAnswer: Sendable, Equatable {
    /// The code of the user's authenticator app.
    case otp(String)
    /// The code the user received by SMS (`bindingCode`), for the `oobCode` of `sendStepUpSMS(_:)`.
    case oob(oobCode: String, bindingCode: String)
}

extension AccountUpgrade {
    /// Sends the user an SMS code for the step-up (`POST /mfa/challenge`, `challenge_type` `oob`);
    /// answer with `.oob(oobCode:bindingCode:)`.
    public func sendStepUpSMS(_ stepUp: UpgradeStepUp) async throws(AuthenticationError) -> MultifactorChallenge {
        let challenge = try await authentication.multifactorChallenge(
            mfaToken: try Self.mfaToken(stepUp), types: [UpgradeStepUp.ChallengeType.oob.rawValue])
        guard challenge.oobCode != nil else {
            throw AuthenticationError.invalidResponse("the SMS challenge has no oob_code")
        }
        return challenge
    }

    /// Completes the step-up with the MFA grants (`mfa-otp`, or `mfa-oob` with the binding code)
    /// and returns their credentials: a My Account token with a fresh `auth_time`, to
    /// `authorize(type:accessToken:)` with. A wrong code is `isStepUpCodeInvalid`.
    public func completeStepUp(_ stepUp: UpgradeStepUp, with answer: StepUpAnswer) async throws(AuthenticationError)
        -> Credentials
    {
        let mfaToken = try Self.mfaToken(stepUp)
        switch answer {
        case .otp(let code):
            return try await authentication.login(withOTP: code, mfaToken: mfaToken)
        case .oob(let oobCode, let bindingCode):
            return try await authentication.login(withOOBCode: oobCode, mfaToken: mfaToken, bindingCode: bindingCode)
        }
    }

    private static func mfaToken(_ stepUp: UpgradeStepUp) throws(AuthenticationError) -> String {
        guard let token = stepUp.mfaToken else {
            throw AuthenticationError(
                kind: .unauthorized, code: "login_required",
                errorDescription: "this step-up takes the password: sign in again (\(stepUp.description))")
        }
        return token
    }
}

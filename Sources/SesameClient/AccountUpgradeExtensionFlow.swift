import Foundation
import SesameWire

/// The state machine of an Account Authentication Modification extension, without Apple types:
/// the view controller (`SesameAccountModificationViewController`) hands it each call the system
/// makes and carries out the `AccountUpgradeExtensionAction` it answers.
///
/// The order it keeps (WWDC20, "One-tap account security upgrades"):
/// 1. authorize, with the saved password (system-initiated) or the upgrade token in `userInfo`
///    (app-initiated);
/// 2. a step-up the server asks for cancels the quiet request with `userInteractionRequired`; the
///    system comes back through `prepareInterface(_:)`, the user answers (TOTP or SMS), and the
///    flow authorizes again with the step-up's token;
/// 3. it commits the password the system generated with the original request (never another), or
///    asks for the Apple credential and sends its identity token and raw nonce;
/// 4. it completes only once the server has answered 200.
///
/// A system Cancel (`cancel()`) drops whatever is under way: its answers come back as `.none`.
public actor AccountUpgradeExtensionFlow {
    /// Where the flow is.
    public enum Phase: Sendable, Equatable {
        /// No request yet.
        case idle
        /// A server call is under way.
        case working
        /// The server asked for this step-up; the user (or the system's second call) is next.
        case awaitingStepUp(UpgradeStepUp)
        /// The Sign in with Apple sheet is up.
        case awaitingAppleCredential
        /// The server committed the upgrade and the request was completed.
        case completed
        /// The request was cancelled with this error.
        case ended(AccountUpgradeError)
        /// The system cancelled the request.
        case canceled
    }

    /// Where the flow is.
    public private(set) var phase: Phase = .idle

    private let upgrade: AccountUpgrade
    private let realm: String?
    private let digest: (any PKCEDigest)?
    private let random: @Sendable (Int) -> [UInt8]
    /// The request being served; a step-up's second call keeps the first one's new password.
    private var request: AccountUpgradeExtensionRequest?
    /// Bumped by every new request and by `cancel()`: an answer for an older one is dropped.
    private var generation = 0
    private var oobCode: String?
    private var authorization: UpgradeAuthorization?
    private var rawNonce: String?
    private var state: String?

    /// A flow over `upgrade` (its configuration's client id; no access token needed). `realm` is
    /// the database connection of the password form. `digest` hashes the Sign in with Apple
    /// nonce (CryptoKit's by default on Apple platforms); `random` makes the nonce and state.
    public init(
        upgrade: AccountUpgrade, realm: String? = nil, digest: (any PKCEDigest)? = nil,
        random: @escaping @Sendable (Int) -> [UInt8] = WebAuthTransaction.systemRandom
    ) {
        self.upgrade = upgrade
        self.realm = realm
        self.digest = digest
        self.random = random
    }

    // MARK: What the system calls

    /// `changePasswordWithoutUserInteraction(…)` or
    /// `convertAccountToSignInWithAppleWithoutUserInteraction(…)`: no interface is shown, so a
    /// step-up ends this call with `.cancel(.userInteractionRequired(…))`.
    public func begin(_ request: AccountUpgradeExtensionRequest) async -> AccountUpgradeExtensionAction {
        start(request)
        return await authorizeAndCommit(interactive: false)
    }

    /// `prepareInterfaceToChangePassword(…)` or `prepareInterfaceToConvertAccountToSignInWithApple(…)`:
    /// the system shows the extension's interface. After this flow's own step-up cancel, the
    /// step-up form comes at once and the first request (its new password) is kept; otherwise it
    /// authorizes as `begin` does and presents a step-up when one is asked for.
    public func prepareInterface(_ request: AccountUpgradeExtensionRequest) async -> AccountUpgradeExtensionAction {
        if case .awaitingStepUp(let stepUp) = phase, let kept = self.request, kept.type == request.type,
            kept.user == request.user
        {
            return .presentStepUp(stepUp)
        }
        start(request)
        return await authorizeAndCommit(interactive: true)
    }

    /// The user asked for an SMS code for the step-up.
    public func sendStepUpCode() async -> AccountUpgradeExtensionAction {
        guard case .awaitingStepUp(let stepUp) = phase, let request else { return .none }
        phase = .working
        let current = generation
        do {
            let challenge = try await upgrade.sendStepUpSMS(stepUp)
            guard current == generation else { return .none }
            oobCode = challenge.oobCode
            phase = .awaitingStepUp(stepUp)
            return .stepUpCodeSent
        } catch {
            guard current == generation else { return .none }
            if error.isUnauthorized || error.isMultifactorTokenInvalid {
                return end(.failed(AccountUpgradeFailure(error, type: request.type)))
            }
            phase = .awaitingStepUp(stepUp)
            return .stepUpRetry(AccountUpgradeFailure(error, type: request.type))
        }
    }

    /// The user typed the code of their authenticator app.
    public func submitStepUp(otp code: String) async -> AccountUpgradeExtensionAction {
        guard case .awaitingStepUp(let stepUp) = phase else { return .none }
        return await answer(.otp(code), stepUp)
    }

    /// The user typed the SMS code `sendStepUpCode()` had sent.
    public func submitStepUp(smsCode code: String) async -> AccountUpgradeExtensionAction {
        guard case .awaitingStepUp(let stepUp) = phase, let oobCode else { return .none }
        return await answer(.oob(oobCode: oobCode, bindingCode: code), stepUp)
    }

    /// What `getSignInWithAppleUpgradeAuthorization(state:nonce:)` gave.
    public func appleCredential(_ outcome: AppleCredentialOutcome) async -> AccountUpgradeExtensionAction {
        guard phase == .awaitingAppleCredential, let authorization, let request else { return .none }
        switch outcome {
        case .canceled:
            return end(.userCanceled)
        case .unavailable, .failed:
            return end(.failed(AccountUpgradeFailure(.appleCredentialUnavailable)))
        case .credential(let identityToken, let authorizationCode, let echoed):
            guard let identityToken, !identityToken.isEmpty else {
                return end(.failed(AccountUpgradeFailure(.appleCredentialUnavailable)))
            }
            guard echoed == nil || echoed == state else {
                return end(
                    .failed(
                        AccountUpgradeFailure(
                            reason: .other, message: "Sign in with Apple answered another request (its state differs).")
                    ))
            }
            phase = .working
            let current = generation
            do {
                try await upgrade.upgradeToSignInWithApple(
                    identityToken: identityToken, rawNonce: rawNonce, authorizationCode: authorizationCode,
                    authorization: authorization)
            } catch {
                guard current == generation else { return .none }
                return end(AccountUpgradeError(error, type: request.type))
            }
            guard current == generation else { return .none }
            phase = .completed
            return .completeUpgradeToSignInWithApple
        }
    }

    /// The system's Cancel (`cancelRequest()` on the view controller): nothing more is done for
    /// this request, and calls still under way answer `.none`.
    public func cancel() {
        generation += 1
        if phase != .completed { phase = .canceled }
    }

    // MARK: Steps

    private func start(_ request: AccountUpgradeExtensionRequest) {
        generation += 1
        self.request = request
        oobCode = nil
        authorization = nil
        rawNonce = nil
        state = nil
    }

    /// Step 1, then step 3.
    private func authorizeAndCommit(interactive: Bool) async -> AccountUpgradeExtensionAction {
        guard let request else { return .none }
        phase = .working
        let current = generation
        let authorization: UpgradeAuthorization
        switch request.authority {
        case .none:
            return end(.failed(AccountUpgradeFailure(.signInRequired)))
        case .upgradeToken(let token):
            authorization = UpgradeAuthorization(upgradeToken: token, type: request.type)
        case .password(let password):
            do {
                authorization = try await upgrade.authorize(
                    type: request.type, username: request.user, password: password, realm: realm)
            } catch {
                guard current == generation else { return .none }
                return stepUpOrEnd(error, request: request, interactive: interactive)
            }
            guard current == generation else { return .none }
        }
        return await commit(authorization, request: request, generation: current)
    }

    /// A step-up the user can answer is presented (or asked for); anything else ends the request.
    private func stepUpOrEnd(_ error: AuthenticationError, request: AccountUpgradeExtensionRequest, interactive: Bool)
        -> AccountUpgradeExtensionAction
    {
        let outcome = AccountUpgradeError(error, type: request.type)
        guard case .userInteractionRequired(let stepUp) = outcome else { return end(outcome) }
        phase = .awaitingStepUp(stepUp)
        return interactive ? .presentStepUp(stepUp) : .cancel(outcome)
    }

    /// Step 2's end: the MFA grant, then authorize again with its token, then commit.
    private func answer(_ answer: StepUpAnswer, _ stepUp: UpgradeStepUp) async -> AccountUpgradeExtensionAction {
        guard let request else { return .none }
        phase = .working
        let current = generation
        let credentials: Credentials
        do {
            credentials = try await upgrade.completeStepUp(stepUp, with: answer)
        } catch {
            guard current == generation else { return .none }
            if error.isStepUpCodeInvalid {
                phase = .awaitingStepUp(stepUp)
                return .stepUpRetry(AccountUpgradeFailure(.wrongCode, error: error))
            }
            return end(.failed(AccountUpgradeFailure(error, type: request.type)))
        }
        guard current == generation else { return .none }
        let authorization: UpgradeAuthorization
        do {
            authorization = try await upgrade.authorize(type: request.type, accessToken: credentials.accessToken)
        } catch {
            guard current == generation else { return .none }
            // A second step-up right after the first cannot be answered: say why and stop.
            return end(.failed(AccountUpgradeFailure(error, type: request.type)))
        }
        guard current == generation else { return .none }
        return await commit(authorization, request: request, generation: current)
    }

    /// Step 3: the new password, or the Apple credential's request.
    private func commit(
        _ authorization: UpgradeAuthorization, request: AccountUpgradeExtensionRequest, generation current: Int
    ) async -> AccountUpgradeExtensionAction {
        switch request.kind {
        case .strongPassword(let newPassword):
            phase = .working
            do {
                try await upgrade.upgradeToStrongPassword(newPassword, authorization: authorization)
            } catch {
                guard current == generation else { return .none }
                return end(.failed(AccountUpgradeFailure(error, type: request.type)))
            }
            guard current == generation else { return .none }
            phase = .completed
            return .completeChangePassword(user: request.user, newPassword: newPassword)
        case .signInWithApple:
            guard let digest = digest ?? PlatformDigest.default else {
                return end(.failed(AccountUpgradeFailure(.notConfigured)))
            }
            let nonce = Base64URL.encode(Data(random(32)))
            let state = Base64URL.encode(Data(random(16)))
            self.authorization = authorization
            self.rawNonce = nonce
            self.state = state
            phase = .awaitingAppleCredential
            return .requestAppleCredential(state: state, nonce: Hex.lowercase(digest.sha256(Array(nonce.utf8))))
        }
    }

    private func end(_ error: AccountUpgradeError) -> AccountUpgradeExtensionAction {
        phase = .ended(error)
        return .cancel(error)
    }
}

// Written against Apple's AuthenticationServices API (the Account Authentication Modification
// extension, iOS 14+ and visionOS 1+; not macOS, Mac Catalyst, tvOS or watchOS). Linux type-checks
// it against stand-ins (scripts/apple-standins-check.sh, -D SESAME_APPLE_STANDINS) but cannot run
// it. Every decision (authorize, step-up, commit, complete) is AccountUpgradeExtensionFlow's,
// tested on Linux; this class only carries its actions out.
#if (canImport(AuthenticationServices) && os(iOS) && !targetEnvironment(macCatalyst)) || os(visionOS) || SESAME_APPLE_STANDINS
    import AuthenticationServices
    import Foundation
    #if canImport(UIKit)
        import UIKit
    #endif

    /// The principal class of an Account Authentication Modification extension
    /// (`com.apple.authentication-services-account-authentication-modification-ui`): subclass it,
    /// return the tenant from `sesameConfiguration`, and give the step-up a small form by
    /// overriding `presentStepUp(_:)` (and `stepUpCodeSent()`, `stepUpFailed(_:)`), whose buttons
    /// call `submitStepUp(otp:)`, `sendStepUpCode()` and `submitStepUp(smsCode:)`.
    ///
    /// It upgrades to a strong password (the one the system generated, committed before the
    /// request completes) and to Sign in with Apple, started by the system with the saved
    /// password or by the app with an upgrade token in `userInfo`
    /// (`SesameAccountModificationController`). docs/account-upgrades.md has a whole extension.
    @available(iOS 16.0, visionOS 1.0, *)
    @MainActor
    open class SesameAccountModificationViewController: ASAccountAuthenticationModificationViewController {
        /// The tenant and client the extension upgrades accounts of; nil (the default) fails every
        /// request as not configured. Override it.
        open var sesameConfiguration: SesameConfiguration? { nil }
        /// The database connection (`realm`) the saved password belongs to; nil for the client's default.
        open var connection: String? { nil }
        /// The transport the requests go through.
        open var transport: any HTTPTransport { URLSessionTransport() }

        private var flow: AccountUpgradeExtensionFlow?
        /// Set by the system's Cancel: nothing more is sent to the extension context.
        private var systemCanceled = false
        private var work: Task<Void, Never>?

        // MARK: The system's calls

        open override func changePasswordWithoutUserInteraction(
            for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
            newPassword: String, userInfo: [AnyHashable: Any]? = nil
        ) {
            let request = AccountUpgradeExtensionRequest(
                kind: .strongPassword(newPassword: newPassword), user: existingCredential.user,
                existingPassword: existingCredential.password, userInfo: userInfo)
            run(newRequest: true) { await $0.begin(request) }
        }

        open override func prepareInterfaceToChangePassword(
            for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
            newPassword: String, userInfo: [AnyHashable: Any]? = nil
        ) {
            let request = AccountUpgradeExtensionRequest(
                kind: .strongPassword(newPassword: newPassword), user: existingCredential.user,
                existingPassword: existingCredential.password, userInfo: userInfo)
            run(newRequest: true) { await $0.prepareInterface(request) }
        }

        open override func convertAccountToSignInWithAppleWithoutUserInteraction(
            for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
            userInfo: [AnyHashable: Any]? = nil
        ) {
            let request = AccountUpgradeExtensionRequest(
                kind: .signInWithApple, user: existingCredential.user, existingPassword: existingCredential.password,
                userInfo: userInfo)
            run(newRequest: true) { await $0.begin(request) }
        }

        open override func prepareInterfaceToConvertAccountToSignInWithApple(
            for serviceIdentifier: ASCredentialServiceIdentifier, existingCredential: ASPasswordCredential,
            userInfo: [AnyHashable: Any]? = nil
        ) {
            let request = AccountUpgradeExtensionRequest(
                kind: .signInWithApple, user: existingCredential.user, existingPassword: existingCredential.password,
                userInfo: userInfo)
            run(newRequest: true) { await $0.prepareInterface(request) }
        }

        /// The system's Cancel: drops whatever is under way. An override must call super.
        open override func cancelRequest() {
            systemCanceled = true
            work?.cancel()
            if let flow { Task { await flow.cancel() } }
            super.cancelRequest()
        }

        // MARK: The step-up form

        /// Shows the step-up form: a code field for `.otp`, and for `.oob` a "Text me a code"
        /// button (`sendStepUpCode()`). The default, for an extension without a form, fails the
        /// request ("Sign in to the app to upgrade this account.").
        open func presentStepUp(_ stepUp: UpgradeStepUp) {
            carryOut(.cancel(.failed(AccountUpgradeFailure(.signInRequired))))
        }

        /// The SMS code was sent: show its field.
        open func stepUpCodeSent() {}

        /// The code was wrong, or the SMS could not be sent: show `failure.message` and keep the form.
        open func stepUpFailed(_ failure: AccountUpgradeFailure) {}

        /// The text the system shows for a failure (`ASExtensionLocalizedFailureReasonErrorKey`);
        /// the SDK's (see `AccountUpgradeFailure.text(for:error:)`) unless overridden.
        open func failureMessage(for failure: AccountUpgradeFailure) -> String { failure.message }

        /// Answers the step-up with the code of the user's authenticator app.
        public final func submitStepUp(otp code: String) {
            run(newRequest: false) { await $0.submitStepUp(otp: code) }
        }

        /// Sends the user an SMS code for the step-up.
        public final func sendStepUpCode() {
            run(newRequest: false) { await $0.sendStepUpCode() }
        }

        /// Answers the step-up with the SMS code the user received.
        public final func submitStepUp(smsCode code: String) {
            run(newRequest: false) { await $0.submitStepUp(smsCode: code) }
        }

        // MARK: Carrying the flow's actions out

        private func run(
            newRequest: Bool,
            _ step: @escaping @Sendable (AccountUpgradeExtensionFlow) async -> AccountUpgradeExtensionAction
        ) {
            if newRequest { systemCanceled = false }
            guard let flow = currentFlow() else {
                carryOut(.cancel(.failed(AccountUpgradeFailure(.notConfigured))))
                return
            }
            work = Task { [weak self] in
                let action = await step(flow)
                self?.carryOut(action)
            }
        }

        private func currentFlow() -> AccountUpgradeExtensionFlow? {
            if let flow { return flow }
            guard let configuration = sesameConfiguration else { return nil }
            let made = AccountUpgradeExtensionFlow(
                upgrade: AccountUpgrade(configuration: configuration, transport: transport), realm: connection)
            flow = made
            return made
        }

        private func carryOut(_ action: AccountUpgradeExtensionAction) {
            guard !systemCanceled else { return }
            switch action {
            case .completeChangePassword(let user, let newPassword):
                extensionContext.completeChangePasswordRequest(
                    updatedCredential: ASPasswordCredential(user: user, password: newPassword), userInfo: nil)
            case .completeUpgradeToSignInWithApple:
                extensionContext.completeUpgradeToSignInWithApple(userInfo: nil)
            case .requestAppleCredential(let state, let nonce):
                // The system dismisses this extension's interface, if any, before its sheet.
                extensionContext.getSignInWithAppleUpgradeAuthorization(state: state, nonce: nonce) {
                    @Sendable credential, error in
                    let outcome = SesameAccountModificationViewController.outcome(credential, error)
                    Task { @MainActor in
                        self.run(newRequest: false) { await $0.appleCredential(outcome) }
                    }
                }
            case .presentStepUp(let stepUp):
                presentStepUp(stepUp)
            case .stepUpCodeSent:
                stepUpCodeSent()
            case .stepUpRetry(let failure):
                stepUpFailed(failure)
            case .cancel(let error):
                var userInfo: [String: Any] = [:]
                if case .failed(let failure) = error {
                    userInfo[ASExtensionLocalizedFailureReasonErrorKey] = failureMessage(for: failure)
                }
                let code = ASExtensionError.Code(rawValue: error.extensionErrorCode.rawValue) ?? .failed
                extensionContext.cancelRequest(withError: ASExtensionError(code, userInfo: userInfo))
            case .none:
                break
            }
        }

        /// What the Sign in with Apple sheet gave, without Apple types: a credential's token and
        /// code as text, a cancel (`ASExtensionError.userCanceled`, or the authorization sheet's
        /// `canceled`), nothing at all (Apple unreachable), or another error.
        nonisolated static func outcome(_ credential: ASAuthorizationAppleIDCredential?, _ error: (any Error)?)
            -> AppleCredentialOutcome
        {
            if let credential {
                return .credential(
                    identityToken: credential.identityToken.map { String(decoding: $0, as: UTF8.self) },
                    authorizationCode: credential.authorizationCode.map { String(decoding: $0, as: UTF8.self) },
                    state: credential.state)
            }
            guard let error else { return .unavailable }
            let nsError = error as NSError
            if (nsError.domain == ASExtensionErrorDomain && nsError.code == ASExtensionError.Code.userCanceled.rawValue)
                || (nsError.domain == ASAuthorizationErrorDomain
                    && nsError.code == ASAuthorizationError.Code.canceled.rawValue)
            {
                return .canceled
            }
            return .failed(nsError.localizedDescription)
        }
    }
#endif

// Written against Apple's AuthenticationServices API (ASAccountAuthenticationModificationController,
// iOS 14+ and visionOS 1+; not macOS, Mac Catalyst, tvOS or watchOS). Linux type-checks it against
// stand-ins (scripts/apple-standins-check.sh, -D SESAME_APPLE_STANDINS) but cannot run it. The
// mapping of the system's error is AccountUpgradeError(extensionCode:canceled:failureReason:description:),
// tested on Linux.
#if (canImport(AuthenticationServices) && os(iOS) && !targetEnvironment(macCatalyst)) || os(visionOS) || SESAME_APPLE_STANDINS
    import AuthenticationServices
    import Foundation

    /// Starts an upgrade from the app's own interface (a "Use a strong password" or "Use Sign in
    /// with Apple" button): the system runs the app's Account Authentication Modification
    /// extension with the upgrade token in `userInfo` (`AccountUpgrade.userInfoUpgradeTokenKey`),
    /// and this reports how it ended.
    @available(iOS 16.0, visionOS 1.0, *)
    @MainActor
    public final class SesameAccountModificationController {
        /// Returns the window the system's sheet is presented over.
        public let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        /// The controller and its delegate while a request is under way (the delegate is weak).
        private var inFlight: (ASAccountAuthenticationModificationController, ModificationDelegate)?

        /// A controller presenting over the window `anchor` returns.
        public init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Runs the upgrade `authorization` allows (`AccountUpgrade.authorize(type:)`, just
        /// before) for `user`'s saved credential of `domain` (the service identifier, e.g.
        /// `login.example.com`), and returns once the extension completed it. A strong password
        /// and Sign in with Apple only: a passkey upgrade runs in the app
        /// (`AccountUpgrade.upgradeToPasskey(provider:authorization:)`).
        public func perform(_ authorization: UpgradeAuthorization, user: String, domain: String)
            async throws(AccountUpgradeError)
        {
            guard inFlight == nil else {
                throw AccountUpgradeError.failed(
                    AccountUpgradeFailure(reason: .other, message: "An account upgrade is already under way."))
            }
            let service = ASCredentialServiceIdentifier(identifier: domain, type: .domain)
            let userInfo: [AnyHashable: Any] = [AccountUpgrade.userInfoUpgradeTokenKey: authorization.upgradeToken]
            let request: ASAccountAuthenticationModificationRequest
            switch authorization.type {
            case .strongPassword:
                request = ASAccountAuthenticationModificationUpgradePasswordToStrongPasswordRequest(
                    user: user, serviceIdentifier: service, userInfo: userInfo)
            case .signInWithApple:
                request = ASAccountAuthenticationModificationReplacePasswordWithSignInWithAppleRequest(
                    user: user, serviceIdentifier: service, userInfo: userInfo)
            case .passkey:
                throw AccountUpgradeError.failed(
                    AccountUpgradeFailure(
                        reason: .other, message: "A passkey upgrade runs in the app, not in the extension."))
            }
            let outcome: Result<Void, AccountUpgradeError> = await withCheckedContinuation { continuation in
                let controller = ASAccountAuthenticationModificationController()
                let delegate = ModificationDelegate(anchor: anchor) { continuation.resume(returning: $0) }
                controller.delegate = delegate
                controller.presentationContextProvider = delegate
                inFlight = (controller, delegate)
                controller.perform(request)
            }
            inFlight = nil
            if case .failure(let error) = outcome { throw error }
        }
    }

    /// The controller's delegate and presentation context: reports the one outcome.
    @available(iOS 16.0, visionOS 1.0, *)
    final class ModificationDelegate: NSObject, ASAccountAuthenticationModificationControllerDelegate,
        ASAccountAuthenticationModificationControllerPresentationContextProviding
    {
        let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        private let report: @Sendable (Result<Void, AccountUpgradeError>) -> Void
        private let lock = NSLock()
        private var reported = false

        init(
            anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor,
            report: @escaping @Sendable (Result<Void, AccountUpgradeError>) -> Void
        ) {
            self.anchor = anchor
            self.report = report
        }

        func accountAuthenticationModificationController(
            _ controller: ASAccountAuthenticationModificationController,
            didSuccessfullyComplete request: ASAccountAuthenticationModificationRequest, userInfo: [AnyHashable: Any]?
        ) {
            once(.success(()))
        }

        func accountAuthenticationModificationController(
            _ controller: ASAccountAuthenticationModificationController,
            didFail request: ASAccountAuthenticationModificationRequest, error: any Error
        ) {
            let nsError = error as NSError
            once(
                .failure(
                    AccountUpgradeError(
                        extensionCode: nsError.domain == ASExtensionErrorDomain ? nsError.code : nil,
                        canceled: nsError.domain == ASAuthorizationErrorDomain
                            && nsError.code == ASAuthorizationError.Code.canceled.rawValue,
                        failureReason: nsError.userInfo[ASExtensionLocalizedFailureReasonErrorKey] as? String,
                        description: nsError.localizedDescription)))
        }

        @MainActor
        func presentationAnchor(for controller: ASAccountAuthenticationModificationController) -> ASPresentationAnchor {
            anchor()
        }

        /// The system calls back once; the lock makes sure of it.
        private func once(_ outcome: Result<Void, AccountUpgradeError>) {
            lock.lock()
            let first = !reported
            reported = true
            lock.unlock()
            if first { report(outcome) }
        }
    }
#endif

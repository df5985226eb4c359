// Written against Apple's documented AuthenticationServices API (iOS 16+, macOS 13+, Xcode 16
// SDKs, where the delegate protocols are main-actor isolated). It is NOT compiled in Sesame's CI,
// which runs on Linux: everything it computes (option decoding, the credential JSON) is shared
// code in PlatformCeremonyInput.swift and PasskeyCredential.swift, tested on Linux.
#if canImport(AuthenticationServices)
    import AuthenticationServices
    import Foundation

    /// A `PasskeyProvider` over the system passkey sheet (`ASAuthorizationController` with
    /// `ASAuthorizationPlatformPublicKeyCredentialProvider`): iCloud Keychain passkeys, passkeys from
    /// other password managers, and a phone nearby (hybrid).
    ///
    /// The app needs the Associated Domains entitlement `webcredentials:<rp id>` and the tenant must
    /// list the app in `apple-app-site-association` (docs/sdk.md). Cancelling the Swift task cancels
    /// the sheet; a dismissed sheet throws `AuthenticationError` with kind `.cancelled`.
    @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
    public struct PlatformPasskeyProvider: PasskeyProvider {
        /// Returns the window the sheet is presented over.
        public let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        /// For logins: show only passkeys already on this device, and fail at once (`.passkey` with
        /// code "ASAuthorizationError.1001"… or `.cancelled`) instead of offering a phone nearby when
        /// there are none; use it for a sign-in attempt at app launch.
        public let preferImmediatelyAvailableCredentials: Bool

        /// A provider presenting over the window `anchor` returns.
        public init(
            preferImmediatelyAvailableCredentials: Bool = false,
            anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) {
            self.anchor = anchor
            self.preferImmediatelyAvailableCredentials = preferImmediatelyAvailableCredentials
        }

        /// Creates a passkey with the system sheet for a signup or enrollment challenge.
        public func register(_ challenge: PasskeySignupChallenge) async throws -> PasskeyCredential {
            let input = try PlatformRegistrationInput(challenge)
            let ceremony = await PlatformCeremony(anchor: anchor)
            return try await ceremony.run(immediate: false) {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                    relyingPartyIdentifier: input.relyingPartyID)
                let request = provider.createCredentialRegistrationRequest(
                    challenge: input.challenge, name: input.userName, userID: input.userID)
                request.displayName = input.displayName
                request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
                    rawValue: input.userVerification)
                if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                    request.excludedCredentials = input.excludedCredentialIDs.map {
                        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                    }
                }
                return request
            }
        }

        /// Signs a login challenge with one of the user's passkeys, chosen in the system sheet.
        public func assert(_ challenge: PasskeyLoginChallenge) async throws -> PasskeyCredential {
            let input = try PlatformAssertionInput(challenge)
            let ceremony = await PlatformCeremony(anchor: anchor)
            return try await ceremony.run(immediate: preferImmediatelyAvailableCredentials) {
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                    relyingPartyIdentifier: input.relyingPartyID)
                let request = provider.createCredentialAssertionRequest(challenge: input.challenge)
                request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(
                    rawValue: input.userVerification)
                request.allowedCredentials = input.allowedCredentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
                return request
            }
        }
    }

    /// One ceremony: owns the controller, is its delegate and presentation context, and resumes the
    /// caller exactly once. It keeps itself alive until then (the controller's delegate is weak).
    @available(iOS 16.0, macOS 13.0, visionOS 1.0, *)
    @MainActor
    final class PlatformCeremony: NSObject, ASAuthorizationControllerDelegate,
        ASAuthorizationControllerPresentationContextProviding
    {
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        private var controller: ASAuthorizationController?
        private var continuation: CheckedContinuation<PasskeyCredential, any Error>?
        private var keepAlive: PlatformCeremony?

        init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        func run(immediate: Bool, makeRequest: @MainActor @Sendable () -> ASAuthorizationRequest) async throws
            -> PasskeyCredential
        {
            let request = makeRequest()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    self.continuation = continuation
                    self.keepAlive = self
                    let controller = ASAuthorizationController(authorizationRequests: [request])
                    controller.delegate = self
                    controller.presentationContextProvider = self
                    self.controller = controller
                    if Task.isCancelled {
                        self.finish(.failure(AuthenticationError.cancelled()))
                    } else if immediate {
                        controller.performRequests(options: .preferImmediatelyAvailableCredentials)
                    } else {
                        controller.performRequests()
                    }
                }
            } onCancel: {
                Task { @MainActor in self.cancel() }
            }
        }

        /// Dismisses the sheet; the delegate then reports `.canceled`.
        func cancel() {
            guard continuation != nil else { return }
            controller?.cancel()
            finish(.failure(AuthenticationError.cancelled()))
        }

        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            anchor()
        }

        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            do {
                finish(.success(try Self.credential(from: authorization)))
            } catch {
                finish(.failure(error))
            }
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            finish(.failure(Self.map(error)))
        }

        private func finish(_ result: Result<PasskeyCredential, any Error>) {
            guard let continuation else { return }
            self.continuation = nil
            controller = nil
            keepAlive = nil
            continuation.resume(with: result)
        }

        /// The credential JSON from the platform's result (the shared builders do the encoding).
        private static func credential(from authorization: ASAuthorization) throws(AuthenticationError)
            -> PasskeyCredential
        {
            if let registration = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
                guard let attestationObject = registration.rawAttestationObject else {
                    throw AuthenticationError.passkey("the platform returned no attestation object")
                }
                return try PasskeyCredential.registration(
                    credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                    attestationObject: attestationObject, transports: ["internal", "hybrid"],
                    authenticatorAttachment: attachment(of: registration))
            }
            if let assertion = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
                guard let authenticatorData = assertion.rawAuthenticatorData, let signature = assertion.signature else {
                    throw AuthenticationError.passkey("the platform returned an incomplete assertion")
                }
                return try PasskeyCredential.assertion(
                    credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                    authenticatorData: authenticatorData, signature: signature, userHandle: assertion.userID,
                    authenticatorAttachment: attachment(of: assertion))
            }
            throw AuthenticationError.passkey(
                "the platform returned \(type(of: authorization.credential)), not a passkey")
        }

        private static func attachment(of registration: ASAuthorizationPlatformPublicKeyCredentialRegistration)
            -> String?
        {
            guard #available(iOS 16.6, macOS 13.5, visionOS 1.0, *) else { return "platform" }
            return registration.attachment == .crossPlatform ? "cross-platform" : "platform"
        }

        private static func attachment(of assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) -> String? {
            guard #available(iOS 16.6, macOS 13.5, visionOS 1.0, *) else { return "platform" }
            return assertion.attachment == .crossPlatform ? "cross-platform" : "platform"
        }

        /// `ASAuthorizationError.canceled` is a user cancel; every other failure is a `.passkey`
        /// error whose code names the `ASAuthorizationError` code.
        private static func map(_ error: any Error) -> AuthenticationError {
            guard let authorization = error as? ASAuthorizationError else {
                return .passkey("the passkey sheet failed: \(error.localizedDescription)")
            }
            if authorization.code == .canceled { return .cancelled("the passkey sheet was dismissed") }
            return .passkey(
                "the passkey sheet failed: \(authorization.localizedDescription)",
                code: "ASAuthorizationError.\(authorization.code.rawValue)")
        }
    }
#endif

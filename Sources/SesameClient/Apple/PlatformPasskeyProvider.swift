// Written against Apple's AuthenticationServices API (iOS 16+, macOS 13+, visionOS 1+; the Xcode 16
// and later SDKs). Sesame's CI runs on Linux: it type-checks this file against hand-written
// stand-ins for the SDK (scripts/apple-standins-check.sh, -D SESAME_APPLE_STANDINS) but cannot check
// availability or run it. Everything it computes (option decoding, the credential JSON) is shared
// code in PlatformCeremonyInput.swift and PasskeyCredential.swift, tested on Linux.
// Not tvOS or watchOS: `performRequests(options:)`, `attachment` and `ASPresentationAnchor` are
// missing there.
#if (canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))) || SESAME_APPLE_STANDINS
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
        /// For logins: show only passkeys already on this device, and end at once with `.cancelled`
        /// when there is none (the system ends such a request as `ASAuthorizationError.canceled`,
        /// without showing a sheet) instead of offering a phone nearby; use it for a sign-in attempt
        /// at app launch.
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
                // `excludedCredentials` is unavailable on visionOS (no `#available` can enable it
                // there): a visionOS device may create a second passkey for an account that already
                // has one on it. The server still checks the creation options' excludeCredentials
                // when it verifies the registration and refuses a credential ID it already holds.
                #if !os(visionOS)
                    if #available(iOS 17.4, macOS 14.4, *) {
                        request.excludedCredentials = input.excludedCredentialIDs.map {
                            ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                        }
                    }
                #endif
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

        // The delegate methods are `nonisolated` and hop onto the main actor themselves, where the
        // controller calls them. That conformance compiles whether or not the SDK marks
        // `ASAuthorizationControllerDelegate` `@MainActor` (the released Xcode 16 and later SDKs do;
        // older SDKs and the iOS 18.0 beta 1 SDK do not), and unlike `@preconcurrency` it does not
        // warn "has no effect" on the SDKs that do. Only Sendable values cross onto the main actor.
        nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            let result: Result<PasskeyCredential, any Error>
            do {
                result = .success(try Self.credential(from: authorization))
            } catch {
                result = .failure(error)
            }
            MainActor.assumeIsolated { finish(result) }
        }

        nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithError error: any Error
        ) {
            let failure = Self.map(error)
            MainActor.assumeIsolated { finish(.failure(failure)) }
        }

        private func finish(_ result: Result<PasskeyCredential, any Error>) {
            guard let continuation else { return }
            self.continuation = nil
            controller = nil
            keepAlive = nil
            continuation.resume(with: result)
        }

        /// The credential JSON from the platform's result (the shared builders do the encoding).
        nonisolated private static func credential(from authorization: ASAuthorization) throws(AuthenticationError)
            -> PasskeyCredential
        {
            if let registration = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
                guard let attestationObject = registration.rawAttestationObject else {
                    throw AuthenticationError.passkey("the platform returned no attestation object")
                }
                let attachment = PlatformAttachment(of: registration)
                return try PasskeyCredential.registration(
                    credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                    attestationObject: attestationObject, transports: attachment?.transports,
                    authenticatorAttachment: attachment?.name)
            }
            if let assertion = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
                // Typed `Data?` so this compiles whether the SDK imports these as `Data!` (today: the
                // header has no nullability audit) or as `Data` (should Apple audit it).
                let authenticatorData: Data? = assertion.rawAuthenticatorData
                let signature: Data? = assertion.signature
                let userHandle: Data? = assertion.userID
                guard let authenticatorData, let signature else {
                    throw AuthenticationError.passkey("the platform returned an incomplete assertion")
                }
                return try PasskeyCredential.assertion(
                    credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                    authenticatorData: authenticatorData, signature: signature, userHandle: userHandle,
                    authenticatorAttachment: PlatformAttachment(of: assertion)?.name)
            }
            throw AuthenticationError.passkey(
                "the platform returned \(type(of: authorization.credential)), not a passkey")
        }

        /// `ASAuthorizationError.canceled` is a user cancel; every other failure is a `.passkey`
        /// error whose code names the `ASAuthorizationError` code.
        nonisolated private static func map(_ error: any Error) -> AuthenticationError {
            guard let authorization = error as? ASAuthorizationError else {
                return .passkey("the passkey sheet failed: \(error.localizedDescription)")
            }
            if authorization.code == .canceled { return .cancelled("the passkey sheet was dismissed") }
            return .passkey(
                "the passkey sheet failed: \(authorization.localizedDescription)",
                code: "ASAuthorizationError.\(authorization.code.rawValue)")
        }
    }

    /// Where the passkey lives, as WebAuthn's `authenticatorAttachment` and the transports that go
    /// with it. The platform says so from iOS 16.6 / macOS 13.5 (`attachment`); before that it is
    /// unknown and Sesame reports neither (both are optional in the credential JSON).
    private struct PlatformAttachment {
        /// "platform" (this device or its iCloud Keychain) or "cross-platform" (a phone nearby).
        let name: String
        /// `["internal", "hybrid"]` for a platform passkey (synced, so also usable from a phone
        /// nearby), `["hybrid"]` for one on another device.
        let transports: [String]

        init?(of registration: ASAuthorizationPlatformPublicKeyCredentialRegistration) {
            guard #available(iOS 16.6, macOS 13.5, visionOS 1.0, *) else { return nil }
            self.init(registration.attachment)
        }

        init?(of assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) {
            guard #available(iOS 16.6, macOS 13.5, visionOS 1.0, *) else { return nil }
            self.init(assertion.attachment)
        }

        @available(iOS 16.6, macOS 13.5, visionOS 1.0, *)
        private init?(_ attachment: ASAuthorizationPublicKeyCredentialAttachment) {
            switch attachment {
            case .platform: self.init(name: "platform", transports: ["internal", "hybrid"])
            case .crossPlatform: self.init(name: "cross-platform", transports: ["hybrid"])
            @unknown default: return nil
            }
        }

        private init(name: String, transports: [String]) {
            self.name = name
            self.transports = transports
        }
    }
#endif

import Foundation
import SesameWire

/// What a method that was tried before the one that worked failed with.
public struct ReauthenticationFailure: Sendable, Equatable {
    /// The method that failed.
    public var method: RegistrationMethod
    /// Why it failed.
    public var error: AuthenticationError

    /// A failure from its parts.
    public init(method: RegistrationMethod, error: AuthenticationError) {
        self.method = method
        self.error = error
    }
}

/// The outcome of `Reauthentication.reauthenticate`.
public struct ReauthenticationResult: Sendable, Equatable {
    /// The new credentials (store them in place of the old ones).
    public var credentials: Credentials
    /// The method that re-authenticated the user.
    public var method: RegistrationMethod
    /// The methods tried first, in order, and why each failed.
    public var failures: [ReauthenticationFailure]
    /// The server's hints the choice was made with, when there were any.
    public var hints: MethodHints?

    /// The server's advice to create a passkey now (after a device-key re-authentication on a
    /// platform that can): show it, then `Reauthentication.openPasskeyEnrollment` or
    /// `enrollPasskey`, or `MyAccount.snoozePasskeyEnrollment` when the user says "Not now".
    public var passkeyEnrollment: PasskeyEnrollmentPrompt? { credentials.passkeyEnrollment }

    /// A result from its parts.
    public init(
        credentials: Credentials, method: RegistrationMethod, failures: [ReauthenticationFailure] = [],
        hints: MethodHints? = nil
    ) {
        self.credentials = credentials
        self.method = method
        self.failures = failures
        self.hints = hints
    }
}

/// Re-authenticates the signed-in user on this device with a passkey or a legacy device key,
/// as the migration rules choose (`SignInMethodSelector`), falling back to the other method when
/// the first fails for a reason that method cannot get past, and keeping the app's prefer-passkey
/// flag (`PreferPasskeyStore`) up to date.
///
/// A failure falls back to the next method when the device could not do the ceremony (`.passkey`,
/// `.deviceKey`: no passkey here, a key lost with a restore or a biometry change) or the server
/// refused it (a 4xx other than 429: an unknown passkey or key, a revoked or expired key, a
/// rejected access token). A cancel, a network failure, a timeout, a 429 or a 5xx ends the
/// re-authentication with that error: the user said no, or trying again later may work. (iOS
/// reports "no passkey on this device" as a cancel too; the prefer-passkey flag is what keeps the
/// passkey from being tried first for a user who has none.)
public struct Reauthentication: Sendable {
    /// The client that talks to the tenant.
    public let authentication: SesameAuthentication
    /// The app's prefer-passkey flags.
    public let preferPasskeyStore: any PreferPasskeyStore
    /// Runs passkey ceremonies; without one, passkeys are never tried.
    public var passkeyProvider: (any PasskeyProvider)?
    /// Holds the device keys; without one, device keys are never tried.
    public var deviceKeyProvider: (any DeviceKeyProvider)?
    /// This device, as the selector sees it; a device-key grant sends its OS version.
    public var device: DeviceContext
    /// The rules.
    public var selector: SignInMethodSelector
    /// SHA-256 for the device-key message (CryptoKit's by default on Apple platforms; pass
    /// `SesameCryptoDigest` on Linux).
    public var digest: (any PKCEDigest)?
    /// The connection passkey logins and enrollments name (the default connection when nil).
    public var connection: String?

    /// A re-authentication through `authentication`, with the flags in `preferPasskeyStore`.
    public init(
        authentication: SesameAuthentication, preferPasskeyStore: any PreferPasskeyStore,
        passkeyProvider: (any PasskeyProvider)? = nil, deviceKeyProvider: (any DeviceKeyProvider)? = nil,
        device: DeviceContext = .current, selector: SignInMethodSelector = SignInMethodSelector(),
        digest: (any PKCEDigest)? = nil, connection: String? = nil
    ) {
        self.authentication = authentication
        self.preferPasskeyStore = preferPasskeyStore
        self.passkeyProvider = passkeyProvider
        self.deviceKeyProvider = deviceKeyProvider
        self.device = device
        self.selector = selector
        self.digest = digest
        self.connection = connection
    }

    /// The methods the selector chooses for `userID`: `deviceKey` is the user's registered key on
    /// this device, `hasPasskey` what the app knows (nil: the prefer-passkey flag stands for it;
    /// the server's `has_passkey` wins when `hints` say). A method without a provider is left out.
    public func methods(
        userID: String, deviceKey: RegisteredDeviceKey?, hasPasskey: Bool? = nil, hints: MethodHints? = nil
    ) -> SignInMethods {
        let prefers = prefersPasskey(userID: userID)
        let state = RegistrationState(
            hasPasskey: passkeyProvider != nil && (hasPasskey ?? prefers),
            hasDeviceKey: deviceKeyProvider != nil && deviceKey != nil)
        var methods = selector.select(device: device, state: state, prefersPasskey: prefers, hints: hints)
        if passkeyProvider == nil { methods.reauthenticate.removeAll { $0 == .passkey } }
        return methods
    }

    /// Re-authenticates the user `credentials` belong to (they must say who: an id token or a JWT
    /// access token with `sub`). The server's hints are `hints` when given, else fetched with
    /// `myAccount` when given (and skipped if that fails). A passkey that signs in another
    /// account is refused (`user_mismatch`) and its session revoked.
    ///
    /// A device-key grant sends `device`'s OS version (`os_version`) and `enrollmentRedirectURL`
    /// (`redirect_uri`): where the hosted page of the answer's enrollment prompt returns. Pass the
    /// same URL to `openPasskeyEnrollment`.
    ///
    /// Throws the last method's error when every method failed, `no_reauthentication_method`
    /// (`.unauthorized`) when none can be tried: the user signs in again.
    public func reauthenticate(
        credentials: Credentials, deviceKey: RegisteredDeviceKey? = nil, hasPasskey: Bool? = nil,
        hints: MethodHints? = nil, myAccount: MyAccount? = nil, audience: String? = nil,
        scope: String = SesameAuthentication.defaultScope, enrollmentRedirectURL: URL? = nil
    ) async throws(AuthenticationError) -> ReauthenticationResult {
        guard let userID = credentials.userID else {
            throw AuthenticationError.invalidResponse(
                "the credentials do not say who is signed in (no sub in the id token or the access token)")
        }
        var hints = hints
        if hints == nil, let myAccount, device.platform.devicePlatform != nil {
            do {
                hints = try await myAccount.methodHints(device: device)
            } catch  where error.isCancelled {
                throw error
            } catch {
                // Advice only: the local rules decide without it.
            }
        }
        let order = methods(userID: userID, deviceKey: deviceKey, hasPasskey: hasPasskey, hints: hints)
            .reauthenticate
        guard let last = order.last else {
            throw AuthenticationError(
                kind: .unauthorized, code: "no_reauthentication_method",
                errorDescription: "no passkey or device key can re-authenticate this user here; sign in again")
        }
        let attempt = Attempt(
            reauthentication: self, userID: userID, credentials: credentials, deviceKey: deviceKey, audience: audience,
            scope: scope, enrollmentRedirectURL: enrollmentRedirectURL)
        var failures: [ReauthenticationFailure] = []
        for method in order.dropLast() {
            do {
                let fresh = try await attempt.run(method)
                return ReauthenticationResult(credentials: fresh, method: method, failures: failures, hints: hints)
            } catch  where Self.fallsBack(error) {
                failures.append(ReauthenticationFailure(method: method, error: error))
            }
        }
        let fresh = try await attempt.run(last)
        return ReauthenticationResult(credentials: fresh, method: last, failures: failures, hints: hints)
    }

    /// Adds a passkey with the passkey provider (My Account enrollment) and sets the user's
    /// prefer-passkey flag, so the next re-authentication offers it first.
    public func enrollPasskey(account: MyAccount) async throws(AuthenticationError) -> PasskeyAuthenticationMethod {
        guard let passkeyProvider else {
            throw AuthenticationError(
                kind: .invalidResponse, code: "no_provider", errorDescription: "no PasskeyProvider to create a passkey")
        }
        let method = try await account.enrollPasskey(provider: passkeyProvider, connection: connection)
        if let userID = account.userID { try? preferPasskeyStore.setPrefersPasskey(key(userID)) }
        return method
    }

    /// Opens the hosted enrollment page of `result`'s prompt with a web-auth provider (the system
    /// sign-in sheet or the app's web view) and returns how it ended once the page comes back to
    /// `redirectURL`; `created` and `alreadyRegistered` set the user's prefer-passkey flag, so the
    /// next re-authentication offers the passkey first. Closing the page is `.cancelled`.
    ///
    /// The page comes back only when `reauthenticate` was given the same URL as
    /// `enrollmentRedirectURL` (one of the client's callbacks); without it the page ends with no
    /// way back. The page must be on the tenant's domain, or https.
    public func openPasskeyEnrollment(
        _ result: ReauthenticationResult, provider: any WebAuthProvider, redirectURL: URL
    ) async throws(AuthenticationError) -> PasskeyEnrollmentOutcome {
        try await authentication.openPasskeyEnrollment(
            result.credentials, provider: provider, redirectURL: redirectURL, flags: preferPasskeyStore)
    }

    /// One re-authentication's methods, each keeping the prefer-passkey flag up to date.
    private struct Attempt {
        let reauthentication: Reauthentication
        let userID: String
        let credentials: Credentials
        let deviceKey: RegisteredDeviceKey?
        let audience: String?
        let scope: String
        let enrollmentRedirectURL: URL?

        func run(_ method: RegistrationMethod) async throws(AuthenticationError) -> Credentials {
            let store = reauthentication.preferPasskeyStore
            switch method {
            case .passkey:
                do {
                    let fresh = try await passkey()
                    reauthentication.authentication.notePasskey(credentials: fresh, in: store)
                    return fresh
                } catch  where error.isUnknownCredential {
                    try? store.clearPrefersPasskey(reauthentication.key(userID))
                    throw error
                }
            case .deviceKey:
                return try await deviceKey()
            }
        }

        private func passkey() async throws(AuthenticationError) -> Credentials {
            guard let provider = reauthentication.passkeyProvider else {
                throw Reauthentication.missing("PasskeyProvider")
            }
            let authentication = reauthentication.authentication
            let fresh = try await authentication.logIn(
                provider: provider, connection: reauthentication.connection, audience: audience, scope: scope)
            guard fresh.userID == userID else {
                // Another account's passkey: its session is not this user's to keep.
                if let refreshToken = fresh.refreshToken {
                    try? await authentication.revoke(refreshToken: refreshToken)
                }
                throw AuthenticationError.passkey(
                    "the passkey belongs to another account than the signed-in user's", code: "user_mismatch")
            }
            return fresh
        }

        private func deviceKey() async throws(AuthenticationError) -> Credentials {
            guard let provider = reauthentication.deviceKeyProvider, let deviceKey else {
                throw Reauthentication.missing("DeviceKeyProvider and a device key")
            }
            return try await reauthentication.authentication.reauthenticate(
                deviceKey: deviceKey, accessToken: credentials.accessToken, provider: provider,
                digest: reauthentication.digest, device: reauthentication.device, audience: audience, scope: scope,
                enrollmentRedirectURL: enrollmentRedirectURL)
        }
    }

    private func prefersPasskey(userID: String) -> Bool {
        (try? preferPasskeyStore.prefersPasskey(key(userID))) ?? false
    }

    private func key(_ userID: String) -> PreferPasskeyKey {
        PreferPasskeyKey(configuration: authentication.configuration, userID: userID)
    }

    private static func missing(_ what: String) -> AuthenticationError {
        AuthenticationError(kind: .invalidResponse, code: "no_provider", errorDescription: "no \(what)")
    }

    /// Whether a method's failure lets the next method be tried (see the type's comment).
    static func fallsBack(_ error: AuthenticationError) -> Bool {
        switch error.kind {
        case .passkey, .deviceKey:
            return true
        case .server, .unauthorized:
            guard let status = error.statusCode else { return false }
            return (400..<500).contains(status) && status != 429
        case .cancelled, .network, .timeout, .invalidResponse, .storage:
            return false
        }
    }
}

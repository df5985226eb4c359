import Foundation

/// One request the system gives an Account Authentication Modification extension, without Apple
/// types: what to upgrade to, whose account, and what authorizes it.
public struct AccountUpgradeExtensionRequest: Sendable, Equatable {
    /// What the system asks for.
    public enum Kind: Sendable, Equatable {
        /// Replace the password with `newPassword`, the strong password the system generated.
        case strongPassword(newPassword: String)
        /// Convert the account to Sign in with Apple.
        case signInWithApple
    }

    /// What authorizes the upgrade.
    public enum Authority: Sendable, Equatable {
        /// The system started it with the saved password (`userInfo` is nil).
        case password(String)
        /// The app started it and passed an upgrade token in `userInfo` (the existing password is empty).
        case upgradeToken(String)
        /// Neither: the app passed no token, and there is no password.
        case none
    }

    /// What to upgrade to.
    public var kind: Kind
    /// The account's user name (`existingCredential.user`).
    public var user: String
    /// What authorizes it.
    public var authority: Authority

    /// A request from its parts.
    public init(kind: Kind, user: String, authority: Authority) {
        self.kind = kind
        self.user = user
        self.authority = authority
    }

    /// A request as the system hands it over: an app-initiated one carries `userInfo` (read for
    /// `AccountUpgrade.userInfoUpgradeTokenKey`) and an empty password; a system-initiated one
    /// the saved password and no `userInfo`.
    public init(kind: Kind, user: String, existingPassword: String, userInfo: [AnyHashable: Any]?) {
        let token = (userInfo?[AccountUpgrade.userInfoUpgradeTokenKey] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let authority: Authority
        if let token {
            authority = .upgradeToken(token)
        } else if !existingPassword.isEmpty {
            authority = .password(existingPassword)
        } else {
            authority = .none
        }
        self.init(kind: kind, user: user, authority: authority)
    }

    /// The server's upgrade type.
    public var type: AccountUpgradeType {
        switch kind {
        case .strongPassword: return .strongPassword
        case .signInWithApple: return .signInWithApple
        }
    }
}

/// What the extension's view controller does next, as the flow decides it.
public enum AccountUpgradeExtensionAction: Sendable, Equatable {
    /// `completeChangePasswordRequest(updatedCredential: ASPasswordCredential(user:password:), userInfo:)`:
    /// the server has committed `newPassword`.
    case completeChangePassword(user: String, newPassword: String)
    /// `completeUpgradeToSignInWithApple(userInfo:)`: the server has linked the Apple ID.
    case completeUpgradeToSignInWithApple
    /// `getSignInWithAppleUpgradeAuthorization(state:nonce:)` with these values (`nonce` is the
    /// hex SHA-256 of the raw nonce the flow keeps), then `appleCredential(_:)` with the outcome.
    case requestAppleCredential(state: String, nonce: String)
    /// Show the step-up form (the system shows the extension's interface).
    case presentStepUp(UpgradeStepUp)
    /// The SMS code was sent: ask the user for it.
    case stepUpCodeSent
    /// The code was wrong (or the SMS could not be sent): say so and let the user try again.
    case stepUpRetry(AccountUpgradeFailure)
    /// `cancelRequest(withError: ASExtensionError(code, userInfo: [reason key: reason]))`.
    case cancel(AccountUpgradeError)
    /// Nothing: the request ended already (completed, failed or cancelled by the system), or the
    /// event did not fit the moment (a second tap while a call is under way).
    case none
}

/// What the Sign in with Apple upgrade sheet gave.
public enum AppleCredentialOutcome: Sendable, Equatable {
    /// A credential: its identity token and authorization code as text, and the `state` it echoes.
    case credential(identityToken: String?, authorizationCode: String?, state: String?)
    /// No credential and no error (Apple could not be reached).
    case unavailable
    /// The user cancelled the sheet (`ASExtensionError.Code.userCanceled`).
    case canceled
    /// Another error, with its description.
    case failed(String)
}

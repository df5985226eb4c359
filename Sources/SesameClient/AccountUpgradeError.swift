import Foundation

/// The raw codes of `ASExtensionError.Code` an upgrade ends with (ASExtensionErrors.h), so that
/// the mapping is checked on Linux.
public enum ExtensionErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// `ASExtensionError.Code.failed`: the system shows the failure reason.
    case failed = 0
    /// `ASExtensionError.Code.userCanceled`: nothing is shown.
    case userCanceled = 1
    /// `ASExtensionError.Code.userInteractionRequired`: the system starts the request again with
    /// the extension's interface (`prepareInterface…`).
    case userInteractionRequired = 100
}

/// How an account upgrade in the Account Authentication Modification extension ends when it does
/// not complete: one case per `ASExtensionError` code it is reported with (`extensionErrorCode`).
public enum AccountUpgradeError: Error, Sendable, Equatable {
    /// The upgrade cannot be done; `failure.message` is what the system shows the user.
    case failed(AccountUpgradeFailure)
    /// The server asked for a step-up: the system comes back through `prepareInterface…`.
    case userInteractionRequired(UpgradeStepUp)
    /// The user cancelled (the Sign in with Apple sheet, or the system's sheet).
    case userCanceled

    /// The `ASExtensionError.Code` raw value to cancel the request with.
    public var extensionErrorCode: ExtensionErrorCode {
        switch self {
        case .failed: return .failed
        case .userInteractionRequired: return .userInteractionRequired
        case .userCanceled: return .userCanceled
        }
    }

    /// The text for `ASExtensionLocalizedFailureReasonErrorKey`: only a failure has one.
    public var localizedFailureReason: String? {
        guard case .failed(let failure) = self else { return nil }
        return failure.message
    }

    /// The `ASExtensionError` of this outcome as its raw parts: the code and the `userInfo`
    /// (`ASExtensionLocalizedFailureReasonErrorKey` → the reason, for a failure).
    public func extensionError(failureReasonKey: String) -> (code: Int, userInfo: [String: String]) {
        (extensionErrorCode.rawValue, localizedFailureReason.map { [failureReasonKey: $0] } ?? [:])
    }

    /// The outcome of a server error during `type`'s upgrade: a step-up the user can answer is
    /// `.userInteractionRequired`, a cancelled request `.userCanceled`, anything else a failure
    /// with its reason.
    public init(_ error: AuthenticationError, type: AccountUpgradeType) {
        if let stepUp = error.upgradeStepUp, stepUp.acceptsSecondFactor {
            self = .userInteractionRequired(stepUp)
        } else if error.isCancelled {
            self = .userCanceled
        } else {
            self = .failed(AccountUpgradeFailure(error, type: type))
        }
    }

    /// The outcome an app-initiated request reported (`accountAuthenticationModificationController(_:didFail:error:)`):
    /// `extensionCode` is the error's code when its domain is `ASExtensionErrorDomain` (nil for
    /// another domain), `canceled` whether it is a cancel of another domain
    /// (`ASAuthorizationError.canceled`), `failureReason` its
    /// `ASExtensionLocalizedFailureReasonErrorKey` and `description` its localized description.
    public init(extensionCode: Int?, canceled: Bool = false, failureReason: String?, description: String) {
        switch extensionCode.flatMap(ExtensionErrorCode.init) {
        case .userCanceled:
            self = .userCanceled
        case .failed, .userInteractionRequired, .none:
            if canceled {
                self = .userCanceled
            } else {
                self = .failed(AccountUpgradeFailure(reason: .system, message: failureReason ?? description))
            }
        }
    }
}

/// Why an upgrade failed, and the text the system shows for it.
public struct AccountUpgradeFailure: Sendable, Equatable {
    /// The reasons an upgrade fails, each with its own text.
    public enum Reason: Sendable, Hashable {
        /// The saved password is wrong.
        case wrongPassword
        /// Too many attempts: the server asks to wait.
        case tooManyAttempts
        /// The account cannot have this upgrade (the server's reason, when it gave a known one).
        case notAllowed(AuthenticationError.UpgradeNotAllowedReason?)
        /// The new password breaks the connection's rules.
        case passwordNotStrongEnough
        /// The new password is the current one.
        case passwordReused
        /// The new password is in a breach.
        case passwordLeaked
        /// The Apple ID is linked to another account (409).
        case identityAlreadyLinked
        /// The step-up code is wrong.
        case wrongCode
        /// Sign in with Apple gave no credential (Apple could not be reached).
        case appleCredentialUnavailable
        /// Nothing authorizes the upgrade (no token, no password, or a step-up only the password
        /// satisfies): the user signs in to the app and starts it there.
        case signInRequired
        /// The extension is not set up (no configuration, no SHA-256).
        case notConfigured
        /// No answer from the server.
        case network
        /// Any other error of the server or of the device: `message` is its description.
        case other
        /// The system reported the failure (an app-initiated request).
        case system
    }

    /// Why.
    public var reason: Reason
    /// What the user is shown (`ASExtensionLocalizedFailureReasonErrorKey`).
    public var message: String
    /// The SDK's error behind it, when there is one.
    public var error: AuthenticationError?

    /// A failure from its parts.
    public init(reason: Reason, message: String, error: AuthenticationError? = nil) {
        self.reason = reason
        self.message = message
        self.error = error
    }

    /// A failure with the SDK's text for `reason`.
    public init(_ reason: Reason, error: AuthenticationError? = nil) {
        self.init(reason: reason, message: Self.text(for: reason, error: error), error: error)
    }

    /// The failure a server error means during `type`'s upgrade.
    public init(_ error: AuthenticationError, type: AccountUpgradeType) {
        self.init(Self.reason(of: error, type: type), error: error)
    }

    /// The reason of an error; a pure function of its code, status and body.
    static func reason(of error: AuthenticationError, type: AccountUpgradeType) -> Reason {
        if error.isNetworkError { return .network }
        if error.isTooManyAttempts { return .tooManyAttempts }
        if error.isInvalidCredentials { return .wrongPassword }
        if error.isUpgradeNotAllowed { return .notAllowed(error.upgradeNotAllowedReason) }
        if error.isStepUpRequired || error.code == "login_required" { return .signInRequired }
        if error.isIdentityAlreadyLinked { return .identityAlreadyLinked }
        if error.isPasswordLeaked { return .passwordLeaked }
        if error.isPasswordReused { return .passwordReused }
        if error.isPasswordNotStrongEnough { return .passwordNotStrongEnough }
        if error.code == "no_digest" { return .notConfigured }
        return .other
    }

    /// The English text of a reason, looked up first in the app's `SesameAccountUpgrade.strings`
    /// table (keys `sesame.upgrade.<reason>`), so an extension localizes it by shipping that table.
    /// `.other` and `.system` show the error's own description.
    public static func text(for reason: Reason, error: AuthenticationError? = nil) -> String {
        let (key, english): (String, String)
        switch reason {
        case .wrongPassword:
            (key, english) = (
                "wrong_password", "The saved password is no longer correct. Sign in to the app to update it."
            )
        case .tooManyAttempts:
            (key, english) = ("too_many_attempts", "Too many attempts. Try again later.")
        case .notAllowed(.alreadyUpgraded):
            (key, english) = ("already_upgraded", "This account has been upgraded already.")
        case .notAllowed(.noPassword):
            (key, english) = ("no_password", "This account has no password to upgrade.")
        case .notAllowed(.userBlocked):
            (key, english) = ("user_blocked", "This account is blocked.")
        case .notAllowed(.typeDisabled), .notAllowed(.none):
            (key, english) = ("not_allowed", "This upgrade is not available for this account.")
        case .passwordNotStrongEnough:
            (key, english) = ("password_not_strong_enough", "The new password does not meet the account's rules.")
        case .passwordReused:
            (key, english) = ("password_reused", "The new password must differ from the current one.")
        case .passwordLeaked:
            (key, english) = ("password_leaked", "The new password has appeared in a data breach. Choose another.")
        case .identityAlreadyLinked:
            (key, english) = ("identity_already_linked", "This Apple ID is already used by another account.")
        case .wrongCode:
            (key, english) = ("wrong_code", "The code is not correct. Try again.")
        case .appleCredentialUnavailable:
            (key, english) = (
                "apple_credential_unavailable", "Sign in with Apple is not available right now. Try again later."
            )
        case .signInRequired:
            (key, english) = ("sign_in_required", "Sign in to the app to upgrade this account.")
        case .notConfigured:
            (key, english) = ("not_configured", "This app cannot upgrade accounts yet.")
        case .network:
            (key, english) = ("network", "Cannot reach the server. Try again later.")
        case .other, .system:
            return error?.errorDescription ?? "The upgrade failed."
        }
        return NSLocalizedString(
            "sesame.upgrade." + key, tableName: "SesameAccountUpgrade", bundle: .main, value: english, comment: "")
    }
}

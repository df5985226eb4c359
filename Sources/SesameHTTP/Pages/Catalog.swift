import SesameService
import SesameStore

/// Every text the hosted pages show, by key. Each language is a `switch` over every key, so a
/// text missing in one language does not compile. `%1` in a text is replaced by an argument
/// (already HTML-escaped by `Catalog.text`).
enum Text: CaseIterable {
    case signInTitle, signInLead, identifierLabel, continueButton, passkeyButton, orDivider
    case noAccount, signUpLink, passwordLabel, signInButton, changeIdentifier, forgotPassword
    case passkeyFailed, passkeyUnsupported, passkeyExists, passkeyNotOffered
    case mfaTitle, mfaLead, codeLabel, verifyButton, mfaEnrollNeeded
    case signupTitle, signupLead, emailLabel, nameLabel, continueWithPasskey, usePasswordInstead
    case newPasswordLabel, signUpWithPassword, haveAccount, signInLink
    case createPasskeyTitle, createPasskeyLead, createPasskeyButton
    case formPostTitle, formPostLead, continueToApp
    case logoutTitle, logoutLead, logoutButton, signedOutTitle, signedOutLead
    case backToApp, errorTitle, languageName, languageMenu, errorWaysOn, errorAccountLink
    case passwordRulesHeading, ruleMinLength, ruleMaxLength, ruleRequired, ruleAllowed, ruleRepeating
    case ruleSequential, ruleOr, ruleAnd, classLower, classUpper, classDigit, classSpecial, classASCII
    case classAny, classCustom, errorWeakPasswordBecause, showPassword, hidePassword
    case passkeyMenu, passkeyNewName, removePasskeyLink, removePasskeyTitle, removePasskeyLead
    case removePasskeyButton, cancelLink, errorLastPasskey, errorLastPassword, passwordManager, passkeyCancelled
    case adminOnlyTitle, signedInAs, useAnotherAccount
    case listSeparator
    case adoptionTotal, adoptionPasskey, adoptionDeviceKey, adoptionPassword, adoptionApple, adoptionRefresh,
        adoptionShare
    case errorWrongCredentials, errorTooManyAttempts, errorExpired, errorWrongCode, errorUnknownCredential
    case errorGeneric, errorUserExists, errorWeakPassword, errorLeakedPassword, errorBlocked, errorForm
    case errorUnavailable, errorPasskeyFailed
    case resetRequestTitle, resetRequestLead, sendResetLink, resetSentLead, backToSignIn
    case resetTitle, resetLead, newPasswordButton, resetDoneTitle, resetDoneLead, errorResetExpired
    case verifyTitle, verifyLead, confirmEmailButton, verifiedTitle, verifiedLead, errorVerifyExpired
    case verifyPriorLead, priorPasskeys, priorPassword, priorSecondFactors, priorDeviceKeys, priorAppleID
    case verifyPriorQuestion, keepPriorButton, removePriorButton, verifyPriorHint, verifiedClearedLead
    case setUpSignInLink
    case mfaEnrollTitle, mfaEnrollLead, secretKeyLabel, recoveryCodeLead, smsLead
    case accountTitle, passkeysHeading, passkeyName, passkeyProvider, passkeyCreated, passkeyLastUsed
    case passkeySynced, passkeyDeviceBound, renameButton, deleteButton, addPasskeyButton, noPasskeys
    case passwordHeading, passwordSetOn, noPassword, currentPasswordLabel, changePasswordButton
    case setPasswordButton, factorsHeading, noFactors, factorTOTP, factorSMS, factorRecovery
    case sessionsHeading, sessionThisBrowser, sessionStarted, sessionLastSeen, endSessionButton
    case signOutEverywhereButton, signOutButton, neverUsed, addPasskeyLead
    case doneRenamed, doneDeleted, doneAdded, donePassword, doneFactor, doneSession, errorReauth
    case enrollPromptTitle, enrollPromptLead, localEnrollTitle, localEnrollLead, notNowButton, neverAskButton
    case deviceKeyEnrollTitle, deviceKeyEnrollLead, enrollDoneTitle, enrollDoneLead, enrollSkippedTitle
    case enrollSkippedLead, alreadyRegisteredTitle, alreadyRegisteredLead, errorAlreadyRegistered
    case enrollBenefitNoPassword, enrollBenefitUnlock, enrollBenefitPhishing
    case adminTitle, adminSetupTitle, adminSetupLead, adminSetupButton, adminUsers, adminClients
    case adminConnections, adminNewClient, adminClientName, adminClientType, adminCreateButton, adminSaveButton
    case adminCallbacks, adminLogoutURLs, adminOrigins, adminGrantTypes, adminIOS, adminTeamID, adminBundleID
    case adminAndroid, adminPackage, adminFingerprints, adminOnePerLine, adminSecretOnce, adminSaved, adminBack
    case adminPasskeyCount, adminHasPassword, adminNotAdmin
    case adminAllUsers, adminSearchLabel, adminSearchButton, adminNoUsers, adminUser, adminUserID
    case adminEmailVerified, adminCreated, adminLastLogin, adminPreviousPage, adminNextPage, adminYes, adminNo
    case adminConnection, adminBlocked, adminNoUserPasskeys, adminPasskeyKind, adminBackedUp, adminSynced
    case adminFactor, adminFactorActive, adminFactorPending
    case adminResetFactors, adminResetFactorsHint, adminFactorsReset
    case adminDeviceBound, adminPasswordChanged, adminNoUserPassword, adminDeviceKeys, adminDevice, adminPlatform
    case adminState, adminRecentLogs, adminNoLogs, adminLogType, adminLogDescription
    case adoptionTitle, adoptionLead, adoptionChartLabel, adoptionDownload, adoptionUsers, adoptionShow
    case adoptionFrom, adoptionTo, adoptionDate
    case recoverLink, recoverTitle, recoverLead, sendCodeButton, recoverCodeLead, recoveryEnrollTitle
    case recoveryEnrollLead, recoveryPasswordLead
    case errorPasswordReused, errorSignsInWithApple, errorSignsInWithPasskey
    case upgradeHeading, upgradeLead, upgradeWeakLead, upgradeBreachedLead, upgradePasskeyButton
    case upgradeStrongPasswordButton, upgradeAppleButton, upgradeNotNow, doneUpgraded
    case passwordReplacedApple, passwordReplacedPasskey
    case poweredBy
    case mfaOtherWays, useRecoveryCodeButton, useSMSButton, useAppButton, usePasskeyInstead, cancelSignIn
    case recoveryCodeStepLead, recoveryCodeLabel, mfaSupportHint, recoverySecondFactorLead
    case saveRecoveryTitle, saveRecoveryLead, copyButton, copiedNotice, downloadButton, savedCheckbox
    case passkeyCreateFailed, errorPasskeyNotRegistered
    case profileHeading, profileNameLabel, emailVerifiedBadge, emailUnverifiedBadge, resendVerificationButton,
        saveButton, doneProfile, doneVerificationSent
    case sessionDevice, sessionUnknownDevice, appsHeading, appsLead, appsNone, appActivity, revokeAppButton,
        revokeAppNamed
    case doneAppRevoked, checkupHeading, checkupAddPasskey, checkupSecondPasskey, checkupRemovePassword,
        checkupSaveRecovery, checkupAllGood, removePasswordLink
    case removePasswordTitle, removePasswordLead, donePasswordRemoved, showRecoveryLink, doneRecoverySaved,
        deleteAccountHeading, deleteAccountLead, deleteAccountLink
    case deleteAccountTitle, deleteAccountConfirmLabel, deleteAccountButton, errorDeleteConfirmation,
        accountDeletedTitle, accountDeletedLead
}

enum Catalog {
    /// The tenant's own texts for this request (its branding), set by the hosted pages' middleware.
    @TaskLocal static var overrides: [Text: [PageLocale: String]] = [:]

    /// The overrides a tenant's branding makes.
    static func overrides(_ branding: BrandingSettings?) -> [Text: [PageLocale: String]] {
        var map: [Text: [PageLocale: String]] = [:]
        for (name, byLanguage) in branding?.texts ?? [:] {
            guard let key = BrandingText(rawValue: name) else { continue }
            let text: Text
            switch key {
            case .loginTitle: text = .signInTitle
            case .loginLead: text = .signInLead
            case .signupTitle: text = .signupTitle
            case .signupLead: text = .signupLead
            case .footer: text = .poweredBy
            }
            for (language, value) in byLanguage {
                if let locale = PageLocale(rawValue: language) { map[text, default: [:]][locale] = value }
            }
        }
        return map
    }

    /// `text` in `locale`, as HTML, with `%1`… replaced by `arguments` (escaped here, like the text).
    /// One pass over the text, so an argument that holds `%2` is never filled in again.
    static func text(_ text: Text, _ locale: PageLocale, _ arguments: String...) -> HTML {
        "\(filled(text, locale, arguments))"
    }

    /// The text with `%1`, `%2`, … replaced by `arguments`, as a `String`: for a text that is
    /// itself an argument of another (a password rule inside the refusal), escaped once where the
    /// outer one is written.
    static func filled(_ text: Text, _ locale: PageLocale, _ arguments: [String]) -> String {
        var result = ""
        var characters = raw(text, locale)[...]
        while let character = characters.popFirst() {
            if character == "%", let digit = characters.first?.wholeNumberValue, digit >= 1, digit <= arguments.count {
                characters.removeFirst()
                result += arguments[digit - 1]
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The text as a `String` (for an attribute's value, which `HTML` interpolation escapes, and
    /// for tests).
    static func raw(_ text: Text, _ locale: PageLocale) -> String {
        if let own = overrides[text]?[locale] { return own }
        switch locale {
        case .en: return english(text)
        case .ja: return japanese(text)
        case .zhHans: return chinese(text)
        case .ko: return korean(text)
        case .es: return spanish(text)
        case .fr: return french(text)
        case .de: return german(text)
        case .ptBR: return portuguese(text)
        }
    }

    static func english(_ text: Text) -> String {
        switch text {
        case .signInTitle: return "Sign in"
        case .signInLead: return "to continue to %1"
        case .identifierLabel: return "Email address or username"
        case .continueButton: return "Continue"
        case .passkeyButton: return "Sign in with a passkey"
        case .orDivider: return "or"
        case .noAccount: return "Don't have an account?"
        case .signUpLink: return "Sign up"
        case .passwordLabel: return "Password"
        case .signInButton: return "Sign in"
        case .changeIdentifier: return "Change"
        case .forgotPassword: return "Forgot password?"
        case .passkeyFailed: return "The passkey could not be used. Try again, or sign in another way."
        case .passkeyUnsupported: return "This browser cannot use passkeys."
        case .passkeyExists: return "This device already has a passkey for this account."
        case .passkeyNotOffered: return "Use your passkey to sign in to this account."
        case .mfaTitle: return "Verify it's you"
        case .mfaLead: return "Enter the 6-digit code from your authenticator app."
        case .codeLabel: return "Code"
        case .verifyButton: return "Verify"
        case .mfaEnrollNeeded: return "This account needs a second factor. Set one up in the application first."
        case .signupTitle: return "Create your account"
        case .signupLead: return "for %1"
        case .emailLabel: return "Email address"
        case .nameLabel: return "Name (optional)"
        case .continueWithPasskey: return "Continue with a passkey"
        case .usePasswordInstead: return "Use a password instead"
        case .newPasswordLabel: return "Password"
        case .signUpWithPassword: return "Sign up with a password"
        case .haveAccount: return "Already have an account?"
        case .signInLink: return "Sign in"
        case .createPasskeyTitle: return "Create a passkey"
        case .createPasskeyLead:
            return "for %1. Your device will ask for your fingerprint, face or screen lock. Nothing leaves the device."
        case .createPasskeyButton: return "Create passkey"
        case .formPostTitle: return "Returning to the application"
        case .formPostLead: return "If nothing happens, press Continue."
        case .continueToApp: return "Continue"
        case .logoutTitle: return "Sign out"
        case .logoutLead: return "Sign out of %1 on this browser?"
        case .logoutButton: return "Sign out"
        case .signedOutTitle: return "Signed out"
        case .signedOutLead: return "You are signed out. You can close this page."
        case .backToApp: return "Back to the application"
        case .errorTitle: return "Something went wrong"
        case .errorWaysOn: return "Where to go from here"
        case .passwordRulesHeading: return "Your password needs:"
        case .ruleMinLength: return "At least %1 characters"
        case .ruleMaxLength: return "At most %1 characters"
        case .ruleRequired: return "At least one %1"
        case .ruleAllowed: return "Only %1"
        case .ruleRepeating: return "No more than %1 of the same character in a row"
        case .ruleSequential: return "No more than %1 characters in sequence, such as abc or 321"
        case .ruleOr: return " or "
        case .ruleAnd: return ", "
        case .classLower: return "lowercase letter (a–z)"
        case .classUpper: return "uppercase letter (A–Z)"
        case .classDigit: return "digit (0–9)"
        case .classSpecial: return "symbol, such as ! or #"
        case .classASCII: return "letters, digits, spaces and symbols of an English keyboard"
        case .classAny: return "any character"
        case .classCustom: return "one of %1"
        case .errorWeakPasswordBecause: return "This password does not meet the requirements: %1."
        case .showPassword: return "Show"
        case .passkeyMenu: return "Options for %1"
        case .passkeyNewName: return "New name for %1"
        case .removePasskeyLink: return "Remove"
        case .removePasskeyTitle: return "Remove this passkey?"
        case .removePasskeyLead:
            return "You will no longer be able to sign in with “%1”. It stays in %2 until you delete it there too."
        case .removePasskeyButton: return "Remove passkey"
        case .cancelLink: return "Cancel"
        case .passwordManager: return "your password manager"
        case .passkeyCancelled: return "The passkey window closed before it finished. Try again, or use another way."
        case .adminOnlyTitle: return "Administrators only"
        case .signedInAs: return "Signed in as %1"
        case .useAnotherAccount: return "Use another account"
        case .listSeparator: return ", "
        case .adoptionTotal: return "All"
        case .adoptionPasskey: return "Passkey"
        case .adoptionDeviceKey: return "Device key"
        case .adoptionPassword: return "Password"
        case .adoptionApple: return "Sign in with Apple"
        case .adoptionRefresh: return "Refresh"
        case .adoptionShare: return "Passkey share"
        case .errorLastPasskey:
            return "This passkey is your only way to sign in. Add another passkey or a password before you remove it."
        case .errorLastPassword:
            return "Your password is your only way to sign in. Add a passkey before you remove it."
        case .hidePassword: return "Hide"
        case .errorAccountLink: return "Go to your account"
        case .languageName: return "English"
        case .languageMenu: return "Language"
        case .errorWrongCredentials: return "Wrong email or password."
        case .errorTooManyAttempts: return "Too many attempts. Wait a while, then try again."
        case .errorExpired:
            return
                "This sign-in is no longer pending: it finished, expired, or began in another browser. Go back to the application and start again."
        case .errorWrongCode: return "That code is not right. Try again."
        case .errorUnknownCredential:
            return
                "This passkey is not registered here any more. Sign in another way; your device has been told to forget it."
        case .errorGeneric: return "That did not work. Check what you entered and try again."
        case .errorUserExists: return "An account with this email address already exists. Sign in instead."
        case .errorWeakPassword: return "This password does not meet the requirements."
        case .errorLeakedPassword: return "This password has appeared in a data breach. Choose another one."
        case .errorBlocked: return "This account is blocked."
        case .errorForm: return "This form has expired or was sent from another site. Reload the page and try again."
        case .errorUnavailable: return "The service is busy. Try again in a moment."
        case .errorPasskeyFailed: return "The passkey could not be verified. Try again."
        case .resetRequestTitle: return "Reset your password"
        case .resetRequestLead: return "Enter your email address and we will send you a link to choose a new password."
        case .sendResetLink: return "Send the link"
        case .resetSentLead:
            return "If an account uses that address, a link is on its way. It works once, for 30 minutes."
        case .backToSignIn: return "Back to sign in"
        case .resetTitle: return "Choose a new password"
        case .resetLead: return "Your new password replaces the old one, and every device is signed out."
        case .newPasswordButton: return "Save the new password"
        case .resetDoneTitle: return "Password changed"
        case .resetDoneLead: return "Your password has been changed. Sign in with it from your application."
        case .errorResetExpired:
            return "This link has expired or was already used. Ask for a new one from the sign-in page."
        case .verifyTitle: return "Confirm your email address"
        case .verifyLead: return "Confirm that %1 is your address."
        case .confirmEmailButton: return "Confirm"
        case .verifiedTitle: return "Email address confirmed"
        case .verifiedLead: return "Thank you. You can close this page."
        case .errorVerifyExpired: return "This link has expired or was already used."
        case .verifyPriorLead:
            return "This account was set up on %1. Before this address was confirmed, these ways to sign in were added:"
        case .priorPasskeys: return "Passkeys: %1"
        case .priorPassword: return "A password"
        case .priorSecondFactors: return "Two-step verification methods: %1"
        case .priorDeviceKeys: return "Device keys: %1"
        case .priorAppleID: return "A linked Apple ID"
        case .verifyPriorQuestion: return "Did you add them?"
        case .keepPriorButton: return "Yes, I added them"
        case .removePriorButton: return "No, remove them"
        case .verifyPriorHint:
            return "Either answer confirms your address. If someone else signed up with it, removing them signs "
                + "that person out for good, and you can then add your own passkey or password."
        case .verifiedClearedLead:
            return "Your address is confirmed. The ways to sign in that were added before were removed, and every "
                + "device was signed out."
        case .setUpSignInLink: return "Add your own passkey or password"
        case .mfaEnrollTitle: return "Set up two-step verification"
        case .mfaEnrollLead:
            return "Scan this code with an authenticator app, then enter the 6-digit code the app shows."
        case .secretKeyLabel: return "Or enter this key in the app:"
        case .recoveryCodeLead:
            return "Your recovery code signs you in if you lose the app. Save it somewhere safe: it is shown only now."
        case .smsLead: return "Enter the 6-digit code we sent to your phone by text message."
        case .accountTitle: return "Your account"
        case .passkeysHeading: return "Passkeys"
        case .passkeyName: return "Name"
        case .passkeyProvider: return "Where it is kept"
        case .passkeyCreated: return "Added"
        case .passkeyLastUsed: return "Last used"
        case .passkeySynced: return "Synced across your devices"
        case .passkeyDeviceBound: return "On one device"
        case .renameButton: return "Rename"
        case .deleteButton: return "Delete"
        case .addPasskeyButton: return "Add a passkey"
        case .noPasskeys: return "You have no passkeys yet."
        case .passwordHeading: return "Password"
        case .passwordSetOn: return "Last changed %1."
        case .noPassword: return "You sign in without a password."
        case .currentPasswordLabel: return "Current password"
        case .changePasswordButton: return "Change password"
        case .setPasswordButton: return "Set a password"
        case .factorsHeading: return "Two-step verification"
        case .noFactors: return "No second factor is set up."
        case .factorTOTP: return "Authenticator app"
        case .factorSMS: return "Text message to %1"
        case .factorRecovery: return "Recovery code"
        case .sessionsHeading: return "Where you are signed in"
        case .sessionThisBrowser: return "This browser"
        case .sessionStarted: return "Signed in %1"
        case .sessionLastSeen: return "last active %1"
        case .endSessionButton: return "Sign out there"
        case .signOutEverywhereButton: return "Sign out everywhere"
        case .signOutButton: return "Sign out"
        case .neverUsed: return "never"
        case .addPasskeyLead:
            return
                "A passkey lets you sign in with your fingerprint, face or screen lock. Your device will ask you to confirm."
        case .doneRenamed: return "The passkey was renamed."
        case .doneDeleted: return "Deleted."
        case .doneAdded: return "The passkey was added."
        case .donePassword: return "Your password was changed. Your other devices were signed out."
        case .doneFactor: return "The second factor was removed."
        case .doneSession: return "That session was signed out."
        case .errorReauth: return "For this change, sign in again first."
        case .enrollPromptTitle: return "Sign in faster next time"
        case .enrollPromptLead:
            return
                "Create a passkey for %1: next time you sign in with your fingerprint, face or screen lock, no password needed."
        case .localEnrollTitle: return "Create a passkey on this device"
        case .localEnrollLead:
            return "You signed in with a passkey from another device. Create one here to sign in directly next time."
        case .notNowButton: return "Not now"
        case .neverAskButton: return "Don't ask again on this device"
        case .deviceKeyEnrollTitle: return "Switch to a passkey"
        case .deviceKeyEnrollLead:
            return
                "Create a passkey for %1: it signs you in on this and your other devices, and it is kept safe if you change phones."
        case .enrollDoneTitle: return "Passkey created"
        case .enrollDoneLead: return "Next time, sign in with your passkey. You can return to the app."
        case .enrollSkippedTitle: return "No passkey for now"
        case .enrollSkippedLead: return "You can create one later from your account. You can return to the app."
        case .alreadyRegisteredTitle: return "You already have a passkey"
        case .alreadyRegisteredLead:
            return "This account already has a passkey in %1. Sign in with it next time; there is nothing to create."
        case .errorAlreadyRegistered: return "This account already has a passkey from this provider."
        case .enrollBenefitNoPassword: return "No password to remember or type."
        case .enrollBenefitUnlock: return "Unlock it with your fingerprint, face or screen lock."
        case .enrollBenefitPhishing: return "It works only on this site, so it cannot be phished."
        case .adminTitle: return "Administration"
        case .adoptionTitle: return "Passkey adoption"
        case .adoptionLead:
            return "The passkey share of device authentications (passkey ÷ (passkey + device key)), day by day, in UTC."
        case .adoptionChartLabel: return "Passkey share of device authentications from %1 to %2"
        case .adoptionDownload: return "Download CSV"
        case .adoptionUsers: return "%1 users: %2 with a passkey, %3 with a device key only, %4 with neither"
        case .adoptionShow: return "Show"
        case .adoptionFrom: return "From"
        case .adoptionTo: return "To"
        case .adoptionDate: return "Date"
        case .adminSetupTitle: return "Become the administrator"
        case .adminSetupLead: return "You are signed in as %1. Make this account the administrator of %2?"
        case .adminSetupButton: return "Become the administrator"
        case .adminUsers: return "Users"
        case .adminClients: return "Applications"
        case .adminConnections: return "Connections"
        case .adminNewClient: return "New application"
        case .adminClientName: return "Name"
        case .adminClientType: return "Type"
        case .adminCreateButton: return "Create"
        case .adminSaveButton: return "Save"
        case .adminCallbacks: return "Callback URLs"
        case .adminLogoutURLs: return "Allowed logout URLs"
        case .adminOrigins: return "Allowed web origins"
        case .adminGrantTypes: return "Grant types"
        case .adminIOS: return "iOS app (apple-app-site-association)"
        case .adminTeamID: return "Team ID"
        case .adminBundleID: return "Bundle ID"
        case .adminAndroid: return "Android app (assetlinks.json)"
        case .adminPackage: return "Package name"
        case .adminFingerprints: return "SHA-256 signing-certificate fingerprints"
        case .adminOnePerLine: return "One per line."
        case .adminSecretOnce: return "The client secret, shown only now: %1"
        case .adminSaved: return "Saved."
        case .adminBack: return "Back to the overview"
        case .adminPasskeyCount: return "Passkeys"
        case .adminHasPassword: return "Password"
        case .adminNotAdmin: return "This page is for the tenant's administrators."
        case .adminAllUsers: return "Search all users"
        case .adminSearchLabel: return "Email, name or user id"
        case .adminSearchButton: return "Search"
        case .adminNoUsers: return "No user matches."
        case .adminUser: return "User"
        case .adminUserID: return "User id"
        case .adminEmailVerified: return "Email verified"
        case .adminCreated: return "Created"
        case .adminLastLogin: return "Last sign-in"
        case .adminPreviousPage: return "Previous page"
        case .adminNextPage: return "Next page"
        case .adminYes: return "yes"
        case .adminNo: return "no"
        case .adminConnection: return "Connection"
        case .adminBlocked: return "Blocked"
        case .adminNoUserPasskeys: return "No passkeys."
        case .adminPasskeyKind: return "Kind"
        case .adminBackedUp: return "Backed up"
        case .adminSynced: return "synced"
        case .adminDeviceBound: return "device-bound"
        case .adminPasswordChanged: return "Set; last changed"
        case .adminNoUserPassword: return "No password signs this user in."
        case .adminDeviceKeys: return "Legacy device keys"
        case .adminFactor: return "Factor"
        case .adminFactorActive: return "Confirmed"
        case .adminFactorPending: return "Not confirmed yet"
        case .adminResetFactors: return "Reset two-step verification"
        case .adminResetFactorsHint:
            return "For a user who lost every factor and their recovery code. First check that the person asking "
                + "owns the account, as for any account recovery. Their factors and recovery code are removed, "
                + "every device is signed out and they are emailed; they set up a factor again at their next "
                + "sign-in."
        case .adminFactorsReset: return "Two-step verification was reset, and the user was emailed."
        case .adminDevice: return "Device"
        case .adminPlatform: return "Platform"
        case .adminState: return "State"
        case .adminRecentLogs: return "Recent log entries"
        case .adminNoLogs: return "No log entries."
        case .adminLogType: return "Type"
        case .adminLogDescription: return "Event"
        case .recoverLink: return "Lost your passkey?"
        case .recoverTitle: return "Recover your account"
        case .recoverLead: return "Enter your email address. We will send a code that proves it is yours."
        case .sendCodeButton: return "Send the code"
        case .recoverCodeLead: return "If an account uses that address, we sent it a 6-digit code. Enter it here."
        case .recoveryEnrollTitle: return "Choose a new way to sign in"
        case .recoveryEnrollLead:
            return "Create a passkey on this device. When you are done, every other device is signed out."
        case .recoveryPasswordLead: return "Or choose a new password:"
        case .errorPasswordReused: return "Choose a password other than your current one."
        case .errorSignsInWithApple: return "This account signs in with Apple."
        case .errorSignsInWithPasskey: return "This account signs in with a passkey."
        case .upgradeHeading: return "Account security"
        case .upgradeLead: return "Move your account off its password to something stronger."
        case .upgradeWeakLead: return "Your password no longer meets this site's rules. Make your account safer now."
        case .upgradeBreachedLead:
            return "Your password has appeared in a data breach on another site. Make your account safer now."
        case .upgradePasskeyButton: return "Replace my password with a passkey"
        case .upgradeStrongPasswordButton: return "Choose a strong password"
        case .upgradeAppleButton: return "Use Sign in with Apple"
        case .upgradeNotNow: return "Not now"
        case .doneUpgraded: return "Your account is safer now."
        case .passwordReplacedApple: return "Replaced by Sign in with Apple"
        case .passwordReplacedPasskey: return "Replaced by a passkey"
        case .poweredBy: return "Secured by Sesame"
        case .mfaOtherWays: return "Other ways to verify"
        case .useRecoveryCodeButton: return "Use a recovery code"
        case .useSMSButton: return "Text me a code instead"
        case .useAppButton: return "Use my authenticator app"
        case .usePasskeyInstead: return "Sign in with a passkey instead"
        case .cancelSignIn: return "Cancel and start over"
        case .recoveryCodeStepLead:
            return "Enter the 24-character recovery code you saved when you set up two-step verification."
        case .recoveryCodeLabel: return "Recovery code"
        case .mfaSupportHint:
            return "Lost both your authenticator and your recovery code? Ask this site's support to reset your "
                + "two-step verification; they will check who you are first."
        case .recoverySecondFactorLead:
            return "Your email address is confirmed. This account also has two-step verification: verify it's you "
                + "to continue."
        case .saveRecoveryTitle: return "Save your recovery code"
        case .saveRecoveryLead:
            return "If you lose your phone or authenticator, this code lets you sign in once. Keep it somewhere "
                + "safe, such as a password manager. You will get a new one each time you use it."
        case .copyButton: return "Copy"
        case .copiedNotice: return "Copied"
        case .downloadButton: return "Download"
        case .savedCheckbox: return "I have saved my recovery code"
        case .passkeyCreateFailed: return "No passkey was created. Try again, or continue without one."
        case .errorPasskeyNotRegistered:
            return "That passkey is not registered here. Choose another passkey, or enter your email address."
        case .profileHeading: return "Profile"
        case .profileNameLabel: return "Your name"
        case .emailVerifiedBadge: return "Confirmed"
        case .emailUnverifiedBadge: return "Not confirmed"
        case .resendVerificationButton: return "Send the confirmation link again"
        case .saveButton: return "Save"
        case .doneProfile: return "Your profile is saved."
        case .doneVerificationSent:
            return "If your address still needs confirming, a new link is on its way. Check your inbox."
        case .sessionDevice: return "%1 on %2"
        case .sessionUnknownDevice: return "Unknown device"
        case .appsHeading: return "Connected apps"
        case .appsLead:
            return "Apps that stay signed in to your account. Removing access signs the app out on every device."
        case .appsNone: return "No app stays signed in to your account."
        case .appActivity: return "Signed in since %1 · last active %2"
        case .revokeAppButton: return "Remove access"
        case .revokeAppNamed: return "Remove access for %1"
        case .doneAppRevoked: return "The app's access is removed. It will ask you to sign in again."
        case .checkupHeading: return "Security check-up"
        case .checkupAddPasskey:
            return "Add a passkey, so you can sign in with your fingerprint, face or screen lock instead of a password."
        case .checkupSecondPasskey:
            return "Add a second passkey, so you can still sign in if you lose the device that holds your first."
        case .checkupRemovePassword:
            return "You sign in with a passkey. Remove your password, so it cannot be stolen or guessed."
        case .checkupSaveRecovery:
            return
                "Confirm that you saved your recovery code. It is how you sign in if you lose your two-step verification method."
        case .checkupAllGood: return "Your account is well protected. There is nothing to do."
        case .removePasswordLink: return "Remove password"
        case .removePasswordTitle: return "Remove your password?"
        case .removePasswordLead:
            return "You will sign in with your passkeys. You can set a new password later on your account page."
        case .donePasswordRemoved: return "Your password is removed. You sign in with your passkeys."
        case .showRecoveryLink: return "Show recovery code"
        case .doneRecoverySaved: return "Your recovery code is confirmed."
        case .deleteAccountHeading: return "Delete your account"
        case .deleteAccountLead:
            return "Deleting your account removes your passkeys and signs you out of every app. It cannot be undone."
        case .deleteAccountLink: return "Delete account"
        case .deleteAccountTitle: return "Delete your account?"
        case .deleteAccountConfirmLabel: return "To confirm, type %1"
        case .deleteAccountButton: return "Delete my account"
        case .errorDeleteConfirmation: return "What you typed does not match. Type it exactly as shown."
        case .accountDeletedTitle: return "Your account is deleted"
        case .accountDeletedLead: return "Your passkeys were removed and you are signed out everywhere."
        }
    }

    static func japanese(_ text: Text) -> String {
        switch text {
        case .signInTitle: return "ログイン"
        case .signInLead: return "%1 を利用するにはログインしてください"
        case .identifierLabel: return "メールアドレスまたはユーザー名"
        case .continueButton: return "次へ"
        case .passkeyButton: return "パスキーでログイン"
        case .orDivider: return "または"
        case .noAccount: return "アカウントをお持ちでない場合"
        case .signUpLink: return "新規登録"
        case .passwordLabel: return "パスワード"
        case .signInButton: return "ログイン"
        case .changeIdentifier: return "変更"
        case .forgotPassword: return "パスワードをお忘れですか？"
        case .passkeyFailed: return "パスキーを使用できませんでした。もう一度試すか、別の方法でログインしてください。"
        case .passkeyUnsupported: return "このブラウザーではパスキーを使用できません。"
        case .passkeyExists: return "このデバイスには、このアカウントのパスキーがすでにあります。"
        case .passkeyNotOffered: return "このアカウントにはパスキーでログインしてください。"
        case .mfaTitle: return "本人確認"
        case .mfaLead: return "認証アプリに表示された6桁のコードを入力してください。"
        case .codeLabel: return "確認コード"
        case .verifyButton: return "確認"
        case .mfaEnrollNeeded: return "このアカウントには2段階認証の設定が必要です。先にアプリで設定してください。"
        case .signupTitle: return "アカウントを作成"
        case .signupLead: return "%1 のアカウント"
        case .emailLabel: return "メールアドレス"
        case .nameLabel: return "名前（任意）"
        case .continueWithPasskey: return "パスキーで続ける"
        case .usePasswordInstead: return "代わりにパスワードを使う"
        case .newPasswordLabel: return "パスワード"
        case .signUpWithPassword: return "パスワードで登録"
        case .haveAccount: return "すでにアカウントをお持ちの場合"
        case .signInLink: return "ログイン"
        case .createPasskeyTitle: return "パスキーを作成"
        case .createPasskeyLead:
            return "%1 のパスキーを作成します。指紋・顔認証・画面ロックで確認します。情報はデバイスの外に出ません。"
        case .createPasskeyButton: return "パスキーを作成"
        case .formPostTitle: return "アプリに戻っています"
        case .formPostLead: return "画面が切り替わらない場合は「続ける」を押してください。"
        case .continueToApp: return "続ける"
        case .logoutTitle: return "ログアウト"
        case .logoutLead: return "このブラウザーで %1 からログアウトしますか？"
        case .logoutButton: return "ログアウト"
        case .signedOutTitle: return "ログアウトしました"
        case .signedOutLead: return "ログアウトしました。このページは閉じてかまいません。"
        case .backToApp: return "アプリに戻る"
        case .errorTitle: return "エラーが発生しました"
        case .errorWaysOn: return "次の操作"
        case .passwordRulesHeading: return "パスワードの条件："
        case .ruleMinLength: return "%1 文字以上"
        case .ruleMaxLength: return "%1 文字以下"
        case .ruleRequired: return "%1を 1 文字以上含む"
        case .ruleAllowed: return "使える文字は%1のみ"
        case .ruleRepeating: return "同じ文字の連続は %1 文字まで"
        case .ruleSequential: return "abc や 321 のような並びは %1 文字まで"
        case .ruleOr: return "または"
        case .ruleAnd: return "、"
        case .classLower: return "英小文字（a〜z）"
        case .classUpper: return "英大文字（A〜Z）"
        case .classDigit: return "数字（0〜9）"
        case .classSpecial: return "記号（! や # など）"
        case .classASCII: return "半角の英数字・記号・スペース"
        case .classAny: return "すべての文字"
        case .classCustom: return "「%1」のいずれか"
        case .errorWeakPasswordBecause: return "パスワードが条件を満たしていません：%1。"
        case .showPassword: return "表示"
        case .passkeyMenu: return "%1 のメニュー"
        case .passkeyNewName: return "%1 の新しい名前"
        case .removePasskeyLink: return "削除"
        case .removePasskeyTitle: return "このパスキーを削除しますか？"
        case .removePasskeyLead:
            return "「%1」ではログインできなくなります。パスキーは %2 に残るため、そちらでも削除してください。"
        case .removePasskeyButton: return "パスキーを削除"
        case .cancelLink: return "キャンセル"
        case .passwordManager: return "パスワードマネージャー"
        case .passkeyCancelled: return "パスキーの画面が途中で閉じられました。もう一度試すか、別の方法をお使いください。"
        case .adminOnlyTitle: return "管理者専用のページです"
        case .signedInAs: return "%1 でログイン中"
        case .useAnotherAccount: return "別のアカウントを使う"
        case .listSeparator: return "、"
        case .adoptionTotal: return "合計"
        case .adoptionPasskey: return "パスキー"
        case .adoptionDeviceKey: return "デバイスキー"
        case .adoptionPassword: return "パスワード"
        case .adoptionApple: return "「Appleでサインイン」"
        case .adoptionRefresh: return "トークン更新"
        case .adoptionShare: return "パスキーの割合"
        case .errorLastPasskey:
            return "このパスキーはログインできる唯一の方法です。削除する前に、別のパスキーかパスワードを追加してください。"
        case .errorLastPassword:
            return "パスワードはログインできる唯一の方法です。削除する前に、パスキーを追加してください。"
        case .hidePassword: return "隠す"
        case .errorAccountLink: return "アカウントページへ"
        case .languageName: return "日本語"
        case .languageMenu: return "言語"
        case .errorWrongCredentials: return "メールアドレスまたはパスワードが正しくありません。"
        case .errorTooManyAttempts: return "試行回数が多すぎます。しばらく待ってからもう一度お試しください。"
        case .errorExpired:
            return "このログインはすでに完了したか、期限切れか、別のブラウザーで開始されました。アプリに戻ってやり直してください。"
        case .errorWrongCode: return "コードが正しくありません。もう一度お試しください。"
        case .errorUnknownCredential:
            return "このパスキーはもう登録されていません。別の方法でログインしてください。デバイスにはこのパスキーを削除するよう通知しました。"
        case .errorGeneric: return "うまくいきませんでした。入力内容を確認して、もう一度お試しください。"
        case .errorUserExists: return "このメールアドレスのアカウントはすでに存在します。ログインしてください。"
        case .errorWeakPassword: return "このパスワードは要件を満たしていません。"
        case .errorLeakedPassword: return "このパスワードは過去のデータ漏えいで見つかっています。別のパスワードを選んでください。"
        case .errorBlocked: return "このアカウントはブロックされています。"
        case .errorForm: return "このフォームは期限切れか、別のサイトから送信されました。ページを再読み込みしてやり直してください。"
        case .errorUnavailable: return "混み合っています。少し待ってからもう一度お試しください。"
        case .errorPasskeyFailed: return "パスキーを確認できませんでした。もう一度お試しください。"
        case .resetRequestTitle: return "パスワードの再設定"
        case .resetRequestLead: return "メールアドレスを入力してください。新しいパスワードを設定するためのリンクをお送りします。"
        case .sendResetLink: return "リンクを送信"
        case .resetSentLead: return "このアドレスのアカウントがあれば、リンクを送信しました。リンクは30分間、1回だけ使えます。"
        case .backToSignIn: return "ログインに戻る"
        case .resetTitle: return "新しいパスワードを設定"
        case .resetLead: return "新しいパスワードに置き換わり、すべてのデバイスからログアウトします。"
        case .newPasswordButton: return "新しいパスワードを保存"
        case .resetDoneTitle: return "パスワードを変更しました"
        case .resetDoneLead: return "パスワードを変更しました。アプリから新しいパスワードでログインしてください。"
        case .errorResetExpired: return "このリンクは期限切れか、すでに使用されています。ログイン画面から再度お申し込みください。"
        case .verifyTitle: return "メールアドレスの確認"
        case .verifyLead: return "%1 があなたのメールアドレスであることを確認してください。"
        case .confirmEmailButton: return "確認する"
        case .verifiedTitle: return "メールアドレスを確認しました"
        case .verifiedLead: return "ありがとうございます。このページは閉じてかまいません。"
        case .errorVerifyExpired: return "このリンクは期限切れか、すでに使用されています。"
        case .verifyPriorLead:
            return "このアカウントは %1 に作成されました。このメールアドレスが確認される前に、次のログイン方法が追加されています："
        case .priorPasskeys: return "パスキー：%1"
        case .priorPassword: return "パスワード"
        case .priorSecondFactors: return "2段階認証の方法：%1"
        case .priorDeviceKeys: return "デバイスキー：%1"
        case .priorAppleID: return "連携済みの Apple ID"
        case .verifyPriorQuestion: return "これらを追加したのはあなたですか？"
        case .keepPriorButton: return "はい、私が追加しました"
        case .removePriorButton: return "いいえ、削除してください"
        case .verifyPriorHint:
            return "どちらを選んでもメールアドレスは確認されます。他の人があなたのアドレスで登録していた場合、削除するとその人は"
                + "二度とログインできなくなります。その後、ご自身のパスキーまたはパスワードを追加できます。"
        case .verifiedClearedLead:
            return "メールアドレスを確認しました。確認前に追加されたログイン方法は削除され、すべてのデバイスからログアウトしました。"
        case .setUpSignInLink: return "ご自身のパスキーまたはパスワードを追加"
        case .mfaEnrollTitle: return "2段階認証の設定"
        case .mfaEnrollLead: return "認証アプリでこのコードを読み取り、アプリに表示された6桁のコードを入力してください。"
        case .secretKeyLabel: return "または、このキーをアプリに入力してください："
        case .recoveryCodeLead:
            return "リカバリーコードは、アプリを失くしたときのログインに使います。安全な場所に保存してください。表示は今回だけです。"
        case .smsLead: return "SMSで送信した6桁のコードを入力してください。"
        case .accountTitle: return "アカウント"
        case .passkeysHeading: return "パスキー"
        case .passkeyName: return "名前"
        case .passkeyProvider: return "保存先"
        case .passkeyCreated: return "追加日"
        case .passkeyLastUsed: return "最終使用"
        case .passkeySynced: return "デバイス間で同期"
        case .passkeyDeviceBound: return "1台のデバイスのみ"
        case .renameButton: return "名前を変更"
        case .deleteButton: return "削除"
        case .addPasskeyButton: return "パスキーを追加"
        case .noPasskeys: return "パスキーはまだありません。"
        case .passwordHeading: return "パスワード"
        case .passwordSetOn: return "最終変更：%1"
        case .noPassword: return "パスワードなしでログインしています。"
        case .currentPasswordLabel: return "現在のパスワード"
        case .changePasswordButton: return "パスワードを変更"
        case .setPasswordButton: return "パスワードを設定"
        case .factorsHeading: return "2段階認証"
        case .noFactors: return "2段階認証は設定されていません。"
        case .factorTOTP: return "認証アプリ"
        case .factorSMS: return "%1 へのSMS"
        case .factorRecovery: return "リカバリーコード"
        case .sessionsHeading: return "ログイン中の場所"
        case .sessionThisBrowser: return "このブラウザー"
        case .sessionStarted: return "ログイン：%1"
        case .sessionLastSeen: return "最終利用：%1"
        case .endSessionButton: return "ここからログアウト"
        case .signOutEverywhereButton: return "すべての場所からログアウト"
        case .signOutButton: return "ログアウト"
        case .neverUsed: return "なし"
        case .addPasskeyLead: return "パスキーを使うと、指紋・顔認証・画面ロックでログインできます。デバイスが確認を求めます。"
        case .doneRenamed: return "パスキーの名前を変更しました。"
        case .doneDeleted: return "削除しました。"
        case .doneAdded: return "パスキーを追加しました。"
        case .donePassword: return "パスワードを変更しました。ほかのデバイスはログアウトしました。"
        case .doneFactor: return "2段階認証の方法を削除しました。"
        case .doneSession: return "そのセッションをログアウトしました。"
        case .errorReauth: return "この変更には、もう一度ログインが必要です。"
        case .enrollPromptTitle: return "次回からもっと簡単にログイン"
        case .enrollPromptLead:
            return "%1 のパスキーを作成すると、次回からパスワードなしで、指紋・顔認証・画面ロックでログインできます。"
        case .localEnrollTitle: return "このデバイスにパスキーを作成"
        case .localEnrollLead: return "別のデバイスのパスキーでログインしました。このデバイスにも作成すると、次回から直接ログインできます。"
        case .notNowButton: return "今はしない"
        case .neverAskButton: return "このデバイスでは今後表示しない"
        case .deviceKeyEnrollTitle: return "パスキーに切り替える"
        case .deviceKeyEnrollLead:
            return "%1 のパスキーを作成すると、このデバイスでもほかのデバイスでもログインでき、機種変更のときも引き継がれます。"
        case .enrollDoneTitle: return "パスキーを作成しました"
        case .enrollDoneLead: return "次回からパスキーでログインできます。アプリに戻ってください。"
        case .enrollSkippedTitle: return "今はパスキーを作成しません"
        case .enrollSkippedLead: return "アカウントページからいつでも作成できます。アプリに戻ってください。"
        case .alreadyRegisteredTitle: return "パスキーはすでにあります"
        case .alreadyRegisteredLead: return "このアカウントには %1 のパスキーがすでにあります。次回からそのパスキーでログインしてください。"
        case .errorAlreadyRegistered: return "このアカウントには、このプロバイダのパスキーがすでにあります。"
        case .enrollBenefitNoPassword: return "パスワードを覚えたり入力したりする必要はありません。"
        case .enrollBenefitUnlock: return "指紋、顔、画面ロックで本人確認します。"
        case .enrollBenefitPhishing: return "このサイトでしか使えないので、フィッシングで盗まれません。"
        case .adminTitle: return "管理"
        case .adoptionTitle: return "パスキーの普及"
        case .adoptionLead: return "デバイス認証に占めるパスキーの割合（パスキー ÷ (パスキー + デバイスキー)）を日ごと（UTC）に示します。"
        case .adoptionChartLabel: return "%1 から %2 までのデバイス認証に占めるパスキーの割合"
        case .adoptionDownload: return "CSV をダウンロード"
        case .adoptionUsers: return "ユーザー %1 人：パスキーあり %2 人、デバイスキーのみ %3 人、どちらもなし %4 人"
        case .adoptionShow: return "表示"
        case .adoptionFrom: return "開始日"
        case .adoptionTo: return "終了日"
        case .adoptionDate: return "日付"
        case .adminSetupTitle: return "管理者になる"
        case .adminSetupLead: return "%1 としてログインしています。このアカウントを %2 の管理者にしますか？"
        case .adminSetupButton: return "管理者になる"
        case .adminUsers: return "ユーザー"
        case .adminClients: return "アプリケーション"
        case .adminConnections: return "接続"
        case .adminNewClient: return "新しいアプリケーション"
        case .adminClientName: return "名前"
        case .adminClientType: return "種類"
        case .adminCreateButton: return "作成"
        case .adminSaveButton: return "保存"
        case .adminCallbacks: return "コールバックURL"
        case .adminLogoutURLs: return "ログアウト後のURL"
        case .adminOrigins: return "許可するWebオリジン"
        case .adminGrantTypes: return "グラントタイプ"
        case .adminIOS: return "iOSアプリ（apple-app-site-association）"
        case .adminTeamID: return "チームID"
        case .adminBundleID: return "バンドルID"
        case .adminAndroid: return "Androidアプリ（assetlinks.json）"
        case .adminPackage: return "パッケージ名"
        case .adminFingerprints: return "署名証明書のSHA-256フィンガープリント"
        case .adminOnePerLine: return "1行に1つ。"
        case .adminSecretOnce: return "クライアントシークレット（表示は今回だけです）：%1"
        case .adminSaved: return "保存しました。"
        case .adminBack: return "概要に戻る"
        case .adminPasskeyCount: return "パスキー"
        case .adminHasPassword: return "パスワード"
        case .adminNotAdmin: return "このページはテナントの管理者専用です。"
        case .adminAllUsers: return "すべてのユーザーを検索"
        case .adminSearchLabel: return "メールアドレス・名前・ユーザーID"
        case .adminSearchButton: return "検索"
        case .adminNoUsers: return "該当するユーザーはいません。"
        case .adminUser: return "ユーザー"
        case .adminUserID: return "ユーザーID"
        case .adminEmailVerified: return "メール確認済み"
        case .adminCreated: return "作成日時"
        case .adminLastLogin: return "最終ログイン"
        case .adminPreviousPage: return "前のページ"
        case .adminNextPage: return "次のページ"
        case .adminYes: return "はい"
        case .adminNo: return "いいえ"
        case .adminConnection: return "接続"
        case .adminBlocked: return "ブロック中"
        case .adminNoUserPasskeys: return "パスキーはありません。"
        case .adminPasskeyKind: return "種類"
        case .adminBackedUp: return "バックアップ済み"
        case .adminSynced: return "同期"
        case .adminDeviceBound: return "デバイス固定"
        case .adminPasswordChanged: return "設定済み、最終変更："
        case .adminNoUserPassword: return "このユーザーはパスワードでログインしません。"
        case .adminDeviceKeys: return "従来のデバイスキー"
        case .adminFactor: return "要素"
        case .adminFactorActive: return "確認済み"
        case .adminFactorPending: return "未確認"
        case .adminResetFactors: return "2段階認証をリセット"
        case .adminResetFactorsHint:
            return "すべての認証要素とリカバリーコードを失ったユーザーのための操作です。まず、依頼者がアカウントの持ち主であることを"
                + "アカウント復旧と同じように確認してください。2段階認証の方法とリカバリーコードは削除され、すべてのデバイスからログアウトし、"
                + "ユーザーにメールで通知されます。次回のログイン時に2段階認証を設定し直します。"
        case .adminFactorsReset: return "2段階認証をリセットし、ユーザーにメールで通知しました。"
        case .adminDevice: return "デバイス"
        case .adminPlatform: return "プラットフォーム"
        case .adminState: return "状態"
        case .adminRecentLogs: return "最近のログ"
        case .adminNoLogs: return "ログはありません。"
        case .adminLogType: return "種別"
        case .adminLogDescription: return "イベント"
        case .recoverLink: return "パスキーを失くしましたか？"
        case .recoverTitle: return "アカウントの復旧"
        case .recoverLead: return "メールアドレスを入力してください。本人確認のためのコードをお送りします。"
        case .sendCodeButton: return "コードを送信"
        case .recoverCodeLead: return "このアドレスのアカウントがあれば、6桁のコードを送信しました。ここに入力してください。"
        case .recoveryEnrollTitle: return "新しいログイン方法の設定"
        case .recoveryEnrollLead: return "このデバイスにパスキーを作成してください。完了すると、ほかのデバイスはすべてログアウトします。"
        case .recoveryPasswordLead: return "または、新しいパスワードを設定："
        case .errorPasswordReused: return "現在とは別のパスワードを選んでください。"
        case .errorSignsInWithApple: return "このアカウントは「Appleでサインイン」でログインします。"
        case .errorSignsInWithPasskey: return "このアカウントはパスキーでログインします。"
        case .upgradeHeading: return "アカウントのセキュリティ"
        case .upgradeLead: return "パスワードをより安全な方法に切り替えましょう。"
        case .upgradeWeakLead: return "パスワードがこのサイトの条件を満たしていません。今すぐアカウントを安全にしましょう。"
        case .upgradeBreachedLead: return "パスワードがほかのサイトのデータ漏えいで見つかりました。今すぐアカウントを安全にしましょう。"
        case .upgradePasskeyButton: return "パスワードをパスキーに置き換える"
        case .upgradeStrongPasswordButton: return "強力なパスワードに変更する"
        case .upgradeAppleButton: return "「Appleでサインイン」を使う"
        case .upgradeNotNow: return "あとで"
        case .doneUpgraded: return "アカウントがより安全になりました。"
        case .passwordReplacedApple: return "「Appleでサインイン」に置き換え済み"
        case .passwordReplacedPasskey: return "パスキーに置き換え済み"
        case .poweredBy: return "Sesame で保護されています"
        case .mfaOtherWays: return "ほかの確認方法"
        case .useRecoveryCodeButton: return "リカバリーコードを使う"
        case .useSMSButton: return "SMSでコードを受け取る"
        case .useAppButton: return "認証アプリを使う"
        case .usePasskeyInstead: return "代わりにパスキーでログイン"
        case .cancelSignIn: return "キャンセルして最初に戻る"
        case .recoveryCodeStepLead: return "2段階認証の設定時に保存した24文字のリカバリーコードを入力してください。"
        case .recoveryCodeLabel: return "リカバリーコード"
        case .mfaSupportHint:
            return "認証アプリとリカバリーコードの両方を失くした場合は、このサイトのサポートにお問い合わせください。"
                + "本人確認のうえ、2段階認証をリセットします。"
        case .recoverySecondFactorLead:
            return "メールアドレスを確認しました。このアカウントは2段階認証を使っています。続けるには本人確認をしてください。"
        case .saveRecoveryTitle: return "リカバリーコードを保存してください"
        case .saveRecoveryLead:
            return "スマートフォンや認証アプリを失くしたときに、このコードで1回ログインできます。"
                + "パスワードマネージャーなど安全な場所に保存してください。使うたびに新しいコードに替わります。"
        case .copyButton: return "コピー"
        case .copiedNotice: return "コピーしました"
        case .downloadButton: return "ダウンロード"
        case .savedCheckbox: return "リカバリーコードを保存しました"
        case .passkeyCreateFailed: return "パスキーは作成されませんでした。もう一度試すか、パスキーなしで続けてください。"
        case .errorPasskeyNotRegistered:
            return "このパスキーはここに登録されていません。別のパスキーを選ぶか、メールアドレスを入力してください。"
        case .profileHeading: return "プロフィール"
        case .profileNameLabel: return "名前"
        case .emailVerifiedBadge: return "確認済み"
        case .emailUnverifiedBadge: return "未確認"
        case .resendVerificationButton: return "確認リンクを再送信"
        case .saveButton: return "保存"
        case .doneProfile: return "プロフィールを保存しました。"
        case .doneVerificationSent: return "メールアドレスの確認がまだの場合は、新しいリンクを送信しました。受信トレイを確認してください。"
        case .sessionDevice: return "%2 の %1"
        case .sessionUnknownDevice: return "不明なデバイス"
        case .appsHeading: return "連携しているアプリ"
        case .appsLead: return "アカウントにログインしたままのアプリです。アクセスを削除すると、すべてのデバイスでそのアプリからログアウトします。"
        case .appsNone: return "ログインしたままのアプリはありません。"
        case .appActivity: return "%1 からログイン中 · 最終利用 %2"
        case .revokeAppButton: return "アクセスを削除"
        case .revokeAppNamed: return "%1 のアクセスを削除"
        case .doneAppRevoked: return "アプリのアクセスを削除しました。次に使うときはもう一度ログインが必要です。"
        case .checkupHeading: return "セキュリティ診断"
        case .checkupAddPasskey: return "パスキーを追加すると、パスワードの代わりに指紋、顔、画面ロックでログインできます。"
        case .checkupSecondPasskey: return "2つ目のパスキーを追加すると、最初のパスキーがあるデバイスをなくしてもログインできます。"
        case .checkupRemovePassword: return "パスキーでログインできます。パスワードを削除して、盗まれたり推測されたりしないようにしましょう。"
        case .checkupSaveRecovery: return "リカバリーコードを保存したことを確認してください。2段階認証の方法をなくしたときにログインするためのコードです。"
        case .checkupAllGood: return "アカウントは十分に保護されています。対応が必要な項目はありません。"
        case .removePasswordLink: return "パスワードを削除"
        case .removePasswordTitle: return "パスワードを削除しますか？"
        case .removePasswordLead: return "今後はパスキーでログインします。新しいパスワードは後からアカウントページで設定できます。"
        case .donePasswordRemoved: return "パスワードを削除しました。今後はパスキーでログインします。"
        case .showRecoveryLink: return "リカバリーコードを表示"
        case .doneRecoverySaved: return "リカバリーコードの保存を確認しました。"
        case .deleteAccountHeading: return "アカウントの削除"
        case .deleteAccountLead: return "アカウントを削除すると、パスキーも削除され、すべてのアプリからログアウトします。元に戻すことはできません。"
        case .deleteAccountLink: return "アカウントを削除"
        case .deleteAccountTitle: return "アカウントを削除しますか？"
        case .deleteAccountConfirmLabel: return "確認のため %1 と入力してください"
        case .deleteAccountButton: return "アカウントを完全に削除"
        case .errorDeleteConfirmation: return "入力内容が一致しません。表示どおりに入力してください。"
        case .accountDeletedTitle: return "アカウントを削除しました"
        case .accountDeletedLead: return "パスキーを削除し、すべてのデバイスでログアウトしました。"
        }
    }

    /// A refused password's message, with the rules it broke.
    static func weakPassword(rules: String, verdicts: [PasswordRuleVerdict], _ locale: PageLocale) -> HTML {
        let broken = PasswordChecklist.broken(rules: rules, verdicts: verdicts, locale: locale)
        guard !broken.isEmpty else { return text(.errorWeakPassword, locale) }
        return text(.errorWeakPasswordBecause, locale, broken.joined(separator: raw(.ruleAnd, locale)))
    }

    /// The message a page shows for a service error (English falls back to its own text).
    static func error(_ error: any Error, _ locale: PageLocale) -> HTML {
        let key: Text
        switch error {
        case let service as ServiceError:
            switch service {
            case .wrongCredentials: key = .errorWrongCredentials
            case .tooManyAttempts, .tooManyRequests: key = .errorTooManyAttempts
            case .mfaRefused: key = .errorWrongCode
            case .unknownCredential: key = .errorUnknownCredential
            case .userBlocked: key = .errorBlocked
            case .passwordLeaked: key = .errorLeakedPassword
            case .unavailable: key = .errorUnavailable
            case .signupRefused(let refusal):
                switch refusal {
                case .userExists, .hidden: key = .errorUserExists
                case .weakPassword(let rules, let verdicts):
                    return weakPassword(rules: rules, verdicts: verdicts, locale)
                case .passwordLeaked: key = .errorLeakedPassword
                case .passwordReused: key = .errorPasswordReused
                }
            case .passwordReplaced(.apple): key = .errorSignsInWithApple
            case .passwordReplaced(.passkey): key = .errorSignsInWithPasskey
            case .invalidGrant(let text) where text == PasskeyService.unknownCredentialText:
                key = .errorPasskeyNotRegistered
            case .invalidGrant: key = .errorPasskeyFailed
            case .reauthenticationRequired, .insufficientUserAuthentication: key = .errorReauth
            case .alreadyRegistered: key = .errorAlreadyRegistered
            case .insufficientScope: key = .adminNotAdmin
            case .conflict(let text) where text == MyAccountService.lastPasskeyText: key = .errorLastPasskey
            case .conflict(let text) where text == MyAccountService.lastPasswordText: key = .errorLastPassword
            case .conflict(let text), .notFound(let text):
                return locale == .en ? "\(text)" : Catalog.text(.errorGeneric, locale)
            case .invalidRequest(let text) where text == AuthorizationService.expiredText: key = .errorExpired
            case .invalidRequest(let text) where text == MyAccountService.confirmationText:
                key = .errorDeleteConfirmation
            case .invalidRequest(let text):
                // The service's own sentence says which field is wrong; it is English.
                return locale == .en ? "\(text)" : Catalog.text(.errorGeneric, locale)
            default: key = .errorGeneric
            }
        case let http as HTTPError where http.error == "csrf": key = .errorForm
        default: key = .errorGeneric
        }
        return Catalog.text(key, locale)
    }
}

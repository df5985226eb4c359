import Foundation

/// What the upgrade routes' errors carry (their OAuth JSON bodies, docs/account-upgrades.md).
extension AuthenticationError {
    /// Why the server refuses an upgrade (`upgrade_not_allowed`'s `reason`).
    public enum UpgradeNotAllowedReason: String, Sendable, Hashable, CaseIterable {
        /// The connection does not offer this upgrade.
        case typeDisabled = "type_disabled"
        /// The account has no password to upgrade.
        case noPassword = "no_password"
        /// The user is blocked.
        case userBlocked = "user_blocked"
        /// The account was upgraded already.
        case alreadyUpgraded = "already_upgraded"
    }

    /// `step_up_required`: the server wants a second factor (or the password) first.
    public var isStepUpRequired: Bool { code == "step_up_required" }

    /// The step-up the server asked for, when `isStepUpRequired`.
    public var upgradeStepUp: UpgradeStepUp? {
        guard isStepUpRequired else { return nil }
        let object = upgradeBody ?? [:]
        let types = (object["challenge_types"] as? [String] ?? []).compactMap(UpgradeStepUp.ChallengeType.init)
        let token = (object["mfa_token"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return UpgradeStepUp(mfaToken: token, challengeTypes: types, description: errorDescription)
    }

    /// `upgrade_not_allowed`: this account cannot have this upgrade (`upgradeNotAllowedReason`).
    public var isUpgradeNotAllowed: Bool { code == "upgrade_not_allowed" }

    /// The `reason` of `upgrade_not_allowed`; nil for another error or a reason the SDK does not know.
    public var upgradeNotAllowedReason: UpgradeNotAllowedReason? {
        guard isUpgradeNotAllowed else { return nil }
        return (upgradeBody?["reason"] as? String).flatMap(UpgradeNotAllowedReason.init)
    }

    /// 409 `identity_already_linked`: the Apple ID belongs to another account.
    public var isIdentityAlreadyLinked: Bool { code == "identity_already_linked" }

    /// The new password is the current one (`invalid_password` with `PasswordHistoryError`).
    public var isPasswordReused: Bool {
        code == "invalid_password" && upgradeBody?["name"] as? String == "PasswordHistoryError"
    }

    /// A wrong step-up code: `Invalid otp_code.` or `Invalid binding_code.`.
    public var isStepUpCodeInvalid: Bool {
        isMultifactorCodeInvalid || (code == "invalid_grant" && errorDescription == "Invalid binding_code.")
    }

    private var upgradeBody: [String: Any]? {
        body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}

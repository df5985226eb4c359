import Foundation
import SesameStore

/// Tells a user by email when a way to sign in or a second factor is added to their account, so
/// a change they did not make does not go unnoticed (docs/security.md). The notice is sent after
/// the change committed; a sender that fails does not undo it.
public struct CredentialNotices: Sendable {
    /// What was added.
    public enum Addition: Sendable, Equatable {
        /// A passkey, with its provider's name when the AAGUID table knows it.
        case passkey(provider: String?)
        /// An authenticator app (TOTP).
        case authenticatorApp
        /// SMS codes to a number, masked to its last digits.
        case sms(maskedNumber: String)
        /// An app's device key, with the device's name.
        case deviceKey(name: String?)
    }

    let messages: any MessageSender

    public init(messages: any MessageSender) { self.messages = messages }

    /// Emails the user about `addition` (nothing for a user without an address).
    func added(_ addition: Addition, tenant: TenantRecord, user: UserRecord) {
        guard let email = user.profile.email else { return }
        let what: String
        switch addition {
        case .passkey(let provider?): what = "A passkey (\(provider)) was added"
        case .passkey(nil): what = "A passkey was added"
        case .authenticatorApp: what = "An authenticator app was added as a second factor"
        case .sms(let number): what = "Text-message codes to \(number) were added as a second factor"
        case .deviceKey(let name?): what = "A device key for \(name) was added"
        case .deviceKey(nil): what = "A device key was added"
        }
        send(
            .credentialAdded, to: email, tenant: tenant,
            text: "\(what) to your \(tenant.name) account.\n\n"
                + "If this was you, there is nothing to do. If it was not, sign in at \(TokenService.issuer(tenant))account, "
                + "remove it, and change your password: someone else may have access to your account.")
    }

    /// Sends one notice; a notice that cannot be sent never fails the change it reports.
    private func send(_ template: MessageTemplate, to email: String, tenant: TenantRecord, text: String) {
        try? messages.send(
            OutgoingMessage(tenantID: tenant.id, channel: .email, template: template, recipient: email, text: text))
    }

    /// What an administrator removed.
    public enum Removal: Sendable, Equatable {
        case passkey
        case password
        /// Every second factor, with the recovery code.
        case secondFactors
        /// One second factor (others remain).
        case secondFactor
    }

    /// Emails the user that an administrator removed `removal` (nothing without an address).
    func removedByAdministrator(_ removal: Removal, tenant: TenantRecord, user: UserRecord) {
        guard let email = user.profile.email else { return }
        let what: String
        switch removal {
        case .passkey: what = "A passkey was removed from your \(tenant.name) account by an administrator"
        case .password: what = "The password was removed from your \(tenant.name) account by an administrator"
        case .secondFactors:
            what = "Two-step verification was reset on your \(tenant.name) account by an administrator"
        case .secondFactor:
            what = "A second factor was removed from your \(tenant.name) account by an administrator"
        }
        let signedOut = removal == .passkey ? "devices signed in with it" : "the account's devices"
        send(
            .credentialRemoved, to: email, tenant: tenant,
            text: "\(what), and \(signedOut) were signed out.\n\n"
                + "If you asked for this, sign in at \(TokenService.issuer(tenant))account and set up what you "
                + "need again. If you did not, contact this site's support.")
    }

    /// Emails the user that they deleted their account (nothing without an address).
    func accountDeleted(tenant: TenantRecord, user: UserRecord) {
        guard let email = user.profile.email else { return }
        send(
            .accountDeleted, to: email, tenant: tenant,
            text: "Your \(tenant.name) account was deleted from its account page, with its passkeys, and every "
                + "device was signed out.\n\nIf you did not do this, contact this site's support: someone else "
                + "may have had access to your account.")
    }
}

import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// The pages of a signed-in browser: sign-out so far (the account page arrives with its routes).
enum AccountPages {
    /// RP-initiated logout without a hint for the signed-in user: ask before signing out, so
    /// another site cannot sign the user out by linking here.
    static func confirmLogout(context: HostedContext, logout: LogoutRequest, clientName: String) -> HostedPage {
        let locale = context.locale
        var fields = PageLayout.hiddenFields(context, transaction: nil)
        if let clientID = logout.clientID {
            fields += "<input type=\"hidden\" name=\"client_id\" value=\"\(clientID)\">"
        }
        if let uri = logout.postLogoutRedirectURI {
            fields += "<input type=\"hidden\" name=\"post_logout_redirect_uri\" value=\"\(uri)\">"
        }
        if let state = logout.state {
            fields += "<input type=\"hidden\" name=\"state\" value=\"\(state)\">"
        }
        let body: HTML = """
            <h1>\(Catalog.text(.logoutTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.logoutLead, locale, clientName))</p>
            <form method="post" action="/oidc/logout">
            \(fields)
            <button type="submit">\(Catalog.text(.logoutButton, locale))</button>
            </form>
            """
        return HostedPage(
            name: "logout", title: .logoutTitle, body: body,
            formTargets: logout.postLogoutRedirectURI.map { [$0] } ?? [])
    }

    static func signedOut(context: HostedContext) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.signedOutTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.signedOutLead, locale))</p>
            """
        return HostedPage(name: "signed-out", title: .signedOutTitle, body: body)
    }
}

/// What the account page shows.
struct AccountView {
    var user: UserRecord
    var passwordsEnabled: Bool
    var passkeys: [PasskeyRecord]
    /// Each passkey's authenticator name and icon, by formatted AAGUID (FIDO metadata first).
    var authenticators: [String: AuthenticatorDisplay] = [:]
    var factors: [MFAAuthenticatorResponse]
    var sessions: [SSOSessionRecord]
    var currentSession: String
    /// The apps that hold a live refresh token of the user.
    var apps: [ConnectedApp] = []
    /// A recovery code the user has not yet said they saved.
    var unsavedRecoveryCode = false
    /// The account security upgrades the page offers (docs/account-upgrades.md): empty without a usable password.
    var upgrades: [UpgradeType] = []
    /// A closed notice after an action (`?done=`), or nil.
    var notice: Text?
    var error: (any Error)?
}

extension AccountPages {
    /// An `<img>` for an authenticator's icon: only a `data:` URL that is still a bounded raster
    /// image (checked again here, not only at import), with an empty alt (the name follows).
    static func authenticatorIcon(_ icon: String?) -> HTML {
        guard let icon,
            case .success(let checked) = IconDataURL.check(icon, maxLength: MetadataBLOB.Limits.standard.maxIconLength)
        else { return .empty }
        return "<img class=\"authenticator-icon\" src=\"\(checked)\" alt=\"\" width=\"24\" height=\"24\"> "
    }

    /// How a page names a passkey's authenticator and draws its icon, from what `MetadataService`
    /// derived for its AAGUID (the metadata's description and icon, else the AAGUID table's name):
    /// that name, else "Passkey". The account page and the admin pages both show it so.
    static func authenticator(_ display: AuthenticatorDisplay?) -> (name: String, icon: HTML) {
        (display?.name ?? "Passkey", authenticatorIcon(display?.icon))
    }

    static func date(_ date: Date?, _ locale: PageLocale) -> String {
        guard let date else { return Catalog.raw(.neverUsed, locale) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        // Non-breaking hyphens: a date never breaks across lines.
        return formatter.string(from: date).replacingOccurrences(of: "-", with: "\u{2011}")
    }

    /// A small POST form with the CSRF token: one button, maybe one field.
    /// `style` is the button's class (nil: the primary button).
    static func action(
        _ context: HostedContext, _ path: String, _ label: HTML, style: String? = "secondary", fields: HTML = .empty
    ) -> HTML {
        let style: HTML = style.map { " class=\"\($0)\"" } ?? ""
        return "<form method=\"post\" action=\"\(path)\">\(PageLayout.hiddenFields(context, transaction: nil))"
            + "\(fields)<button type=\"submit\"\(style)>\(label)</button></form>"
    }

    static func path(_ prefix: String, _ id: String, _ suffix: String) -> String {
        prefix + PathSegment.encode(id) + suffix
    }

    /// One passkey as Apple's and Google's pages show it: the provider's icon, the name, where it
    /// lives and when it was made and last used; rename and remove behind a menu of its own (a
    /// `<details>`, so it works without scripts), each control named after the passkey.
    static func passkeyRow(_ passkey: PasskeyRecord, display: AuthenticatorDisplay?, _ context: HostedContext) -> HTML {
        let locale = context.locale
        let field = "passkey-name-\(passkey.id.replacingOccurrences(of: "|", with: "-"))"
        let dates: HTML = """
            <p class="hint">\(Catalog.text(.passkeyCreated, locale)) \(date(passkey.createdAt, locale)) · \
            \(Catalog.text(.passkeyLastUsed, locale)) \(date(passkey.lastUsedAt, locale))</p>
            """
        return """
            <div class="passkey" data-passkey-id="\(passkey.id)">
            \(passkeySummary(passkey, display: display, locale, more: dates))
            <details class="menu"><summary aria-label="\(Catalog.text(.passkeyMenu, locale, passkey.name))">\
            <span aria-hidden="true">⋯</span></summary>
            <div class="menu-panel">
            <form method="post" action="\(path("/account/passkeys/", passkey.id, "/rename"))">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <label for="\(field)">\(Catalog.text(.passkeyNewName, locale, passkey.name))</label>
            <input id="\(field)" name="name" type="text" maxlength="100" required value="\(passkey.name)">
            <button type="submit" class="secondary">\(Catalog.text(.renameButton, locale))</button>
            </form>
            <p><a class="danger" href="\(path("/account/passkeys/", passkey.id, "/remove"))">\
            \(Catalog.text(.removePasskeyLink, locale))</a></p>
            </div></details>
            </div>
            """
    }

    /// `/account/passkeys/{id}/remove`: what removing the passkey means, then remove or cancel.
    static func removePasskey(context: HostedContext, passkey: PasskeyRecord, display: AuthenticatorDisplay?)
        -> HostedPage
    {
        let locale = context.locale
        let provider = display?.name ?? Catalog.raw(.passwordManager, locale)
        let body: HTML = """
            <h1>\(Catalog.text(.removePasskeyTitle, locale))</h1>
            <div class="passkey">\(passkeySummary(passkey, display: display, locale))</div>
            <p>\(Catalog.text(.removePasskeyLead, locale, passkey.name, provider))</p>
            \(action(context, path("/account/passkeys/", passkey.id, "/delete"), Catalog.text(.removePasskeyButton, locale), style: "danger"))
            <div class="links"><p><a href="/account">\(Catalog.text(.cancelLink, locale))</a></p></div>
            """
        return HostedPage(name: "remove-passkey", title: .removePasskeyTitle, body: body)
    }

    /// A key, for a passkey whose provider has no icon (inline, so no request and no CSP change).
    static let genericPasskeyIcon: HTML = """
        <svg class="authenticator-icon" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">\
        <circle cx="8" cy="12" r="4.5" fill="none" stroke="currentColor" stroke-width="2"/>\
        <path d="M12.5 12H21M18 12v3.5M21 12v2.5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>
        """

    /// Where a passkey lives: its provider, when known, and whether it is synced ("iCloud
    /// Keychain · Synced across your devices"; without a provider, only the second).
    static func residence(_ display: AuthenticatorDisplay?, _ kind: HTML) -> HTML {
        guard let name = display?.name else { return kind }
        return "\(name) · \(kind)"
    }

    /// A passkey's icon, name, provider and kind, then `more`; no controls.
    static func passkeySummary(
        _ passkey: PasskeyRecord, display: AuthenticatorDisplay?, _ locale: PageLocale, more: HTML = .empty
    ) -> HTML {
        let icon = authenticator(display).icon
        let kind = Catalog.text(passkey.backupEligible ? .passkeySynced : .passkeyDeviceBound, locale)
        return """
            <div class="passkey-summary">\(icon == .empty ? genericPasskeyIcon : icon)\
            <div><strong>\(passkey.name)</strong>
            <p class="hint">\(residence(display, kind))</p>\(more)</div></div>
            """
    }

    /// `/account`: passkeys, password, second factors, sessions; and the Signal API's arguments,
    /// so the browser's passkey manager learns every live credential and the current name.
    static func account(context: HostedContext, view: AccountView) -> HostedPage {
        let locale = context.locale
        let user = view.user
        let identifier = user.profile.primaryIdentifier
        var body: HTML = """
            <h1>\(Catalog.text(.accountTitle, locale))</h1>
            <p class="lead">\(identifier)</p>
            """
        if let notice = view.notice {
            body += "<p class=\"notice\" role=\"status\">\(Catalog.text(notice, locale))</p>"
        }
        body += PageLayout.errorBox(view.error.map { Catalog.error($0, locale) })
        body += checkup(view, locale)
        body += profile(view, context)

        body +=
            "<section id=\"passkeys\" aria-labelledby=\"passkeys-heading\">"
            + "<h2 id=\"passkeys-heading\">\(Catalog.text(.passkeysHeading, locale))</h2>"
        if view.passkeys.isEmpty {
            body += "<p>\(Catalog.text(.noPasskeys, locale))</p>"
        }
        for passkey in view.passkeys {
            body += passkeyRow(passkey, display: view.authenticators[AAGUIDRegistry.format(passkey.aaguid)], context)
        }
        body += "<p><a href=\"/account/passkeys/enroll\">\(Catalog.text(.addPasskeyButton, locale))</a></p></section>"

        if view.passwordsEnabled {
            body +=
                "<section id=\"password\" aria-labelledby=\"password-heading\">"
                + "<h2 id=\"password-heading\">\(Catalog.text(.passwordHeading, locale))</h2>"
            if let replacement = user.passwordReplacement {
                let text: Text = replacement == .apple ? .passwordReplacedApple : .passwordReplacedPasskey
                body +=
                    "<p id=\"password-replaced\">\(Catalog.text(text, locale))</p>"
                    + "<p><a href=\"/account/password\">\(Catalog.text(.setPasswordButton, locale))</a></p>"
            } else if let password = user.password {
                body +=
                    "<p>\(Catalog.text(.passwordSetOn, locale, date(password.changedAt, locale)))</p>"
                    + "<p><a href=\"/account/password\">\(Catalog.text(.changePasswordButton, locale))</a></p>"
                if !view.passkeys.isEmpty {
                    body +=
                        "<p><a class=\"danger\" href=\"/account/password/remove\">"
                        + "\(Catalog.text(.removePasswordLink, locale))</a></p>"
                }
            } else {
                body +=
                    "<p>\(Catalog.text(.noPassword, locale))</p>"
                    + "<p><a href=\"/account/password\">\(Catalog.text(.setPasswordButton, locale))</a></p>"
            }
            body += "</section>"
        }

        if !view.upgrades.isEmpty {
            body +=
                "<section id=\"upgrades\" aria-labelledby=\"upgrades-heading\">"
                + "<h2 id=\"upgrades-heading\">\(Catalog.text(.upgradeHeading, locale))</h2>"
                + "<p>\(Catalog.text(.upgradeLead, locale))</p>"
            for upgrade in view.upgrades {
                switch upgrade {
                case .passkey:
                    body +=
                        "<p><a href=\"/account/upgrade/passkey\" id=\"upgrade-passkey\" class=\"button\">"
                        + "\(Catalog.text(.upgradePasskeyButton, locale))</a></p>"
                case .strongPassword:
                    body +=
                        "<p><a href=\"/account/upgrade/password\" id=\"upgrade-password\" class=\"button\">"
                        + "\(Catalog.text(.upgradeStrongPasswordButton, locale))</a></p>"
                case .signInWithApple:
                    body +=
                        "<p><a href=\"/account/upgrade/apple\" id=\"upgrade-apple\" class=\"button\">"
                        + "\(Catalog.text(.upgradeAppleButton, locale))</a></p>"
                }
            }
            body += "</section>"
        }

        body +=
            "<section id=\"factors\" aria-labelledby=\"factors-heading\">"
            + "<h2 id=\"factors-heading\">\(Catalog.text(.factorsHeading, locale))</h2>"
        let active = view.factors.filter(\.active)
        if active.isEmpty { body += "<p>\(Catalog.text(.noFactors, locale))</p>" }
        for factor in active {
            let label: HTML
            switch factor.authenticatorType {
            case "otp": label = Catalog.text(.factorTOTP, locale)
            case "oob": label = Catalog.text(.factorSMS, locale, factor.name ?? "")
            default: label = Catalog.text(.factorRecovery, locale)
            }
            body +=
                "<div class=\"factor\"><p>\(label)</p>"
                + action(context, path("/account/mfa/", factor.id, "/delete"), Catalog.text(.deleteButton, locale))
                + "</div>"
        }
        body += "</section>"

        body += apps(view, context)
        body += sessions(view, context)
        body += """
            <section id="delete" aria-labelledby="delete-heading">
            <h2 id="delete-heading">\(Catalog.text(.deleteAccountHeading, locale))</h2>
            <p>\(Catalog.text(.deleteAccountLead, locale))</p>
            <p><a class="danger" href="/account/delete">\(Catalog.text(.deleteAccountLink, locale))</a></p>
            </section>
            """

        let rpID = JSONText.quote(context.tenant.rpID)
        let userID = JSONText.quote(Base64URL.encode(user.userHandle))
        let displayName = user.profile.name ?? identifier
        return HostedPage(
            name: "account", title: .accountTitle, body: body,
            data: [
                acceptedCredentials(context.tenant, userHandle: user.userHandle, view.passkeys.map(\.credentialID)),
                (
                    "signal-user-details",
                    "{\"rpId\":\(rpID),\"userId\":\(userID),\"name\":\(JSONText.quote(identifier)),"
                        + "\"displayName\":\(JSONText.quote(displayName))}"
                ),
            ], languageBase: "/account")
    }

    /// The Signal API's `signalAllAcceptedCredentials` argument: every credential id the account
    /// still accepts (none once it is deleted), so the browser's passkey manager can hide the rest.
    static func acceptedCredentials(_ tenant: TenantRecord, userHandle: [UInt8], _ ids: [[UInt8]]) -> (
        id: String, json: String
    ) {
        let list = ids.map { JSONText.quote(Base64URL.encode($0)) }.joined(separator: ",")
        return (
            "signal-accepted-credentials",
            "{\"rpId\":\(JSONText.quote(tenant.rpID)),\"userId\":\(JSONText.quote(Base64URL.encode(userHandle))),"
                + "\"allAcceptedCredentialIds\":[\(list)]}"
        )
    }

    /// `/account/password`: the change (with the current password) or a first password; with
    /// `upgrade`, `/account/upgrade/password`: the strong password that replaces a weak or
    /// breached one (the fresh sign-in authorizes it, not the current password).
    static func password(
        context: HostedContext, user: UserRecord, rules: String, error: (any Error)? = nil, status: Int = 200,
        upgrade: Bool = false
    ) -> HostedPage {
        let locale = context.locale
        let identifier = user.profile.primaryIdentifier
        var fields: HTML = """
            <input type="text" name="username" autocomplete="username" value="\(identifier)" hidden>
            """
        if user.usablePassword != nil, !upgrade {
            fields += """
                <label for="current">\(Catalog.text(.currentPasswordLabel, locale))</label>
                <input id="current" name="current" type="password" autocomplete="current-password" required autofocus>
                """
        }
        let title: Text =
            upgrade
            ? .upgradeStrongPasswordButton : user.usablePassword == nil ? .setPasswordButton : .changePasswordButton
        let body: HTML = """
            <h1>\(Catalog.text(title, locale))</h1>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="\(upgrade ? "/account/upgrade/password" : "/account/password")">
            \(PageLayout.hiddenFields(context, transaction: nil))
            \(fields)
            <label for="password">\(Catalog.text(.newPasswordLabel, locale))</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required\
            \(PageLayout.newPasswordAttributes(rules, fieldID: "password", error: error))>
            \(PasswordChecklist.list(rules, fieldID: "password", locale: locale))
            <button type="submit">\(Catalog.text(title, locale))</button>
            </form>
            <div class="links"><p><a href="/account">\(Catalog.text(.accountTitle, locale))</a></p></div>
            """
        return HostedPage(name: "account-password", title: title, body: body, status: status)
    }

    /// `/account/passkeys/enroll`: the button that creates a passkey for the signed-in user.
    /// With `upgrade`, `/account/upgrade/passkey`: the passkey that replaces the password.
    static func enroll(
        context: HostedContext, challenge: PasskeySignupChallengeResponse, error: (any Error)? = nil, status: Int = 200,
        upgrade: Bool = false
    ) -> HostedPage {
        let locale = context.locale
        let title: Text = upgrade ? .upgradePasskeyButton : .addPasskeyButton
        let action = upgrade ? "/account/upgrade/passkey" : "/account/passkeys/enroll"
        let body: HTML = """
            <h1>\(Catalog.text(title, locale))</h1>
            <p class="lead">\(Catalog.text(upgrade ? .upgradeLead : .addPasskeyLead, locale))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            \(PageLayout.clientErrorBox)
            \(SignInPages.createPasskeyForm(action: action, hidden: PageLayout.hiddenFields(context, transaction: nil), ceremony: challenge.authSession, locale: locale, label: title))
            <div class="links"><p><a href="/account">\(Catalog.text(.accountTitle, locale))</a></p></div>
            """
        return HostedPage(
            name: "enroll", title: title, body: body, status: status, data: SignInPages.creationJSON(challenge))
    }
}

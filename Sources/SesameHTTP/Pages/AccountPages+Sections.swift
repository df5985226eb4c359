import Foundation
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// The account page's check-up, apps and devices, and the pages of its one-off actions: removing
/// the password, confirming the recovery code and deleting the account.
extension AccountPages {
    /// What the user should do next, most important first, as Google's security check-up says
    /// it: a passkey, a second one, no password beside them, a recovery code confirmed. With
    /// nothing to do, it says so.
    static func checkup(_ view: AccountView, _ locale: PageLocale) -> HTML {
        var items: [HTML] = []
        func item(_ text: Text, _ href: String, _ link: Text) {
            items.append(
                "<li><p>\(Catalog.text(text, locale))</p><p><a href=\"\(href)\">\(Catalog.text(link, locale))</a></p></li>"
            )
        }
        if view.passkeys.isEmpty {
            item(.checkupAddPasskey, "/account/passkeys/enroll", .addPasskeyButton)
        } else if view.passkeys.count == 1 {
            item(.checkupSecondPasskey, "/account/passkeys/enroll", .addPasskeyButton)
        }
        if !view.passkeys.isEmpty, view.passwordsEnabled, view.user.usablePassword != nil {
            item(.checkupRemovePassword, "/account/password/remove", .removePasswordLink)
        }
        if view.unsavedRecoveryCode {
            item(.checkupSaveRecovery, "/account/recovery-code", .showRecoveryLink)
        }
        let content: HTML =
            items.isEmpty
            ? "<p class=\"checkup-done\">\(Catalog.text(.checkupAllGood, locale))</p>"
            : "<ul class=\"checkup\">\(items.joined())</ul>"
        return """
            <section id="checkup" aria-labelledby="checkup-heading">
            <h2 id="checkup-heading">\(Catalog.text(.checkupHeading, locale))</h2>
            \(content)
            </section>
            """
    }

    /// The user's name (editable) and email address with its state: confirmed, or not yet with
    /// a button that sends the link again.
    static func profile(_ view: AccountView, _ context: HostedContext) -> HTML {
        let locale = context.locale
        let profile = view.user.profile
        var body: HTML = """
            <section id="profile" aria-labelledby="profile-heading">
            <h2 id="profile-heading">\(Catalog.text(.profileHeading, locale))</h2>
            """
        if let email = profile.email {
            let state: Text = profile.emailVerified ? .emailVerifiedBadge : .emailUnverifiedBadge
            body += """
                <p><span class="hint">\(Catalog.text(.emailLabel, locale))</span><br>\
                <strong>\(email)</strong> <span class="badge\(profile.emailVerified ? "" : " warn")">\
                \(Catalog.text(state, locale))</span></p>
                """
            if !profile.emailVerified {
                body += action(context, "/account/email/verify", Catalog.text(.resendVerificationButton, locale))
            }
        }
        body += """
            <form method="post" action="/account/profile">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <label for="profile-name">\(Catalog.text(.profileNameLabel, locale))</label>
            <input id="profile-name" name="name" type="text" autocomplete="name" maxlength="256" \
            value="\(profile.name ?? "")">
            <button type="submit" class="secondary">\(Catalog.text(.saveButton, locale))</button>
            </form>
            </section>
            """
        return body
    }

    /// The apps that stay signed in (a live refresh token), each with its activity and a button
    /// that takes its access away.
    static func apps(_ view: AccountView, _ context: HostedContext) -> HTML {
        let locale = context.locale
        var body: HTML = """
            <section id="apps" aria-labelledby="apps-heading">
            <h2 id="apps-heading">\(Catalog.text(.appsHeading, locale))</h2>
            <p class="hint">\(Catalog.text(.appsLead, locale))</p>
            """
        if view.apps.isEmpty { body += "<p>\(Catalog.text(.appsNone, locale))</p>" }
        for app in view.apps {
            let activity = Catalog.text(.appActivity, locale, date(app.since, locale), date(app.lastActive, locale))
            body += """
                <div class="app" data-client-id="\(app.clientID)"><p><strong>\(app.name)</strong><br>\
                <span class="hint">\(activity)</span></p>
                <form method="post" action="\(path("/account/apps/", app.clientID, "/revoke"))">\
                \(PageLayout.hiddenFields(context, transaction: nil))\
                <button type="submit" class="secondary" aria-label="\(Catalog.text(.revokeAppNamed, locale, app.name))">\
                \(Catalog.text(.revokeAppButton, locale))</button></form>
                </div>
                """
        }
        return body + "</section>"
    }

    /// The browser sessions: this one first, each named by its browser and system.
    static func sessions(_ view: AccountView, _ context: HostedContext) -> HTML {
        let locale = context.locale
        var body: HTML = """
            <section id="sessions" aria-labelledby="sessions-heading">
            <h2 id="sessions-heading">\(Catalog.text(.sessionsHeading, locale))</h2>
            """
        let ordered = view.sessions.sorted {
            ($0.id == view.currentSession ? 0 : 1) < ($1.id == view.currentSession ? 0 : 1)
        }
        for session in ordered {
            let here = session.id == view.currentSession
            let badge: HTML = here ? " <span class=\"badge\">\(Catalog.text(.sessionThisBrowser, locale))</span>" : ""
            body +=
                "<div class=\"session\"><p><strong>\(DeviceName.text(session.userAgent, locale))</strong>\(badge)<br>"
                + "<span class=\"hint\">\(Catalog.text(.sessionStarted, locale, date(session.createdAt, locale)))"
                + "\(Catalog.text(.listSeparator, locale))"
                + "\(Catalog.text(.sessionLastSeen, locale, date(session.lastSeenAt, locale)))</span></p>"
            if !here {
                body += action(
                    context, path("/account/sessions/", session.id, "/end"), Catalog.text(.endSessionButton, locale))
            }
            body += "</div>"
        }
        return body
            + action(context, "/account/sessions/end-all", Catalog.text(.signOutEverywhereButton, locale))
            + action(context, "/account/logout", Catalog.text(.signOutButton, locale), style: nil) + "</section>"
    }

    /// `/account/password/remove`: what removing the password means, then remove or cancel.
    static func removePassword(context: HostedContext) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.removePasswordTitle, locale))</h1>
            <p>\(Catalog.text(.removePasswordLead, locale))</p>
            \(action(context, "/account/password/delete", Catalog.text(.removePasswordLink, locale), style: "danger"))
            <div class="links"><p><a href="/account">\(Catalog.text(.cancelLink, locale))</a></p></div>
            """
        return HostedPage(
            name: "remove-password", title: .removePasswordTitle, body: body, languageBase: "/account/password/remove")
    }

    /// `/account/recovery-code`: the recovery code the user has not said they saved, then "I saved it".
    static func recoveryCode(context: HostedContext, code: String) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            \(SignInPages.recoveryCodeBlock(code, tenant: context.tenant.name, locale))
            <form method="post" action="/account/recovery-code">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <p><input type="checkbox" id="saved" name="saved" value="yes" required> \
            <label class="inline" for="saved">\(Catalog.text(.savedCheckbox, locale))</label></p>
            <button type="submit">\(Catalog.text(.continueButton, locale))</button>
            </form>
            <div class="links"><p><a href="/account">\(Catalog.text(.cancelLink, locale))</a></p></div>
            """
        return HostedPage(
            name: "account-recovery-code", title: .saveRecoveryTitle, body: body, languageBase: "/account/recovery-code"
        )
    }

    /// `/account/delete`: what deleting means, and the identifier to type to confirm it.
    static func deleteAccount(
        context: HostedContext, confirmation: String, error: (any Error)? = nil, status: Int = 200
    ) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.deleteAccountTitle, locale))</h1>
            <p>\(Catalog.text(.deleteAccountLead, locale))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="/account/delete">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <label for="confirmation">\(Catalog.text(.deleteAccountConfirmLabel, locale, confirmation))</label>
            <input id="confirmation" name="confirmation" type="text" autocomplete="off" autocapitalize="none" \
            spellcheck="false" required maxlength="512"\(PageLayout.invalid(error))>
            <button type="submit" class="danger">\(Catalog.text(.deleteAccountButton, locale))</button>
            </form>
            <div class="links"><p><a href="/account">\(Catalog.text(.cancelLink, locale))</a></p></div>
            """
        return HostedPage(
            name: "delete-account", title: .deleteAccountTitle, body: body, status: status,
            languageBase: "/account/delete")
    }

    /// After the account is deleted: says so, and tells the browser's passkey manager that the
    /// account accepts no passkey any more (the Signal API), so it can hide them.
    static func accountDeleted(context: HostedContext, userHandle: [UInt8]) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.accountDeletedTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.accountDeletedLead, locale))</p>
            """
        return HostedPage(
            name: "account-deleted", title: .accountDeletedTitle, body: body,
            data: [acceptedCredentials(context.tenant, userHandle: userHandle, [])])
    }
}

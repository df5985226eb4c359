import Foundation
import SesameService

/// The password-reset and email-verification pages.
enum PasswordPages {
    /// "Forgot password?": the email to send the link to (for the pending sign-in's connection).
    static func resetRequest(
        context: HostedContext, pending: PendingAuthorization, email: String = "", error: (any Error)? = nil,
        status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let body: HTML = """
            <h1>\(Catalog.text(.resetRequestTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.resetRequestLead, locale))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="/u/reset-password/request">
            \(PageLayout.hiddenFields(context, transaction: pending.handle))
            <label for="email">\(Catalog.text(.emailLabel, locale))</label>
            <input id="email" name="email" type="email" autocomplete="username" required autofocus \
            value="\(email)">
            <button type="submit">\(Catalog.text(.sendResetLink, locale))</button>
            </form>
            \(backToSignIn(pending, locale))
            """
        return HostedPage(
            name: "reset-request", title: .resetRequestTitle, body: body, status: status,
            languageBase: "/u/reset-password/request?tx=" + pending.handle)
    }

    /// The same answer whether or not an account has the address.
    static func resetRequestSent(context: HostedContext, pending: PendingAuthorization) -> HostedPage {
        let locale = context.locale(for: pending)
        let body: HTML = """
            <h1>\(Catalog.text(.resetRequestTitle, locale))</h1>
            <p class="notice" role="status">\(Catalog.text(.resetSentLead, locale))</p>
            \(backToSignIn(pending, locale))
            """
        return HostedPage(name: "reset-sent", title: .resetRequestTitle, body: body)
    }

    static func backToSignIn(_ pending: PendingAuthorization, _ locale: PageLocale) -> HTML {
        "<div class=\"links\"><p><a href=\"/u/login?tx=\(pending.handle)\">"
            + "\(Catalog.text(.backToSignIn, locale))</a></p></div>"
    }

    /// `/u/reset-password?ticket=…`: the new password, with the connection's rules for the
    /// password manager. The ticket travels in the form, never in a log line or a Referer.
    static func reset(
        context: HostedContext, ticket: String, rules: String, email: String?, error: (any Error)? = nil,
        status: Int = 200
    ) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.resetTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.resetLead, locale))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="/u/reset-password">
            \(PageLayout.hiddenFields(context, transaction: nil))
            <input type="hidden" name="ticket" value="\(ticket)">
            <input type="text" name="username" autocomplete="username" value="\(email ?? "")" hidden>
            <label for="password">\(Catalog.text(.newPasswordLabel, locale))</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required autofocus\
            \(PageLayout.newPasswordAttributes(rules, fieldID: "password", error: error))>
            \(PasswordChecklist.list(rules, fieldID: "password", locale: locale))
            <button type="submit">\(Catalog.text(.newPasswordButton, locale))</button>
            </form>
            """
        return HostedPage(name: "reset", title: .resetTitle, body: body, status: status)
    }

    static func message(context: HostedContext, name: String, title: Text, lead: Text, status: Int = 200) -> HostedPage
    {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(title, locale))</h1>
            <p class="\(status == 200 ? "notice" : "error")" role="\(status == 200 ? "status" : "alert")">\
            \(Catalog.text(lead, locale))</p>
            """
        return HostedPage(name: name, title: title, body: body, status: status)
    }

    /// `/u/verify-email?ticket=…`: a button, so a mail scanner that opens the link confirms nothing.
    /// When the account already holds ways to sign in added before its address was proven, and this
    /// browser is not signed in to it, the page lists them and asks whether the opener added them:
    /// "no" removes them (`EmailVerification.confirm`).
    static func verify(
        context: HostedContext, ticket: String, prompt: EmailVerification.Prompt, asks: Bool, error: Text? = nil
    ) -> HostedPage {
        let locale = context.locale
        let fields: HTML = """
            \(PageLayout.hiddenFields(context, transaction: nil))
            <input type="hidden" name="ticket" value="\(ticket)">
            """
        var body: HTML = """
            <h1>\(Catalog.text(.verifyTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.verifyLead, locale, prompt.email))</p>
            \(PageLayout.errorBox(error.map { Catalog.text($0, locale) }))
            """
        let status = error == nil ? 200 : 400
        guard asks else {
            body += """
                <form method="post" action="/u/verify-email?ui_locales=\(locale.rawValue)">
                \(fields)
                <button type="submit">\(Catalog.text(.confirmEmailButton, locale))</button>
                </form>
                """
            return HostedPage(name: "verify-email", title: .verifyTitle, body: body, status: status)
        }
        let prior = prompt.priorSignIn
        var items: [HTML] = []
        if prior.passkeys > 0 { items.append(Catalog.text(.priorPasskeys, locale, String(prior.passkeys))) }
        if prior.password { items.append(Catalog.text(.priorPassword, locale)) }
        if prior.secondFactors > 0 {
            items.append(Catalog.text(.priorSecondFactors, locale, String(prior.secondFactors)))
        }
        if prior.deviceKeys > 0 { items.append(Catalog.text(.priorDeviceKeys, locale, String(prior.deviceKeys))) }
        if prior.linkedIdentities > 0 { items.append(Catalog.text(.priorAppleID, locale)) }
        let created = AccountPages.date(prompt.createdAt, locale)
        body += """
            <p>\(Catalog.text(.verifyPriorLead, locale, created))</p>
            <ul id="prior-sign-in">\(items.map { item -> HTML in "<li>\(item)</li>" }.joined())</ul>
            <p><strong>\(Catalog.text(.verifyPriorQuestion, locale))</strong></p>
            <form method="post" action="/u/verify-email?ui_locales=\(locale.rawValue)">
            \(fields)
            <button type="submit" name="prior" value="keep">\(Catalog.text(.keepPriorButton, locale))</button>
            <button type="submit" name="prior" value="remove" class="secondary">\(Catalog.text(.removePriorButton, locale))</button>
            </form>
            <p class="hint">\(Catalog.text(.verifyPriorHint, locale))</p>
            """
        return HostedPage(name: "verify-email-prior", title: .verifyTitle, body: body, status: status)
    }

    /// After "No, remove them": what happened, and the way to set up sign-in again.
    static func verifiedCleared(context: HostedContext) -> HostedPage {
        let locale = context.locale
        let body: HTML = """
            <h1>\(Catalog.text(.verifiedTitle, locale))</h1>
            <p class="notice" role="status">\(Catalog.text(.verifiedClearedLead, locale))</p>
            <div class="links"><p><a href="/account" id="set-up-sign-in">\(Catalog.text(.setUpSignInLink, locale))</a></p></div>
            """
        return HostedPage(name: "verified-cleared", title: .verifiedTitle, body: body)
    }
}

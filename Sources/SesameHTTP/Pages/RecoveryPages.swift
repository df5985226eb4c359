import SesameService

/// Account recovery's first two pages: the email address, then the code sent to it.
enum RecoveryPages {
    static func request(
        context: HostedContext, pending: PendingAuthorization, email: String = "", error: (any Error)? = nil,
        status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let body: HTML = """
            <h1>\(Catalog.text(.recoverTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.recoverLead, locale))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="/u/recover">
            \(PageLayout.hiddenFields(context, transaction: pending.handle))
            <label for="email">\(Catalog.text(.emailLabel, locale))</label>
            <input id="email" name="email" type="email" autocomplete="username" required autofocus value="\(email)">
            <button type="submit">\(Catalog.text(.sendCodeButton, locale))</button>
            </form>
            \(PasswordPages.backToSignIn(pending, locale))
            """
        return HostedPage(
            name: "recover", title: .recoverTitle, body: body, status: status,
            languageBase: "/u/recover?tx=" + pending.handle)
    }

    static func code(
        context: HostedContext, pending: PendingAuthorization, handle: String, error: (any Error)? = nil,
        status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let body: HTML = """
            <h1>\(Catalog.text(.recoverTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.recoverCodeLead, locale))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="/u/recover/verify">
            \(PageLayout.hiddenFields(context, transaction: pending.handle))
            <input type="hidden" name="handle" value="\(handle)">
            <label for="code">\(Catalog.text(.codeLabel, locale))</label>
            <input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" \
            autocomplete="one-time-code" required autofocus>
            <button type="submit">\(Catalog.text(.verifyButton, locale))</button>
            </form>
            \(PasswordPages.backToSignIn(pending, locale))
            """
        return HostedPage(name: "recover-code", title: .recoverTitle, body: body, status: status)
    }
}

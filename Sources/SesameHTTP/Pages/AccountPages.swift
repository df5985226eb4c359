import SesameService

/// The pages of a signed-in browser: sign-out so far (the account page arrives with its routes).
enum AccountPages {
    typealias E = HTMLText

    /// RP-initiated logout without a hint for the signed-in user: ask before signing out, so
    /// another site cannot sign the user out by linking here.
    static func confirmLogout(context: HostedContext, logout: LogoutRequest, clientName: String) -> HostedPage {
        let locale = context.locale
        var fields = PageLayout.hiddenFields(context, transaction: nil)
        if let clientID = logout.clientID {
            fields += "<input type=\"hidden\" name=\"client_id\" value=\"\(E.escape(clientID))\">"
        }
        if let uri = logout.postLogoutRedirectURI {
            fields += "<input type=\"hidden\" name=\"post_logout_redirect_uri\" value=\"\(E.escape(uri))\">"
        }
        if let state = logout.state {
            fields += "<input type=\"hidden\" name=\"state\" value=\"\(E.escape(state))\">"
        }
        let body = """
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
        let body = """
            <h1>\(Catalog.text(.signedOutTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.signedOutLead, locale))</p>
            """
        return HostedPage(name: "signed-out", title: .signedOutTitle, body: body)
    }
}

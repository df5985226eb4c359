import Foundation
import SesameCrypto
import SesameService
import SesameStore

/// The browser's side of the hosted pages that need a signed-in user (the account and admin
/// pages): its SSO session, the way to sign in and come back, and its CSRF-checked forms.
struct BrowserSession: Sendable {
    let sessions: SSOSessionService
    let authorization: AuthorizationService

    /// The session the request's cookie stands for.
    func currentSession(_ context: HostedContext) -> SSOSession? {
        sessions.resolve(tenant: context.tenant, cookie: context.cookie(.session))
    }

    /// Sends the browser to sign in, then back to `path` (`fresh`: even with a session).
    func accountSignIn(_ path: String, _ context: HostedContext, fresh: Bool = false) throws -> HTTPResponse {
        let handle = try authorization.beginAccountSignIn(
            tenant: context.tenant, path: path, device: context.device, fresh: fresh)
        return .redirect(to: "/u/login?tx=" + handle, status: 303)
    }

    /// Ends this browser's session and sends it to sign in again, then to `path`: another account
    /// (the admin page's "Use another account").
    func switchAccount(_ path: String, _ context: HostedContext) throws -> HTTPResponse {
        try sessions.end(tenant: context.tenant, cookie: context.cookie(.session))
        var response = try accountSignIn(path, context, fresh: true)
        Self.removeSessionCookie(from: &response, context)
        return response
    }

    /// Tells the browser to forget its session cookie.
    static func removeSessionCookie(from response: inout HTTPResponse, _ context: HostedContext) {
        response.headers.add(
            name: "Set-Cookie",
            value: SetCookie.deleting(CookieName.session.name(secure: context.secure), secure: context.secure).header)
    }

    /// A form POST of a signed-in browser: CSRF checked; 401 without a session.
    func accountForm(_ reader: BodyReader, _ context: HostedContext) throws -> (APIBody, SSOSession) {
        let form = try reader.read()
        try context.requireSameSiteForm(reader.request, token: try form.optionalString("csrf"))
        guard let session = currentSession(context) else {
            throw HTTPError(status: 401, error: "login_required", description: "Sign in first.")
        }
        return (form, session)
    }

    /// The signed-out page, with the session cookie removed.
    static func signedOut(_ context: HostedContext) -> HTTPResponse {
        var response = PageLayout.response(
            AccountPages.signedOut(context: context), context: context, locale: context.locale)
        removeSessionCookie(from: &response, context)
        return response
    }

    /// The status of a page that re-shows a step with an error.
    static func status(_ error: any Error) -> Int {
        (error as? any HTTPErrorConvertible)?.httpError.status ?? 500
    }

    /// Whose pending ceremonies a page's challenge counts against: this browser.
    static func requester(_ context: HostedContext) -> String {
        "browser:" + Digest.sha256(Array(context.device.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

import Foundation
import SesameService
import SesameStore

/// The account pages (`/account`): a signed-in browser manages its passkeys, password, second
/// factors and sessions. Without a session, the browser signs in first and comes back. Every
/// change is a CSRF-checked form POST answered with 303 to the page and a closed notice.
extension SesameApplication {
    /// The notices `?done=` may name, and their texts.
    static let accountNotices: [String: Text] = [
        "renamed": .doneRenamed, "deleted": .doneDeleted, "added": .doneAdded, "password": .donePassword,
        "factor": .doneFactor, "session": .doneSession, "upgraded": .doneUpgraded,
    ]

    func addAccountRoutes(to router: inout RouteGroup<HostedContext>) {
        router.get("/account") { [self] request, context in
            guard let session = currentSession(context) else { return try accountSignIn("/account", context) }
            let notice = request.query("done").flatMap { Self.accountNotices[$0] }
            return try accountPage(session, context, notice: notice)
        }
        router.post("/account/passkeys/{id}/rename") { [self] request, context in
            let (form, session) = try accountForm(request, context)
            let caller = myAccount.caller(session: session, tenant: context.tenant)
            do {
                _ = try myAccount.renameAuthenticationMethod(
                    caller, id: try context.request.pathParameter("id"),
                    name: try form.optionalString("name", maxLength: 1_024) ?? "")
            } catch {
                return try accountPage(session, context, error: error)
            }
            return .redirect(to: "/account?done=renamed", status: 303)
        }
        router.post("/account/passkeys/{id}/delete") { [self] request, context in
            let (_, session) = try accountForm(request, context)
            do {
                try myAccount.deleteAuthenticationMethod(
                    myAccount.caller(session: session, tenant: context.tenant),
                    id: try context.request.pathParameter("id"))
            } catch {
                return try accountRefusal(error, returnTo: "/account", session, context)
            }
            return .redirect(to: "/account?done=deleted", status: 303)
        }
        router.get("/account/passkeys/enroll") { [self] _, context in
            guard let session = currentSession(context) else {
                return try accountSignIn("/account/passkeys/enroll", context)
            }
            do {
                let challenge = try myAccount.beginEnrollment(
                    myAccount.caller(session: session, tenant: context.tenant), type: "passkey", connection: nil,
                    requester: requester(context))
                return PageLayout.response(
                    AccountPages.enroll(context: context, challenge: challenge), context: context,
                    locale: context.locale)
            } catch {
                return try accountRefusal(error, returnTo: "/account/passkeys/enroll", session, context)
            }
        }
        router.post("/account/passkeys/enroll") { [self] request, context in
            let (form, session) = try accountForm(request, context)
            do {
                _ = try myAccount.finishEnrollment(
                    myAccount.caller(session: session, tenant: context.tenant),
                    authSession: try form.optionalString("ceremony", maxLength: 256) ?? "",
                    response: Array((try form.optionalString("credential", maxLength: 32_768) ?? "").utf8))
            } catch {
                return try accountRefusal(error, returnTo: "/account/passkeys/enroll", session, context)
            }
            return .redirect(to: "/account?done=added", status: 303)
        }
        router.get("/account/password") { [self] _, context in
            guard let session = currentSession(context) else { return try accountSignIn("/account/password", context) }
            return try passwordPage(session, context)
        }
        router.post("/account/password") { [self] request, context in
            let (form, session) = try accountForm(request, context)
            do {
                try passwords.changePassword(
                    tenant: context.tenant, userID: session.user.id,
                    current: try form.optionalString("current", maxLength: 4_096),
                    new: try form.optionalString("password", maxLength: 4_096), authTime: session.record.authTime,
                    keepSession: session.record.id, address: context.clientKey)
            } catch {
                if case .reauthenticationRequired? = error as? ServiceError {
                    return try accountSignIn("/account/password", context, fresh: true)
                }
                return try passwordPage(session, context, error: error, status: Self.status(error))
            }
            return .redirect(to: "/account?done=password", status: 303)
        }
        // The account security upgrades (docs/account-upgrades.md), authorized by the session's sign-in under the
        // connection's rules: a sign-in too old (or a second factor due) signs in again first.
        router.get("/account/upgrade/passkey") { [self] _, context in
            guard let session = currentSession(context) else {
                return try accountSignIn("/account/upgrade/passkey", context)
            }
            do {
                let authorized = try accountUpgrade(.passkey, session, context)
                let challenge = try upgrades.beginPasskeyUpgrade(
                    tenant: context.tenant, token: authorized.upgradeToken, requester: requester(context))
                return PageLayout.response(
                    AccountPages.enroll(context: context, challenge: challenge, upgrade: true), context: context,
                    locale: context.locale)
            } catch ServiceError.stepUpRequired {
                return try accountSignIn("/account/upgrade/passkey", context, fresh: true)
            } catch {
                return try accountPage(session, context, error: error)
            }
        }
        router.post("/account/upgrade/passkey") { [self] request, context in
            let (form, session) = try accountForm(request, context)
            do {
                _ = try upgrades.finishPasskeyUpgrade(
                    tenant: context.tenant, authSession: try form.optionalString("ceremony", maxLength: 256),
                    response: Array((try form.optionalString("credential", maxLength: 32_768) ?? "").utf8))
            } catch {
                return try accountPage(session, context, error: error)
            }
            // The upgrade ended every session, this one too: the new passkey signs in again.
            return .redirect(to: "/account?done=upgraded", status: 303)
        }
        // Sign in with Apple on the web: to Apple with a state that holds the upgrade, back through
        // Apple's form post to /u/apple/callback.
        router.get("/account/upgrade/apple") { [self] _, context in
            guard let session = currentSession(context) else {
                return try accountSignIn("/account/upgrade/apple", context)
            }
            do {
                let authorized = try accountUpgrade(.signInWithApple, session, context)
                let url = try upgrades.beginWebAppleUpgrade(
                    tenant: context.tenant, token: authorized.upgradeToken,
                    redirectURI: TokenService.issuer(context.tenant) + "u/apple/callback")
                return .redirect(to: url, status: 303)
            } catch ServiceError.stepUpRequired {
                return try accountSignIn("/account/upgrade/apple", context, fresh: true)
            } catch {
                return try accountPage(session, context, error: error)
            }
        }
        // Apple's `response_mode=form_post`: a cross-site POST, so no cookie and no CSRF token come
        // with it; the single-use state is what ties it to the account page that started it.
        router.post("/u/apple/callback") { [self] request, context in
            let form = try APIBody.form(request)
            if try form.optionalString("error", maxLength: 128) != nil {
                // The user closed Apple's page: nothing changed.
                return .redirect(to: "/account", status: 303)
            }
            try upgrades.finishWebAppleUpgrade(
                tenant: context.tenant, state: try form.optionalString("state", maxLength: 256),
                identityToken: try form.optionalString("id_token", maxLength: 16_384),
                authorizationCode: try form.optionalString("code", maxLength: 1_024))
            return .redirect(to: "/account?done=upgraded", status: 303)
        }
        router.get("/account/upgrade/password") { [self] _, context in
            guard let session = currentSession(context) else {
                return try accountSignIn("/account/upgrade/password", context)
            }
            return try passwordPage(session, context, upgrade: true)
        }
        router.post("/account/upgrade/password") { [self] request, context in
            let (form, session) = try accountForm(request, context)
            do {
                let authorized = try accountUpgrade(.strongPassword, session, context)
                try upgrades.upgradeToStrongPassword(
                    tenant: context.tenant, token: authorized.upgradeToken,
                    newPassword: try form.optionalString("password", maxLength: 4_096), address: context.clientKey)
            } catch ServiceError.stepUpRequired {
                return try accountSignIn("/account/upgrade/password", context, fresh: true)
            } catch {
                return try passwordPage(session, context, error: error, status: Self.status(error), upgrade: true)
            }
            return .redirect(to: "/account?done=upgraded", status: 303)
        }
        router.post("/account/mfa/{id}/delete") { [self] request, context in
            let (_, session) = try accountForm(request, context)
            do {
                try mfa.deleteAuthenticator(
                    tenant: context.tenant, caller: mfa.caller(session: session),
                    id: try context.request.pathParameter("id"))
            } catch {
                return try accountRefusal(error, returnTo: "/account", session, context)
            }
            return .redirect(to: "/account?done=factor", status: 303)
        }
        router.post("/account/sessions/{id}/end") { [self] request, context in
            let (_, session) = try accountForm(request, context)
            do {
                try sessions.end(
                    tenant: context.tenant, userID: session.user.id, sessionID: try context.request.pathParameter("id"))
            } catch {
                return try accountPage(session, context, error: error)
            }
            return .redirect(to: "/account?done=session", status: 303)
        }
        router.post("/account/sessions/end-all") { [self] request, context in
            let (_, session) = try accountForm(request, context)
            try sessions.endAll(tenant: context.tenant, userID: session.user.id)
            return signedOut(context)
        }
        router.post("/account/logout") { [self] request, context in
            _ = try accountForm(request, context)
            try sessions.end(tenant: context.tenant, cookie: context.cookie(.session))
            return signedOut(context)
        }

        // The well-known URL password managers open to change a password (change-password-url).
        router.get("/.well-known/change-password") { _, _ in .redirect(to: "/account/password", status: 302) }
    }

    /// The account page for `session`.
    func accountPage(
        _ session: SSOSession, _ context: HostedContext, notice: Text? = nil, error: (any Error)? = nil
    ) throws -> HTTPResponse {
        let caller = myAccount.caller(session: session, tenant: context.tenant)
        let overview = try myAccount.overview(caller)
        let view = AccountView(
            user: overview.user, passwordsEnabled: overview.connection?.password.enabled ?? false,
            passkeys: overview.passkeys, authenticators: try myAccount.authenticatorDisplays(overview.passkeys),
            factors: (try? mfa.authenticators(tenant: context.tenant, caller: mfa.caller(session: session))) ?? [],
            sessions: try sessions.sessions(tenant: context.tenant, userID: session.user.id),
            currentSession: session.record.id,
            upgrades: try upgrades.offers(
                tenant: context.tenant, userID: session.user.id, clientID: AccountClient.id),
            notice: notice, error: error)
        var page = AccountPages.account(context: context, view: view)
        if let error { page.status = Self.status(error) }
        return PageLayout.response(page, context: context, locale: context.locale)
    }

    /// A credential change the session's sign-in does not authorize (too old, or without the
    /// user's second factor) signs in again and comes back to `returnTo`; any other refusal is
    /// shown on the account page.
    func accountRefusal(
        _ error: any Error, returnTo: String, _ session: SSOSession, _ context: HostedContext
    ) throws -> HTTPResponse {
        if case .insufficientUserAuthentication? = error as? ServiceError {
            return try accountSignIn(returnTo, context, fresh: true)
        }
        return try accountPage(session, context, error: error)
    }

    /// An upgrade authorized by the account page's session (which keeps going afterwards).
    func accountUpgrade(_ type: UpgradeType, _ session: SSOSession, _ context: HostedContext) throws
        -> UpgradeAuthorization
    {
        try upgrades.authorize(
            tenant: context.tenant, type: type,
            by: .hosted(
                userID: session.user.id, clientID: AccountClient.id, authTime: session.record.authTime,
                amr: session.record.amr, sessionID: session.record.id))
    }

    func passwordPage(
        _ session: SSOSession, _ context: HostedContext, error: (any Error)? = nil, status: Int = 200,
        upgrade: Bool = false
    ) throws -> HTTPResponse {
        let overview = try myAccount.overview(myAccount.caller(session: session, tenant: context.tenant))
        guard let connection = overview.connection, connection.password.enabled else {
            return try accountPage(session, context)
        }
        return PageLayout.response(
            AccountPages.password(
                context: context, user: overview.user, rules: connection.password.rules, error: error, status: status,
                upgrade: upgrade),
            context: context, locale: context.locale)
    }

    /// Sends the browser to sign in, then back to `path` (`fresh`: even with a session).
    func accountSignIn(_ path: String, _ context: HostedContext, fresh: Bool = false) throws -> HTTPResponse {
        let handle = try authorization.beginAccountSignIn(
            tenant: context.tenant, path: path, device: context.device, fresh: fresh)
        return .redirect(to: "/u/login?tx=" + handle, status: 303)
    }

    /// A form POST of a signed-in browser: CSRF checked; 401 without a session.
    func accountForm(_ request: HTTPRequest, _ context: HostedContext) throws -> (APIBody, SSOSession) {
        let form = try APIBody.form(request)
        try context.requireSameSiteForm(request, token: try form.optionalString("csrf", maxLength: 128))
        guard let session = currentSession(context) else {
            throw HTTPError(status: 401, error: "login_required", description: "Sign in first.")
        }
        return (form, session)
    }

    /// The signed-out page, with the session cookie removed.
    func signedOut(_ context: HostedContext) -> HTTPResponse {
        var response = PageLayout.response(
            AccountPages.signedOut(context: context), context: context, locale: context.locale)
        response.headers.add(
            name: "Set-Cookie",
            value: SetCookie.deleting(CookieName.session.name(secure: context.secure), secure: context.secure).header)
        return response
    }
}

import Foundation
import SesameService
import SesameStore
import WebAuthn

/// The account pages (`/account`): a signed-in browser manages its passkeys, password, second
/// factors and sessions. Without a session, the browser signs in first and comes back. Every change
/// is a CSRF-checked form POST answered with 303 to the page and a closed notice.
struct AccountController: Sendable {
    let myAccount: MyAccountService
    let mfa: MFAService
    let passwords: PasswordService
    let sessions: SSOSessionService
    let upgrades: AccountUpgradeService
    let browser: BrowserSession
    let verification: EmailVerification

    func register(to group: inout RouteGroup<HostedContext>) {
        group.get("/account", query: RequestQuery([RequestQuery.done]), handler: account)
        group.post("/account/passkeys/{id}/rename", body: HostedForms.rename, handler: renamePasskey)
        group.get("/account/passkeys/{id}/remove", handler: removePasskeyPage)
        group.post("/account/passkeys/{id}/delete", body: HostedForms.button, handler: deletePasskey)
        group.get("/account/passkeys/enroll", handler: enrollPasskeyPage)
        group.post("/account/passkeys/enroll", body: HostedForms.accountCeremony, handler: enrollPasskey)
        group.get("/account/password", handler: passwordForm)
        group.post("/account/password", body: HostedForms.passwordChange, handler: changePassword)
        group.get("/account/upgrade/passkey", handler: passkeyUpgradePage)
        group.post("/account/upgrade/passkey", body: HostedForms.accountCeremony, handler: passkeyUpgrade)
        group.get("/account/upgrade/apple", handler: appleUpgrade)
        group.post("/u/apple/callback", body: HostedForms.appleCallback, handler: appleCallback)
        group.get("/account/upgrade/password", handler: passwordUpgradePage)
        group.post("/account/upgrade/password", body: HostedForms.newPassword, handler: passwordUpgrade)
        group.post("/account/profile", body: HostedForms.profile, handler: updateProfile)
        group.post("/account/email/verify", body: HostedForms.button, handler: resendVerification)
        group.get("/account/password/remove", handler: removePasswordPage)
        group.post("/account/password/delete", body: HostedForms.button, handler: removePassword)
        group.get("/account/recovery-code", handler: recoveryCodePage)
        group.post("/account/recovery-code", body: HostedForms.accountRecoveryCodeSaved, handler: recoveryCodeSaved)
        group.post("/account/apps/{id}/revoke", body: HostedForms.button, handler: revokeApp)
        group.get("/account/delete", handler: deleteAccountPage)
        group.post("/account/delete", body: HostedForms.accountDeletion, handler: deleteAccount)
        group.post("/account/mfa/{id}/delete", body: HostedForms.button, handler: deleteFactor)
        group.post("/account/sessions/{id}/end", body: HostedForms.button, handler: endSession)
        group.post("/account/sessions/end-all", body: HostedForms.button, handler: endOtherSessions)
        group.post("/account/logout", body: HostedForms.button, handler: logout)
        group.get("/.well-known/change-password", handler: changePasswordURL)
    }

    func account(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/account", context)
        }
        let notice = request.query(RequestQuery.done).flatMap { Self.accountNotices[$0] }
        return try accountPage(session, context, notice: notice)
    }

    func renamePasskey(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        try accountAction(reader, context, done: "renamed") { form, session in
            _ = try myAccount.renameAuthenticationMethod(
                myAccount.caller(session: session, tenant: context.tenant),
                id: try context.request.pathParameter("id"), name: try form.optionalString("name") ?? "")
        }
    }

    /// Asks before a passkey is removed, as Apple's and Google's pages do.
    func removePasskeyPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/account", context)
        }
        let id = try context.request.pathParameter("id")
        let overview = try myAccount.overview(myAccount.caller(session: session, tenant: context.tenant))
        guard let passkey = overview.passkeys.first(where: { $0.id == id }) else {
            throw ServiceError.notFound("passkey not found")
        }
        let display = try myAccount.authenticatorDisplays([passkey])[AAGUIDRegistry.format(passkey.aaguid)]
        return PageLayout.response(
            AccountPages.removePasskey(context: context, passkey: passkey, display: display), context: context,
            locale: context.locale)
    }

    func deletePasskey(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        try accountAction(reader, context, done: "deleted") { _, session in
            try myAccount.deleteAuthenticationMethod(
                myAccount.caller(session: session, tenant: context.tenant),
                id: try context.request.pathParameter("id"))
        }
    }

    func enrollPasskeyPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/account/passkeys/enroll", context)
        }
        do {
            let challenge = try myAccount.beginEnrollment(
                myAccount.caller(session: session, tenant: context.tenant), type: "passkey", connection: nil,
                requester: BrowserSession.requester(context))
            return PageLayout.response(
                AccountPages.enroll(context: context, challenge: challenge), context: context,
                locale: context.locale)
        } catch {
            return try accountRefusal(error, returnTo: "/account/passkeys/enroll", session, context)
        }
    }

    func enrollPasskey(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, session) = try browser.accountForm(reader, context)
        do {
            _ = try myAccount.finishEnrollment(
                myAccount.caller(session: session, tenant: context.tenant),
                authSession: try form.optionalString("ceremony") ?? "",
                response: Array((try form.optionalString("credential") ?? "").utf8))
        } catch {
            return try accountRefusal(error, returnTo: "/account/passkeys/enroll", session, context)
        }
        return .redirect(to: "/account?done=added", status: 303)
    }

    func passwordForm(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/account/password", context)
        }
        return try passwordPage(session, context)
    }

    func changePassword(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, session) = try browser.accountForm(reader, context)
        do {
            try passwords.changePassword(
                tenant: context.tenant, userID: session.user.id,
                current: try form.optionalString("current"),
                new: try form.optionalString("password"), authTime: session.record.authTime,
                keepSession: session.record.id, address: context.clientKey)
        } catch {
            if case .reauthenticationRequired? = error as? ServiceError {
                return try browser.accountSignIn("/account/password", context, fresh: true)
            }
            return try passwordPage(session, context, error: error, status: BrowserSession.status(error))
        }
        return .redirect(to: "/account?done=password", status: 303)
    }

    /// The account security upgrades (docs/account-upgrades.md), authorized by the session's sign-in under the
    /// connection's rules: a sign-in too old (or a second factor due) signs in again first.
    func passkeyUpgradePage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        try beginUpgrade(.passkey, at: "/account/upgrade/passkey", context) { authorized in
            let challenge = try upgrades.beginPasskeyUpgrade(
                tenant: context.tenant, token: authorized.upgradeToken, requester: BrowserSession.requester(context))
            return PageLayout.response(
                AccountPages.enroll(context: context, challenge: challenge, upgrade: true), context: context,
                locale: context.locale)
        }
    }

    /// The first step of an upgrade at `path`: `begin` with the upgrade the session's sign-in
    /// authorizes. Without a session, or with a sign-in too old for it, the browser signs in first
    /// and comes back to `path`; a refusal shows the account page.
    func beginUpgrade(
        _ type: UpgradeType, at path: String, _ context: HostedContext,
        _ begin: (UpgradeAuthorization) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else { return try browser.accountSignIn(path, context) }
        do {
            return try begin(try accountUpgrade(type, session, context))
        } catch ServiceError.stepUpRequired {
            return try browser.accountSignIn(path, context, fresh: true)
        } catch {
            return try accountPage(session, context, error: error)
        }
    }

    func passkeyUpgrade(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, session) = try browser.accountForm(reader, context)
        do {
            _ = try upgrades.finishPasskeyUpgrade(
                tenant: context.tenant, authSession: try form.optionalString("ceremony"),
                response: Array((try form.optionalString("credential") ?? "").utf8))
        } catch {
            return try accountPage(session, context, error: error)
        }
        // The upgrade ended every session, this one too: the new passkey signs in again.
        return .redirect(to: "/account?done=upgraded", status: 303)
    }

    /// Sign in with Apple on the web: to Apple with a state that holds the upgrade, back through
    /// Apple's form post to /u/apple/callback.
    func appleUpgrade(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        try beginUpgrade(.signInWithApple, at: "/account/upgrade/apple", context) { authorized in
            let url = try upgrades.beginWebAppleUpgrade(
                tenant: context.tenant, token: authorized.upgradeToken,
                redirectURI: TokenService.issuer(context.tenant) + "u/apple/callback")
            return .redirect(to: url, status: 303)
        }
    }

    /// Apple's `response_mode=form_post`: a cross-site POST, so no cookie and no CSRF token come
    /// with it; the single-use state is what ties it to the account page that started it.
    func appleCallback(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let form = try reader.read()
        if try form.optionalString("error") != nil {
            // The user closed Apple's page: nothing changed.
            return .redirect(to: "/account", status: 303)
        }
        try upgrades.finishWebAppleUpgrade(
            tenant: context.tenant, state: try form.optionalString("state"),
            identityToken: try form.optionalString("id_token"),
            authorizationCode: try form.optionalString("code"))
        return .redirect(to: "/account?done=upgraded", status: 303)
    }

    func passwordUpgradePage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else {
            return try browser.accountSignIn("/account/upgrade/password", context)
        }
        return try passwordPage(session, context, upgrade: true)
    }

    func passwordUpgrade(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse
    {
        let (form, session) = try browser.accountForm(reader, context)
        do {
            let authorized = try accountUpgrade(.strongPassword, session, context)
            try upgrades.upgradeToStrongPassword(
                tenant: context.tenant, token: authorized.upgradeToken,
                newPassword: try form.optionalString("password"), address: context.clientKey)
        } catch ServiceError.stepUpRequired {
            return try browser.accountSignIn("/account/upgrade/password", context, fresh: true)
        } catch {
            return try passwordPage(session, context, error: error, status: BrowserSession.status(error), upgrade: true)
        }
        return .redirect(to: "/account?done=upgraded", status: 303)
    }

    func deleteFactor(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        try accountAction(reader, context, done: "factor") { _, session in
            try mfa.deleteAuthenticator(
                tenant: context.tenant, caller: mfa.caller(session: session),
                id: try context.request.pathParameter("id"))
        }
    }

    func endSession(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        try accountAction(reader, context, done: "session") { _, session in
            try sessions.end(
                tenant: context.tenant, userID: session.user.id, sessionID: try context.request.pathParameter("id"))
        }
    }

    func endOtherSessions(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse
    {
        let (_, session) = try browser.accountForm(reader, context)
        try sessions.endAll(tenant: context.tenant, userID: session.user.id)
        return BrowserSession.signedOut(context)
    }

    func logout(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        _ = try browser.accountForm(reader, context)
        try sessions.end(tenant: context.tenant, cookie: context.cookie(.session))
        return BrowserSession.signedOut(context)
    }

    /// The well-known URL password managers open to change a password (change-password-url).
    func changePasswordURL(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        return .redirect(to: "/account/password", status: 302)
    }

    /// The notices `?done=` may name, and their texts.
    static let accountNotices: [String: Text] = [
        "renamed": .doneRenamed, "deleted": .doneDeleted, "added": .doneAdded, "password": .donePassword,
        "factor": .doneFactor, "session": .doneSession, "upgraded": .doneUpgraded,
        "profile": .doneProfile, "verification": .doneVerificationSent, "password-removed": .donePasswordRemoved,
        "recovery-code": .doneRecoverySaved, "app": .doneAppRevoked,
    ]

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
            currentSession: session.record.id, apps: try myAccount.connectedApps(caller),
            unsavedRecoveryCode: overview.user.hasUnsavedRecoveryCode,
            upgrades: try upgrades.offers(
                tenant: context.tenant, userID: session.user.id, clientID: AccountClient.id),
            notice: notice, error: error)
        var page = AccountPages.account(context: context, view: view)
        if let error { page.status = BrowserSession.status(error) }
        return PageLayout.response(page, context: context, locale: context.locale)
    }

    /// An account page form: `change` for this browser's session, then 303 to the page with the
    /// notice `done`; a refusal is `accountRefusal`'s (a sign-in again for a stale one, back to
    /// `returnTo`, else the page with the reason).
    func accountAction(
        _ reader: BodyReader, _ context: HostedContext, done: String, returnTo: String = "/account",
        _ change: (APIBody, SSOSession) throws -> Void
    ) throws -> HTTPResponse {
        let (form, session) = try browser.accountForm(reader, context)
        do {
            try change(form, session)
        } catch {
            return try accountRefusal(error, returnTo: returnTo, session, context)
        }
        return .redirect(to: "/account?done=" + done, status: 303)
    }

    /// A credential change the session's sign-in does not authorize (too old, or without the
    /// user's second factor) signs in again and comes back to `returnTo`; any other refusal is
    /// shown on the account page.
    func accountRefusal(
        _ error: any Error, returnTo: String, _ session: SSOSession, _ context: HostedContext
    ) throws -> HTTPResponse {
        if case .insufficientUserAuthentication? = error as? ServiceError {
            return try browser.accountSignIn(returnTo, context, fresh: true)
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
}

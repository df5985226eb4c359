import Foundation
import SesameService
import SesameStore

/// The account page's one-off actions: removing the password, confirming the recovery code,
/// taking an app's access away and deleting the account. Showing a secret or asking to delete
/// needs a sign-in fresh enough to change credentials; an older one signs in again and comes back.
extension AccountController {
    /// A page at `path` for the signed-in user, after a sign-in fresh enough to change the
    /// account (`fresh`) when asked.
    func signedInPage(
        at path: String, _ context: HostedContext, fresh: Bool,
        _ page: (SSOSession, AccountCaller) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        guard let session = browser.currentSession(context) else { return try browser.accountSignIn(path, context) }
        let caller = myAccount.caller(session: session, tenant: context.tenant)
        if fresh {
            do {
                try myAccount.requireFreshSignIn(caller)
            } catch {
                return try accountRefusal(error, returnTo: path, session, context)
            }
        }
        return try page(session, caller)
    }

    func updateProfile(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        try accountAction(reader, context, done: "profile") { form, session in
            try myAccount.updateName(
                myAccount.caller(session: session, tenant: context.tenant), name: try form.optionalString("name"))
        }
    }

    /// Sends the link that confirms the user's address again (nothing when it is confirmed, or
    /// the user holds the most links allowed; the page says the same either way).
    func resendVerification(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let (_, session) = try browser.accountForm(reader, context)
        let user = try myAccount.overview(myAccount.caller(session: session, tenant: context.tenant)).user
        try verification.send(tenant: context.tenant, user: user)
        return .redirect(to: "/account?done=verification", status: 303)
    }

    func removePasswordPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        try signedInPage(at: "/account/password/remove", context, fresh: false) { session, caller in
            let overview = try myAccount.overview(caller)
            guard overview.user.usablePassword != nil else { return .redirect(to: "/account", status: 303) }
            return PageLayout.response(
                AccountPages.removePassword(context: context), context: context, locale: context.locale)
        }
    }

    func removePassword(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (_, session) = try browser.accountForm(reader, context)
        let caller = myAccount.caller(session: session, tenant: context.tenant)
        do {
            guard let password = try myAccount.overview(caller).user.usablePassword else {
                return .redirect(to: "/account", status: 303)
            }
            try myAccount.deleteAuthenticationMethod(caller, id: password.id)
        } catch {
            return try accountRefusal(error, returnTo: "/account/password/remove", session, context)
        }
        return .redirect(to: "/account?done=password-removed", status: 303)
    }

    func recoveryCodePage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        try signedInPage(at: "/account/recovery-code", context, fresh: true) { session, _ in
            guard let code = try mfa.unsavedRecoveryCode(tenant: context.tenant, userID: session.user.id) else {
                return .redirect(to: "/account", status: 303)
            }
            return PageLayout.response(
                AccountPages.recoveryCode(context: context, code: code), context: context, locale: context.locale)
        }
    }

    func recoveryCodeSaved(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let (form, session) = try browser.accountForm(reader, context)
        guard try form.optionalString("saved") == "yes" else {
            return .redirect(to: "/account/recovery-code", status: 303)
        }
        try mfa.recoveryCodeSaved(tenant: context.tenant, userID: session.user.id)
        return .redirect(to: "/account?done=recovery-code", status: 303)
    }

    func revokeApp(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        try accountAction(reader, context, done: "app") { _, session in
            try myAccount.revokeApp(
                myAccount.caller(session: session, tenant: context.tenant),
                clientID: try context.request.pathParameter("id"))
        }
    }

    func deleteAccountPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        try signedInPage(at: "/account/delete", context, fresh: true) { _, caller in
            let user = try myAccount.overview(caller).user
            return PageLayout.response(
                AccountPages.deleteAccount(
                    context: context, confirmation: MyAccountService.deletionConfirmation(user)),
                context: context, locale: context.locale)
        }
    }

    func deleteAccount(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, session) = try browser.accountForm(reader, context)
        let caller = myAccount.caller(session: session, tenant: context.tenant)
        do {
            try myAccount.deleteAccount(caller, confirmation: try form.optionalString("confirmation"))
        } catch {
            if case .insufficientUserAuthentication? = error as? ServiceError {
                return try browser.accountSignIn("/account/delete", context, fresh: true)
            }
            let user = try myAccount.overview(caller).user
            return PageLayout.response(
                AccountPages.deleteAccount(
                    context: context, confirmation: MyAccountService.deletionConfirmation(user), error: error,
                    status: BrowserSession.status(error)),
                context: context, locale: context.locale)
        }
        var response = PageLayout.response(
            AccountPages.accountDeleted(context: context, userHandle: session.user.userHandle), context: context,
            locale: context.locale)
        BrowserSession.removeSessionCookie(from: &response, context)
        return response
    }
}

import SesameService

/// "Forgot password?", the reset link's page, and the email-verification link's page.
extension HostedController {
    func registerPasswordPages(to group: inout RouteGroup<HostedContext>) {
        group.get("/u/reset-password/request", query: .transaction, handler: resetRequestPage)
        group.post("/u/reset-password/request", body: HostedForms.emailStep, handler: requestReset)
        group.get("/u/reset-password", query: .ticket, handler: resetPage)
        group.post("/u/reset-password", body: HostedForms.ticketPassword, handler: reset)
        group.get("/u/verify-email", query: .ticket, handler: verifyEmailPage)
        group.post("/u/verify-email", body: HostedForms.verifyEmail, handler: verifyEmail)
    }

    func resetRequestPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        let pending = try pendingRequest(request.query(HostedForms.transaction), context)
        return page(PasswordPages.resetRequest(context: context, pending: pending), context, pending)
    }

    func requestReset(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        let email = try form.optionalString("email") ?? ""
        do {
            try passwords.requestReset(
                tenant: context.tenant, clientID: pending.client.id == AccountClient.id ? nil : pending.client.id,
                email: email,
                connection: pending.connection.name)
        } catch {
            return page(
                PasswordPages.resetRequest(
                    context: context, pending: pending, email: email, error: error,
                    status: BrowserSession.status(error)),
                context, pending)
        }
        return page(PasswordPages.resetRequestSent(context: context, pending: pending), context, pending)
    }

    func resetPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        let ticket = request.query(HostedForms.ticket) ?? ""
        do {
            let (rules, email) = try passwords.resetTicket(tenant: context.tenant, ticket: ticket)
            return PageLayout.response(
                PasswordPages.reset(context: context, ticket: ticket, rules: rules, email: email), context: context,
                locale: context.locale)
        } catch {
            return resetExpired(context)
        }
    }

    func reset(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let form = try reader.read()
        try context.requireSameSiteForm(request, token: try form.optionalString("csrf"))
        let ticket = try form.optionalString("ticket") ?? ""
        let (rules, email): (String, String?)
        do {
            (rules, email) = try passwords.resetTicket(tenant: context.tenant, ticket: ticket)
        } catch {
            return resetExpired(context)
        }
        do {
            try passwords.resetPassword(
                tenant: context.tenant, ticket: ticket,
                password: try form.optionalString("password"))
        } catch {
            if case .invalidGrant = error as? ServiceError { return resetExpired(context) }
            return PageLayout.response(
                PasswordPages.reset(
                    context: context, ticket: ticket, rules: rules, email: email, error: error,
                    status: BrowserSession.status(error)), context: context, locale: context.locale)
        }
        var response = PageLayout.response(
            PasswordPages.message(
                context: context, name: "reset-done", title: .resetDoneTitle, lead: .resetDoneLead),
            context: context, locale: context.locale)
        // The reset ended every session: this browser's cookie too.
        BrowserSession.removeSessionCookie(from: &response, context)
        return response
    }

    func verifyEmailPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        let ticket = request.query(HostedForms.ticket) ?? ""
        guard let prompt = try? hosted.verification.pending(tenant: context.tenant, ticket: ticket) else {
            return verifyExpired(context)
        }
        return PageLayout.response(
            PasswordPages.verify(context: context, ticket: ticket, prompt: prompt, asks: asks(prompt, context)),
            context: context, locale: context.locale)
    }

    func verifyEmail(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let form = try reader.read()
        try context.requireSameSiteForm(request, token: try form.optionalString("csrf"))
        // Without an answer (the page asked nothing), what was added before goes unless this
        // browser is signed in to the account.
        let ticket = try form.optionalString("ticket")
        let answer = try form.optionalString("prior")
        let prior = answer.flatMap(EmailVerification.PriorSignIn.init(rawValue:))
        if answer != nil, prior == nil {
            // Not an answer the page offers: the question again, the link unspent.
            guard let prompt = try? hosted.verification.pending(tenant: context.tenant, ticket: ticket) else {
                return verifyExpired(context)
            }
            return PageLayout.response(
                PasswordPages.verify(
                    context: context, ticket: ticket ?? "", prompt: prompt, asks: asks(prompt, context),
                    error: .errorGeneric),
                context: context, locale: context.locale)
        }
        let outcome: EmailVerification.Outcome
        do {
            outcome = try hosted.verification.confirm(
                tenant: context.tenant, ticket: ticket,
                sessionUserID: browser.currentSession(context)?.record.userID,
                prior: prior ?? .remove)
        } catch {
            return verifyExpired(context)
        }
        guard case .confirmed = outcome else {
            var response = PageLayout.response(
                PasswordPages.verifiedCleared(context: context), context: context, locale: context.locale)
            // Every session ended: this browser's cookie too.
            BrowserSession.removeSessionCookie(from: &response, context)
            return response
        }
        return PageLayout.response(
            PasswordPages.message(context: context, name: "verified", title: .verifiedTitle, lead: .verifiedLead),
            context: context, locale: context.locale)
    }

    func resetExpired(_ context: HostedContext) -> HTTPResponse {
        PageLayout.response(
            PasswordPages.message(
                context: context, name: "reset-expired", title: .resetTitle, lead: .errorResetExpired, status: 400),
            context: context, locale: context.locale)
    }

    /// Whether the verification page asks about the ways in added before: only someone who holds
    /// the link but is not signed in to the account (they may be a squatter's).
    func asks(_ prompt: EmailVerification.Prompt, _ context: HostedContext) -> Bool {
        !prompt.priorSignIn.isEmpty && browser.currentSession(context)?.record.userID != prompt.userID
    }

    func verifyExpired(_ context: HostedContext) -> HTTPResponse {
        PageLayout.response(
            PasswordPages.message(
                context: context, name: "verify-expired", title: .verifyTitle, lead: .errorVerifyExpired, status: 400),
            context: context, locale: context.locale)
    }
}

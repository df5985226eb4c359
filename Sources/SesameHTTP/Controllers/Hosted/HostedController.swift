import Foundation
import SesameCrypto
import SesameService
import SesameStore
import SesameWire
import WebAuthn

/// The hosted pages and the OIDC browser endpoints (docs/oidc.md): `/authorize`, the sign-in and
/// signup steps under `/u/`, and `/oidc/logout`. Handlers stay thin: read the form, call one
/// `HostedLoginService` or `AuthorizationService` step, render the next page or redirect.
struct HostedController: Sendable {
    let hosted: HostedLoginService
    let authorization: AuthorizationService
    let sessions: SSOSessionService
    let enrollmentTickets: PasskeyEnrollmentTickets
    let passwords: PasswordService
    let tenancy: TenancyService
    let upgrades: AccountUpgradeService
    let browser: BrowserSession

    func register(to group: inout RouteGroup<HostedContext>) {
        group.get("/u/assets/pages.css", query: .assetVersion, handler: stylesheet)
        group.get("/u/assets/pages.js", query: .assetVersion, handler: script)
        group.get("/u/assets/favicon.svg", query: .assetVersion, handler: favicon)
        group.get("/authorize", query: RequestQuery(AuthorizationRequest.parameters), handler: authorizeQuery)
        group.post("/authorize", handler: authorizeForm)
        group.get("/u/login", query: .transaction, handler: loginPage)
        group.post("/u/login", body: HostedForms.identifier, handler: identifier)
        group.post("/u/login/password", body: HostedForms.passwordStep, handler: password)
        group.post("/u/mfa", body: HostedForms.secondFactor, handler: secondFactor)
        group.post("/u/mfa/method", body: HostedForms.secondFactorMethod, handler: secondFactorMethod)
        group.get("/u/mfa/recovery-code", query: .transaction, handler: recoveryCode)
        group.post("/u/mfa/recovery-code/saved", body: HostedForms.recoveryCodeSaved, handler: recoveryCodeSaved)
        group.post("/u/login/passkey", body: HostedForms.passkeyStep, handler: passkey)
        group.post("/u/passkey-enroll", body: HostedForms.passkeyStep, handler: enrollPasskey)
        group.get("/u/passkey-enroll", query: .ticket, handler: enrollPasskeyPage)
        group.post("/u/passkey-enroll/ticket", body: HostedForms.ticketEnrollment, handler: enrollPasskeyByTicket)
        group.post(
            "/u/passkey-enroll/ticket/skip", body: HostedForms.ticketEnrollmentSkip, handler: skipTicketEnrollment)
        group.post("/u/upgrade/password", body: HostedForms.passwordStep, handler: upgradePassword)
        group.post("/u/passkey-enroll/skip", body: HostedForms.enrollmentSkip, handler: skipEnrollment)
        group.get("/u/signup", query: .transaction, handler: signupPage)
        group.post("/u/signup", body: HostedForms.signup, handler: signup)
        group.post("/u/signup/passkey", body: HostedForms.passkeyStep, handler: signupWithPasskey)
        group.get("/oidc/logout", query: Self.logoutParameters, handler: logoutQuery)
        group.post("/oidc/logout", body: HostedForms.logout, handler: logoutForm)
    }

    func stylesheet(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        return Self.asset(
            PageAssets.themedStylesheet(for: context.tenant), type: "text/css; charset=utf-8",
            current: request.query(RequestQuery.version) == PageAssets.themedStylesheetVersion(for: context.tenant))
    }

    func favicon(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        return Self.asset(
            PageAssets.favicon, type: "image/svg+xml",
            current: request.query(RequestQuery.version) == PageAssets.faviconVersion)
    }

    func script(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        return Self.asset(
            PageAssets.script, type: "text/javascript; charset=utf-8",
            current: request.query(RequestQuery.version) == PageAssets.scriptVersion)
    }

    func authorizeQuery(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        return try authorize(request.queryItems.map { ($0.name, $0.value) }, request: request, context: context)
    }

    /// OIDC Core §3.1.2.1: the authorization endpoint takes POST too (a form the client's page sends).
    func authorizeForm(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        let pairs = try APIBody.formPairs(request)
        return try authorize(pairs, request: request, context: context)
    }

    func loginPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        let pending = try pendingRequest(request.query(HostedForms.transaction), context)
        return page(
            SignInPages.identifier(context: context, pending: pending, challenge: challenge(pending, context)),
            context, pending)
    }

    func identifier(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        do {
            let updated = try hosted.identify(
                tenant: context.tenant, pending: pending,
                identifier: try form.optionalString("username") ?? "")
            return passwordOrPasskeyStep(updated, context)
        } catch {
            return page(
                SignInPages.identifier(
                    context: context, pending: pending, challenge: challenge(pending, context), error: error,
                    status: BrowserSession.status(error)), context, pending)
        }
    }

    func password(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        let outcome: PasswordStepOutcome
        let updated: PendingAuthorization
        do {
            (outcome, updated) = try hosted.passwordSignIn(
                tenant: context.tenant, pending: pending,
                password: try form.optionalString("password"), address: context.clientKey)
        } catch {
            return page(
                SignInPages.password(
                    context: context, pending: pending, challenge: challenge(pending, context), error: error,
                    status: BrowserSession.status(error)), context, pending)
        }
        switch outcome {
        case .signedIn(let proof, _):
            return try finishOrPrompt(proof, pending: updated, request: request, context: context)
        case .secondFactor(let factors, let enroll):
            let step: SignInPages.SecondFactor
            do {
                step = try secondFactorStep(updated, factors: factors, enroll: enroll, context: context)
            } catch {
                return page(
                    SignInPages.password(
                        context: context, pending: pending, challenge: challenge(pending, context), error: error,
                        status: BrowserSession.status(error)), context, pending)
            }
            return page(
                SignInPages.secondFactor(
                    context: context, pending: updated, step: step,
                    options: try? hosted.secondFactorOptions(tenant: context.tenant, pending: updated)),
                context, updated)
        }
    }

    func secondFactor(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        let mode = try form.optionalString("mode") ?? "otp"
        let oobCode = try form.optionalString("oob_code")
        do {
            let code = try form.optionalString("otp")
            let proof: SignInProof
            switch mode {
            case "sms":
                proof = try hosted.smsSignIn(tenant: context.tenant, pending: pending, oobCode: oobCode, code: code)
            case "recovery-code":
                proof = try hosted.recoveryCodeSignIn(tenant: context.tenant, pending: pending, code: code)
            default: proof = try hosted.otpSignIn(tenant: context.tenant, pending: pending, otp: code)
            }
            return try afterSecondFactor(proof, pending: pending, request: request, context: context)
        } catch {
            if case .mfaRefused(.expiredToken)? = error as? ServiceError {
                return page(
                    SignInPages.identifier(
                        context: context, pending: pending, challenge: challenge(pending, context),
                        error: AuthorizationService.expiredError, status: 400), context, pending)
            }
            let step: SignInPages.SecondFactor
            switch mode {
            case "sms": step = .sms(oobCode: oobCode ?? "")
            case "recovery-code": step = .recoveryCode
            case "enroll":
                guard
                    let enrollment = try? hosted.beginOTPEnrollment(
                        tenant: context.tenant, pending: pending, again: true)
                else { throw error }
                step = .enroll(enrollment)
            default: step = .otp
            }
            return page(
                SignInPages.secondFactor(
                    context: context, pending: pending, step: step,
                    options: try? hosted.secondFactorOptions(tenant: context.tenant, pending: pending),
                    error: error,
                    status: BrowserSession.status(error)),
                context, pending)
        }
    }

    /// "Other ways to verify": the step for another of the user's factors (an SMS is sent now).
    func secondFactorMethod(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let (form, pending) = try pendingForm(reader, context)
        let options = try hosted.secondFactorOptions(tenant: context.tenant, pending: pending)
        let step: SignInPages.SecondFactor
        switch try form.optionalString("method") {
        case "otp" where options.factors.contains(.otp): step = .otp
        case "recovery-code" where options.recoveryCode: step = .recoveryCode
        case "sms" where options.factors.contains(.sms):
            do {
                step = .sms(
                    oobCode: try hosted.sendSMS(
                        tenant: context.tenant, pending: pending, address: context.clientKey))
            } catch {
                return page(
                    SignInPages.secondFactor(
                        context: context, pending: pending,
                        step: options.factors.contains(.otp) ? .otp : .recoveryCode,
                        options: options, error: error, status: BrowserSession.status(error)),
                    context, pending)
            }
        default:
            throw HTTPError(
                status: 400, error: "invalid_request", description: "That way to verify is not offered.")
        }
        return page(
            SignInPages.secondFactor(context: context, pending: pending, step: step, options: options), context,
            pending)
    }

    /// The new recovery code, shown until the user says they saved it.
    func recoveryCode(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        let pending = try pendingRequest(request.query(HostedForms.transaction), context)
        return try recoveryCodePage(pending, context: context)
    }

    func recoveryCodeSaved(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let (form, pending) = try pendingForm(reader, context)
        guard try form.optionalString("saved") == "yes" else {
            return try recoveryCodePage(pending, context: context)
        }
        let proof = try hosted.recoveryCodeSaved(tenant: context.tenant, pending: pending)
        return try afterSecondFactor(proof, pending: pending, request: request, context: context)
    }

    func passkey(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        do {
            let proof = try hosted.passkeySignIn(
                tenant: context.tenant, pending: pending,
                ceremony: try form.optionalString("ceremony") ?? "",
                response: try Self.credential(form))
            return try finishOrPrompt(
                proof, pending: pending, request: request, context: context,
                crossDevice: Self.crossDevice(form))
        } catch {
            return page(
                SignInPages.identifier(
                    context: context, pending: pending, challenge: challenge(pending, context), error: error,
                    status: BrowserSession.status(error), passkeyRefused: true), context, pending)
        }
    }

    func enrollPasskey(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        guard let held = pending.held, held.reason != .saveRecoveryCode else {
            throw AuthorizationService.expiredError
        }
        do {
            let proof = try hosted.finishEnrollment(
                tenant: context.tenant, pending: pending,
                ceremony: try form.optionalString("ceremony") ?? "",
                response: Array((try form.optionalString("credential") ?? "").utf8))
            return try completeSignIn(proof, pending: pending, request: request, context: context)
        } catch {
            return try enrollPromptAgain(pending, reason: held.reason, error: error, context: context)
        }
    }

    /// A token response's passkey_enrollment link (docs/migration.md): the ticket starts an enrollment
    /// the page holds under its own handle.
    func enrollPasskeyPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let ticket = request.query(HostedForms.ticket) else { throw AuthorizationService.expiredError }
        let enrollment = try enrollmentTickets.open(
            tenant: context.tenant, ticket: ticket, requester: BrowserSession.requester(context))
        return page(SignInPages.ticketEnroll(context: context, enrollment: enrollment), context, nil)
    }

    func enrollPasskeyByTicket(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let form = try reader.read()
        try context.requireSameSiteForm(request, token: try form.optionalString("csrf"))
        let handle = try form.optionalString("enrollment") ?? ""
        let tickets = enrollmentTickets
        do {
            let (outcome, returnTo) = try tickets.finish(
                tenant: context.tenant, handle: handle,
                ceremony: try form.optionalString("ceremony") ?? "",
                response: Array((try form.optionalString("credential") ?? "").utf8))
            return page(
                SignInPages.enrollDone(context: context, outcome: outcome, returnTo: returnTo), context, nil)
        } catch ServiceError.alreadyRegistered(let provider) {
            return page(
                SignInPages.enrollDone(
                    context: context, outcome: .alreadyRegistered, provider: provider, returnTo: nil), context, nil)
        } catch let error where (error as? ServiceError) != AuthorizationService.expiredError {
            let enrollment = try tickets.resume(
                tenant: context.tenant, handle: handle, requester: BrowserSession.requester(context))
            return page(
                SignInPages.ticketEnroll(
                    context: context, enrollment: enrollment, error: error, status: BrowserSession.status(error)),
                context,
                nil)
        }
    }

    func skipTicketEnrollment(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let form = try reader.read()
        try context.requireSameSiteForm(request, token: try form.optionalString("csrf"))
        let returnTo = try enrollmentTickets.skip(
            tenant: context.tenant, handle: try form.optionalString("enrollment") ?? "")
        return page(SignInPages.enrollDone(context: context, outcome: .skipped, returnTo: returnTo), context, nil)
    }

    /// The upgrade offer's strong password: authorized by the sign-in the page holds (the
    /// connection's upgrade rules apply), then the sign-in completes.
    func upgradePassword(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse
    {
        let (form, pending) = try pendingForm(reader, context)
        guard let held = pending.held, held.reason == .upgrade else { throw AuthorizationService.expiredError }
        do {
            let authorized = try upgrades.authorize(
                tenant: context.tenant, type: .strongPassword,
                by: .hosted(
                    userID: held.userID, clientID: pending.client.id, authTime: held.authTime, amr: held.amr,
                    sessionID: nil))
            try upgrades.upgradeToStrongPassword(
                tenant: context.tenant, token: authorized.upgradeToken,
                newPassword: try form.optionalString("password"), address: context.clientKey)
        } catch {
            return try enrollPromptAgain(pending, reason: .upgrade, error: error, context: context)
        }
        var proof = try hosted.heldProof(tenant: context.tenant, pending: pending)
        proof.passwordStatus = nil
        return try completeSignIn(proof, pending: pending, request: request, context: context)
    }

    func skipEnrollment(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        let never = try form.optionalString("choice") == "never"
        // A recovery is not put off: it ends in a new passkey or password. A new recovery code
        // is saved first.
        guard let reason = pending.held?.reason, reason != .recovery, reason != .saveRecoveryCode else {
            throw AuthorizationService.expiredError
        }
        let proof = try hosted.heldProof(tenant: context.tenant, pending: pending)
        var response = try completeSignIn(proof, pending: pending, request: request, context: context)
        // "Not now" snoozes the prompt on this browser for a week; "Don't ask again" for good.
        let answer = SetCookie(
            name: CookieName.passkeyPrompt.name(secure: context.secure), value: never ? "never" : "later",
            maxAge: never ? 34_560_000 : 604_800, secure: context.secure)
        response.headers.add(name: "Set-Cookie", value: answer.header)
        return response
    }

    func signupPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        let pending = try pendingRequest(request.query(HostedForms.transaction), context)
        return page(SignInPages.signup(context: context, pending: pending), context, pending)
    }

    func signup(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        let profile = SignupProfileInput(
            email: try form.optionalString("email").flatMap { $0.isEmpty ? nil : $0 },
            name: try form.optionalString("name").flatMap { $0.isEmpty ? nil : $0 })
        let password = try form.optionalString("password").flatMap { $0.isEmpty ? nil : $0 }
        // A password typed in means the password path, whichever button the browser chose (Enter
        // in the password field presses the form's first button, the passkey's, without scripts).
        var method = try form.optionalString("method") ?? "passkey"
        if method == "passkey", password != nil, pending.connection.password.enabled { method = "password" }
        do {
            switch method {
            case "password":
                let proof = try hosted.passwordSignup(
                    tenant: context.tenant, pending: pending, profile: profile, password: password)
                return try completeSignIn(proof, pending: pending, request: request, context: context)
            case "passkey":
                let challenge = try hosted.passkeySignupChallenge(
                    tenant: context.tenant, pending: pending, profile: profile,
                    requester: BrowserSession.requester(context))
                return page(
                    SignInPages.createPasskey(context: context, pending: pending, challenge: challenge), context,
                    pending)
            default:
                throw ServiceError.invalidRequest("method must be passkey or password")
            }
        } catch {
            return page(
                SignInPages.signup(
                    context: context, pending: pending, profile: profile, error: error,
                    status: BrowserSession.status(error), passwordOpen: method == "password"), context, pending)
        }
    }

    func signupWithPasskey(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let (form, pending) = try pendingForm(reader, context)
        do {
            let proof = try hosted.passkeySignup(
                tenant: context.tenant, pending: pending,
                ceremony: try form.optionalString("ceremony") ?? "",
                response: try Self.credential(form))
            return try completeSignIn(proof, pending: pending, request: request, context: context)
        } catch {
            return page(
                SignInPages.signup(
                    context: context, pending: pending, error: error, status: BrowserSession.status(error)),
                context, pending)
        }
    }

    func logoutQuery(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        return try logout(
            request.queryItems.map { ($0.name, $0.value) }, confirmed: false, request: request, context: context)
    }

    func logoutForm(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let form = try reader.read()
        try context.requireSameSiteForm(request, token: try form.optionalString("csrf"))
        var pairs: [(String, String)] = []
        for field in HostedForms.logoutParameters {
            if let value = try form.optionalString(field.name) { pairs.append((field.name, value)) }
        }
        return try logout(pairs, confirmed: true, request: request, context: context)
    }

    /// `/oidc/logout`'s query (OIDC RP-Initiated Logout §2): the hint, then what the page sends on.
    static let logoutParameters = RequestQuery(
        [WireField("id_token_hint", .text(8_192))] + HostedForms.logoutParameters)

    // MARK: Steps

    /// `/authorize`: a code at once from the session, an error at the redirect URI, or the sign-in page.
    func authorize(_ parameters: [(String, String)], request: HTTPRequest, context: HostedContext) throws
        -> HTTPResponse
    {
        let decision = try authorization.authorize(
            tenant: context.tenant, parameters: parameters.map { (name: $0.0, value: $0.1) },
            session: browser.currentSession(context), device: context.device)
        switch decision {
        case .respond(let answer):
            return respond(answer, context: context, locale: context.locale, status: 302)
        case .signIn(let handle, let pending):
            let path = pending.startsWithSignup ? "/u/signup" : "/u/login"
            return .redirect(to: path + "?tx=" + handle, status: 302)
        }
    }

    /// After the identifier: the password step where the connection has passwords, else the
    /// passkey step (the same page for every identifier, so it tells nobody who has an account).
    func passwordOrPasskeyStep(_ pending: PendingAuthorization, _ context: HostedContext) -> HTTPResponse {
        if pending.connection.password.enabled {
            return page(
                SignInPages.password(context: context, pending: pending, challenge: challenge(pending, context)),
                context, pending)
        }
        return page(
            SignInPages.identifier(
                context: context, pending: pending, challenge: challenge(pending, context),
                error: ServiceError.invalidRequest(Catalog.raw(.passkeyNotOffered, context.locale(for: pending)))),
            context, pending)
    }

    /// The second factor to ask for after a password: an enrollment when the tenant asks everyone
    /// for one and the user has none (TOTP, where the tenant offers it), else TOTP before SMS.
    func secondFactorStep(
        _ pending: PendingAuthorization, factors: [MFAFactor], enroll: Bool, context: HostedContext
    ) throws -> SignInPages.SecondFactor {
        if enroll {
            guard context.tenant.mfa.factors.contains(.otp) else { return .unavailable }
            return .enroll(try hosted.beginOTPEnrollment(tenant: context.tenant, pending: pending, again: false))
        }
        if factors.contains(.otp) { return .otp }
        if factors.contains(.sms) {
            return .sms(
                oobCode: try hosted.sendSMS(tenant: context.tenant, pending: pending, address: context.clientKey))
        }
        return .unavailable
    }

    /// A second factor answered (or its new recovery code saved): the new recovery code first when
    /// there is one to save, then, in an account recovery, the new way in; else the sign-in finishes.
    func afterSecondFactor(
        _ proof: SignInProof, pending: PendingAuthorization, request: HTTPRequest, context: HostedContext
    ) throws -> HTTPResponse {
        if try hosted.unsavedRecoveryCode(tenant: context.tenant, userID: proof.user.id) != nil {
            let held = try hosted.holdForRecoveryCode(tenant: context.tenant, pending: pending, proof: proof)
            return try recoveryCodePage(held, context: context)
        }
        if pending.recovering {
            let (held, challenge) = try hosted.recoveryAfterSecondFactor(
                tenant: context.tenant, pending: pending, proof: proof, requester: BrowserSession.requester(context))
            return page(
                SignInPages.enrollPrompt(context: context, pending: held, challenge: challenge, reason: .recovery),
                context, held)
        }
        return try finishOrPrompt(proof, pending: pending, request: request, context: context)
    }

    /// The page of the recovery code the held sign-in waits on; the request's expired page when
    /// there is none (it was saved already, or the request moved on).
    func recoveryCodePage(_ pending: PendingAuthorization, context: HostedContext) throws -> HTTPResponse {
        guard let held = pending.held, held.reason == .saveRecoveryCode,
            let code = try hosted.unsavedRecoveryCode(tenant: context.tenant, userID: held.userID)
        else { throw AuthorizationService.expiredError }
        return page(SignInPages.saveRecoveryCode(context: context, pending: pending, code: code), context, pending)
    }

    /// A finished sign-in: the passkey-enrollment prompt first when it earns one and this browser
    /// has not put it off, else the answer for the client.
    func finishOrPrompt(
        _ proof: SignInProof, pending: PendingAuthorization, request: HTTPRequest, context: HostedContext,
        crossDevice: Bool = false
    ) throws -> HTTPResponse {
        let reason = try? hosted.enrollmentPrompt(pending: pending, proof: proof, crossDevice: crossDevice)
        // A weak or breached password is offered its upgrade at every sign-in ("Not now" snoozes only the passkey prompt).
        if reason == .upgrade,
            let (held, challenge) = try? hosted.holdForUpgrade(
                tenant: context.tenant, pending: pending, proof: proof, requester: BrowserSession.requester(context))
        {
            return page(
                SignInPages.upgradePrompt(
                    context: context, pending: held, challenge: challenge,
                    offers: hosted.upgradeOffers(pending: held, user: proof.user), status: proof.passwordStatus),
                context, held)
        }
        if context.cookie(.passkeyPrompt) == nil, let reason, reason != .upgrade,
            let (held, challenge) = try? hosted.hold(
                tenant: context.tenant, pending: pending, proof: proof, reason: reason,
                requester: BrowserSession.requester(context))
        {
            let conditional = try? hosted.conditionalChallenge(
                tenant: context.tenant, pending: held, requester: BrowserSession.requester(context))
            return page(
                SignInPages.enrollPrompt(
                    context: context, pending: held, challenge: challenge, reason: reason,
                    conditional: conditional ?? nil),
                context, held)
        }
        return try completeSignIn(proof, pending: pending, request: request, context: context)
    }

    /// The enrollment prompt again after `error`, with a fresh challenge.
    func enrollPromptAgain(
        _ pending: PendingAuthorization, reason: HeldSignIn.Reason, error: any Error, context: HostedContext
    ) throws -> HTTPResponse {
        if reason == .upgrade {
            let user = try hosted.heldProof(tenant: context.tenant, pending: pending).user
            let offers = hosted.upgradeOffers(pending: pending, user: user)
            let challenge =
                offers.contains(.passkey)
                ? try hosted.enrollmentChallenge(
                    tenant: context.tenant, pending: pending, requester: BrowserSession.requester(context))
                : nil
            return page(
                SignInPages.upgradePrompt(
                    context: context, pending: pending, challenge: challenge, offers: offers, status: nil,
                    error: error, status: BrowserSession.status(error)), context, pending)
        }
        let challenge = try hosted.enrollmentChallenge(
            tenant: context.tenant, pending: pending, requester: BrowserSession.requester(context))
        return page(
            SignInPages.enrollPrompt(
                context: context, pending: pending, challenge: challenge, reason: reason, error: error,
                status: BrowserSession.status(error)), context, pending)
    }

    /// Whether the page reported the assertion as coming from another device (hybrid transport).
    static func crossDevice(_ form: APIBody) -> Bool {
        guard let text = try? form.optionalString("credential"),
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return false }
        return object["authenticatorAttachment"] as? String == "cross-platform"
    }

    /// Ends the pending request with `proof`: the session cookie, and the answer for the client.
    func completeSignIn(
        _ proof: SignInProof, pending: PendingAuthorization, request: HTTPRequest, context: HostedContext
    ) throws -> HTTPResponse {
        let client = BrowserContext(userAgent: request.headers["User-Agent"], address: context.clientKey)
        let (cookie, _, answer) = try authorization.complete(
            tenant: context.tenant, pending: pending, proof: proof, browser: client,
            current: self.browser.currentSession(context))
        // 303: the browser follows with a GET, whatever the method of the form (RFC 9110 §15.4.4).
        var response = respond(answer, context: context, locale: context.locale(for: pending), status: 303)
        let set = SetCookie(
            name: CookieName.session.name(secure: context.secure), value: cookie,
            maxAge: context.tenant.sessionLifetime, secure: context.secure)
        response.headers.add(name: "Set-Cookie", value: set.header)
        return response
    }

    /// The answer at the redirect URI: a redirect, or the self-posting form of `form_post`.
    func respond(_ answer: AuthorizationResponse, context: HostedContext, locale: PageLocale, status: Int)
        -> HTTPResponse
    {
        switch answer.mode {
        case .query: return .redirect(to: answer.location, status: status)
        case .formPost:
            return PageLayout.response(
                SignInPages.formPost(context: context, response: answer, locale: locale), context: context,
                locale: locale)
        }
    }

    /// `/oidc/logout`: sign out now with a hint for this user (or no session), else ask first.
    func logout(_ parameters: [(String, String)], confirmed: Bool, request: HTTPRequest, context: HostedContext)
        throws -> HTTPResponse
    {
        let logout = try authorization.logoutRequest(
            tenant: context.tenant, parameters: parameters.map { (name: $0.0, value: $0.1) })
        let session = browser.currentSession(context)
        guard confirmed || logout.isConfirmed(by: session) else {
            return PageLayout.response(
                AccountPages.confirmLogout(
                    context: context, logout: logout, clientName: clientName(logout.clientID, context)),
                context: context, locale: context.locale)
        }
        try sessions.end(tenant: context.tenant, cookie: context.cookie(.session), clientID: logout.clientID)
        var response: HTTPResponse
        if let location = logout.location {
            response = .redirect(to: location, status: confirmed ? 303 : 302)
        } else {
            response = PageLayout.response(
                AccountPages.signedOut(context: context), context: context, locale: context.locale)
        }
        BrowserSession.removeSessionCookie(from: &response, context)
        return response
    }

    func clientName(_ id: String?, _ context: HostedContext) -> String {
        guard let id, let client = try? tenancy.clients(of: context.tenant).first(where: { $0.id == id }) else {
            return context.tenant.name
        }
        return client.name
    }

    // MARK: Helpers

    /// The pending request `handle` names, for this browser; a language link (`ui_locales` in
    /// the query) changes its language for the steps that follow.
    func pendingRequest(_ handle: String?, _ context: HostedContext) throws -> PendingAuthorization {
        let pending = try authorization.pending(
            tenant: context.tenant, handle: handle, device: context.newDevice ? nil : context.device)
        guard let asked = context.askedLocale else { return pending }
        return try authorization.changeLanguage(tenant: context.tenant, pending: pending, to: asked)
    }

    /// A form POST of this browser (CSRF checked) and the pending request it continues.
    func pendingForm(_ reader: BodyReader, _ context: HostedContext) throws -> (APIBody, PendingAuthorization) {
        let form = try reader.read()
        try context.requireSameSiteForm(reader.request, token: try form.optionalString("csrf"))
        return (form, try pendingRequest(try form.optionalString("tx"), context))
    }

    /// A login challenge for the page, or nil where passkeys are off (or the cap is reached: the
    /// page then offers the other ways in).
    func challenge(_ pending: PendingAuthorization, _ context: HostedContext) -> PasskeyLoginChallengeResponse? {
        guard pending.connection.passkey.enabled else { return nil }
        return try? hosted.passkeyChallenge(
            tenant: context.tenant, pending: pending, requester: BrowserSession.requester(context))
    }

    func page(_ page: HostedPage, _ context: HostedContext, _ pending: PendingAuthorization?) -> HTTPResponse {
        PageLayout.response(page, context: context, locale: context.locale(for: pending))
    }

    /// The `credential` field: the WebAuthn JSON the page's script put there.
    static func credential(_ form: APIBody) throws -> CredentialJSONInput {
        guard let text = try form.optionalString("credential"), !text.isEmpty else {
            throw ServiceError.invalidRequest("the passkey response is missing; try again")
        }
        return .bytes(Array(text.utf8))
    }

    /// A hosted error page for an error no step handled.
    static func errorPage(_ error: any Error, context: HostedContext) -> HTTPResponse {
        let http = (error as? any HTTPErrorConvertible)?.httpError ?? .internalError
        let message =
            http.status >= 500 ? Catalog.text(.errorUnavailable, context.locale) : Catalog.error(error, context.locale)
        var response = PageLayout.response(
            SignInPages.error(context: context, message: message, status: http.status, locale: context.locale),
            context: context, locale: context.locale)
        for field in http.headers where field.name.lowercased() == "retry-after" || field.name.lowercased() == "allow" {
            response.headers.add(name: field.name, value: field.value)
        }
        return response
    }

    /// An asset; cached for good only under the URL of its current version (`current`), as the
    /// pages link it, so an old or missing `v` never pins other bytes.
    static func asset(_ bytes: [UInt8], type: String, current: Bool) -> HTTPResponse {
        var response = HTTPResponse(status: 200, headers: ["Content-Type": type], body: bytes)
        response.headers.add(
            name: "Cache-Control", value: current ? "public, max-age=31536000, immutable" : "no-cache")
        return response
    }
}

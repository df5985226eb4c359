import SesameService
import SesameWire

/// Account recovery (`/u/recover`): the email address, the code, then a new passkey or password.
extension HostedController {
    func registerRecovery(to group: inout RouteGroup<HostedContext>) {
        group.get("/u/recover", query: Self.recoverQuery, handler: recoverPage)
        group.post("/u/recover", body: HostedForms.emailStep, handler: recover)
        group.post("/u/recover/verify", body: HostedForms.recoveryCode, handler: verifyRecoveryCode)
        group.post("/u/recover/password", body: HostedForms.recoveryPassword, handler: recoveryPassword)
    }

    /// `/u/recover` takes the pending sign-in it continues, or none.
    static let recoverQuery = RequestQuery([
        WireField(
            "tx", .text(256),
            description:
                "The pending sign-in the recovery continues. Without it, the recovery signs in to the account page.")
    ])

    /// The recovery's first page. Opened on its own (a bookmark, a support article), it continues
    /// a new sign-in to the account page, so it ends there.
    func recoverPage(_ request: HTTPRequest, _ context: HostedContext) throws -> HTTPResponse {
        guard let handle = request.query(HostedForms.transaction) else {
            let started = try authorization.beginAccountSignIn(
                tenant: context.tenant, path: "/account", device: context.device, fresh: true)
            let language = context.askedLocale.map { "&ui_locales=" + $0.rawValue } ?? ""
            return .redirect(to: "/u/recover?tx=" + started + language, status: 303)
        }
        let pending = try pendingRequest(handle, context)
        return page(RecoveryPages.request(context: context, pending: pending), context, pending)
    }

    func recover(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse {
        let (form, pending) = try pendingForm(reader, context)
        let email = try form.optionalString("email") ?? ""
        do {
            let handle = try hosted.recovery.start(
                tenant: context.tenant, connection: pending.connection, email: email)
            return page(RecoveryPages.code(context: context, pending: pending, handle: handle), context, pending)
        } catch {
            return page(
                RecoveryPages.request(
                    context: context, pending: pending, email: email, error: error,
                    status: BrowserSession.status(error)),
                context, pending)
        }
    }

    func verifyRecoveryCode(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws
        -> HTTPResponse
    {
        let (form, pending) = try pendingForm(reader, context)
        let handle = try form.optionalString("handle") ?? ""
        do {
            let user = try hosted.recovery.verify(
                tenant: context.tenant, handle: handle, code: try form.optionalString("code"))
            // The mailbox alone never gets past a second factor: the user answers it first.
            switch try hosted.afterRecoveryCode(
                tenant: context.tenant, pending: pending, user: user, requester: BrowserSession.requester(context))
            {
            case .newWayIn(let held, let challenge):
                return page(
                    SignInPages.enrollPrompt(
                        context: context, pending: held, challenge: challenge, reason: .recovery),
                    context, held)
            case .secondFactor(let factors, let updated):
                let step: SignInPages.SecondFactor
                if factors.contains(.otp) {
                    step = .otp
                } else if factors.contains(.sms) {
                    step = .sms(
                        oobCode: try hosted.sendSMS(
                            tenant: context.tenant, pending: updated, address: context.clientKey))
                } else {
                    step = .recoveryCode
                }
                return page(
                    SignInPages.secondFactor(
                        context: context, pending: updated, step: step,
                        options: try? hosted.secondFactorOptions(tenant: context.tenant, pending: updated)),
                    context, updated)
            }
        } catch {
            return page(
                RecoveryPages.code(
                    context: context, pending: pending, handle: handle, error: error,
                    status: BrowserSession.status(error)),
                context, pending)
        }
    }

    func recoveryPassword(_ request: HTTPRequest, _ reader: BodyReader, _ context: HostedContext) throws -> HTTPResponse
    {
        let (form, pending) = try pendingForm(reader, context)
        do {
            let proof = try hosted.recoverWithPassword(
                tenant: context.tenant, pending: pending,
                password: try form.optionalString("password"))
            return try completeSignIn(proof, pending: pending, request: request, context: context)
        } catch {
            return try enrollPromptAgain(pending, reason: .recovery, error: error, context: context)
        }
    }

}

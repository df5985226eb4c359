import Foundation
import SesameService
import SesameStore
import SesameWire

/// The sign-in and signup pages of a pending authorization. Every value from the request, the
/// user or the configuration is a `String` interpolated into `HTML`, which escapes it; the
/// catalogue's texts come as `HTML` from `Catalog.text`.
enum SignInPages {
    static func lead(_ pending: PendingAuthorization, _ locale: PageLocale, _ key: Text) -> HTML {
        "<p class=\"lead\">\(Catalog.text(key, locale, pending.client.name))</p>"
    }

    /// The passkey button and its form (the script fills `credential` and submits).
    static func passkeyForm(
        context: HostedContext, pending: PendingAuthorization, ceremony: String, locale: PageLocale
    ) -> HTML {
        """
        <div class="divider">\(Catalog.text(.orDivider, locale))</div>
        <button type="button" class="secondary" id="passkey-button" hidden \
        data-failed="\(Catalog.raw(.passkeyFailed, locale))" \
        data-cancelled="\(Catalog.raw(.passkeyCancelled, locale))">\(Catalog.text(.passkeyButton, locale))</button>
        <form method="post" action="/u/login/passkey" id="passkey-form">
        \(PageLayout.hiddenFields(context, transaction: pending.handle))
        <input type="hidden" name="ceremony" value="\(ceremony)">
        <input type="hidden" name="credential" value="">
        </form>
        """
    }

    /// The "Create passkey" button and the form the script fills with the new credential.
    static func createPasskeyForm(
        action: String, hidden: HTML, ceremony: String, locale: PageLocale, label: Text = .createPasskeyButton
    ) -> HTML {
        """
        <button type="button" id="passkey-button" \
        data-failed="\(Catalog.raw(.passkeyCreateFailed, locale))" \
        data-exists="\(Catalog.raw(.passkeyExists, locale))" \
        data-cancelled="\(Catalog.raw(.passkeyCancelled, locale))" \
        data-unsupported="\(Catalog.raw(.passkeyUnsupported, locale))">\
        \(Catalog.text(label, locale))</button>
        <form method="post" action="\(action)" id="passkey-form">
        \(hidden)
        <input type="hidden" name="ceremony" value="\(ceremony)">
        <input type="hidden" name="credential" value="">
        </form>
        """
    }

    /// The creation options the script's `create()` needs.
    static func creationJSON(_ challenge: PasskeySignupChallengeResponse) -> [(id: String, json: String)] {
        guard let data = try? JSONEncoder().encode(challenge.authnParamsPublicKey) else { return [] }
        return [("passkey-creation", String(decoding: data, as: UTF8.self))]
    }

    /// The JSON the script's `get()` needs.
    static func requestOptionsJSON(_ challenge: PasskeyLoginChallengeResponse?) -> [(id: String, json: String)] {
        guard let challenge, let data = try? JSONEncoder().encode(challenge.authnParamsPublicKey) else { return [] }
        return [("passkey-options", String(decoding: data, as: UTF8.self))]
    }

    /// `signalUnknownCredential`'s argument, after a login named a passkey the server does not know.
    static func unknownCredentialJSON(_ error: (any Error)?) -> [(id: String, json: String)] {
        guard case .unknownCredential(let rpID, let credentialID)? = error as? ServiceError else { return [] }
        let json = "{\"rpId\":\(JSONText.quote(rpID)),\"credentialId\":\(JSONText.quote(credentialID))}"
        return [("signal-unknown-credential", json)]
    }

    /// `/u/login`: the identifier, the passkey button (and autofill), the signup link.
    ///
    /// `passkeyRefused`: the server refused the passkey the page sent, so the script starts autofill
    /// again only when the user acts (an authenticator that answers at once would loop).
    static func identifier(
        context: HostedContext, pending: PendingAuthorization, challenge: PasskeyLoginChallengeResponse?,
        error: (any Error)? = nil, status: Int = 200, passkeyRefused: Bool = false
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let hint = pending.identifier ?? pending.request.loginHint ?? ""
        var body: HTML = """
            <h1>\(Catalog.text(.signInTitle, locale))</h1>
            \(lead(pending, locale, .signInLead))
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            \(PageLayout.clientErrorBox)
            <form method="post" action="/u/login">
            \(PageLayout.hiddenFields(context, transaction: pending.handle))
            <label for="username">\(Catalog.text(.identifierLabel, locale))</label>
            <input id="username" name="username" type="text" autocomplete="username webauthn" autocapitalize="none" \
            spellcheck="false" required autofocus value="\(hint)"\(PageLayout.invalid(error))>
            <button type="submit">\(Catalog.text(.continueButton, locale))</button>
            </form>
            """
        if let challenge {
            body += passkeyForm(context: context, pending: pending, ceremony: challenge.authSession, locale: locale)
        }
        body += """
            <div class="links"><p>\(Catalog.text(.noAccount, locale)) \
            <a href="/u/signup?tx=\(pending.handle)">\(Catalog.text(.signUpLink, locale))</a></p>
            <p><a href="/u/recover?tx=\(pending.handle)">\(Catalog.text(.recoverLink, locale))</a></p></div>
            """
        return HostedPage(
            name: "login", title: .signInTitle, body: body, status: status,
            data: requestOptionsJSON(challenge) + unknownCredentialJSON(error)
                + (passkeyRefused ? [("passkey-refused", "true")] : []),
            formTargets: [pending.request.redirectURI], languageBase: "/u/login?tx=" + pending.handle)
    }

    /// The password step for the identifier given (shown whether or not the user exists).
    static func password(
        context: HostedContext, pending: PendingAuthorization, challenge: PasskeyLoginChallengeResponse?,
        error: (any Error)? = nil, status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let identifier = pending.identifier ?? ""
        var body: HTML = """
            <h1>\(Catalog.text(.signInTitle, locale))</h1>
            \(lead(pending, locale, .signInLead))
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            \(PageLayout.clientErrorBox)
            <div class="identity"><span>\(identifier)</span> \
            <a href="/u/login?tx=\(pending.handle)">\(Catalog.text(.changeIdentifier, locale))</a></div>
            <form method="post" action="/u/login/password">
            \(PageLayout.hiddenFields(context, transaction: pending.handle))
            <input type="text" name="username" autocomplete="username" value="\(identifier)" hidden>
            <label for="password">\(Catalog.text(.passwordLabel, locale))</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required autofocus\
            \(PageLayout.invalid(error))>
            <button type="submit">\(Catalog.text(.signInButton, locale))</button>
            </form>
            <div class="links"><p><a href="/u/reset-password/request?tx=\(pending.handle)">\
            \(Catalog.text(.forgotPassword, locale))</a></p></div>
            """
        if let challenge {
            body += passkeyForm(context: context, pending: pending, ceremony: challenge.authSession, locale: locale)
        }
        return HostedPage(
            name: "password", title: .signInTitle, body: body, status: status,
            data: requestOptionsJSON(challenge) + unknownCredentialJSON(error),
            formTargets: [pending.request.redirectURI], languageBase: "/u/login?tx=" + pending.handle)
    }

    /// What the second-factor step asks for.
    enum SecondFactor {
        /// A code from the authenticator app.
        case otp
        /// The code sent by SMS for this handle.
        case sms(oobCode: String)
        /// A recovery code saved at enrollment.
        case recoveryCode
        /// A TOTP factor to set up first (the tenant asks everyone for one).
        case enroll(HostedLoginService.OTPEnrollment)
        /// Nothing the pages can take: the user must set a factor up elsewhere.
        case unavailable
    }

    /// The second-factor step: a TOTP, SMS or recovery code, or the TOTP enrollment with its QR
    /// code; with the user's other ways to answer, a passkey instead where they have one, a way
    /// back, and (in a recovery) the support path for someone who lost every factor.
    static func secondFactor(
        context: HostedContext, pending: PendingAuthorization, step: SecondFactor,
        options: HostedLoginService.SecondFactorOptions? = nil, error: (any Error)? = nil, status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        var title = Text.mfaTitle
        var lead: HTML = ""
        var fields = PageLayout.hiddenFields(context, transaction: pending.handle)
        var input: HTML = """
            <label for="otp">\(Catalog.text(.codeLabel, locale))</label>
            <input id="otp" name="otp" type="text" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" \
            autocomplete="one-time-code" required autofocus>
            """
        let shown: String
        switch step {
        case .otp:
            shown = "otp"
            lead = "<p class=\"lead\">\(Catalog.text(.mfaLead, locale))</p>"
            fields += "<input type=\"hidden\" name=\"mode\" value=\"otp\">"
        case .sms(let oobCode):
            shown = "sms"
            lead = "<p class=\"lead\">\(Catalog.text(.smsLead, locale))</p>"
            fields += "<input type=\"hidden\" name=\"mode\" value=\"sms\">"
            fields += "<input type=\"hidden\" name=\"oob_code\" value=\"\(oobCode)\">"
        case .recoveryCode:
            shown = "recovery-code"
            lead = "<p class=\"lead\">\(Catalog.text(.recoveryCodeStepLead, locale))</p>"
            fields += "<input type=\"hidden\" name=\"mode\" value=\"recovery-code\">"
            input = """
                <label for="otp">\(Catalog.text(.recoveryCodeLabel, locale))</label>
                <input id="otp" name="otp" type="text" maxlength="64" autocomplete="off" autocapitalize="characters" \
                spellcheck="false" required autofocus>
                """
        case .enroll(let enrollment):
            shown = "enroll"
            title = .mfaEnrollTitle
            let qr = HTML(qrCode: enrollment.uri)
            lead = """
                <p class="lead">\(Catalog.text(.mfaEnrollLead, locale))</p>
                <div class="qr" aria-hidden="true">\(qr)</div>
                <p>\(Catalog.text(.secretKeyLabel, locale)) <code id="otp-secret">\(enrollment.secret)</code></p>
                """
            fields += "<input type=\"hidden\" name=\"mode\" value=\"enroll\">"
        case .unavailable:
            let body: HTML = """
                <h1>\(Catalog.text(.mfaTitle, locale))</h1>
                <p class="notice">\(Catalog.text(.mfaEnrollNeeded, locale))</p>
                <div class="links"><p><a href="/u/login?tx=\(pending.handle)">\
                \(Catalog.text(.cancelSignIn, locale))</a></p></div>
                """
            return HostedPage(name: "mfa", title: .mfaTitle, body: body, status: status)
        }
        if pending.recovering {
            lead = "<p class=\"notice\">\(Catalog.text(.recoverySecondFactorLead, locale))</p>" + lead
        }
        let body: HTML = """
            <h1>\(Catalog.text(title, locale))</h1>
            \(lead)
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="/u/mfa">
            \(fields)
            \(input)
            <button type="submit">\(Catalog.text(.verifyButton, locale))</button>
            </form>
            \(otherWays(context: context, pending: pending, shown: shown, options: options, locale: locale))
            """
        return HostedPage(
            name: "mfa", title: title, body: body, status: status, formTargets: [pending.request.redirectURI])
    }

    /// The other ways to answer the second-factor step than the one `shown`, a way back, and in a
    /// recovery the support path.
    static func otherWays(
        context: HostedContext, pending: PendingAuthorization, shown: String,
        options: HostedLoginService.SecondFactorOptions?, locale: PageLocale
    ) -> HTML {
        var buttons: HTML = ""
        if let options, shown != "enroll" {
            if options.factors.contains(.otp), shown != "otp" {
                buttons += button("otp", .useAppButton)
            }
            if options.factors.contains(.sms), shown != "sms" {
                buttons += button("sms", .useSMSButton)
            }
            if options.recoveryCode, shown != "recovery-code" {
                buttons += button("recovery-code", .useRecoveryCodeButton)
            }
        }
        func button(_ method: String, _ label: Text) -> HTML {
            "<p><button type=\"submit\" name=\"method\" value=\"\(method)\" class=\"link\">"
                + "\(Catalog.text(label, locale))</button></p>"
        }
        let restart = "/u/login?tx=" + pending.handle
        var links: HTML = ""
        if !buttons.isEmpty {
            links += """
                <h2>\(Catalog.text(.mfaOtherWays, locale))</h2>
                <form method="post" action="/u/mfa/method">
                \(PageLayout.hiddenFields(context, transaction: pending.handle))
                \(buttons)
                </form>
                """
        }
        if options?.passkey == true {
            links += "<p><a href=\"\(restart)\">\(Catalog.text(.usePasskeyInstead, locale))</a></p>"
        }
        links += "<p><a href=\"\(restart)\">\(Catalog.text(.cancelSignIn, locale))</a></p>"
        if pending.recovering {
            links += "<p class=\"hint\">\(Catalog.text(.mfaSupportHint, locale))</p>"
        }
        return "<div class=\"links\">\(links)</div>"
    }

    /// The title, lead and code of a recovery code the user is asked to save, in groups of four
    /// (which wrap between groups on a phone and are easier to copy by hand; the code is read
    /// without its spaces), with copy and download buttons that the page's script reveals.
    static func recoveryCodeBlock(_ code: String, tenant: String, _ locale: PageLocale) -> HTML {
        let filename = "\(tenant)-recovery-code.txt"
        let grouped = stride(from: 0, to: code.count, by: 4).map { start -> HTML in
            let from = code.index(code.startIndex, offsetBy: start)
            let to = code.index(from, offsetBy: min(4, code.count - start))
            return "<span>\(String(code[from..<to]))</span>"
        }.joined(separator: " ")
        return """
            <h1>\(Catalog.text(.saveRecoveryTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.saveRecoveryLead, locale))</p>
            <p class="recovery-code"><code id="recovery-code" data-code="\(code)">\(grouped)</code></p>
            <div class="code-actions">
            <button type="button" class="secondary" id="copy-recovery-code" hidden \
            data-copied="\(Catalog.raw(.copiedNotice, locale))">\(Catalog.text(.copyButton, locale))</button>
            <button type="button" class="secondary" id="download-recovery-code" hidden \
            data-filename="\(filename)">\(Catalog.text(.downloadButton, locale))</button>
            </div>
            <p class="hint" id="copy-status" role="status" aria-live="polite"></p>
            """
    }

    /// A new recovery code (after the first factor was set up, or a recovery code was used),
    /// shown until the user says they saved it: copy and download, then "I saved it".
    static func saveRecoveryCode(context: HostedContext, pending: PendingAuthorization, code: String) -> HostedPage {
        let locale = context.locale(for: pending)
        let body: HTML = """
            \(recoveryCodeBlock(code, tenant: context.tenant.name, locale))
            <form method="post" action="/u/mfa/recovery-code/saved">
            \(PageLayout.hiddenFields(context, transaction: pending.handle))
            <p><input type="checkbox" id="saved" name="saved" value="yes" required> \
            <label class="inline" for="saved">\(Catalog.text(.savedCheckbox, locale))</label></p>
            <button type="submit">\(Catalog.text(.continueButton, locale))</button>
            </form>
            """
        return HostedPage(
            name: "save-recovery-code", title: .saveRecoveryTitle, body: body,
            formTargets: [pending.request.redirectURI])
    }

    /// `/u/signup`: email (and name), a passkey first, a password where the connection has them,
    /// with the connection's rules in `passwordrules` so a password manager makes a fitting one.
    /// `passwordOpen`: the password section is open (a password signup the server refused).
    static func signup(
        context: HostedContext, pending: PendingAuthorization, profile: SignupProfileInput = SignupProfileInput(),
        error: (any Error)? = nil, status: Int = 200, passwordOpen: Bool = false
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let connection = pending.connection
        let email = profile.email ?? pending.request.loginHint ?? ""
        var body: HTML = """
            <h1>\(Catalog.text(.signupTitle, locale))</h1>
            \(lead(pending, locale, .signupLead))
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            <form method="post" action="/u/signup">
            \(PageLayout.hiddenFields(context, transaction: pending.handle))
            <label for="email">\(Catalog.text(.emailLabel, locale))</label>
            <input id="email" name="email" type="email" autocomplete="username" required autofocus \
            value="\(email)"\(PageLayout.invalid(passwordOpen ? nil : error))>
            <label for="name">\(Catalog.text(.nameLabel, locale))</label>
            <input id="name" name="name" type="text" autocomplete="name" value="\(profile.attributes[.name] ?? "")">
            """
        if connection.passkey.enabled {
            body += """
                <button type="submit" name="method" value="passkey">\(Catalog.text(.continueWithPasskey, locale))</button>
                """
        }
        if connection.password.enabled {
            body += """
                <details id="password-signup"\(connection.passkey.enabled && !passwordOpen ? "" : " open")>
                <summary>\(Catalog.text(.usePasswordInstead, locale))</summary>
                <label for="password">\(Catalog.text(.newPasswordLabel, locale))</label>
                <input id="password" name="password" type="password" autocomplete="new-password"\
                \(PageLayout.newPasswordAttributes(connection.password.rules, fieldID: "password", error: passwordOpen ? error : nil))>
                \(PasswordChecklist.list(connection.password.rules, fieldID: "password", locale: locale))
                <button type="submit" name="method" value="password" class="secondary" id="password-signup-button">\
                \(Catalog.text(.signUpWithPassword, locale))</button>
                </details>
                """
        }
        body += """
            </form>
            <div class="links"><p>\(Catalog.text(.haveAccount, locale)) \
            <a href="/u/login?tx=\(pending.handle)">\(Catalog.text(.signInLink, locale))</a></p></div>
            """
        return HostedPage(
            name: "signup", title: .signupTitle, body: body, status: status,
            formTargets: [pending.request.redirectURI], languageBase: "/u/signup?tx=" + pending.handle)
    }

    /// The passkey step of a signup: the button that runs `create()`.
    static func createPasskey(
        context: HostedContext, pending: PendingAuthorization, challenge: PasskeySignupChallengeResponse,
        error: (any Error)? = nil, status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let body: HTML = """
            <h1>\(Catalog.text(.createPasskeyTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.createPasskeyLead, locale, challenge.authnParamsPublicKey.user.name))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            \(PageLayout.clientErrorBox)
            \(SignInPages.createPasskeyForm(action: "/u/signup/passkey", hidden: PageLayout.hiddenFields(context, transaction: pending.handle), ceremony: challenge.authSession, locale: locale))
            <div class="links"><p><a href="/u/signup?tx=\(pending.handle)">\
            \(Catalog.text(.changeIdentifier, locale))</a></p></div>
            """
        return HostedPage(
            name: "signup-passkey", title: .createPasskeyTitle, body: body, status: status,
            data: SignInPages.creationJSON(challenge), formTargets: [pending.request.redirectURI])
    }

    /// `/u/passkey-enroll`: the prompt after a sign-in, by its reason (the migration issue adds its
    /// own reasons and texts here), with "Not now" and "Don't ask again".
    static func enrollPrompt(
        context: HostedContext, pending: PendingAuthorization, challenge: PasskeySignupChallengeResponse,
        reason: HeldSignIn.Reason, error: (any Error)? = nil, status: Int = 200,
        conditional: PasskeySignupChallengeResponse? = nil
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let (title, lead): (Text, HTML)
        switch reason {
        case .upgrade:
            (title, lead) = (.upgradeHeading, Catalog.text(.upgradeLead, locale))
        case .progressive:
            (title, lead) = (.enrollPromptTitle, Catalog.text(.enrollPromptLead, locale, pending.client.name))
        case .localEnrollment:
            (title, lead) = (.localEnrollTitle, Catalog.text(.localEnrollLead, locale))
        case .recovery:
            (title, lead) = (.recoveryEnrollTitle, Catalog.text(.recoveryEnrollLead, locale))
        case .saveRecoveryCode:
            // Never a prompt of its own: the recovery code's page holds the sign-in.
            (title, lead) = (.enrollPromptTitle, Catalog.text(.enrollPromptLead, locale, pending.client.name))
        }
        let hidden = PageLayout.hiddenFields(context, transaction: pending.handle)
        // A recovery cannot be put off; where the connection has passwords, a new one will do.
        var choices: HTML = """
            <form method="post" action="/u/passkey-enroll/skip">
            \(hidden)
            <button type="submit" name="choice" value="later" class="secondary">\(Catalog.text(.notNowButton, locale))</button>
            <button type="submit" name="choice" value="never" class="link">\(Catalog.text(.neverAskButton, locale))</button>
            </form>
            """
        if reason == .recovery {
            choices = ""
            if pending.connection.password.enabled {
                choices = """
                    <form method="post" action="/u/recover/password">
                    \(hidden)
                    <p>\(Catalog.text(.recoveryPasswordLead, locale))</p>
                    <label for="password">\(Catalog.text(.newPasswordLabel, locale))</label>
                    <input id="password" name="password" type="password" autocomplete="new-password" required\
                    \(PageLayout.newPasswordAttributes(pending.connection.password.rules, fieldID: "password"))>
                    \(PasswordChecklist.list(pending.connection.password.rules, fieldID: "password", locale: locale))
                    <button type="submit" class="secondary">\(Catalog.text(.newPasswordButton, locale))</button>
                    </form>
                    """
            }
        }
        let intro: HTML = reason == .progressive || reason == .localEnrollment ? passkeyIntro(locale) : .empty
        let body: HTML = """
            <h1>\(Catalog.text(title, locale))</h1>
            <p class="lead">\(lead)</p>
            \(intro)
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            \(PageLayout.clientErrorBox)
            \(SignInPages.createPasskeyForm(action: "/u/passkey-enroll", hidden: hidden, ceremony: challenge.authSession, locale: locale))
            \(choices)
            """
        // The automatic upgrade: the script tries a conditional create with this challenge first.
        var data = SignInPages.creationJSON(challenge)
        if let conditional, let encoded = try? JSONEncoder().encode(conditional.authnParamsPublicKey) {
            data.append(("passkey-conditional", String(decoding: encoded, as: UTF8.self)))
            data.append(("passkey-conditional-ceremony", JSONText.quote(conditional.authSession)))
        }
        return HostedPage(
            name: "enroll", title: title, body: body, status: status, data: data,
            formTargets: [pending.request.redirectURI])
    }

    /// After a sign-in with a weak or breached password (docs/account-upgrades.md): a passkey in the password's
    /// place, a strong password, or "Not now". `offers` are what the connection allows; the
    /// challenge is there when a passkey is one of them.
    static func upgradePrompt(
        context: HostedContext, pending: PendingAuthorization, challenge: PasskeySignupChallengeResponse?,
        offers: [UpgradeType], status passwordStatus: PasswordStatus?, error: (any Error)? = nil, status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: pending)
        let lead: Text
        switch passwordStatus {
        case .breached?: lead = .upgradeBreachedLead
        case .weak?: lead = .upgradeWeakLead
        case .ok?, nil: lead = .upgradeLead
        }
        let hidden = PageLayout.hiddenFields(context, transaction: pending.handle)
        var body: HTML = """
            <h1>\(Catalog.text(.upgradeHeading, locale))</h1>
            <p class="lead">\(Catalog.text(lead, locale))</p>
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            \(PageLayout.clientErrorBox)
            """
        if let challenge, offers.contains(.passkey) {
            body += SignInPages.createPasskeyForm(
                action: "/u/passkey-enroll", hidden: hidden, ceremony: challenge.authSession, locale: locale,
                label: .upgradePasskeyButton)
        }
        if offers.contains(.strongPassword) {
            body += """
                <form method="post" action="/u/upgrade/password" id="upgrade-password-form">
                \(hidden)
                <label for="new-password">\(Catalog.text(.newPasswordLabel, locale))</label>
                <input id="new-password" name="password" type="password" autocomplete="new-password" required\
                \(PageLayout.newPasswordAttributes(pending.connection.password.rules, fieldID: "new-password"))>
                \(PasswordChecklist.list(pending.connection.password.rules, fieldID: "new-password", locale: locale))
                <button type="submit" class="secondary" id="upgrade-password-button">\
                \(Catalog.text(.upgradeStrongPasswordButton, locale))</button>
                </form>
                """
        }
        body += """
            <form method="post" action="/u/passkey-enroll/skip">
            \(hidden)
            <button type="submit" name="choice" value="later" class="link" id="upgrade-later">\
            \(Catalog.text(.upgradeNotNow, locale))</button>
            </form>
            """
        return HostedPage(
            name: "enroll", title: .upgradeHeading, body: body, status: status,
            data: challenge.map(SignInPages.creationJSON) ?? [], formTargets: [pending.request.redirectURI])
    }

    /// What a passkey is, beside an offer to make one: a small drawing (inline, so no request and
    /// no CSP change, and legible in a web view) and three reasons, as Google's prompt has them.
    static func passkeyIntro(_ locale: PageLocale) -> HTML {
        """
        <div class="passkey-intro">\(passkeyArt)<ul>
        <li>\(Catalog.text(.enrollBenefitNoPassword, locale))</li>
        <li>\(Catalog.text(.enrollBenefitUnlock, locale))</li>
        <li>\(Catalog.text(.enrollBenefitPhishing, locale))</li>
        </ul></div>
        """
    }

    /// A phone with a fingerprint, and a key: the passkey it holds. Colours come from the page's
    /// theme (`.passkey-art` in pages.css), so it follows the brand and the dark scheme.
    static let passkeyArt: HTML = """
        <svg class="passkey-art" width="96" height="80" viewBox="0 0 120 100" aria-hidden="true" focusable="false">\
        <rect class="device" x="30" y="4" width="52" height="88" rx="10"/>\
        <path class="print" d="M44 62V50a12 12 0 0 1 24 0v6M50 66V50a6 6 0 0 1 12 0v16M56 50v20M68 62v4"/>\
        <circle class="key-badge" cx="86" cy="74" r="18"/>\
        <path class="key-glyph" d="M80 74a5 5 0 1 0 0.01 0M85 74h12M93 74v5M97 74v3"/></svg>
        """

    /// `/u/passkey-enroll?ticket=…`: the enrollment a token response's `passkey_enrollment` link
    /// opens in the app's web view. "Not now" ends it (a progressive prompt is snoozed).
    static func ticketEnroll(
        context: HostedContext, enrollment: PasskeyEnrollmentTickets.Enrollment, error: (any Error)? = nil,
        status: Int = 200
    ) -> HostedPage {
        let locale = context.locale(for: nil)
        let (title, lead): (Text, Text)
        switch enrollment.reason {
        case .deviceKeyReauth: (title, lead) = (.deviceKeyEnrollTitle, .deviceKeyEnrollLead)
        case .progressive: (title, lead) = (.enrollPromptTitle, .enrollPromptLead)
        }
        let hidden =
            PageLayout.hiddenFields(context, transaction: nil)
            + "<input type=\"hidden\" name=\"enrollment\" value=\"\(enrollment.handle)\">"
        let body: HTML = """
            <h1>\(Catalog.text(title, locale))</h1>
            <p class="lead">\(Catalog.text(lead, locale, enrollment.client.name))</p>
            \(passkeyIntro(locale))
            \(PageLayout.errorBox(error.map { Catalog.error($0, locale) }))
            \(PageLayout.clientErrorBox)
            \(SignInPages.createPasskeyForm(action: "/u/passkey-enroll/ticket", hidden: hidden, ceremony: enrollment.challenge.authSession, locale: locale))
            <form method="post" action="/u/passkey-enroll/ticket/skip">
            \(hidden)
            <button type="submit" class="secondary">\(Catalog.text(.notNowButton, locale))</button>
            </form>
            """
        return HostedPage(
            name: "enroll", title: title, body: body, status: status,
            data: SignInPages.creationJSON(enrollment.challenge))
    }

    /// The end of a ticket's enrollment: created, skipped, or already registered; with a link back
    /// to the app when it gave a callback (`?passkey_enrollment=<outcome>` added).
    static func enrollDone(
        context: HostedContext, outcome: PasskeyEnrollmentTickets.Outcome, provider: String? = nil,
        returnTo: String?
    ) -> HostedPage {
        let locale = context.locale(for: nil)
        let (title, lead): (Text, HTML)
        switch outcome {
        case .created: (title, lead) = (.enrollDoneTitle, Catalog.text(.enrollDoneLead, locale))
        case .skipped: (title, lead) = (.enrollSkippedTitle, Catalog.text(.enrollSkippedLead, locale))
        case .alreadyRegistered:
            (title, lead) = (.alreadyRegisteredTitle, Catalog.text(.alreadyRegisteredLead, locale, provider ?? ""))
        }
        var link: HTML = ""
        if let returnTo {
            let separator = returnTo.contains("?") ? "&" : "?"
            let target = returnTo + separator + "passkey_enrollment=" + outcome.rawValue
            link = """
                <div class="links"><p><a id="return-to-app" href="\(target)">\
                \(Catalog.text(.continueToApp, locale))</a></p></div>
                """
        }
        let role: HTML = outcome == .alreadyRegistered ? " role=\"alertdialog\" aria-labelledby=\"done-title\"" : ""
        let body: HTML = """
            <section\(role)>
            <h1 id="done-title">\(Catalog.text(title, locale))</h1>
            <p class="lead">\(lead)</p>
            </section>
            \(link)
            """
        return HostedPage(name: "enroll-done", title: title, body: body)
    }

    /// `response_mode=form_post`: the answer as a form the script posts at once.
    static func formPost(context: HostedContext, response: AuthorizationResponse, locale: PageLocale) -> HostedPage {
        var fields: HTML = ""
        for parameter in response.parameters {
            fields +=
                "<input type=\"hidden\" name=\"\(parameter.name)\" value=\"\(parameter.value)\">"
        }
        let body: HTML = """
            <h1>\(Catalog.text(.formPostTitle, locale))</h1>
            <p class="lead">\(Catalog.text(.formPostLead, locale))</p>
            <form method="post" action="\(response.redirectURI)" id="response-form">
            \(fields)
            <button type="submit">\(Catalog.text(.continueToApp, locale))</button>
            </form>
            """
        return HostedPage(name: "form-post", title: .formPostTitle, body: body, formTargets: [response.redirectURI])
    }

    /// An error no step handled, with the ways on: the account page (which signs in first when
    /// needed), and sign-out when this browser holds a session. Its language links repeat the
    /// request when it was a `GET`.
    static func error(context: HostedContext, message: HTML, status: Int, locale: PageLocale) -> HostedPage {
        var signOut = HTML.empty
        if context.cookie(.session) != nil {
            signOut = """
                <form method="post" action="/oidc/logout">\(PageLayout.hiddenFields(context, transaction: nil))\
                <button type="submit" class="link">\(Catalog.text(.signOutButton, locale))</button></form>
                """
        }
        let body: HTML = """
            <h1>\(Catalog.text(.errorTitle, locale))</h1>
            <p class="error" role="alert">\(message)</p>
            <nav class="links" aria-label="\(Catalog.text(.errorWaysOn, locale))">
            <p><a href="/account">\(Catalog.text(.errorAccountLink, locale))</a></p>
            \(signOut)
            </nav>
            """
        return HostedPage(
            name: "error", title: .errorTitle, body: body, status: status, languageBase: context.address)
    }
}

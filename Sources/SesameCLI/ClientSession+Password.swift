import Foundation
import SesameClient

/// How the password commands ask for what the user types: the password (without echo at the
/// terminal, or the first line of standard input) and second-factor codes (the next lines).
struct PasswordPrompter {
    let source: ClientInvocation.PasswordSource
    let environment: CommandEnvironment

    /// The password; with `confirm`, typed twice at the terminal and compared.
    func password(confirm: Bool) throws(ClientFailure) -> String {
        switch source {
        case .standardInput:
            guard let line = environment.readStandardInputLine(), !line.isEmpty else {
                throw ClientFailure("--password-stdin: standard input has no password on its first line")
            }
            return line
        case .terminal:
            guard let first = environment.readTerminalLine("Password: ", true), !first.isEmpty else {
                throw ClientFailure("no password was typed (no terminal? use --password-stdin)")
            }
            if confirm {
                guard environment.readTerminalLine("Password again: ", true) == first else {
                    throw ClientFailure("the two passwords differ")
                }
            }
            return first
        }
    }

    /// A code (TOTP, SMS): the next line of standard input, or typed at the terminal.
    func code(_ prompt: String) throws(ClientFailure) -> String {
        let line: String?
        switch source {
        case .standardInput: line = environment.readStandardInputLine()
        case .terminal: line = environment.readTerminalLine(prompt, false)
        }
        guard let code = line?.trimmingCharacters(in: .whitespaces), !code.isEmpty else {
            throw ClientFailure("no code was given for the second factor")
        }
        return code
    }

    /// Says something to the user while the command runs (before it asks for a code).
    func tell(_ text: String) { environment.writeOutput(text) }
}

extension ClientSession {
    /// Creates a password account (`/dbconnections/signup`), then signs in with it.
    mutating func signUpWithPassword(
        email: String, name: String?, connection: String, prompter: PasswordPrompter
    ) async throws(ClientFailure) -> Credentials {
        let password = try prompter.password(confirm: true)
        do {
            _ = try await authentication.signup(email: email, password: password, connection: connection, name: name)
        } catch {
            throw Self.passwordFailure(error, server: config.server, timeout: configuration.timeout)
        }
        return try await logInWithPassword(
            email: email, password: password, connection: connection, prompter: prompter)
    }

    /// Signs in with a password (and a second factor when asked), then saves config and credentials.
    mutating func logInWithPassword(
        email: String, password: String? = nil, connection: String, prompter: PasswordPrompter
    ) async throws(ClientFailure) -> Credentials {
        let typed: String
        if let password { typed = password } else { typed = try prompter.password(confirm: false) }
        let credentials = try await passwordLogin(
            email: email, password: typed, connection: connection, audience: nil, scope: Self.loginScope,
            prompter: prompter)
        config.email = email
        try saveLogin(credentials)
        return credentials
    }

    /// A password login for `audience`, answering `mfa_required` as the server asks: the code of
    /// the authenticator app or of an SMS, or a first enrollment of an authenticator app.
    func passwordLogin(
        email: String, password: String, connection: String, audience: String?, scope: String,
        prompter: PasswordPrompter
    ) async throws(ClientFailure) -> Credentials {
        let first: Result<Credentials, AuthenticationError>
        do {
            first = .success(
                try await authentication.login(
                    usernameOrEmail: email, password: password, realmOrConnection: connection, audience: audience,
                    scope: scope))
        } catch {
            first = .failure(error)
        }
        switch first {
        case .success(let credentials):
            return credentials
        case .failure(let error):
            guard error.isMultifactorRequired, let payload = error.mfaRequiredPayload else {
                throw Self.passwordFailure(error, server: config.server, timeout: configuration.timeout)
            }
            do {
                return try await answer(payload, prompter: prompter)
            } catch {
                throw failure(error)
            }
        }
    }

    /// Any error of the password calls as a `ClientFailure`.
    func failure(_ error: any Error) -> ClientFailure {
        if let failure = error as? ClientFailure { return failure }
        if let error = error as? AuthenticationError {
            return Self.passwordFailure(error, server: config.server, timeout: configuration.timeout)
        }
        return ClientFailure(ClientFailure.describe(error))
    }

    private func answer(_ payload: MFARequiredErrorPayload, prompter: PasswordPrompter) async throws -> Credentials {
        let token = payload.mfaToken
        if payload.challenge.contains("otp") {
            return try await authentication.login(
                withOTP: try prompter.code("Code from your authenticator app: "), mfaToken: token)
        }
        if payload.challenge.contains("phone") {
            let challenge = try await authentication.multifactorChallenge(mfaToken: token, types: ["oob"])
            guard let oob = challenge.oobCode else { throw ClientFailure("the server sent no SMS code handle") }
            return try await authentication.login(
                withOOBCode: oob, mfaToken: token, bindingCode: try prompter.code("Code sent by SMS: "))
        }
        if payload.enroll.contains("otp") {
            prompter.tell("This account needs a second factor. Enrolling an authenticator app:\n")
            let enrollment = try await authentication.multifactorEnroll(token: token, type: "otp")
            Self.show(enrollment, prompter)
            return try await authentication.login(
                withOTP: try prompter.code("Code from your authenticator app: "), mfaToken: token)
        }
        throw ClientFailure(
            "the server asks for a second factor this CLI cannot answer (challenge \(payload.challenge), "
                + "enroll \(payload.enroll)); enroll an authenticator app with 'sesame mfa enroll otp'")
    }

    static func show(_ enrollment: MultifactorEnrollment, _ prompter: PasswordPrompter) {
        var lines: [String] = []
        if let uri = enrollment.barcodeURI {
            // A QR code at the terminal; the URI and the secret always, for typing it in.
            if prompter.source == .terminal, let code = TerminalQR.render(uri) {
                lines.append("Scan this with your authenticator app:")
                lines.append(code)
            }
            lines.append("Or add it by hand:")
            lines.append("  \(uri)")
        }
        if let secret = enrollment.secret { lines.append("  secret \(secret)") }
        if let code = enrollment.recoveryCodes?.first {
            lines.append("Recovery code, shown once (keep it somewhere safe): \(code)")
        }
        prompter.tell(lines.joined(separator: "\n") + "\n")
    }

    /// The saved account's email, or the one given.
    func accountEmail(_ email: String?) throws(ClientFailure) -> String {
        guard let email = email ?? config.email else {
            throw ClientFailure("--email is required (no email saved for \(config.server))")
        }
        return email
    }

    /// `mfa enroll`: a token of the MFA API (signing in with the password, and the current factor),
    /// the enrollment, and its confirmation with the first code.
    func enrollFactor(
        _ factor: ClientInvocation.MFAKind, phone: String?, email: String, connection: String,
        prompter: PasswordPrompter
    ) async throws(ClientFailure) -> [MultifactorAuthenticator] {
        let password = try prompter.password(confirm: false)
        let access = try await passwordLogin(
            email: email, password: password, connection: connection, audience: configuration.mfaAudience,
            scope: "enroll read:authenticators", prompter: prompter
        ).accessToken
        do {
            let enrollment = try await authentication.multifactorEnroll(
                token: access, type: factor == .otp ? "otp" : "oob", phoneNumber: phone)
            if factor == .otp {
                Self.show(enrollment, prompter)
                _ = try await authentication.login(
                    withOTP: try prompter.code("Code from your authenticator app: "), mfaToken: access)
            } else {
                guard let oob = enrollment.oobCode else { throw ClientFailure("the server sent no SMS code handle") }
                if let code = enrollment.recoveryCodes?.first {
                    prompter.tell("Recovery code, shown once (keep it somewhere safe): \(code)\n")
                }
                _ = try await authentication.login(
                    withOOBCode: oob, mfaToken: access, bindingCode: try prompter.code("Code sent by SMS: "))
            }
            return try await authentication.multifactorAuthenticators(token: access)
        } catch {
            throw failure(error)
        }
    }

    /// `mfa list`.
    func listFactors(email: String, connection: String, prompter: PasswordPrompter) async throws(ClientFailure)
        -> [MultifactorAuthenticator]
    {
        let password = try prompter.password(confirm: false)
        let access = try await passwordLogin(
            email: email, password: password, connection: connection, audience: configuration.mfaAudience,
            scope: "read:authenticators", prompter: prompter
        ).accessToken
        do {
            return try await authentication.multifactorAuthenticators(token: access)
        } catch {
            throw Self.passwordFailure(error, server: config.server, timeout: configuration.timeout)
        }
    }

    /// A password call's failure in words: the policy for a weak password, else the server's text.
    static func passwordFailure(_ error: AuthenticationError, server: String, timeout: TimeInterval) -> ClientFailure {
        if error.isPasswordNotStrongEnough, let policy = error.passwordPolicy {
            return ClientFailure(
                "the password does not meet the rules: "
                    + policy.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                        separator: " "))
        }
        return ClientFailure(error, server: server, timeout: timeout)
    }
}

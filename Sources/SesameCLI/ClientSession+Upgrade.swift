import Foundation
import SesameClient

/// `sesame upgrade` and `login --apple-identity-token`: the SDK's `AccountUpgrade` from a terminal.
extension ClientSession {
    /// What authorizes an upgrade (`POST /me/v1/upgrades/authorize`).
    enum UpgradeAuthority: Sendable {
        /// The saved session's access token (renewed first when it is about to expire).
        case savedSession
        /// The system-initiated form: the username and the current password, in `connection`.
        case password(username: String, password: String, connection: String)
    }

    /// What the account moves to, with the values read from their files.
    enum UpgradeCommit: Sendable {
        /// The given password, or nil for one generated to the connection's rules.
        case strongPassword(String?)
        case apple(identityToken: String, nonce: String, authorizationCode: String?)
        case passkey

        var type: AccountUpgradeType {
            switch self {
            case .strongPassword: return .strongPassword
            case .apple: return .signInWithApple
            case .passkey: return .passkey
            }
        }
    }

    /// Authorizes (answering a step-up with `otp` or a code the prompter reads), then commits.
    /// After a passkey upgrade the config names the new passkey, so `sesame login` uses it.
    mutating func upgrade(
        _ commit: UpgradeCommit, authority: UpgradeAuthority, otp: String?, prompter: PasswordPrompter
    ) async throws(ClientFailure) -> UpgradeOutcome {
        let upgrade = AccountUpgrade(configuration: configuration)
        let type = commit.type
        // The saved session this upgrade may end: the saved server's, for the same account.
        let savedServer = try state.loadConfig()
        var savedSession = savedServer?.server == config.server && ((try? credentialsStore.load()) ?? nil) != nil
        if case .password(let username, _, _) = authority {
            savedSession = savedSession && savedServer?.email?.lowercased() == username.lowercased()
        }
        let (authorization, steppedUp) = try await authorizeUpgrade(
            upgrade, type: type, authority: authority, otp: otp, prompter: prompter)
        var outcome = UpgradeOutcome(type: type, server: config.server, steppedUp: steppedUp)
        switch commit {
        case .strongPassword(let given):
            outcome.generatedPassword = try await commitStrongPassword(given, upgrade, authorization)
        case .apple(let identityToken, let nonce, let authorizationCode):
            do {
                try await upgrade.upgradeToSignInWithApple(
                    identityToken: identityToken, rawNonce: nonce, authorizationCode: authorizationCode,
                    authorization: authorization)
            } catch {
                throw upgradeFailure(error)
            }
        case .passkey:
            let provider = try provider()
            do {
                outcome.passkey = try await upgrade.upgradeToPasskey(provider: provider, authorization: authorization)
            } catch {
                throw upgradeFailure(error)
            }
            config.credentialID = provider.lastCredentialID ?? outcome.passkey?.keyID
            // The passkey is the upgraded account's, which the next `sesame login` signs in to.
            if case .password(let username, _, _) = authority { config.email = username }
            // The config is the one of the saved server, or there is none yet: keep it consistent.
            if savedServer == nil || savedServer?.server == config.server { try state.saveConfig(config) }
        }
        // The server keeps only the refresh-token family of the access token that authorized.
        let authorizedBySavedSession: Bool
        if case .savedSession = authority {
            authorizedBySavedSession = !steppedUp
        } else {
            authorizedBySavedSession = false
        }
        outcome.savedSessionEnded = savedSession && !authorizedBySavedSession
        return outcome
    }

    /// `POST /me/v1/upgrades/authorize`, and again after a step-up. Returns whether one was needed.
    private func authorizeUpgrade(
        _ upgrade: AccountUpgrade, type: AccountUpgradeType, authority: UpgradeAuthority, otp: String?,
        prompter: PasswordPrompter
    ) async throws(ClientFailure) -> (UpgradeAuthorization, Bool) {
        var accessToken: String?
        if case .savedSession = authority { accessToken = try await savedAccessToken() }
        do {
            switch authority {
            case .savedSession:
                return (try await upgrade.authorize(type: type, accessToken: accessToken ?? ""), false)
            case .password(let username, let password, let connection):
                return (
                    try await upgrade.authorize(type: type, username: username, password: password, realm: connection),
                    false
                )
            }
        } catch {
            guard let stepUp = error.upgradeStepUp else { throw upgradeFailure(error) }
            let credentials = try await answer(stepUp, error, upgrade, otp: otp, prompter: prompter)
            do {
                return (try await upgrade.authorize(type: type, accessToken: credentials.accessToken), true)
            } catch {
                throw upgradeFailure(error)
            }
        }
    }

    /// The saved session's access token, renewed when it expires within 30 seconds.
    private func savedAccessToken() async throws(ClientFailure) -> String {
        let saved = (try? credentialsStore.load()) ?? nil
        guard saved != nil else {
            throw ClientFailure(
                "not signed in: run 'sesame login --password' first, or pass --username and --password-file")
        }
        let manager = CredentialsManager(authentication: authentication, store: credentialsStore)
        do {
            return try await manager.credentials(minTTL: 30).accessToken
        } catch let error where error.isUnauthorized {
            throw ClientFailure(
                "the saved session has ended: sign in again with 'sesame login --password', or pass --password-file")
        } catch {
            throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
        }
    }

    /// Answers a step-up with the MFA grants: the authenticator app's code (`--otp` or typed), or
    /// a code sent by SMS (typed, or a line of standard input).
    private func answer(
        _ stepUp: UpgradeStepUp, _ error: AuthenticationError, _ upgrade: AccountUpgrade, otp: String?,
        prompter: PasswordPrompter
    ) async throws(ClientFailure) -> Credentials {
        if Self.asksToEnroll(error) {
            throw ClientFailure(
                "the server wants a second factor for upgrades and the account has none: "
                    + "run 'sesame mfa enroll otp' (or sms), then upgrade again")
        }
        guard stepUp.acceptsSecondFactor else {
            throw ClientFailure(
                "\(stepUp.description) (step_up_required): sign in again with 'sesame login --password', "
                    + "or pass --password-file")
        }
        let reply: StepUpAnswer
        if stepUp.challengeTypes.contains(.otp) {
            if let otp {
                reply = .otp(otp)
            } else {
                reply = .otp(try prompter.code("Code from your authenticator app: "))
            }
        } else {
            guard otp == nil else {
                throw ClientFailure("the server asks for a code sent by SMS, not an authenticator app's (--otp)")
            }
            let challenge: MultifactorChallenge
            do {
                challenge = try await upgrade.sendStepUpSMS(stepUp)
            } catch {
                throw upgradeFailure(error)
            }
            reply = .oob(oobCode: challenge.oobCode ?? "", bindingCode: try prompter.code("Code sent by SMS: "))
        }
        do {
            return try await upgrade.completeStepUp(stepUp, with: reply)
        } catch {
            throw upgradeFailure(error)
        }
    }

    /// Whether a step-up asks to enroll a factor first (`mfa_requirements.enroll`), which this
    /// command does not do.
    static func asksToEnroll(_ error: AuthenticationError) -> Bool {
        guard let body = error.body, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let requirements = object["mfa_requirements"] as? [String: Any]
        else { return false }
        return requirements["enroll"] != nil && requirements["challenge"] == nil
    }

    /// Commits a strong password: the given one, or one generated to the connection's rules (the
    /// authorization's, else `GET /password-rules`). A generated one the server refuses is drawn
    /// again (the refusal does not spend the upgrade token). Returns the generated password.
    private func commitStrongPassword(
        _ given: String?, _ upgrade: AccountUpgrade, _ authorization: UpgradeAuthorization
    ) async throws(ClientFailure) -> String? {
        var rules = authorization.passwordRules
        if rules == nil, given == nil { rules = try? await upgrade.passwordRules() }
        var tries = 0
        while true {
            let password: String
            if let given {
                password = given
            } else {
                var random = SystemRandomNumberGenerator()
                guard let made = PasswordGenerator.generate(rules: rules ?? "", using: &random) else {
                    throw ClientFailure(
                        "cannot make a password that meets the rules '\(rules ?? "")'; give one with --new-password-file"
                    )
                }
                password = made
            }
            do {
                try await upgrade.upgradeToStrongPassword(password, authorization: authorization)
                return given == nil ? password : nil
            } catch {
                tries += 1
                guard given == nil, tries < 3, error.isPasswordNotStrongEnough || error.isPasswordLeaked else {
                    throw upgradeFailure(error)
                }
            }
        }
    }

    /// An upgrade call's failure in words: the rules for a weak password, the reason of
    /// `upgrade_not_allowed`, else the server's text.
    func upgradeFailure(_ error: AuthenticationError) -> ClientFailure {
        if let reason = error.upgradeNotAllowedReason {
            return ClientFailure(
                "\(error.errorDescription) (upgrade_not_allowed: \(reason.rawValue)"
                    + "\(error.statusCode.map { ", HTTP \($0)" } ?? ""))")
        }
        return Self.passwordFailure(error, server: config.server, timeout: configuration.timeout)
    }

    /// Signs in with an Apple identity token (the token-exchange grant), then saves the tokens.
    mutating func logInWithApple(identityToken: String, nonce: String?) async throws(ClientFailure) -> Credentials {
        let credentials: Credentials
        do {
            credentials = try await authentication.login(
                appleIdentityToken: identityToken, rawNonce: nonce, scope: Self.loginScope)
        } catch {
            throw ClientFailure(error, server: config.server, timeout: configuration.timeout)
        }
        try saveLogin(credentials)
        return credentials
    }
}

/// What `sesame upgrade` did, as one line (and a detail or two), or JSON.
struct UpgradeOutcome: Sendable {
    var type: AccountUpgradeType
    var server: String
    /// The password the CLI generated; nil when it was given (or for another type).
    var generatedPassword: String?
    /// The passkey that replaced the password.
    var passkey: PasskeyAuthenticationMethod?
    /// Whether the server asked for a step-up first.
    var steppedUp: Bool
    /// Whether the upgrade ended the CLI's saved session (the server keeps only the family of the
    /// access token that authorized).
    var savedSessionEnded = false

    init(type: AccountUpgradeType, server: String, steppedUp: Bool) {
        self.type = type
        self.server = server
        self.steppedUp = steppedUp
    }

    func text() -> String {
        var lines: [String]
        let login: String
        switch type {
        case .strongPassword:
            lines = ["The password is now a strong one."]
            if let generatedPassword { lines.append("  new password   \(generatedPassword)") }
            login = "sesame login --password"
        case .signInWithApple:
            lines = ["The account now signs in with Apple; its password no longer works."]
            login = "sesame login --apple-identity-token FILE --nonce RAW"
        case .passkey:
            lines = ["The password was replaced by a passkey; the password no longer works."]
            if let passkey { lines.append("  passkey        \(passkey.keyID)") }
            login = "sesame login"
        }
        if savedSessionEnded {
            lines.append("  the upgrade ended this CLI's saved session: sign in again with '\(login)'")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func json() -> String {
        JSONOutput.object([
            ("server", .string(server)),
            ("type", .string(type.rawValue)),
            ("upgraded", .bool(true)),
            ("new_password", .optional(generatedPassword)),
            ("passkey_id", .optional(passkey?.id)),
            ("credential_id", .optional(passkey?.keyID)),
            ("stepped_up", .bool(steppedUp)),
            ("saved_session_ended", .bool(savedSessionEnded)),
        ]).rendered() + "\n"
    }
}

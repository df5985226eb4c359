import Foundation

/// What `sesame upgrade strong-password|apple|passkey` was asked to do, checked but not run.
struct UpgradeRequest: Equatable, Sendable {
    /// What the account moves to.
    enum Target: Equatable, Sendable {
        /// A new password: the one in `newPasswordFile` (a line; `-` for standard input), else generated.
        case strongPassword(newPasswordFile: String?)
        /// Sign in with Apple: the identity token in the file, its raw nonce, Apple's authorization code.
        case apple(identityTokenFile: String, nonce: String, authorizationCode: String?)
        /// A passkey made by the CLI's software authenticator.
        case passkey

        /// The word on the command line.
        var name: String {
            switch self {
            case .strongPassword: return "strong-password"
            case .apple: return "apple"
            case .passkey: return "passkey"
            }
        }
    }

    /// The system-initiated form: the account's username (nil: the saved email), the file its
    /// current password is in (`-` for the first line of standard input) and its connection.
    struct PasswordForm: Equatable, Sendable {
        var username: String?
        var file: String
        var connection: String
    }

    var target: Target
    /// nil: authorize with the saved session's access token.
    var password: PasswordForm?
    /// `--otp`: the authenticator app's code for a step-up.
    var otp: String?
    /// `--code-stdin`: step-up codes are lines of standard input rather than typed at the terminal.
    var codesFromStandardInput = false
}

extension ClientInvocation {
    /// The options every `upgrade` target takes.
    static let upgradeOptions = [
        OptionSpec("server", .single, placeholder: "URL"),
        OptionSpec("client-id", .single, placeholder: "ID"),
        OptionSpec("username", .single, placeholder: "EMAIL"),
        OptionSpec("password-file", .single, placeholder: "FILE"),
        OptionSpec("connection", .single, placeholder: "NAME"),
        OptionSpec("otp", .single, placeholder: "CODE"),
        OptionSpec("code-stdin", .flag),
        OptionSpec("json", .flag),
    ]

    static let upgradeSpecs: [String: CommandSpec] = [
        "strong-password": CommandSpec(
            options: upgradeOptions + [OptionSpec("new-password-file", .single, placeholder: "FILE")]),
        "apple": CommandSpec(
            options: upgradeOptions + [
                OptionSpec("identity-token", .single, required: true, placeholder: "FILE"),
                OptionSpec("nonce", .single, required: true, placeholder: "RAW"),
                OptionSpec("authorization-code", .single, placeholder: "CODE"),
            ]),
        "passkey": CommandSpec(options: upgradeOptions),
    ]

    /// `upgrade TARGET [options]`.
    static func parseUpgrade(_ arguments: [String]) throws(ClientUsageError) -> Parsed {
        guard let target = arguments.first else {
            throw ClientUsageError(
                command: "upgrade", UsageError("missing what to upgrade to: strong-password, apple or passkey"))
        }
        if ["--help", "-h"].contains(target) { return .help(Usage.upgrade) }
        guard let spec = upgradeSpecs[target] else {
            throw ClientUsageError(
                command: "upgrade",
                UsageError("unknown upgrade '\(target)' (expected strong-password, apple or passkey)"))
        }
        let name = "upgrade \(target)"
        let parsed = try parse(Array(arguments.dropFirst()), spec, name: name)
        if parsed.helpRequested { return .help(Usage.upgrade) }
        do throws(UsageError) {
            let kind: UpgradeRequest.Target
            switch target {
            case "strong-password": kind = .strongPassword(newPasswordFile: parsed.value("new-password-file"))
            case "apple":
                kind = .apple(
                    identityTokenFile: parsed.value("identity-token") ?? "", nonce: parsed.value("nonce") ?? "",
                    authorizationCode: parsed.value("authorization-code"))
            default: kind = .passkey
            }
            var request = UpgradeRequest(target: kind)
            if let file = parsed.value("password-file") {
                request.password = UpgradeRequest.PasswordForm(
                    username: try parsed.value("username").map { v throws(UsageError) in try username(v) }, file: file,
                    connection: try connection(parsed))
                if file == "-", parsed.value("new-password-file") == "-" {
                    throw UsageError("only one of --password-file and --new-password-file can be '-'")
                }
            } else if parsed.value("username") != nil || parsed.value("connection") != nil {
                throw UsageError("--username and --connection go with --password-file")
            }
            if let otp = parsed.value("otp") {
                guard (6...8).contains(otp.count), otp.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    throw UsageError("--otp '\(otp)' is not an authenticator app's code (6 to 8 digits)")
                }
                request.otp = otp
            }
            request.codesFromStandardInput = parsed.flag("code-stdin")
            var invocation = ClientInvocation(action: .upgrade(request), json: parsed.flag("json"))
            try invocation.readTarget(parsed)
            return .run(invocation)
        } catch {
            throw ClientUsageError(command: name, error)
        }
    }

    /// A username for the password form: 1 to 320 characters, no spaces.
    static func username(_ text: String) throws(UsageError) -> String {
        guard text.count <= 320, !text.contains(where: \.isWhitespace) else {
            throw UsageError("--username '\(text)' is not a username or email address")
        }
        return text
    }
}

import Foundation

/// One parsed client command (`signup`, `login`, `token …`, `passkeys …`), checked but not run.
struct ClientInvocation: Equatable, Sendable {
    /// What to do.
    enum Action: Equatable, Sendable {
        case signup(email: String, name: String?)
        case login
        /// `signup --password`: a password account, then a password login.
        case passwordSignup(email: String, name: String?, password: PasswordSource, connection: String)
        /// `login --password`.
        case passwordLogin(email: String?, password: PasswordSource, connection: String)
        /// `mfa enroll otp|sms`: sign in with the password, then enroll and confirm the factor.
        case mfaEnroll(factor: MFAKind, phone: String?, email: String?, password: PasswordSource, connection: String)
        /// `mfa list`.
        case mfaList(email: String?, password: PasswordSource, connection: String)
        case tokenShow
        case tokenRefresh
        case tokenRevoke
        case passkeysList
        case passkeysRename(id: String, name: String)
        case passkeysDelete(id: String)
        /// `login --apple-identity-token FILE [--nonce RAW]`: the token-exchange grant.
        case appleLogin(identityTokenFile: String, nonce: String?)
        /// `upgrade strong-password|apple|passkey`.
        case upgrade(UpgradeRequest)
    }

    /// Where a password comes from: typed at the terminal without echo, or a line of standard
    /// input (`--password-stdin`). Never the command line.
    enum PasswordSource: Equatable, Sendable {
        case terminal
        case standardInput
    }

    /// The factors `mfa enroll` enrolls.
    enum MFAKind: String, Equatable, Sendable {
        case otp
        case sms
    }

    /// The connection password commands use unless `--connection` names another.
    static let defaultConnection = "Username-Password-Authentication"

    var action: Action
    /// `--server`, reduced to `scheme://host[:port]`; nil to use the saved one.
    var server: String?
    /// `--client-id`; nil to use the saved one.
    var clientID: String?
    /// `--origin`; nil for the saved one or the server's origin.
    var origin: String?
    /// `--json`.
    var json = false

    /// The command's name in messages, e.g. "token show".
    var commandName: String {
        switch action {
        case .signup, .passwordSignup: return "signup"
        case .login, .passwordLogin: return "login"
        case .mfaEnroll: return "mfa enroll"
        case .mfaList: return "mfa list"
        case .tokenShow: return "token show"
        case .tokenRefresh: return "token refresh"
        case .tokenRevoke: return "token revoke"
        case .passkeysList: return "passkeys list"
        case .passkeysRename: return "passkeys rename"
        case .passkeysDelete: return "passkeys delete"
        case .appleLogin: return "login"
        case .upgrade(let request): return "upgrade \(request.target.name)"
        }
    }

    /// What parsing produced: a help text to print, or a command to run.
    enum Parsed: Equatable, Sendable {
        case help(String)
        case run(ClientInvocation)
    }

    /// The command names this type parses.
    static let commands: Set<String> = ["signup", "login", "token", "passkeys", "mfa", "upgrade"]

    static let signupSpec = CommandSpec(options: [
        OptionSpec("server", .single, required: true, placeholder: "URL"),
        OptionSpec("client-id", .single, required: true, placeholder: "ID"),
        OptionSpec("email", .single, required: true, placeholder: "EMAIL"),
        OptionSpec("name", .single, placeholder: "NAME"),
        OptionSpec("origin", .single, placeholder: "ORIGIN"),
        OptionSpec("password", .flag),
        OptionSpec("password-stdin", .flag),
        OptionSpec("connection", .single, placeholder: "NAME"),
        OptionSpec("json", .flag),
    ])

    static let loginSpec = CommandSpec(options: [
        OptionSpec("server", .single, placeholder: "URL"),
        OptionSpec("client-id", .single, placeholder: "ID"),
        OptionSpec("origin", .single, placeholder: "ORIGIN"),
        OptionSpec("password", .flag),
        OptionSpec("password-stdin", .flag),
        OptionSpec("email", .single, placeholder: "EMAIL"),
        OptionSpec("connection", .single, placeholder: "NAME"),
        OptionSpec("apple-identity-token", .single, placeholder: "FILE"),
        OptionSpec("nonce", .single, placeholder: "RAW"),
        OptionSpec("json", .flag),
    ])

    static let mfaSpec = CommandSpec(
        options: [
            OptionSpec("email", .single, placeholder: "EMAIL"),
            OptionSpec("phone", .single, placeholder: "E164"),
            OptionSpec("password-stdin", .flag),
            OptionSpec("connection", .single, placeholder: "NAME"),
            OptionSpec("json", .flag),
        ], positionals: ["FACTOR"])

    /// `--server`, `--client-id` and `--origin` (a command without one has none): where the command
    /// goes and what it says it is (nil: the saved ones).
    mutating func readTarget(_ parsed: ParsedArguments) throws(UsageError) {
        server = try parsed.value("server").map { v throws(UsageError) in try ClientArguments.server(v) }
        clientID = parsed.value("client-id")
        origin = try parsed.value("origin").map { v throws(UsageError) in try ClientArguments.origin(v) }
    }

    /// `--password` / `--password-stdin` (the second implies the first); nil for neither.
    static func passwordSource(_ parsed: ParsedArguments) -> PasswordSource? {
        if parsed.flag("password-stdin") { return .standardInput }
        return parsed.flag("password") ? .terminal : nil
    }

    /// `--connection`: a connection name (letters, digits, hyphens), else the default.
    static func connection(_ parsed: ParsedArguments) throws(UsageError) -> String {
        guard let name = parsed.value("connection") else { return defaultConnection }
        guard !name.isEmpty, name.utf8.count <= 128,
            name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") })
        else { throw UsageError("--connection '\(name)' is not a connection name (letters, digits, hyphens)") }
        return name
    }

    static let jsonOnlySpec = CommandSpec(options: [OptionSpec("json", .flag)])
    static let renameSpec = CommandSpec(
        options: [OptionSpec("json", .flag)], positionals: ["ID", "NAME"], requiredPositionals: 2)
    static let deleteSpec = CommandSpec(
        options: [OptionSpec("json", .flag)], positionals: ["ID"], requiredPositionals: 1)

    /// Parses `arguments` (the words after `command`). The error's first element is the command
    /// name to prefix the message with, e.g. "token" or "token show".
    static func parse(_ command: String, _ arguments: [String]) throws(ClientUsageError) -> Parsed {
        switch command {
        case "signup":
            let parsed = try parse(arguments, signupSpec, name: "signup")
            if parsed.helpRequested { return .help(Usage.signup) }
            do throws(UsageError) {
                let email = try ClientArguments.email(parsed.value("email") ?? "")
                var invocation = ClientInvocation(action: .signup(email: email, name: parsed.value("name")))
                if let source = passwordSource(parsed) {
                    guard parsed.value("origin") == nil else {
                        throw UsageError("--origin is for passkeys, not --password")
                    }
                    invocation.action = .passwordSignup(
                        email: email, name: parsed.value("name"), password: source, connection: try connection(parsed))
                } else if parsed.value("connection") != nil {
                    throw UsageError("--connection goes with --password")
                }
                try invocation.readTarget(parsed)
                invocation.json = parsed.flag("json")
                return .run(invocation)
            } catch {
                throw ClientUsageError(command: "signup", error)
            }
        case "login":
            let parsed = try parse(arguments, loginSpec, name: "login")
            if parsed.helpRequested { return .help(Usage.login) }
            do throws(UsageError) {
                var invocation = ClientInvocation(action: .login)
                if let file = parsed.value("apple-identity-token") {
                    guard passwordSource(parsed) == nil, parsed.value("origin") == nil,
                        parsed.value("email") == nil, parsed.value("connection") == nil
                    else {
                        throw UsageError(
                            "--apple-identity-token does not go with --password, --origin, --email or --connection")
                    }
                    invocation.action = .appleLogin(identityTokenFile: file, nonce: parsed.value("nonce"))
                } else if parsed.value("nonce") != nil {
                    throw UsageError("--nonce goes with --apple-identity-token")
                } else if let source = passwordSource(parsed) {
                    guard parsed.value("origin") == nil else {
                        throw UsageError("--origin is for passkeys, not --password")
                    }
                    invocation.action = .passwordLogin(
                        email: try parsed.value("email").map { v throws(UsageError) in try ClientArguments.email(v) },
                        password: source, connection: try connection(parsed))
                } else if parsed.value("email") != nil || parsed.value("connection") != nil {
                    throw UsageError("--email and --connection go with --password")
                }
                try invocation.readTarget(parsed)
                invocation.json = parsed.flag("json")
                return .run(invocation)
            } catch {
                throw ClientUsageError(command: "login", error)
            }
        case "token":
            guard let verb = arguments.first else {
                throw ClientUsageError(command: "token", UsageError("missing what to do: show, refresh or revoke"))
            }
            let rest = Array(arguments.dropFirst())
            let action: Action
            switch verb {
            case "--help", "-h": return .help(Usage.token)
            case "show": action = .tokenShow
            case "refresh": action = .tokenRefresh
            case "revoke": action = .tokenRevoke
            default:
                throw ClientUsageError(
                    command: "token", UsageError("unknown action '\(verb)' (expected show, refresh or revoke)"))
            }
            let parsed = try parse(rest, jsonOnlySpec, name: "token \(verb)")
            if parsed.helpRequested { return .help(Usage.token) }
            return .run(ClientInvocation(action: action, json: parsed.flag("json")))
        case "passkeys":
            guard let verb = arguments.first else {
                throw ClientUsageError(command: "passkeys", UsageError("missing what to do: list, rename or delete"))
            }
            let rest = Array(arguments.dropFirst())
            switch verb {
            case "--help", "-h":
                return .help(Usage.passkeys)
            case "list":
                let parsed = try parse(rest, jsonOnlySpec, name: "passkeys list")
                if parsed.helpRequested { return .help(Usage.passkeys) }
                return .run(ClientInvocation(action: .passkeysList, json: parsed.flag("json")))
            case "rename":
                let parsed = try parse(rest, renameSpec, name: "passkeys rename")
                if parsed.helpRequested { return .help(Usage.passkeys) }
                let id = parsed.positional(0) ?? ""
                let name: String
                do throws(UsageError) {
                    name = try ClientArguments.passkeyName(parsed.positional(1) ?? "")
                } catch {
                    throw ClientUsageError(command: "passkeys rename", error)
                }
                return .run(ClientInvocation(action: .passkeysRename(id: id, name: name), json: parsed.flag("json")))
            case "delete":
                let parsed = try parse(rest, deleteSpec, name: "passkeys delete")
                if parsed.helpRequested { return .help(Usage.passkeys) }
                return .run(
                    ClientInvocation(action: .passkeysDelete(id: parsed.positional(0) ?? ""), json: parsed.flag("json"))
                )
            default:
                throw ClientUsageError(
                    command: "passkeys", UsageError("unknown action '\(verb)' (expected list, rename or delete)"))
            }
        case "mfa":
            guard let verb = arguments.first else {
                throw ClientUsageError(command: "mfa", UsageError("missing what to do: enroll or list"))
            }
            if ["--help", "-h"].contains(verb) { return .help(Usage.mfa) }
            guard verb == "enroll" || verb == "list" else {
                throw ClientUsageError(command: "mfa", UsageError("unknown action '\(verb)' (expected enroll or list)"))
            }
            let parsed = try parse(Array(arguments.dropFirst()), mfaSpec, name: "mfa \(verb)")
            if parsed.helpRequested { return .help(Usage.mfa) }
            do throws(UsageError) {
                let email = try parsed.value("email").map { v throws(UsageError) in try ClientArguments.email(v) }
                let source: PasswordSource = parsed.flag("password-stdin") ? .standardInput : .terminal
                let connection = try connection(parsed)
                if verb == "list" {
                    guard parsed.positional(0) == nil, parsed.value("phone") == nil else {
                        throw UsageError("mfa list takes no factor and no --phone")
                    }
                    return .run(
                        ClientInvocation(
                            action: .mfaList(email: email, password: source, connection: connection),
                            json: parsed.flag("json")))
                }
                guard let name = parsed.positional(0), let factor = MFAKind(rawValue: name) else {
                    throw UsageError("FACTOR must be otp or sms")
                }
                let phone = parsed.value("phone")
                if factor == .sms {
                    guard let phone, phone.first == "+", (3...16).contains(phone.count),
                        phone.dropFirst().allSatisfy(\.isNumber)
                    else { throw UsageError("mfa enroll sms needs --phone +<country code and number>") }
                } else if phone != nil {
                    throw UsageError("--phone goes with sms")
                }
                return .run(
                    ClientInvocation(
                        action: .mfaEnroll(
                            factor: factor, phone: phone, email: email, password: source, connection: connection),
                        json: parsed.flag("json")))
            } catch {
                throw ClientUsageError(command: "mfa \(verb)", error)
            }
        case "upgrade":
            return try parseUpgrade(arguments)
        default:
            throw ClientUsageError(command: command, UsageError("unknown command"))
        }
    }

    static func parse(_ arguments: [String], _ spec: CommandSpec, name: String) throws(ClientUsageError)
        -> ParsedArguments
    {
        do {
            return try ArgumentParser.parse(arguments, spec: spec)
        } catch {
            throw ClientUsageError(command: name, error)
        }
    }
}

/// A `UsageError` with the name of the (sub)command it belongs to, for the "sesame: NAME: …" line.
struct ClientUsageError: Error, Equatable, Sendable {
    var command: String
    var error: UsageError

    init(command: String, _ error: UsageError) {
        self.command = command
        self.error = error
    }
}

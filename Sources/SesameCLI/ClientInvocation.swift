/// One parsed client command (`signup`, `login`, `token …`, `passkeys …`), checked but not run.
struct ClientInvocation: Equatable, Sendable {
    /// What to do.
    enum Action: Equatable, Sendable {
        case signup(email: String, name: String?)
        case login
        case tokenShow
        case tokenRefresh
        case tokenRevoke
        case passkeysList
        case passkeysRename(id: String, name: String)
        case passkeysDelete(id: String)
    }

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
        case .signup: return "signup"
        case .login: return "login"
        case .tokenShow: return "token show"
        case .tokenRefresh: return "token refresh"
        case .tokenRevoke: return "token revoke"
        case .passkeysList: return "passkeys list"
        case .passkeysRename: return "passkeys rename"
        case .passkeysDelete: return "passkeys delete"
        }
    }

    /// What parsing produced: a help text to print, or a command to run.
    enum Parsed: Equatable, Sendable {
        case help(String)
        case run(ClientInvocation)
    }

    /// The command names this type parses.
    static let commands: Set<String> = ["signup", "login", "token", "passkeys"]

    static let signupSpec = CommandSpec(options: [
        OptionSpec("server", .single, required: true, placeholder: "URL"),
        OptionSpec("client-id", .single, required: true, placeholder: "ID"),
        OptionSpec("email", .single, required: true, placeholder: "EMAIL"),
        OptionSpec("name", .single, placeholder: "NAME"),
        OptionSpec("origin", .single, placeholder: "ORIGIN"),
        OptionSpec("json", .flag),
    ])

    static let loginSpec = CommandSpec(options: [
        OptionSpec("server", .single, placeholder: "URL"),
        OptionSpec("client-id", .single, placeholder: "ID"),
        OptionSpec("origin", .single, placeholder: "ORIGIN"),
        OptionSpec("json", .flag),
    ])

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
                var invocation = ClientInvocation(
                    action: .signup(
                        email: try ClientArguments.email(parsed.value("email") ?? ""), name: parsed.value("name")))
                invocation.server = try parsed.value("server").map { v throws(UsageError) in
                    try ClientArguments.server(v)
                }
                invocation.clientID = parsed.value("client-id")
                invocation.origin = try parsed.value("origin").map { v throws(UsageError) in
                    try ClientArguments.origin(v)
                }
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
                invocation.server = try parsed.value("server").map { v throws(UsageError) in
                    try ClientArguments.server(v)
                }
                invocation.clientID = parsed.value("client-id")
                invocation.origin = try parsed.value("origin").map { v throws(UsageError) in
                    try ClientArguments.origin(v)
                }
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
        default:
            throw ClientUsageError(command: command, UsageError("unknown command"))
        }
    }

    private static func parse(_ arguments: [String], _ spec: CommandSpec, name: String) throws(ClientUsageError)
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

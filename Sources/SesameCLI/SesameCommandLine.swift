import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `sesame` command line: the server (`serve`, `init`) and developer tools for WebAuthn
/// responses (`inspect`, `verify`).
///
/// Exit status: 0 success, 1 the input was read but is invalid or failed verification,
/// 2 bad arguments (one line on standard error).
public enum SesameCommandLine {
    /// Exit status for success.
    public static let success: Int32 = 0
    /// Exit status when the input is unparseable or fails verification.
    public static let failure: Int32 = 1
    /// Exit status for bad arguments.
    public static let usage: Int32 = 2

    /// Runs one command with the real process environment and returns its exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        run(arguments, environment: .process)
    }

    /// Runs one command (`arguments` excludes the program name) and returns its exit status.
    public static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        guard let command = arguments.first else {
            environment.writeError("sesame: missing command (try 'sesame help')\n")
            return usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            return help(rest, environment: environment)
        case "inspect":
            return InspectCommand.run(rest, environment: environment)
        case "serve":
            return ServeCommand.run(rest, environment: environment)
        case "init":
            return InitCommand.run(rest, environment: environment)
        case "api":
            return APICommand.run(rest, environment: environment)
        case "demo":
            return DemoCommand.run(rest, environment: environment)
        case "stats":
            return APICommand.runStats(rest, environment: environment)
        case "outbox":
            return APICommand.runOutbox(rest, environment: environment)
        case "logs":
            return LogsCommand.run(rest, environment: environment)
        case "store":
            return StoreCopyCommand.run(rest, environment: environment)
        case "admin":
            return AdminCommand.run(rest, environment: environment)
        case "mds":
            return MetadataCommand.run(rest, environment: environment)
        case "password-rules":
            return PasswordRulesCommand.run(rest, environment: environment)
        case "signup", "login", "token", "passkeys", "mfa", "upgrade":
            return ClientCommands.run(command, rest, environment: environment)
        case "verify":
            guard let kind = rest.first else {
                return usageError("verify", "missing what to verify: registration or authentication", environment)
            }
            switch kind {
            case "registration":
                return VerifyRegistrationCommand.run(Array(rest.dropFirst()), environment: environment)
            case "authentication":
                return VerifyAuthenticationCommand.run(Array(rest.dropFirst()), environment: environment)
            case "--help", "-h":
                environment.writeOutput(Usage.verify)
                return success
            default:
                return usageError(
                    "verify", "unknown kind '\(kind)' (expected registration or authentication)", environment)
            }
        default:
            environment.writeError("sesame: unknown command '\(command)' (try 'sesame help')\n")
            return usage
        }
    }

    /// Exits the process with `code`.
    public static func exit(with code: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(code)
        #else
            Darwin.exit(code)
        #endif
    }

    /// `sesame help [COMMAND…]`.
    private static func help(_ topic: [String], environment: CommandEnvironment) -> Int32 {
        let text: String?
        switch topic {
        case []: text = Usage.main
        case ["inspect"]: text = Usage.inspect
        case ["serve"]: text = Usage.serve
        case ["init"]: text = Usage.initialise
        case ["signup"]: text = Usage.signup
        case ["login"]: text = Usage.login
        case ["token"]: text = Usage.token
        case ["passkeys"]: text = Usage.passkeys
        case ["mfa"]: text = Usage.mfa
        case ["upgrade"]: text = Usage.upgrade
        case ["outbox"]: text = Usage.outbox
        case ["logs"]: text = Usage.logs
        case ["stats"]: text = Usage.stats
        case ["demo"]: text = Usage.demo
        case ["api"]: text = Usage.api
        case ["store"]: text = Usage.store
        case ["admin"], ["admin", "setup-link"], ["admin", "list"]: text = Usage.admin
        case ["mds"], ["mds", "import"]: text = Usage.mds
        case ["password-rules"]: text = Usage.passwordRules
        case ["verify"]: text = Usage.verify
        case ["verify", "registration"]: text = Usage.verifyRegistration
        case ["verify", "authentication"]: text = Usage.verifyAuthentication
        default: text = nil
        }
        guard let text else {
            return usageError("help", "no help for '\(topic.joined(separator: " "))'", environment)
        }
        environment.writeOutput(text)
        return success
    }

    /// Prints `sesame: <command>: <message>` on standard error and returns the usage status.
    static func usageError(_ command: String, _ message: String, _ environment: CommandEnvironment) -> Int32 {
        environment.writeError("sesame: \(command): \(oneLine(message))\n")
        return usage
    }

    /// Parses a command's `arguments` by `spec` and reads them with `read`: what `read` made of
    /// them, or the exit status of answering `--help` with `usage` or of a usage error of `command`.
    static func reading<Value>(
        _ command: String, _ arguments: [String], spec: CommandSpec, usage text: String,
        _ environment: CommandEnvironment, _ read: (ParsedArguments) throws(UsageError) -> Value
    ) -> CommandReading<Value> {
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(arguments, spec: spec)
            if parsed.helpRequested {
                environment.writeOutput(text)
                return .answered(success)
            }
            return .read(try read(parsed))
        } catch {
            return .answered(usageError(command, error.message, environment))
        }
    }

    /// For a command with one action (`sesame store copy`, `sesame mds import`): nil when
    /// `arguments` start with `action`, else the exit status of answering help or the usage error.
    static func refusingAllBut(
        _ action: String, of command: String, usage text: String, _ arguments: [String],
        _ environment: CommandEnvironment
    ) -> Int32? {
        guard arguments.first != action else { return nil }
        if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
            environment.writeOutput(text)
            return success
        }
        return usageError(
            command,
            arguments.first.map { "unknown action '\($0)' (expected \(action))" } ?? "missing action: \(action)",
            environment)
    }

    /// Folds any line breaks in a message so errors stay on one line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// A command's arguments as its `read` made them, or the exit status of having answered them
/// (help, or a usage error).
enum CommandReading<Value> {
    case read(Value)
    case answered(Int32)

    var value: Value? {
        guard case .read(let value) = self else { return nil }
        return value
    }

    /// The exit status answered; success when the arguments were read.
    var status: Int32 {
        guard case .answered(let status) = self else { return SesameCommandLine.success }
        return status
    }
}

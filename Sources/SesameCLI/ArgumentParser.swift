/// A bad command line: the message names the argument at fault, e.g. "--rp-id is required".
/// The command line prints it on one line after the command's name and exits with status 2.
struct UsageError: Error, Equatable, Sendable {
    /// What is wrong, without the "sesame: <command>:" prefix.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// One `--name` option a command accepts.
struct OptionSpec: Sendable, Equatable {
    /// Whether the option takes a value, and how many times it may be given.
    enum Kind: Sendable, Equatable {
        /// A switch: `--require-uv`. It takes no value and may be given once.
        case flag
        /// `--name VALUE` or `--name=VALUE`, given at most once.
        case single
        /// `--name VALUE`, given any number of times; the values keep their order.
        case repeated
    }

    /// The long name without the dashes, e.g. "rp-id".
    var name: String
    var kind: Kind
    /// The parse fails when a required option is absent.
    var required: Bool
    /// The value's placeholder in usage text, e.g. "ID".
    var placeholder: String

    init(_ name: String, _ kind: Kind, required: Bool = false, placeholder: String = "VALUE") {
        self.name = name
        self.kind = kind
        self.required = required
        self.placeholder = placeholder
    }
}

/// What one command accepts: its options and how many positional arguments.
struct CommandSpec: Sendable {
    var options: [OptionSpec]
    /// Names of the positional arguments in order, e.g. ["FILE"].
    var positionals: [String]
    /// How many of `positionals` must be given; the rest are optional.
    var requiredPositionals: Int

    init(options: [OptionSpec], positionals: [String] = [], requiredPositionals: Int = 0) {
        self.options = options
        self.positionals = positionals
        self.requiredPositionals = requiredPositionals
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}

/// The result of a successful parse.
struct ParsedArguments: Equatable, Sendable {
    /// `--help` or `-h` was given; nothing else was checked.
    var helpRequested = false
    /// Flags that were set.
    var flags: Set<String> = []
    /// Values per option name, in command-line order.
    var values: [String: [String]] = [:]
    /// Positional arguments in order.
    var positionals: [String] = []

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of a single-valued option, nil when absent.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeated option (empty when absent).
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The positional argument at `index`, nil when absent.
    func positional(_ index: Int) -> String? {
        index >= 0 && index < positionals.count ? positionals[index] : nil
    }
}

/// A strict parser for GNU-style long options.
///
/// Accepted: `--name VALUE`, `--name=VALUE`, flags `--name`, `-` as a positional (standard input),
/// and `--` to end options. Rejected, each with one message: unknown options (also any
/// single-dash option except `-h`), a missing or empty value, a value on a flag, a single-valued
/// option given twice, a required option or positional missing, extra positionals. A value that
/// starts with `--` must be written `--name=VALUE`, so a forgotten value never swallows the next option.
enum ArgumentParser {
    /// Parses `arguments` (the words after the command's name) against `spec`.
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        // Help wins over every other problem, so `sesame verify registration --help` always works.
        for argument in arguments {
            if argument == "--" { break }
            if argument == "--help" || argument == "-h" {
                result.helpRequested = true
                return result
            }
        }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard result.positionals.count < spec.positionals.count else {
                    throw UsageError("unexpected argument '\(argument)'")
                }
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError("unknown option '\(argument)'")
            }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[body.startIndex..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let option = spec.option(named: name) else {
                throw UsageError("unknown option '--\(name)'")
            }
            switch option.kind {
            case .flag:
                if inlineValue != nil {
                    throw UsageError("--\(name) does not take a value")
                }
                if result.flags.contains(name) {
                    throw UsageError("--\(name) is given more than once")
                }
                result.flags.insert(name)
            case .single, .repeated:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw UsageError("--\(name) needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                guard !value.isEmpty else {
                    throw UsageError("--\(name) needs a value")
                }
                if option.kind == .single, result.values[name] != nil {
                    throw UsageError("--\(name) is given more than once")
                }
                result.values[name, default: []].append(value)
            }
        }
        for option in spec.options where option.required && result.values[option.name] == nil {
            throw UsageError("--\(option.name) is required")
        }
        if result.positionals.count < spec.requiredPositionals {
            let missing = spec.positionals.dropFirst(result.positionals.count).first ?? "an argument"
            throw UsageError("\(missing) is required")
        }
        return result
    }
}

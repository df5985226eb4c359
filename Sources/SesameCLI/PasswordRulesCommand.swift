import SesameService

/// `sesame password-rules check RULES [PASSWORD]`: how Sesame (and Apple's password managers)
/// read a rules string, and whether a password meets it.
///
/// Prints the canonical form, every problem with its position, and with PASSWORD one line per
/// rule. Exit status: 0 the rules are clean (and the password passes), 1 a problem in the rules or a
/// rule the password fails, 2 bad arguments.
enum PasswordRulesCommand {
    static let name = "password-rules check"

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        if let first = arguments.first, ["--help", "-h", "help"].contains(first) {
            environment.writeOutput(Usage.passwordRules)
            return SesameCommandLine.success
        }
        guard arguments.first == "check" else {
            return SesameCommandLine.usageError(
                "password-rules",
                arguments.first.map { "unknown action '\($0)' (expected check)" } ?? "missing action: check",
                environment)
        }
        let values = Array(arguments.dropFirst())
        if values.contains(where: { $0 == "--help" || $0 == "-h" }) {
            environment.writeOutput(Usage.passwordRules)
            return SesameCommandLine.success
        }
        guard (1...2).contains(values.count) else {
            return SesameCommandLine.usageError(
                name, values.isEmpty ? "missing RULES" : "expected RULES and at most one PASSWORD", environment)
        }
        let (rules, diagnostics) = PasswordRulesParser.parse(values[0])
        var output = "canonical: \(rules.canonical)\n"
        for diagnostic in diagnostics {
            output += "problem: \(diagnostic)\n"
        }
        var passes = true
        if values.count == 2 {
            for verdict in rules.check(values[1]) {
                passes = passes && verdict.verified
                output += (verdict.verified ? "pass: " : "FAIL: ") + Self.describe(verdict) + "\n"
            }
        }
        environment.writeOutput(output)
        return diagnostics.isEmpty && passes ? SesameCommandLine.success : SesameCommandLine.failure
    }

    /// The verdict's message with its numbers filled in, and its items.
    static func describe(_ verdict: PasswordRuleVerdict) -> String {
        var text = ""
        var numbers = verdict.format.makeIterator()
        var rest = Substring(verdict.message)
        while let range = rest.range(of: "%d") {
            text += rest[..<range.lowerBound] + (numbers.next().map(String.init) ?? "?")
            rest = rest[range.upperBound...]
        }
        text += rest
        if !verdict.items.isEmpty {
            text += " " + verdict.items.map { ($0.verified ? "" : "(missing) ") + $0.message }.joined(separator: ", ")
        }
        return text
    }
}

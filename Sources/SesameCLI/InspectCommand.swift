import Foundation
import WebAuthn

/// `sesame inspect [--json] [--at ISO8601] [FILE|-]`: prints what a WebAuthn response or one of
/// its parts contains.
enum InspectCommand {
    static let name = "inspect"

    static let spec = CommandSpec(
        options: [
            OptionSpec("json", .flag),
            OptionSpec("at", .single, placeholder: "ISO8601"),
        ],
        positionals: ["FILE"], requiredPositionals: 0)

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let parsed: ParsedArguments
        let now: Date
        let input: [UInt8]
        do throws(UsageError) {
            parsed = try ArgumentParser.parse(arguments, spec: spec)
            if parsed.helpRequested {
                environment.writeOutput(Usage.inspect)
                return SesameCommandLine.success
            }
            now =
                try parsed.value("at").map { (text) throws(UsageError) -> Date in
                    try ArgumentValues.date(text, option: "at")
                } ?? environment.now()
            input = try ArgumentValues.input(parsed.positional(0), environment: environment)
        } catch {
            return SesameCommandLine.usageError(name, error.message, environment)
        }
        let inspection: Inspection
        do {
            inspection = try Inspection.parse(input, now: now)
        } catch {
            environment.writeError("sesame: inspect: \(SesameCommandLine.oneLine(error.message))\n")
            return SesameCommandLine.failure
        }
        environment.writeOutput(parsed.flag("json") ? inspection.json.rendered() + "\n" : inspection.text)
        return SesameCommandLine.success
    }
}

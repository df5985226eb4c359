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
        let reading = SesameCommandLine.reading(name, arguments, spec: spec, usage: Usage.inspect, environment) {
            (parsed) throws(UsageError) in
            let now =
                try parsed.value("at").map { (text) throws(UsageError) -> Date in
                    try ArgumentValues.date(text, option: "at")
                } ?? environment.now()
            return (parsed, now, try ArgumentValues.input(parsed.positional(0), environment: environment))
        }
        guard let (parsed, now, input) = reading.value else { return reading.status }
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

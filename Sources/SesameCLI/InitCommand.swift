import Foundation
import SesameService
import SesameWire

/// `sesame init --data DIR --public-url URL [--json]`.
enum InitCommand {
    static let name = "init"

    static let spec = CommandSpec(options: [
        OptionSpec("data", .single, placeholder: "DIR"),
        OptionSpec("store", .single, placeholder: "URI"),
        OptionSpec("public-url", .single, placeholder: "URL"),
        OptionSpec("json", .flag),
    ])

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let parsed: ParsedArguments
        do throws(UsageError) {
            parsed = try ArgumentParser.parse(arguments, spec: spec)
        } catch {
            return SesameCommandLine.usageError(name, error.message, environment)
        }
        if parsed.helpRequested {
            environment.writeOutput(Usage.initialise)
            return SesameCommandLine.success
        }
        let data = parsed.value("data") ?? environment.variables["SESAME_DATA"] ?? "./data"
        guard let publicURL = parsed.value("public-url") ?? environment.variables["SESAME_PUBLIC_URL"] else {
            return SesameCommandLine.usageError(name, "--public-url is required", environment)
        }
        do {
            _ = try Bootstrap.validatePublicURL(publicURL)
        } catch {
            return SesameCommandLine.usageError(name, "--public-url: \(error.message)", environment)
        }
        let location: StoreLocation
        do throws(UsageError) {
            location = try StoreLocation.parse(parsed.value("store") ?? environment.variables["SESAME_STORE"])
        } catch {
            return SesameCommandLine.usageError(name, error.message, environment)
        }
        let directory = DataDirectory(path: data)
        do {
            let (masterKey, store) = try directory.open(location, variables: environment.variables)
            if try DataDirectory.isInitialised(store) {
                return SesameCommandLine.usageError(
                    name, "\(location == .sqlite ? data : "the store") is already initialised", environment)
            }
            let result = try DataDirectory.initialise(
                store: store, masterKey: masterKey, publicURL: publicURL, now: environment.now())
            if parsed.flag("json") {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let json = String(decoding: try encoder.encode(result), as: UTF8.self)
                environment.writeOutput(json + "\n")
            } else {
                environment.writeOutput(DataDirectory.summary(result, publicURL: publicURL))
            }
            return SesameCommandLine.success
        } catch let error as ServiceError {
            if case .conflict = error {
                return SesameCommandLine.usageError(name, "\(data) is already initialised", environment)
            }
            environment.writeError("sesame: init: \(SesameCommandLine.oneLine(error.message))\n")
            return SesameCommandLine.failure
        } catch {
            environment.writeError("sesame: init: \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return SesameCommandLine.failure
        }
    }
}

import Foundation
import SesameService
import SesameStore

/// `sesame mds import FILE --root ROOT.pem [--data DIR | --store URI] [--force]`: verifies a FIDO
/// Metadata Service BLOB offline against the FIDO root and stores its entries (docs/mds.md).
/// Sesame never downloads the BLOB; the operator does.
///
/// Exit status: 0 imported, 1 the store failed, 2 bad arguments, 3 a file cannot be read,
/// 4 the BLOB or the root was refused (size, form, signature, chain, validity), 5 a rollback
/// (the BLOB's `no` is not greater than the stored one's) refused without `--force`.
enum MetadataCommand {
    static let name = "mds import"
    static let spec = CommandSpec(
        options: [
            OptionSpec("root", .single, placeholder: "FILE"),
            OptionSpec("data", .single, placeholder: "DIR"),
            OptionSpec("store", .single, placeholder: "URI"),
            OptionSpec("force", .flag),
        ], positionals: ["FILE"], requiredPositionals: 1)

    static let unreadable: Int32 = 3
    static let refused: Int32 = 4
    static let rollback: Int32 = 5

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        if let answered = SesameCommandLine.refusingAllBut(
            "import", of: "mds", usage: Usage.mds, arguments, environment)
        {
            return answered
        }
        let parsed: ParsedArguments
        let location: StoreLocation
        let file: String
        let root: String
        let data: String
        do throws(UsageError) {
            parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
            if parsed.helpRequested {
                environment.writeOutput(Usage.mds)
                return SesameCommandLine.success
            }
            guard let path = parsed.positional(0) else { throw UsageError("missing FILE, the metadata BLOB") }
            guard let rootPath = parsed.value("root") else {
                throw UsageError("--root FILE is required: the FIDO root certificate (PEM)")
            }
            let store = parsed.value("store") ?? environment.variables["SESAME_STORE"].flatMap { $0.isEmpty ? nil : $0 }
            location = try StoreLocation.parse(store)
            data =
                parsed.value("data") ?? environment.variables["SESAME_DATA"].flatMap { $0.isEmpty ? nil : $0 }
                ?? "./data"
            file = path
            root = rootPath
        } catch {
            return SesameCommandLine.usageError(name, error.message, environment)
        }
        let blob: [UInt8]
        let rootPEM: String
        do {
            blob = try environment.readFile(file)
            rootPEM = String(decoding: try environment.readFile(root), as: UTF8.self)
        } catch {
            environment.writeError("sesame: mds import: \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return unreadable
        }
        let store: any SesameStore
        do {
            let directory = DataDirectory(path: data)
            if location == .sqlite, !FileManager.default.fileExists(atPath: directory.databasePath) {
                return SesameCommandLine.usageError(
                    name, "\(directory.databasePath) does not exist (run sesame init first, or give --store)",
                    environment)
            }
            store = try directory.openStore(location)
        } catch {
            environment.writeError("sesame: mds import: \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return SesameCommandLine.failure
        }
        let clock = FixedNow(instant: environment.now())
        do {
            let report = try MetadataService(store: store, clock: clock).importBLOB(
                blob, rootPEM: rootPEM, force: parsed.flag("force"))
            var lines = [
                "Imported FIDO metadata BLOB no. \(report.serial)"
                    + (report.previousSerial.map { " (replacing no. \($0))" } ?? "") + ": \(report.entries) entries"
                    + (report.skippedEntries > 0 ? ", \(report.skippedEntries) UAF entries skipped" : "") + ".",
                "Next update: \(report.nextUpdate).",
            ]
            for warning in report.warnings { lines.append("warning: \(SesameCommandLine.oneLine(warning))") }
            environment.writeOutput(lines.joined(separator: "\n") + "\n")
            if report.stale {
                environment.writeError(
                    "sesame: mds import: warning: this BLOB's nextUpdate (\(report.nextUpdate)) has passed; "
                        + "download the current one from FIDO\n")
            }
            return SesameCommandLine.success
        } catch {
            environment.writeError("sesame: mds import: \(SesameCommandLine.oneLine(error.description))\n")
            switch error {
            case .rollback: return rollback
            case .store: return SesameCommandLine.failure
            case .tooLarge, .malformed, .signature, .chain, .root: return refused
            }
        }
    }

    /// The command's one instant (the CLI's clock is the environment's).
    struct FixedNow: ServiceClock {
        let instant: Date
        func now() -> Date { instant }
    }
}

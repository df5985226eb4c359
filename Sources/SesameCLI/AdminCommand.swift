import Foundation
import SesameCrypto
import SesameService
import SesameStore

/// `sesame admin setup-link|list [--data DIR | --store URI] [--tenant ID]`: the admin page's
/// access, from the store directly (whoever can read the data directory or the database runs the
/// tenant anyway). `setup-link` prints a new single-use link that makes whoever claims it an
/// administrator, and revokes the unspent links made before; `list` prints the administrators.
///
/// Exit status: 0 done, 1 the store failed, 2 bad arguments.
enum AdminCommand {
    static let name = "admin"
    static let spec = CommandSpec(options: StoreSelection.options)

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        guard let action = arguments.first, !action.hasPrefix("-") else {
            if arguments.first == "--help" || arguments.first == "-h" {
                environment.writeOutput(Usage.admin)
                return SesameCommandLine.success
            }
            return SesameCommandLine.usageError(name, "missing what to do: setup-link or list", environment)
        }
        guard action == "setup-link" || action == "list" else {
            return SesameCommandLine.usageError(
                name, "unknown action '\(action.prefix(40))' (expected setup-link or list)", environment)
        }
        let command = "\(name) \(action)"
        let selection: StoreSelection
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: spec)
            if parsed.helpRequested {
                environment.writeOutput(Usage.admin)
                return SesameCommandLine.success
            }
            selection = try StoreSelection(parsed, environment.variables)
            if let missing = selection.missing { throw missing }
        } catch {
            return SesameCommandLine.usageError(command, error.message, environment)
        }
        do {
            let store = try selection.open()
            let tenant = try selection.tenant(in: store)
            switch action {
            case "setup-link":
                let access = AdminAccess(store: store, clock: SystemClock(), random: SystemRandom())
                let link = tenant.publicURL + (try access.newSetupLink(tenant: tenant))
                environment.writeOutput(
                    """
                    Open this link within 7 days, signed in as the user who should administer \(tenant.name); it works once.
                      \(link)
                    Earlier unspent setup links no longer work.

                    """)
            default:
                let admins = try AdminAccess(store: store, clock: SystemClock(), random: SystemRandom())
                    .administrators(tenant: tenant)
                if admins.isEmpty {
                    environment.writeOutput(
                        "No administrators yet. Run 'sesame admin setup-link' and open the link it prints.\n")
                }
                var out = ""
                for admin in admins {
                    out +=
                        [admin.id, admin.email ?? "-", admin.name ?? "-"]
                        .map { SesameCommandLine.oneLine($0) }.joined(separator: "  ") + "\n"
                }
                environment.writeOutput(out)
            }
            return SesameCommandLine.success
        } catch let error as UsageError {
            return SesameCommandLine.usageError(command, error.message, environment)
        } catch let error as ServiceError {
            environment.writeError("sesame: \(command): \(SesameCommandLine.oneLine(error.message))\n")
            return SesameCommandLine.failure
        } catch {
            environment.writeError("sesame: \(command): \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return SesameCommandLine.failure
        }
    }
}

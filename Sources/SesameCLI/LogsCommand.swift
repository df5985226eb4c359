import Foundation
import SesameService
import SesameStore

/// `sesame logs [--data DIR | --store URI] [--tenant ID] [--type CODE]… [--user ID] [--take N]
/// [--json]`: the audit log read from the store directly, newest first (docs/audit-log.md). It
/// needs no running server and no token: whoever can read the data directory can read the log.
///
/// Exit status: 0 listed (possibly nothing), 1 the store failed, 2 bad arguments.
enum LogsCommand {
    static let name = "logs"
    static let spec = CommandSpec(
        options: StoreSelection.options + [
            OptionSpec("type", .repeated, placeholder: "CODE"),
            OptionSpec("user", .single, placeholder: "ID"),
            OptionSpec("take", .single, placeholder: "N"),
            OptionSpec("json", .flag),
        ])
    /// The most entries one call prints.
    static let maxTake = 1_000
    static let defaultTake = 50

    struct Request {
        var selection: StoreSelection
        var query: AuditQuery
        var take: Int
        var json: Bool
    }

    static func request(_ parsed: ParsedArguments, _ variables: [String: String]) throws(UsageError) -> Request {
        let selection = try StoreSelection(parsed, variables)
        var query = AuditQuery()
        for code in parsed.all("type") {
            guard let type = AuditEventType(rawValue: code) else {
                throw UsageError("--type \(code.prefix(40)) is not a log event type (docs/audit-log.md lists them)")
            }
            if !query.types.contains(type) { query.types.append(type) }
        }
        if let user = parsed.value("user") {
            guard !user.isEmpty, user.utf8.count <= 256 else { throw UsageError("--user must be a user id") }
            query.userID = user
        }
        var take = defaultTake
        if let text = parsed.value("take") {
            guard let value = Int(text), (1...maxTake).contains(value) else {
                throw UsageError("--take must be an integer from 1 to \(maxTake)")
            }
            take = value
        }
        return Request(selection: selection, query: query, take: take, json: parsed.flag("json"))
    }

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let reading = SesameCommandLine.reading(name, arguments, spec: spec, usage: Usage.logs, environment) {
            (parsed) throws(UsageError) in try Self.request(parsed, environment.variables)
        }
        guard let request = reading.value else { return reading.status }
        if let missing = request.selection.missing {
            return SesameCommandLine.usageError(name, missing.message, environment)
        }
        let entries: [AuditEntry]
        do {
            let store = try request.selection.open()
            let tenant = try request.selection.tenant(in: store)
            entries = try AuditEntry.newest(in: store, tenantID: tenant.id, query: request.query, limit: request.take)
        } catch let error as UsageError {
            return SesameCommandLine.usageError(name, error.message, environment)
        } catch {
            environment.writeError("sesame: logs: \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return SesameCommandLine.failure
        }
        var out = ""
        for entry in entries {
            if request.json {
                out += String(decoding: entry.jsonLine(), as: UTF8.self) + "\n"
            } else {
                out += text(entry) + "\n"
            }
        }
        environment.writeOutput(out)
        return SesameCommandLine.success
    }

    /// One line: date, type, who, client, address, description (`-` for what the entry lacks).
    static func text(_ entry: AuditEntry) -> String {
        let who = entry.userName ?? entry.userID
        let client = entry.clientName ?? entry.clientID
        return [entry.date, entry.type, who ?? "-", client ?? "-", entry.ip ?? "-", entry.description]
            .map { SesameCommandLine.oneLine($0) }.joined(separator: "  ")
    }
}

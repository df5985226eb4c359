import Foundation
import SesameClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sesame api create|list`: registers an app's own backend API (Auth0's resource server) through
/// the Management API of a running server, with the management client `sesame init` printed.
///
/// Exit status: 0 success, 1 the server refused (its `error_description` is shown) or could not be
/// reached, 2 bad arguments. Every message is one line.
enum APICommand {
    static let name = "api"

    static let createSpec = CommandSpec(options: [
        OptionSpec("server", .single, placeholder: "URL"),
        OptionSpec("identifier", .single, placeholder: "AUDIENCE"),
        OptionSpec("name", .single, placeholder: "NAME"),
        OptionSpec("scope", .repeated, placeholder: "VALUE[=DESCRIPTION]"),
        OptionSpec("signing-alg", .single, placeholder: "ALG"),
        OptionSpec("token-lifetime", .single, placeholder: "SECONDS"),
        OptionSpec("allow-offline-access", .flag),
        OptionSpec("client-id", .single, placeholder: "ID"),
        OptionSpec("client-secret-file", .single, placeholder: "FILE"),
        OptionSpec("json", .flag),
    ])

    static let listSpec = CommandSpec(options: [
        OptionSpec("server", .single, placeholder: "URL"),
        OptionSpec("client-id", .single, placeholder: "ID"),
        OptionSpec("client-secret-file", .single, placeholder: "FILE"),
        OptionSpec("json", .flag),
    ])

    static let outboxSpec = CommandSpec(options: [
        OptionSpec("server", .single, placeholder: "URL"),
        OptionSpec("to", .single, placeholder: "ADDRESS"),
        OptionSpec("client-id", .single, placeholder: "ID"),
        OptionSpec("client-secret-file", .single, placeholder: "FILE"),
        OptionSpec("json", .flag),
    ])

    static let statsSpec = CommandSpec(options: [
        OptionSpec("server", .single, placeholder: "URL"),
        OptionSpec("from", .single, placeholder: "YYYY-MM-DD"),
        OptionSpec("to", .single, placeholder: "YYYY-MM-DD"),
        OptionSpec("client", .single, placeholder: "CLIENT_ID"),
        OptionSpec("connection", .single, placeholder: "NAME"),
        OptionSpec("client-id", .single, placeholder: "ID"),
        OptionSpec("client-secret-file", .single, placeholder: "FILE"),
        OptionSpec("json", .flag),
        OptionSpec("csv", .flag),
    ])

    /// The algorithms an API may sign its access tokens with.
    static let algorithms = ["RS256", "ES256", "EdDSA"]

    /// A checked invocation.
    struct Invocation: Sendable {
        enum Action: Sendable {
            /// The JSON body of `POST /api/v2/resource-servers`.
            case create(body: Data)
            case list
            /// `sesame outbox [--to ADDRESS]`.
            case outbox(to: String?)
            /// `sesame stats`: the query string of `GET /api/v2/stats/authentications`.
            case stats(query: String, csv: Bool)
        }
        var action: Action
        var server: String
        var clientID: String
        var clientSecret: String
        var json: Bool
    }

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        execute(parse(arguments, environment: environment), environment: environment)
    }

    /// The same from asynchronous code (tests).
    static func run(_ arguments: [String], environment: CommandEnvironment) async -> Int32 {
        await execute(parse(arguments, environment: environment), environment: environment)
    }

    struct Exit: Error { let status: Int32 }

    /// Runs a checked invocation, or answers the exit status of its arguments.
    static func execute(_ checked: Result<Invocation, Exit>, environment: CommandEnvironment) -> Int32 {
        switch checked {
        case .failure(let exit): return exit.status
        case .success(let invocation):
            return EnvironmentBox.waiting(for: environment) { await execute(invocation, environment: $0) }
        }
    }

    /// The same from asynchronous code (tests).
    static func execute(_ checked: Result<Invocation, Exit>, environment: CommandEnvironment) async -> Int32 {
        switch checked {
        case .failure(let exit): return exit.status
        case .success(let invocation): return await execute(invocation, environment: environment)
        }
    }

    /// The invocation `reading` checked, or the exit status it answered.
    static func checked(_ reading: CommandReading<Invocation>) -> Result<Invocation, Exit> {
        reading.value.map { .success($0) } ?? .failure(Exit(status: reading.status))
    }

    /// `sesame outbox`: the messages the outbox sender kept, through the Management API.
    static func runOutbox(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        execute(parseOutbox(arguments, environment: environment), environment: environment)
    }

    /// The same from asynchronous code (tests).
    static func runOutbox(_ arguments: [String], environment: CommandEnvironment) async -> Int32 {
        await execute(parseOutbox(arguments, environment: environment), environment: environment)
    }

    static func parseOutbox(_ arguments: [String], environment: CommandEnvironment) -> Result<Invocation, Exit> {
        checked(
            SesameCommandLine.reading("outbox", arguments, spec: outboxSpec, usage: Usage.outbox, environment) {
                (parsed) throws(UsageError) in
                var base = try self.invocation("list", parsed, environment: environment)
                if let to = parsed.value("to"), to.isEmpty || to.utf8.count > 254 {
                    throw UsageError("--to must be an email address or phone number")
                }
                base.action = .outbox(to: parsed.value("to"))
                return base
            })
    }

    /// `sesame stats`: the adoption statistics, through the Management API.
    static func runStats(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        execute(parseStats(arguments, environment: environment), environment: environment)
    }

    /// The same from asynchronous code (tests).
    static func runStats(_ arguments: [String], environment: CommandEnvironment) async -> Int32 {
        await execute(parseStats(arguments, environment: environment), environment: environment)
    }

    static func parseStats(_ arguments: [String], environment: CommandEnvironment) -> Result<Invocation, Exit> {
        checked(
            SesameCommandLine.reading("stats", arguments, spec: statsSpec, usage: Usage.stats, environment) {
                (parsed) throws(UsageError) in try stats(parsed, environment: environment)
            })
    }

    /// The invocation of `sesame stats`.
    private static func stats(_ parsed: ParsedArguments, environment: CommandEnvironment) throws(UsageError)
        -> Invocation
    {
        // The query's own arguments first: they are wrong whatever the credentials.
        var query: [String] = []
        for (option, name) in [("from", "from"), ("to", "to")] {
            guard let value = parsed.value(option) else { continue }
            guard Self.isDate(value) else { throw UsageError("--\(option) must be a date like 2027-01-15") }
            query.append("\(name)=\(value)")
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        for (option, name) in [("client", "client_id"), ("connection", "connection")] {
            guard let value = parsed.value(option) else { continue }
            guard !value.isEmpty, value.utf8.count <= 128 else {
                throw UsageError("--\(option) must be 1 to 128 characters")
            }
            query.append("\(name)=" + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""))
        }
        let csv = parsed.flag("csv")
        if csv, parsed.flag("json") { throw UsageError("--csv and --json cannot be used together") }
        var base = try self.invocation("list", parsed, environment: environment)
        base.action = .stats(query: query.joined(separator: "&"), csv: csv)
        return base
    }

    /// `YYYY-MM-DD` in shape (the server checks that the day exists).
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    static func parse(_ arguments: [String], environment: CommandEnvironment) -> Result<Invocation, Exit> {
        guard let verb = arguments.first else {
            return .failure(Exit(status: usage("missing what to do: create or list", environment)))
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "--help", "-h", "help":
            environment.writeOutput(Usage.api)
            return .failure(Exit(status: SesameCommandLine.success))
        case "create", "list":
            return checked(
                SesameCommandLine.reading(
                    "api \(verb)", rest, spec: verb == "create" ? createSpec : listSpec, usage: Usage.api, environment
                ) { (parsed) throws(UsageError) in try invocation(verb, parsed, environment: environment) })
        default:
            return .failure(
                Exit(status: usage("unknown action '\(verb)' (expected create or list)", environment)))
        }
    }

    private static func usage(_ message: String, _ environment: CommandEnvironment) -> Int32 {
        SesameCommandLine.usageError(name, message, environment)
    }

    private static func invocation(
        _ verb: String, _ parsed: ParsedArguments, environment: CommandEnvironment
    ) throws(UsageError) -> Invocation {
        guard let serverText = parsed.value("server") ?? environment.variables["SESAME_SERVER"] else {
            throw UsageError("--server is required")
        }
        let server = try ClientArguments.server(serverText)
        guard let clientID = parsed.value("client-id") ?? environment.variables["SESAME_MANAGEMENT_CLIENT_ID"],
            !clientID.isEmpty
        else {
            throw UsageError("--client-id (or SESAME_MANAGEMENT_CLIENT_ID) is required: the management client")
        }
        let secret: String
        if let file = parsed.value("client-secret-file") {
            guard let bytes = try? environment.readFile(file),
                let text = String(validating: bytes, as: UTF8.self)
            else {
                throw UsageError("--client-secret-file: cannot read \(file)")
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            secret = environment.variables["SESAME_MANAGEMENT_CLIENT_SECRET"] ?? ""
        }
        guard !secret.isEmpty else {
            throw UsageError("--client-secret-file (or SESAME_MANAGEMENT_CLIENT_SECRET) is required")
        }
        let json = parsed.flag("json")
        guard verb == "create" else {
            return Invocation(action: .list, server: server, clientID: clientID, clientSecret: secret, json: json)
        }
        guard let identifier = parsed.value("identifier"), !identifier.isEmpty else {
            throw UsageError("--identifier is required: the API's audience, e.g. https://api.example.com/")
        }
        var body: [String: Any] = ["identifier": identifier]
        if let name = parsed.value("name") { body["name"] = name }
        var scopes: [[String: String]] = []
        for text in parsed.values["scope"] ?? [] {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let value = parts.first, !value.isEmpty, !value.contains(" ") else {
                throw UsageError("--scope '\(text)' must be VALUE or VALUE=DESCRIPTION, e.g. read:orders=Read orders")
            }
            var scope = ["value": String(value)]
            if parts.count == 2 { scope["description"] = String(parts[1]) }
            scopes.append(scope)
        }
        if !scopes.isEmpty { body["scopes"] = scopes }
        if let algorithm = parsed.value("signing-alg") {
            guard algorithms.contains(algorithm) else {
                throw UsageError("--signing-alg must be one of \(algorithms.joined(separator: ", "))")
            }
            body["signing_alg"] = algorithm
        }
        if let text = parsed.value("token-lifetime") {
            guard let seconds = Int(text), (60...2_592_000).contains(seconds) else {
                throw UsageError("--token-lifetime must be an integer from 60 to 2592000 seconds")
            }
            body["token_lifetime"] = seconds
        }
        if parsed.flag("allow-offline-access") { body["allow_offline_access"] = true }
        guard let encoded = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) else {
            throw UsageError("the arguments cannot be written as JSON")
        }
        return Invocation(
            action: .create(body: encoded), server: server, clientID: clientID, clientSecret: secret, json: json)
    }

    static func execute(_ invocation: Invocation, environment: CommandEnvironment) async -> Int32 {
        do throws(ClientFailure) {
            let token = try await managementToken(invocation)
            switch invocation.action {
            case .create(let body):
                let (status, data) = try await send(
                    "POST", invocation.server + "/api/v2/resource-servers", body: body, bearer: token)
                guard status == 201 else { throw failure(status, data) }
                let created = try object(data)
                if invocation.json {
                    environment.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
                } else {
                    environment.writeOutput(summary(created))
                }
            case .outbox(let to):
                var url = invocation.server + "/api/v2/outbox?per_page=100"
                if let to {
                    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~@"))
                    url += "&to=" + (to.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
                }
                let (status, data) = try await send("GET", url, body: nil, bearer: token)
                guard status == 200 else { throw failure(status, data) }
                if invocation.json {
                    environment.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
                } else {
                    let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
                    environment.writeOutput(list.isEmpty ? "No messages.\n" : list.map(message).joined())
                }
            case .stats(let query, let csv):
                var url = invocation.server + "/api/v2/stats/authentications"
                let parameters = [query, csv ? "format=csv" : ""].filter { !$0.isEmpty }.joined(separator: "&")
                if !parameters.isEmpty { url += "?" + parameters }
                let (status, data) = try await send("GET", url, body: nil, bearer: token)
                guard status == 200 else { throw failure(status, data) }
                if csv || invocation.json {
                    let text = String(decoding: data, as: UTF8.self)
                    environment.writeOutput(csv ? text : text + "\n")
                } else {
                    environment.writeOutput(StatsTable.text(try object(data)))
                }
            case .list:
                let (status, data) = try await send(
                    "GET", invocation.server + "/api/v2/resource-servers", body: nil, bearer: token)
                guard status == 200 else { throw failure(status, data) }
                if invocation.json {
                    environment.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
                } else {
                    let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
                    environment.writeOutput(list.isEmpty ? "No APIs.\n" : list.map(summary).joined())
                }
            }
            return SesameCommandLine.success
        } catch {
            let command: String
            switch invocation.action {
            case .outbox: command = "outbox"
            case .stats: command = "stats"
            case .create, .list: command = "api"
            }
            environment.writeError("sesame: \(command): \(SesameCommandLine.oneLine(error.message))\n")
            return SesameCommandLine.failure
        }
    }

    /// A client-credentials token for the server's Management API.
    private static func managementToken(_ invocation: Invocation) async throws(ClientFailure) -> String {
        let fields = [
            "grant_type": "client_credentials", "client_id": invocation.clientID,
            "client_secret": invocation.clientSecret, "audience": invocation.server + "/api/v2/",
        ]
        guard let body = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
            throw ClientFailure("the token request cannot be written as JSON")
        }
        let (status, data) = try await send("POST", invocation.server + "/oauth/token", body: body, bearer: nil)
        guard status == 200, let token = (try? object(data))?["access_token"] as? String else {
            throw failure(status, data)
        }
        return token
    }

    private static func send(
        _ method: String, _ url: String, body: Data?, bearer: String?
    ) async throws(ClientFailure) -> (Int, Data) {
        guard let target = URL(string: url) else { throw ClientFailure("cannot build a URL from \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.timeoutInterval = 15
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        do {
            let (data, response) = try await URLSessionTransport().send(request)
            return (response.statusCode, data)
        } catch {
            throw ClientFailure("cannot reach \(url): \(ClientFailure.describe(error))")
        }
    }

    private static func object(_ data: Data) throws(ClientFailure) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ClientFailure("the server's answer is not a JSON object")
        }
        return object
    }

    private static func failure(_ status: Int, _ data: Data) -> ClientFailure {
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let text = body?["error_description"] as? String ?? body?["error"] as? String ?? "HTTP \(status)"
        return ClientFailure("the server refused (HTTP \(status)): \(text)")
    }

    /// One kept message: when, how, to whom, and its text indented.
    private static func message(_ message: [String: Any]) -> String {
        let head =
            "\(message["created_at"] as? String ?? "") \(message["channel"] as? String ?? "") "
            + "\(message["template"] as? String ?? "") to \(message["to"] as? String ?? "")"
        let text = (message["text"] as? String ?? "(sealed under another master key)")
            .split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        return head + "\n" + text + "\n"
    }

    private static func summary(_ api: [String: Any]) -> String {
        let scopes = (api["scopes"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        return """
            API \(api["name"] as? String ?? "") (\(api["id"] as? String ?? ""))
              identifier (aud): \(api["identifier"] as? String ?? "")
              scopes: \(scopes.isEmpty ? "(none)" : scopes.joined(separator: " "))
              access tokens: \(api["signing_alg"] as? String ?? ""), \(api["token_lifetime"] as? Int ?? 0) s, \
            refresh tokens \((api["allow_offline_access"] as? Bool ?? false) ? "allowed" : "not allowed")

            """
    }
}

import Foundation
import SesameCrypto
import SesameHTTP
import SesameSQLite
import SesameService
import SesameStore
import Testing

@testable import SesameCLI

/// Runs the client commands in-process with their own state directory, without blocking a thread.
struct ClientCLI {
    /// The state directory (`SESAME_CONFIG_DIR`); removed by `removeState()`.
    let stateDirectory: String
    /// More environment variables (e.g. `SESAME_TIMEOUT`).
    var variables: [String: String] = [:]

    init() {
        stateDirectory =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "sesame-cli-state-\(UUID().uuidString)"
            ).path
    }

    func path(_ name: String) -> String { (stateDirectory as NSString).appendingPathComponent(name) }

    func removeState() { try? FileManager.default.removeItem(atPath: stateDirectory) }

    /// Runs `sesame <arguments>` for one of the client commands.
    func run(_ arguments: [String]) async -> CLIRun {
        final class Buffers {
            var out = ""
            var err = ""
        }
        let buffers = Buffers()
        var environment = CommandEnvironment(
            readStandardInput: { [] }, readFile: CommandEnvironment.process.readFile,
            writeOutput: { buffers.out += $0 }, writeError: { buffers.err += $0 }, now: { Date() })
        environment.variables = variables.merging(["SESAME_CONFIG_DIR": stateDirectory]) { first, _ in first }
        let status = await ClientCommands.run(
            arguments.first ?? "", Array(arguments.dropFirst()), environment: environment)
        return CLIRun(status: status, stdout: buffers.out, stderr: buffers.err)
    }

    /// The file mode of a state file.
    func mode(_ name: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path(name))[.posixPermissions] as? Int
    }
}

/// A real Sesame server on SQLite on a loopback port, bootstrapped with a tenant whose public URL is
/// `http://localhost:<port>` (the CLI's `--server`).
final class ClientLiveServer: @unchecked Sendable {  // immutable after init; the server is thread-safe
    let directory: URL
    let store: SQLiteStore
    let application: SesameApplication
    let server: HTTPServer
    let bootstrap: BootstrapResult
    var url: String { "http://localhost:\(server.port)" }
    var clientID: String { bootstrap.clientID }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sesame-cli-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("sesame.db").path)
        let masterKey = try MasterKey.generate()
        application = SesameApplication(store: store, masterKey: masterKey, rateLimitPerMinute: 0)
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.threads = 2
        server = try HTTPServer(
            configuration: configuration, router: application.router(), metrics: application.metrics,
            log: RequestLog(level: .error, sink: { _ in }))
        let tenant: TenantRecord
        (bootstrap, tenant) = try Bootstrap.initialize(
            store: store, publicURL: "http://localhost:\(server.port)", random: SystemRandom(), now: Date())
        try SigningKeyRing(store: store, masterKey: masterKey, clock: SystemClock()).ensureKeys(tenantID: tenant.id)
    }

    deinit {
        server.stop(gracePeriod: 1)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A loopback port nothing listens on: a server is started on port 0 and stopped again.
func closedLoopbackURL() throws -> String {
    let live = try ClientLiveServer()
    let url = "http://127.0.0.1:\(live.server.port)"
    live.server.stop(gracePeriod: 0)
    return url
}

import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore
import SesameTesting
import Testing

@testable import SesameCLI

/// Runs the client commands in-process with their own state directory, without blocking a thread.
struct ClientCLI {
    /// The state directory (`SESAME_CONFIG_DIR`); removed by `removeState()`.
    let stateDirectory: String
    /// More environment variables (e.g. `SESAME_TIMEOUT`).
    var variables: [String: String] = [:]
    /// Lines of standard input, by index, given what the command printed so far (nil: the end).
    var standardInput: @Sendable (Int, String) -> String? = { _, _ in nil }
    /// Lines typed at the terminal, by index (prompt and whether echo is off are recorded).
    var terminal: @Sendable (Int, String, Bool) -> String? = { _, _, _ in nil }

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
            var stdinRead = 0
            var typed = 0
        }
        let buffers = Buffers()
        var environment = CommandEnvironment(
            readStandardInput: { [] }, readFile: CommandEnvironment.process.readFile,
            writeOutput: { buffers.out += $0 }, writeError: { buffers.err += $0 }, now: { Date() })
        let standardInput = self.standardInput
        let terminal = self.terminal
        environment.readStandardInputLine = {
            defer { buffers.stdinRead += 1 }
            return standardInput(buffers.stdinRead, buffers.out)
        }
        environment.readTerminalLine = { prompt, secret in
            defer { buffers.typed += 1 }
            return terminal(buffers.typed, prompt, secret)
        }
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

/// `TestSesame` live on SQLite with the tenant at `http://localhost:<port>` (the CLI's `--server`)
/// and its signing keys made, on the system clock (the CLI checks token times against it).
final class ClientLiveServer: @unchecked Sendable {  // immutable after init; the server is thread-safe
    let sesame: TestSesame
    var store: any SesameStore { sesame.store }
    var application: SesameApplication { sesame.application }
    let server: HTTPServer
    var bootstrap: BootstrapResult { sesame.bootstrap }
    var url: String { "http://localhost:\(server.port)" }
    var clientID: String { bootstrap.clientID }

    init() throws {
        var options = TestSesame.Options()
        options.start = Date()
        sesame = try TestSesame(.live(), store: .sqlite, options: options)
        server = try sesame.liveServer
        try SigningKeyRing(store: sesame.store, masterKey: sesame.masterKey, clock: SystemClock())
            .ensureKeys(tenantID: sesame.tenant.id)
    }
}

/// A loopback port nothing listens on: a server is started on port 0 and stopped again.
func closedLoopbackURL() throws -> String {
    let live = try ClientLiveServer()
    let url = "http://127.0.0.1:\(live.server.port)"
    live.server.stop(gracePeriod: 0)
    return url
}

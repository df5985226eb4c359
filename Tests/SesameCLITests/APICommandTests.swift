import Foundation
import Testing

@testable import SesameCLI

/// `sesame api create|list` against a live server, and its argument errors.
@Suite("sesame api")
struct APICommandTests {
    /// Runs `sesame api …` in-process with `variables`.
    static func run(_ arguments: [String], variables: [String: String] = [:]) async -> CLIRun {
        final class Buffers: @unchecked Sendable {
            var out = ""
            var err = ""
        }
        let buffers = Buffers()
        var environment = CommandEnvironment(
            readStandardInput: { [] }, readFile: CommandEnvironment.process.readFile,
            writeOutput: { buffers.out += $0 }, writeError: { buffers.err += $0 }, now: { Date() })
        environment.variables = variables
        let status = await APICommand.run(arguments, environment: environment)
        return CLIRun(status: status, stdout: buffers.out, stderr: buffers.err)
    }

    @Test func createsAndListsAnAPIWithTheManagementClient() async throws {
        let live = try ClientLiveServer()
        let credentials = [
            "SESAME_MANAGEMENT_CLIENT_ID": live.bootstrap.managementClientID,
            "SESAME_MANAGEMENT_CLIENT_SECRET": live.bootstrap.managementClientSecret,
        ]
        let created = await Self.run(
            [
                "create", "--server", live.url, "--identifier", "https://orders.example.com/", "--name", "Orders",
                "--scope", "read:orders=Read your orders", "--scope", "write:orders", "--signing-alg", "ES256",
                "--token-lifetime", "600", "--allow-offline-access",
            ], variables: credentials)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.hasPrefix("API Orders (rs_"))
        #expect(created.stdout.contains("identifier (aud): https://orders.example.com/\n"))
        #expect(created.stdout.contains("scopes: read:orders write:orders\n"))
        #expect(created.stdout.contains("access tokens: ES256, 600 s, refresh tokens allowed\n"))

        let list = await Self.run(["list", "--server", live.url, "--json"], variables: credentials)
        #expect(list.status == 0, "\(list.stderr)")
        let apis = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(apis.count == 1)
        #expect(
            (apis.first?["scopes"] as? [[String: Any]])?.first?["description"] as? String == "Read your orders")

        // The server's refusal is one line and exit status 1.
        let again = await Self.run(
            ["create", "--server", live.url, "--identifier", "https://orders.example.com/"], variables: credentials)
        #expect(again.status == 1)
        #expect(
            again.stderr == "sesame: api: the server refused (HTTP 409): an API with this identifier already exists\n")
        let wrongSecret = await Self.run(
            ["list", "--server", live.url],
            variables: [
                "SESAME_MANAGEMENT_CLIENT_ID": live.bootstrap.managementClientID,
                "SESAME_MANAGEMENT_CLIENT_SECRET": "nope",
            ])
        #expect(wrongSecret.status == 1)
        #expect(wrongSecret.stderr.hasPrefix("sesame: api: the server refused (HTTP 401)"))
    }

    @Test(arguments: [
        ([], "sesame: api: missing what to do: create or list"),
        (["drop"], "sesame: api: unknown action 'drop' (expected create or list)"),
        (["create", "--identifier", "urn:x"], "sesame: api create: --server is required"),
        (
            ["create", "--server", "ftp://x", "--identifier", "urn:x"],
            "sesame: api create: --server 'ftp://x' must be http(s)://host[:port], e.g. http://localhost:8080"
        ),
        (
            ["create", "--server", "http://localhost:1"],
            "sesame: api create: --identifier is required: the API's audience, e.g. https://api.example.com/"
        ),
        (
            ["create", "--server", "http://localhost:1", "--identifier", "urn:x", "--signing-alg", "HS256"],
            "sesame: api create: --signing-alg must be one of RS256, ES256, EdDSA"
        ),
        (
            ["create", "--server", "http://localhost:1", "--identifier", "urn:x", "--token-lifetime", "5"],
            "sesame: api create: --token-lifetime must be an integer from 60 to 2592000 seconds"
        ),
        (
            ["create", "--server", "http://localhost:1", "--identifier", "urn:x", "--scope", "=x"],
            "sesame: api create: --scope '=x' must be VALUE or VALUE=DESCRIPTION, e.g. read:orders=Read orders"
        ),
        (["list", "--server", "http://localhost:1", "--bogus"], "sesame: api list: unknown option '--bogus'"),
    ])
    func badArgumentsAreOneLineAndExitTwo(arguments: [String], message: String) async {
        let variables = ["SESAME_MANAGEMENT_CLIENT_ID": "m2m", "SESAME_MANAGEMENT_CLIENT_SECRET": "secret"]
        let result = await Self.run(arguments, variables: variables)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func credentialsAreRequired() async {
        let result = await Self.run(["list", "--server", "http://localhost:1"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "sesame: api list: --client-id (or SESAME_MANAGEMENT_CLIENT_ID) is required: the management client\n"
        )
    }
}

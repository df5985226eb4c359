import Foundation
import SesameClient
import SesameSoftwarePasskey
import Testing

@testable import SesameCLI

/// `sesame signup`, `login`, `token …` and `passkeys …`: parsing, state and output offline, and
/// every flow end to end against a live server on loopback.
@Suite("client commands")
struct ClientCommandTests {
    // MARK: Arguments

    @Test(
        arguments: [
            (["signup"], "sesame: signup: --server is required"),
            (
                ["signup", "--server", "http://localhost:8080", "--client-id", "c"],
                "sesame: signup: --email is required"
            ),
            (
                ["signup", "--server", "localhost:8080", "--client-id", "c", "--email", "a@b.c"],
                "sesame: signup: --server 'localhost:8080' must be http(s)://host[:port], e.g. http://localhost:8080"
            ),
            (
                ["signup", "--server", "http://localhost:8080/path", "--client-id", "c", "--email", "a@b.c"],
                "sesame: signup: --server 'http://localhost:8080/path' must be http(s)://host[:port], e.g. http://localhost:8080"
            ),
            (
                ["signup", "--server", "http://localhost:8080", "--client-id", "c", "--email", "alice"],
                "sesame: signup: --email 'alice' is not an email address"
            ),
            (
                [
                    "signup", "--server", "http://localhost:8080", "--client-id", "c", "--email", "a@b.c", "--origin",
                    "x",
                ],
                "sesame: signup: --origin 'x' must be http(s)://host[:port] or android:apk-key-hash:HASH"
            ),
            (
                ["signup", "--server", "http://localhost:8080", "--client-id", "c", "--email", "a@b.c", "--json=yes"],
                "sesame: signup: --json does not take a value"
            ),
            (["login", "--server"], "sesame: login: --server needs a value"),
            (["login", "--bogus"], "sesame: login: unknown option '--bogus'"),
            (["login", "extra"], "sesame: login: unexpected argument 'extra'"),
            (["token"], "sesame: token: missing what to do: show, refresh or revoke"),
            (["token", "print"], "sesame: token: unknown action 'print' (expected show, refresh or revoke)"),
            (["token", "show", "--server", "x"], "sesame: token show: unknown option '--server'"),
            (["token", "refresh", "now"], "sesame: token refresh: unexpected argument 'now'"),
            (["passkeys"], "sesame: passkeys: missing what to do: list, rename or delete"),
            (["passkeys", "add"], "sesame: passkeys: unknown action 'add' (expected list, rename or delete)"),
            (["passkeys", "rename", "passkey|1"], "sesame: passkeys rename: NAME is required"),
            (["passkeys", "rename"], "sesame: passkeys rename: ID is required"),
            (["passkeys", "delete"], "sesame: passkeys delete: ID is required"),
            (["passkeys", "delete", "a", "b"], "sesame: passkeys delete: unexpected argument 'b'"),
            (["passkeys", "list", "--json", "--json"], "sesame: passkeys list: --json is given more than once"),
        ] as [([String], String)])
    func badArgumentsExitTwoWithOneLine(arguments: [String], message: String) {
        let run = CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines == [Substring(message)])
        #expect(run.stdout.isEmpty)
    }

    @Test func renameRefusesAnOverlongName() {
        let run = CLI.run(["passkeys", "rename", "passkey|1", String(repeating: "n", count: 101)])
        #expect(run.status == 2)
        #expect(run.stderrLines == ["sesame: passkeys rename: NAME must be 1 to 100 characters"])
    }

    @Test func parsedInvocations() throws {
        let signup = try ClientInvocation.parse(
            "signup",
            ["--server", "HTTP://LocalHost:8080/", "--client-id", "c1", "--email", "a@b.c", "--name", "A", "--json"])
        var expected = ClientInvocation(action: .signup(email: "a@b.c", name: "A"), json: true)
        expected.server = "http://localhost:8080"
        expected.clientID = "c1"
        #expect(signup == .run(expected))
        #expect(try ClientInvocation.parse("token", ["show"]) == .run(ClientInvocation(action: .tokenShow)))
        #expect(
            try ClientInvocation.parse("passkeys", ["rename", "passkey|x", "--", "--odd name"])
                == .run(ClientInvocation(action: .passkeysRename(id: "passkey|x", name: "--odd name"))))
        #expect(try ClientInvocation.parse("passkeys", ["delete", "--help"]) == .help(Usage.passkeys))
    }

    @Test func serverAndOriginNormalisation() throws {
        #expect(try ClientArguments.server("https://login.example.com:443") == "https://login.example.com")
        #expect(try ClientArguments.server("http://127.0.0.1:8080") == "http://127.0.0.1:8080")
        #expect(try ClientArguments.server("http://[::1]:8080/") == "http://[::1]:8080")
        #expect(throws: UsageError.self) { try ClientArguments.server("http://localhost:8080?x=1") }
        #expect(throws: UsageError.self) { try ClientArguments.server("http://user@localhost") }
        #expect(try ClientArguments.origin("android:apk-key-hash:abc") == "android:apk-key-hash:abc")
        #expect(throws: UsageError.self) { try ClientArguments.origin("android:apk-key-hash:") }
    }

    @Test func helpForEachCommand() {
        for topic in ["signup", "login", "token", "passkeys"] {
            let run = CLI.run(["help", topic])
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("usage: sesame \(topic)"), "\(topic)")
        }
        #expect(CLI.run(["token", "--help"]).stdout == Usage.token)
        #expect(CLI.run(["signup", "--help"]).stdout == Usage.signup)
        #expect(CLI.run(["--help"]).stdout.contains("passkeys list|rename|delete"))
    }

    // MARK: State

    @Test func stateDirectoryComesFromTheEnvironment() throws {
        #expect(
            try ClientState.locate(variables: ["SESAME_CONFIG_DIR": "/s", "XDG_CONFIG_HOME": "/x"]).directory == "/s")
        #expect(try ClientState.locate(variables: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).directory == "/x/sesame")
        #expect(
            try ClientState.locate(variables: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]).directory == "/h/.config/sesame"
        )
        #expect(
            try ClientState.locate(variables: ["XDG_CONFIG_HOME": "", "HOME": "/h"]).directory == "/h/.config/sesame")
        #expect(throws: ClientFailure("cannot find a config directory: set XDG_CONFIG_HOME or HOME")) {
            try ClientState.locate(variables: [:])
        }
    }

    @Test func configRoundTripsWithMode0600InA0700Directory() throws {
        let cli = ClientCLI()
        defer { cli.removeState() }
        let state = ClientState(directory: cli.stateDirectory)
        #expect(try state.loadConfig() == nil)
        let config = ClientConfig(
            server: "http://localhost:8080", clientID: "c1", origin: nil, credentialID: "AAAA", email: "a@b.c")
        try state.saveConfig(config)
        #expect(try state.loadConfig() == config)
        #expect(try cli.mode("config.json") == 0o600)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: cli.stateDirectory)[.posixPermissions]
        #expect(directoryMode as? Int == 0o700)
        let text = try String(contentsOfFile: state.configPath, encoding: .utf8)
        #expect(text.contains(#""client_id" : "c1""#))
    }

    @Test func aCorruptConfigIsAClearErrorNotALoss() async throws {
        let cli = ClientCLI()
        defer { cli.removeState() }
        try FileManager.default.createDirectory(atPath: cli.stateDirectory, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: cli.path("config.json")))
        let run = await cli.run(["token", "show"])
        #expect(run.status == 1)
        #expect(
            run.stderrLines == [
                "sesame: token show: \(cli.path("config.json")) is not a valid sesame config; fix or remove it"
            ])
        #expect(try String(contentsOfFile: cli.path("config.json"), encoding: .utf8) == "{not json")
    }

    @Test func withoutStateTheCommandsSayHowToSignIn() async {
        let cli = ClientCLI()
        defer { cli.removeState() }
        for command in [["token", "show"], ["token", "refresh"], ["token", "revoke"], ["passkeys", "list"]] {
            let run = await cli.run(command)
            #expect(run.status == 1)
            #expect(
                run.stderrLines == [
                    "sesame: \(command.joined(separator: " ")): not signed in: run 'sesame signup' or 'sesame login' first"
                ])
        }
        let login = await cli.run(["login"])
        #expect(login.status == 2)
        #expect(
            login.stderrLines == ["sesame: login: --server is required (no saved server: run 'sesame signup' first)"])
        let noClient = await cli.run(["login", "--server", "http://localhost:8080"])
        #expect(noClient.status == 2)
        #expect(
            noClient.stderrLines == [
                "sesame: login: --client-id is required (no client saved for http://localhost:8080)"
            ])
    }

    @Test func loginUsesTheSavedClientOnlyForTheSavedServer() throws {
        let saved = ClientConfig(
            server: "http://localhost:8080", clientID: "c1", origin: "https://app.example", credentialID: "K",
            email: "a@b.c")
        let plain = try ClientCommands.loginConfig(ClientInvocation(action: .login), saved: saved)
        #expect(plain == saved)
        var other = ClientInvocation(action: .login)
        other.server = "http://localhost:9090"
        #expect(throws: ClientUsageError.self) { try ClientCommands.loginConfig(other, saved: saved) }
        other.clientID = "c2"
        #expect(
            try ClientCommands.loginConfig(other, saved: saved)
                == ClientConfig(
                    server: "http://localhost:9090", clientID: "c2", origin: nil, credentialID: nil, email: nil))
    }

    // MARK: Output

    static let sampleCredentials = Credentials(
        accessToken: "header.eyJzdWIiOiJ1c2VyLTEifQ.signature", tokenType: "Bearer", idToken: nil,
        refreshToken: "r1", expiresAt: Date(timeIntervalSince1970: 1_700_000_600), scope: "openid offline_access")

    @Test func tokenJSONHasStableKeysAndNoRefreshToken() throws {
        let config = ClientConfig(
            server: "http://localhost:8080", clientID: "c1", origin: nil, credentialID: nil, email: nil)
        let text = ClientOutput.Token(config: config, credentials: Self.sampleCredentials, rotated: nil)
            .json(now: Date(timeIntervalSince1970: 1_700_000_000))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "server", "client_id", "user_id", "email", "token_type", "access_token", "expires_at", "expired",
                "scope",
                "has_refresh_token",
            ])
        #expect(object["user_id"] as? String == "user-1")
        #expect(object["expires_at"] as? String == "2023-11-14T22:23:20Z")
        #expect(object["expired"] as? Bool == false)
        #expect(!text.contains("r1"))
    }

    @Test func tokenTextSaysWhenItExpires() {
        let config = ClientConfig(
            server: "http://localhost:8080", clientID: "c1", origin: nil, credentialID: nil, email: nil)
        let text = ClientOutput.Token(config: config, credentials: Self.sampleCredentials, rotated: true)
            .text(now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(
            text == """
                Refreshed the access token (the refresh token was rotated).
                Signed in to http://localhost:8080 as user-1.
                  access token   header.eyJzd…ignature (--json prints it whole)
                  expires        2023-11-14T22:23:20Z (in 10 min)
                  scope          openid offline_access
                  refresh token  saved

                """)
        #expect(
            ClientOutput.expiry(Date(timeIntervalSince1970: 100), now: Date(timeIntervalSince1970: 130)).hasSuffix(
                "(expired 30 s ago)"))
    }

    @Test func passkeyTableMarksTheLocalKey() {
        let passkeys = [
            PasskeyAuthenticationMethod(
                id: "passkey|1", name: "Laptop", createdAt: Date(timeIntervalSince1970: 0), lastAuthAt: nil,
                keyID: "K1",
                aaguid: nil, credentialDeviceType: "single_device", credentialBackedUp: false, transports: [],
                userHandle: nil),
            PasskeyAuthenticationMethod(
                id: "passkey|22", name: "", createdAt: nil, lastAuthAt: Date(timeIntervalSince1970: 60), keyID: "K2",
                aaguid: nil, credentialDeviceType: nil, credentialBackedUp: true, transports: ["internal"],
                userHandle: nil),
        ]
        #expect(
            ClientOutput.passkeysText(passkeys, local: ["K1"]) == """
                  ID          NAME    CREATED               LAST USED
                * passkey|1   Laptop  1970-01-01T00:00:00Z  never
                  passkey|22  -       -                     1970-01-01T00:01:00Z
                2 passkeys; * = its key is in this CLI's key store.

                """)
        #expect(ClientOutput.passkeysText([], local: []) == "No passkeys.\n")
    }
}

import Foundation
import SesamePostgres
import SesameTesting
import Testing

@testable import SesameCLI

/// `sesame init` and `sesame serve` argument handling (the server itself is tested live elsewhere).
@Suite("init and serve commands")
struct ServerCommandTests {
    func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sesame-cli-\(UUID().uuidString)").path
    }

    @Test func initPrintsExactlyTheSevenKeysOnceAndRefusesASecondTime() throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = CLI.run(["init", "--data", data, "--public-url", "https://login.example.com", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let json = try first.json()
        #expect(
            Set(json.keys) == [
                "tenant", "rp_id", "connection", "client_id", "management_client_id", "management_client_secret",
                "admin_setup_url",
            ])
        #expect(json["rp_id"] as? String == "login.example.com")
        let setup = try #require(json["admin_setup_url"] as? String)
        #expect(setup.hasPrefix("https://login.example.com/admin/setup?token="))
        #expect(setup.count > "https://login.example.com/admin/setup?token=".count + 40)
        #expect(json["connection"] as? String == "Username-Password-Authentication")
        let mode = try FileManager.default.attributesOfItem(atPath: data + "/master.key")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = CLI.run(["init", "--data", data, "--public-url", "https://login.example.com", "--json"])
        #expect(again.status == 2)
        #expect(again.stderrLines == ["sesame: init: \(data) is already initialised"])
        #expect(again.stdout.isEmpty)
    }

    /// `sesame init --store postgres://…`: the tenant goes into PostgreSQL (a schema of its own on
    /// the test server), the master key still into `--data`; a second init is refused.
    @Test(.enabled(if: TestPostgres.dsn != nil))
    func initOnPostgreSQL() throws {
        let schema = try PostgresTestSchema(prefix: "c_")
        let uri = schema.dsn
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = CLI.run([
            "init", "--store", uri, "--data", data, "--public-url", "https://login.example.com", "--json",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try first.json()["rp_id"] as? String == "login.example.com")
        #expect(FileManager.default.fileExists(atPath: data + "/master.key"))
        #expect(!FileManager.default.fileExists(atPath: data + "/sesame.db"))
        let store = try PostgresStore(dsn: uri)
        #expect(try store.read { try $0.tenants.all() }.map(\.rpID) == ["login.example.com"])
        let again = CLI.run(["init", "--store", uri, "--data", data, "--public-url", "https://login.example.com"])
        #expect(again.status == 2)
        #expect(again.stderrLines == ["sesame: init: the store is already initialised"])
    }

    /// With the master key in the environment, `init --store postgres://…` keeps nothing on disk:
    /// no data directory appears (a `./data` left in the working directory confused operators).
    @Test(.enabled(if: TestPostgres.dsn != nil))
    func initOnPostgreSQLWithTheKeyInTheEnvironmentMakesNoDirectory() throws {
        let schema = try PostgresTestSchema(prefix: "k_")
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let key = String(repeating: "09", count: 32)
        let run = CLI.run(
            ["init", "--store", schema.dsn, "--data", data, "--public-url", "https://login.example.com", "--json"],
            variables: ["SESAME_MASTER_KEY": key])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data), "nothing was made on disk")
        // Without the key in the environment, the directory holds master.key.
        let other = try PostgresTestSchema(prefix: "k2_")
        let second = CLI.run([
            "init", "--store", other.dsn, "--data", data, "--public-url", "https://login.example.com",
        ])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(FileManager.default.fileExists(atPath: data + "/master.key"))
    }

    @Test func humanInitShowsTheSecretOnce() throws {
        let data = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let run = CLI.run(["init", "--data", data, "--public-url", "http://localhost:8080"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("management client_secret:"))
        #expect(run.stdout.contains("RP ID:                     localhost"))
    }

    @Test(
        arguments: [
            (["init"], "sesame: init: --public-url is required"),
            (
                ["init", "--public-url", "ftp://x"],
                "sesame: init: --public-url: public URL must be http(s)://host[:port] with no path, query or fragment"
            ),
            (
                ["init", "--public-url", "https://x.example/path"],
                "sesame: init: --public-url: public URL must be http(s)://host[:port] with no path, query or fragment"
            ),
            (["init", "--bogus"], nil),
            (
                ["serve", "--listen", "nonsense"],
                "sesame: serve: --listen must be HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"
            ),
            (
                ["serve", "--listen", "127.0.0.1:99999"],
                "sesame: serve: --listen must be HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"
            ),
            (["serve", "--threads", "0"], "sesame: serve: --threads must be an integer from 1 to 256"),
            (["serve", "--rate-limit-per-ip", "-1"], nil),
            (["serve", "--log-level", "loud"], "sesame: serve: --log-level must be debug, info, warn or error"),
            (["serve", "--tls-cert", "a.pem"], "sesame: serve: --tls-cert and --tls-key go together"),
            (
                ["serve", "--trusted-proxy", "not-an-ip"],
                "sesame: serve: --trusted-proxy must be an IP address or CIDR range"
            ),
            (["serve", "--public-url", "localhost"], nil),
            (
                ["serve", "--max-connections", "64", "--reserved-connections", "64"],
                "sesame: serve: --reserved-connections must be less than --max-connections"
            ),
            (
                ["serve", "--request-timeout", "-1"],
                "sesame: serve: --request-timeout must be an integer from 0 to 3600"
            ),
            (
                ["serve", "--max-queue-wait", "-5"],
                "sesame: serve: --max-queue-wait must be an integer from 0 to 60000"
            ),
            (
                ["serve", "--pending-ceremonies-per-ip", "0"],
                "sesame: serve: --pending-ceremonies-per-ip must be an integer from 1 to 1000000"
            ),
            (
                ["serve", "--metrics-listen", "nonsense"],
                "sesame: serve: --metrics-listen must be HOST:PORT, e.g. 127.0.0.1:9464"
            ),
            (
                ["serve", "--metrics-token-file", "/nonexistent/token"],
                "sesame: serve: --metrics-token-file: cannot read /nonexistent/token"
            ),
            (["serve", "extra"], nil),
            (
                ["serve", "--store", "mysql://x"],
                "sesame: serve: --store must be a postgres:// or postgresql:// URI (without it, SQLite in --data)"
            ),
            (
                ["init", "--store", "sqlite:///tmp/x", "--public-url", "https://x.example"],
                "sesame: init: --store must be a postgres:// or postgresql:// URI (without it, SQLite in --data)"
            ),
        ] as [([String], String?)])
    func badArgumentsExitTwoWithOneLine(arguments: [String], message: String?) {
        let run = CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        if let message { #expect(run.stderrLines.first.map(String.init) == message) }
        #expect(run.stdout.isEmpty)
    }

    @Test func listenParsing() {
        #expect(ServeCommand.parseListen("127.0.0.1:8080")! == ("127.0.0.1", 8080))
        #expect(ServeCommand.parseListen("[::1]:0")! == ("::1", 0))
        #expect(ServeCommand.parseListen("localhost:9")! == ("127.0.0.1", 9))
        #expect(ServeCommand.parseListen(":80") == nil)
        #expect(ServeCommand.parseListen("[::1]") == nil)
    }

    @Test func settingsComeFromFlagsThenEnvironment() throws {
        let parsed = try ArgumentParser.parse(["--threads", "3"], spec: ServeCommand.spec)
        let settings = try ServeCommand.settings(
            parsed, ["SESAME_THREADS": "7", "SESAME_RATE_LIMIT_PER_IP": "0", "SESAME_LISTEN": "127.0.0.1:9000"])
        #expect(settings.threads == 3)
        #expect(settings.rateLimitPerIP == 0)
        #expect(settings.port == 9000)
        #expect(settings.data == "./data")
    }

    @Test func connectionAndCeremonyLimits() throws {
        let parsed = try ArgumentParser.parse(
            ["--request-timeout", "5", "--max-connections", "256", "--reserved-connections", "32"],
            spec: ServeCommand.spec)
        let settings = try ServeCommand.settings(parsed, ["SESAME_PENDING_CEREMONIES_PER_IP": "50"])
        #expect(settings.limits.requestTimeoutSeconds == 5)
        #expect(settings.limits.maxConnections == 256)
        #expect(settings.limits.reservedConnections == 32)
        #expect(settings.pendingCeremonies.perAddress == 50)
        #expect(settings.limits.maxQueueWaitSeconds == 0.5)
        let shedding = try ServeCommand.settings(
            try ArgumentParser.parse(["--max-queue-wait", "250"], spec: ServeCommand.spec),
            ["SESAME_MAX_QUEUE_WAIT": "0"])
        #expect(shedding.limits.maxQueueWaitSeconds == 0.25)
        let off = try ServeCommand.settings(
            try ArgumentParser.parse([], spec: ServeCommand.spec), ["SESAME_MAX_QUEUE_WAIT": "0"])
        #expect(off.limits.maxQueueWaitSeconds == 0)
    }

    @Test func metricsSettings() throws {
        let parsed = try ArgumentParser.parse(["--metrics-listen", "127.0.0.1:9464"], spec: ServeCommand.spec)
        let settings = try ServeCommand.settings(parsed, ["SESAME_METRICS_TOKEN": "a-long-enough-metrics-token"])
        #expect(settings.metricsListen?.host == "127.0.0.1")
        #expect(settings.metricsListen?.port == 9464)
        #expect(settings.metricsToken == "a-long-enough-metrics-token")
        #expect(throws: UsageError.self) {
            try ServeCommand.settings(
                try ArgumentParser.parse([], spec: ServeCommand.spec), ["SESAME_METRICS_TOKEN": "short"])
        }
    }

    @Test func auditLogWebhookSettings() throws {
        let file = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "a-bearer-token-for-the-receiver\n".write(toFile: file, atomically: true, encoding: .utf8)
        let parsed = try ArgumentParser.parse(
            ["--audit-log-webhook", "https://logs.example.com/in", "--audit-log-webhook-token-file", file],
            spec: ServeCommand.spec)
        let settings = try ServeCommand.settings(parsed, [:])
        #expect(settings.auditLogWebhook?.url.absoluteString == "https://logs.example.com/in")
        #expect(settings.auditLogWebhook?.token == "a-bearer-token-for-the-receiver")
        let loopback = try ServeCommand.settings(
            try ArgumentParser.parse([], spec: ServeCommand.spec), ["SESAME_AUDIT_LOG_WEBHOOK": "http://127.0.0.1:9/x"])
        #expect(loopback.auditLogWebhook?.token == nil)
        // The token from the environment; the file wins over it; a bad one is refused either way.
        let tokenVariables = [
            "SESAME_AUDIT_LOG_WEBHOOK": "https://logs.example.com/in",
            "SESAME_AUDIT_LOG_WEBHOOK_TOKEN": "an-environment-bearer-token",
        ]
        let fromEnvironment = try ServeCommand.settings(
            try ArgumentParser.parse([], spec: ServeCommand.spec), tokenVariables)
        #expect(fromEnvironment.auditLogWebhook?.token == "an-environment-bearer-token")
        let fileWins = try ServeCommand.settings(
            try ArgumentParser.parse(["--audit-log-webhook-token-file", file], spec: ServeCommand.spec),
            tokenVariables)
        #expect(fileWins.auditLogWebhook?.token == "a-bearer-token-for-the-receiver")
        #expect(throws: UsageError.self) {
            try ServeCommand.settings(
                try ArgumentParser.parse([], spec: ServeCommand.spec),
                tokenVariables.merging(["SESAME_AUDIT_LOG_WEBHOOK_TOKEN": "two words"]) { $1 })
        }
        for bad in [
            ["--audit-log-webhook", "http://logs.example.com/in"],
            ["--audit-log-webhook", "https://user:pw@logs.example.com/in"],
            ["--audit-log-webhook", "ftp://127.0.0.1/in"],
            ["--audit-log-webhook-token-file", file],
            [
                "--audit-log-webhook", "https://logs.example.com/in", "--audit-log-webhook-token-file",
                file + ".missing",
            ],
        ] {
            #expect(throws: UsageError.self, "\(bad)") {
                try ServeCommand.settings(try ArgumentParser.parse(bad, spec: ServeCommand.spec), [:])
            }
        }
        // A refusal never shows the token.
        try "two words\n".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = CLI.run([
            "serve", "--audit-log-webhook", "https://x.example/in", "--audit-log-webhook-token-file", file,
        ])
        #expect(refused.status == 2)
        #expect(!refused.stderr.contains("two words"))
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }

    @Test func auditLogWebhookSigningSecret() throws {
        let file = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let secret = "a-signing-secret-for-the-audit-hook"
        try "\(secret)\n".write(toFile: file, atomically: true, encoding: .utf8)
        let hook = ["--audit-log-webhook", "https://logs.example.com/in"]
        // From the file (trimmed), or from the environment; the file wins.
        let fromFile = try ServeCommand.settings(
            try ArgumentParser.parse(hook + ["--audit-log-webhook-secret-file", file], spec: ServeCommand.spec),
            ["SESAME_AUDIT_LOG_WEBHOOK_SECRET": "an-environment-secret-of-enough-length"])
        #expect(fromFile.auditLogWebhook?.secrets == [Array(secret.utf8)])
        let fromEnvironment = try ServeCommand.settings(
            try ArgumentParser.parse([], spec: ServeCommand.spec),
            [
                "SESAME_AUDIT_LOG_WEBHOOK": "https://logs.example.com/in",
                "SESAME_AUDIT_LOG_WEBHOOK_SECRET": "an-environment-secret-of-enough-length",
            ])
        #expect(fromEnvironment.auditLogWebhook?.secrets == [Array("an-environment-secret-of-enough-length".utf8)])
        let unsigned = try ServeCommand.settings(try ArgumentParser.parse(hook, spec: ServeCommand.spec), [:])
        #expect(unsigned.auditLogWebhook != nil && unsigned.auditLogWebhook?.secrets == [])
        // A rotation: the current secret on the first line, the previous one on the second (blank
        // lines and surrounding spaces ignored), in that order.
        let previous = "the-previous-audit-hook-secret"
        try "  \(secret)\r\n\n\(previous)  \n".write(toFile: file, atomically: true, encoding: .utf8)
        let rotating = try ServeCommand.settings(
            try ArgumentParser.parse(hook + ["--audit-log-webhook-secret-file", file], spec: ServeCommand.spec), [:])
        #expect(rotating.auditLogWebhook?.secrets == [Array(secret.utf8), Array(previous.utf8)])
        for (text, message) in [
            ("\(secret)\n\(previous)\nthird-secret-of-enough-length\n", "at most two secrets"),
            ("\(secret)\nshort-previous\n", "16 to 4096 bytes"), ("\n \n", "16 to 4096 bytes"),
        ] {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let refused = CLI.run(["serve"] + hook + ["--audit-log-webhook-secret-file", file])
            #expect(refused.status == 2, "\(text)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
            #expect(!refused.stderr.contains(secret) && !refused.stderr.contains("short-previous"))
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
        try "\(secret)\n".write(toFile: file, atomically: true, encoding: .utf8)
        // Without the webhook, unreadable, or too short: refused with one line that shows no secret.
        let refusals: [([String], [String: String])] = [
            (["--audit-log-webhook-secret-file", file], [:]),
            (hook + ["--audit-log-webhook-secret-file", file + ".missing"], [:]),
            (hook, ["SESAME_AUDIT_LOG_WEBHOOK_SECRET": "short-secret"]),
        ]
        for (arguments, variables) in refusals {
            #expect(throws: UsageError.self, "\(arguments) \(variables)") {
                try ServeCommand.settings(try ArgumentParser.parse(arguments, spec: ServeCommand.spec), variables)
            }
        }
        try "short-secret-15\n".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = CLI.run(["serve"] + hook + ["--audit-log-webhook-secret-file", file])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("16 to 4096 bytes"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("short-secret-15"))
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(CLI.run(["serve", "--help"]).stdout.contains("--audit-log-webhook-secret-file"))
    }

    @Test func messagesWebhookSigningSecrets() throws {
        let file = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let hook = ["--messages-webhook", "https://messages.example.com/in", "--messages-webhook-secret-file", file]
        let (current, previous) = ("the-current-messages-secret", "the-previous-messages-secret")
        try "\(current)\n".write(toFile: file, atomically: true, encoding: .utf8)
        let one = try ServeCommand.settings(try ArgumentParser.parse(hook, spec: ServeCommand.spec), [:])
        #expect(one.messagesWebhook?.secrets == [Array(current.utf8)])
        try "\(current)\n\n \(previous)\n".write(toFile: file, atomically: true, encoding: .utf8)
        let two = try ServeCommand.settings(try ArgumentParser.parse(hook, spec: ServeCommand.spec), [:])
        #expect(two.messagesWebhook?.secrets == [Array(current.utf8), Array(previous.utf8)])
        for (text, message) in [
            ("\(current)\n\(previous)\n\(previous)-3\n", "at most two secrets"),
            ("\(current)\nshort\n", "at least 16 characters"), ("\n", "at least 16 characters"),
        ] {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let refused = CLI.run(["serve"] + hook)
            #expect(refused.status == 2, "\(text)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
            #expect(!refused.stderr.contains(current) && !refused.stderr.contains(previous))
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
    }

    @Test func helpExists() {
        #expect(CLI.run(["serve", "--help"]).stdout.contains("--rate-limit-per-ip"))
        #expect(CLI.run(["help", "init"]).stdout.contains("--public-url"))
    }
}

import Foundation
import SesameService
import SesameStore
import Testing

@testable import SesameCLI

/// `signup --password`, `login --password`, `mfa enroll|list` and `outbox` against a live server.
@Suite("password commands against a live server")
struct PasswordCommandLiveTests {
    static let password = "correct horse battery staple"

    /// The TOTP code for the secret the command printed (`secret XXXX`) at the server's time.
    @Sendable static func code(printed: String, at now: Date, offset: Int64 = 0) -> String? {
        guard let line = printed.split(separator: "\n").last(where: { $0.hasPrefix("  secret ") }),
            let secret = Base32.decode(String(line.dropFirst("  secret ".count)))
        else { return nil }
        return TOTP.code(secret: secret, counter: TOTP.step(at: now) + offset)
    }

    @Test func signUpLogInEnrollTOTPAndLogInThroughTheMFAStep() async throws {
        let live = try ClientLiveServer()
        var cli = ClientCLI()
        defer { cli.removeState() }
        cli.standardInput = { index, _ in index == 0 ? Self.password : nil }
        let signup = await cli.run([
            "signup", "--password-stdin", "--server", live.url, "--client-id", live.clientID, "--email",
            "ada@example.com", "--json",
        ])
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(try signup.json()["email"] as? String == "ada@example.com")
        #expect(try signup.json()["has_refresh_token"] as? Bool == true)
        #expect(try ClientState(directory: cli.stateDirectory).loadConfig()?.email == "ada@example.com")
        let login = await cli.run(["login", "--password-stdin"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.hasPrefix("Logged in to \(live.url) as ada@example.com"))

        // The tenant turns TOTP on for everyone: the next login enrolls the app on the spot.
        try live.store.write(.durable) { transaction in
            guard var tenant = try transaction.tenants.get(id: live.sesame.tenant.id) else { return }
            tenant.mfa = MFASettings(factors: [.otp, .recoveryCode], policy: .allApplications)
            try transaction.tenants.update(tenant)
        }
        let now = live.sesame.clock.now()
        cli.standardInput = { index, printed in index == 0 ? Self.password : Self.code(printed: printed, at: now) }
        let enrolled = await cli.run(["login", "--password-stdin"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("otpauth://totp/"))
        #expect(enrolled.stdout.contains("Recovery code, shown once"))
        // The same code again is refused (each is used once)...
        let printed = enrolled.stdout
        cli.standardInput = { index, _ in index == 0 ? Self.password : Self.code(printed: printed, at: now) }
        let replay = await cli.run(["mfa", "list", "--password-stdin"])
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("Invalid otp_code."), "\(replay.stderr)")
        // ... the next step's code (within the ±1 window) is accepted.
        cli.standardInput = { index, _ in
            index == 0 ? Self.password : Self.code(printed: printed, at: now, offset: 1)
        }
        let list = await cli.run(["mfa", "list", "--password-stdin", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let factors = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(factors.map { $0["authenticator_type"] as? String } == ["otp", "recovery-code"])
        #expect(factors.allSatisfy { $0["active"] as? Bool == true })
    }

    @Test func passwordsComeFromTheTerminalTwiceAndAreCompared() async throws {
        let live = try ClientLiveServer()
        var cli = ClientCLI()
        defer { cli.removeState() }
        let prompts = PromptLog()
        cli.terminal = { index, prompt, secret in
            prompts.add(prompt, secret)
            return index == 0 ? Self.password : Self.password + "!"
        }
        let differ = await cli.run([
            "signup", "--password", "--server", live.url, "--client-id", live.clientID, "--email", "ada@example.com",
        ])
        #expect(differ.status == 1)
        #expect(differ.stderr == "sesame: signup: the two passwords differ\n")
        #expect(prompts.all.map(\.0) == ["Password: ", "Password again: "])
        #expect(prompts.all.map(\.1) == [true, true])
        cli.terminal = { _, _, _ in "short" }
        let weak = await cli.run([
            "signup", "--password", "--server", live.url, "--client-id", live.clientID, "--email", "ada@example.com",
        ])
        #expect(weak.status == 1)
        #expect(weak.stderr.contains("the password does not meet the rules: * At least 12 characters in length"))
        cli.terminal = { _, _, _ in nil }
        let none = await cli.run([
            "signup", "--password", "--server", live.url, "--client-id", live.clientID, "--email", "ada@example.com",
        ])
        #expect(none.stderr == "sesame: signup: no password was typed (no terminal? use --password-stdin)\n")
    }

    @Test func theOutboxShowsAResetLink() async throws {
        let live = try ClientLiveServer()
        var cli = ClientCLI()
        defer { cli.removeState() }
        cli.standardInput = { index, _ in index == 0 ? Self.password : nil }
        #expect(
            await cli.run([
                "signup", "--password-stdin", "--server", live.url, "--client-id", live.clientID, "--email",
                "ada@example.com",
            ]).status == 0)
        try live.sesame.application.passwords.requestReset(
            tenant: live.sesame.tenant, clientID: nil, email: "ada@example.com",
            connection: ClientInvocation.defaultConnection)
        final class Output: @unchecked Sendable { var text = "" }
        let output = Output()
        var environment = CommandEnvironment(
            readStandardInput: { [] }, readFile: { _ in [] }, writeOutput: { output.text += $0 },
            writeError: { output.text += $0 }, now: { Date() })
        environment.variables = [
            "SESAME_MANAGEMENT_CLIENT_ID": live.bootstrap.managementClientID,
            "SESAME_MANAGEMENT_CLIENT_SECRET": live.bootstrap.managementClientSecret,
        ]
        let status = await APICommand.runOutbox(
            ["--server", live.url, "--to", "ada@example.com"], environment: environment)
        #expect(status == 0, "\(output.text)")
        #expect(output.text.contains("email password_reset to ada@example.com"))
        #expect(output.text.contains("/u/reset-password?ticket="))
    }

    @Test(arguments: [
        (
            [
                "signup", "--password", "--origin", "http://x.test", "--server", "http://a.test", "--client-id", "c",
                "--email", "a@b.c",
            ], "--origin is for passkeys, not --password"
        ),
        (
            ["signup", "--connection", "X", "--server", "http://a.test", "--client-id", "c", "--email", "a@b.c"],
            "--connection goes with --password"
        ),
        (["login", "--email", "a@b.c"], "--email and --connection go with --password"),
        (["login", "--password", "--connection", "bad name"], "is not a connection name"),
        (["mfa", "enroll", "sms"], "mfa enroll sms needs --phone"),
        (["mfa", "enroll", "fido"], "FACTOR must be otp or sms"),
        (["mfa", "enroll", "otp", "--phone", "+15550001"], "--phone goes with sms"),
        (["mfa", "list", "otp"], "mfa list takes no factor"),
        (["mfa", "remove"], "unknown action 'remove'"),
        (["mfa", "enroll", "otp", "--password", "x"], "unknown option"),
    ])
    func badArgumentsExitTwo(_ arguments: [String], _ message: String) async throws {
        let cli = ClientCLI()
        let run = await cli.run(arguments)
        #expect(run.status == 2, "\(arguments)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }
}

/// What the terminal was asked, in order.
final class PromptLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(String, Bool)] = []
    func add(_ prompt: String, _ secret: Bool) { lock.withLock { entries.append((prompt, secret)) } }
    var all: [(String, Bool)] { lock.withLock { entries } }
}

@Suite("QR codes in the terminal")
struct TerminalQRTests {
    @Test func anOTPAuthURIBecomesASquareOfHalfBlocks() throws {
        let uri =
            "otpauth://totp/login.example.com:ada@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
            + "&issuer=login.example.com&algorithm=SHA1&digits=6&period=30"
        let modules = try #require(TerminalQR.matrix(uri))
        // A QR code of version v is 4v + 17 modules square, with finder patterns in three corners.
        #expect((modules.count - 17) % 4 == 0)
        #expect(modules.allSatisfy { $0.count == modules.count })
        for (row, column) in [(0, 0), (0, modules.count - 7), (modules.count - 7, 0)] {
            #expect((0..<7).allSatisfy { modules[row][column + $0] && modules[row + 6][column + $0] })
            #expect(!modules[row + 1][column + 1] && modules[row + 2][column + 2])
        }
        let text = try #require(TerminalQR.render(uri))
        let lines = text.split(separator: "\n")
        #expect(lines.count == (modules.count + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[30;47m") && $0.hasSuffix("\u{1B}[0m") })
        #expect(TerminalQR.render(uri) == text)
    }
}

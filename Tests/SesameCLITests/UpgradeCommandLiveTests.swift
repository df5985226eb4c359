import Foundation
import SesameClient
import SesameService
import SesameStore
import SesameTesting
import Testing

@testable import SesameCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A live server with Ada's breached-password account, made and signed in to by the CLI
/// (`signup --password-stdin`), breach detection on, and on demand an `apple` connection whose
/// endpoints are a `FakeAppleID` (as the HTTP tests' `UpgradeWorld` sets it up).
final class UpgradeLive: @unchecked Sendable {  // immutable after init, but for `apple`
    static let email = "ada@example.com"
    /// Breached by Auth0's test prefix, so the paths work offline.
    static let oldPassword = "AUTH0-TEST-old horse battery"
    static let bundleID = "com.example.sesame"
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"

    let live: ClientLiveServer
    let cli = ClientCLI()
    private(set) var apple: FakeAppleID?

    init() async throws {
        live = try ClientLiveServer()
        var cli = self.cli
        cli.standardInput = { index, _ in index == 0 ? Self.oldPassword : nil }
        let signup = await cli.run([
            "signup", "--password-stdin", "--server", live.url, "--client-id", live.clientID, "--email", Self.email,
        ])
        guard signup.status == 0 else { throw UpgradeLiveError("signup: \(signup.stderr)") }
        let reply = try await send(
            "PATCH", "/api/v2/attack-protection/breached-password-detection", ["enabled": true])
        guard reply.status == 200 else { throw UpgradeLiveError("breach detection: \(reply.status)") }
    }

    deinit {
        apple?.stop(gracePeriod: 0)
        cli.removeState()
    }

    /// Runs the CLI with `lines` as standard input, one a line.
    func run(_ arguments: [String], stdin lines: [String] = []) async -> CLIRun {
        var cli = self.cli
        cli.standardInput = { index, _ in index < lines.count ? lines[index] : nil }
        return await cli.run(arguments)
    }

    /// A Management API call over HTTP with a token of the management client.
    func send(_ method: String, _ path: String, _ json: [String: Any]) async throws -> (
        status: Int, json: [String: Any]
    ) {
        let token = try live.application.tokens.token(
            tenant: live.sesame.tenant,
            request: TokenCall(
                grantType: "client_credentials",
                credentials: ClientCredentials(
                    clientID: live.bootstrap.managementClientID, clientSecret: live.bootstrap.managementClientSecret),
                fields: ["audience": TokenService.managementAudience(live.sesame.tenant)])
        ).accessToken
        guard let url = URL(string: live.url + path) else { throw UpgradeLiveError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        request.timeoutInterval = 15
        let (data, response) = try await URLSessionTransport().send(request)
        return (response.statusCode, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    /// Starts the fake (on the server's clock) and adds the tenant's `apple` connection pointing at it.
    @discardableResult func addApple() async throws -> FakeAppleID {
        var configuration = FakeAppleID.Configuration()
        configuration.clock = live.sesame.clock
        let fake = try FakeAppleID(configuration)
        apple = fake
        let p8 = try FakeAppleID.makeP8()
        try fake.register(teamID: Self.teamID, keyID: Self.keyID, p8: p8)
        let reply = try await send(
            "POST", "/api/v2/connections",
            [
                "name": "apple", "strategy": "apple",
                "options": [
                    "team_id": Self.teamID, "kid": Self.keyID, "app_id": [Self.bundleID], "app_secret": p8,
                    "client_id": "com.example.sesame.web", "issuer": fake.issuer, "jwks_uri": fake.jwksURL,
                    "token_endpoint": fake.tokenURL,
                ],
            ])
        guard reply.status == 201 || reply.status == 200 else {
            throw UpgradeLiveError("apple connection: \(reply.status) \(reply.json)")
        }
        return fake
    }

    /// An identity token for Ada's Apple ID with `nonce`, written to a file in the state directory.
    func identityTokenFile(nonce: String?, name: String = "identity-token") throws -> String {
        let claims = AppleIdentityClaims(
            audience: Self.bundleID, subject: "001234.apple.ada", rawNonce: nonce,
            email: "ada@privaterelay.appleid.com")
        guard let apple else { throw UpgradeLiveError("no fake Apple ID: addApple() first") }
        let token = try apple.mintIdentityToken(claims)
        let path = (FileManager.default.temporaryDirectory.path as NSString).appendingPathComponent(
            "sesame-\(name)-\(UUID().uuidString).jwt")
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A temporary file holding `text` and a newline.
    func file(_ text: String) throws -> String {
        let path = (FileManager.default.temporaryDirectory.path as NSString).appendingPathComponent(
            "sesame-secret-\(UUID().uuidString)")
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The outbox messages sent to `recipient` (SMS codes) by id, opened.
    func outbox(to recipient: String) throws -> [String: String] {
        let sealer = MessageSealer(masterKey: live.sesame.masterKey)
        let messages = try live.store.read { transaction in
            try transaction.outbox.list(tenantID: live.sesame.tenant.id, page: Page(limit: 100))
        }
        var texts: [String: String] = [:]
        for message in messages where message.recipient == recipient { texts[message.id] = sealer.open(message) }
        return texts
    }

    /// The code of the one message to `recipient` that is not among `seen`.
    func newCode(to recipient: String, seen: Set<String>) -> String? {
        let fresh = ((try? outbox(to: recipient)) ?? [:]).filter { !seen.contains($0.key) }
        guard fresh.count == 1, let text = fresh.first?.value else { return nil }
        return String(text.prefix(6))
    }

    /// A password login's standard error, when it fails.
    func passwordLogin(_ password: String) async -> CLIRun {
        await run(["login", "--password-stdin"], stdin: [password])
    }
}

struct UpgradeLiveError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `sesame upgrade` and `login --apple-identity-token` against a live server.
@Suite("upgrade commands against a live server")
struct UpgradeCommandLiveTests {
    typealias U = UpgradeLive

    @Test func aGeneratedStrongPasswordWithTheSavedSession() async throws {
        let world = try await U()
        let login = await world.passwordLogin(U.oldPassword)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("the password is breached: move to passkey, strong_password"), "\(login.stdout)")
        let upgrade = await world.run(["upgrade", "strong-password", "--json"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        let json = try upgrade.json()
        #expect(json["type"] as? String == "strong_password")
        #expect(json["upgraded"] as? Bool == true)
        #expect(json["stepped_up"] as? Bool == false)
        #expect(json["saved_session_ended"] as? Bool == false)
        let password = try #require(json["new_password"] as? String)
        // The connection's rules hold, and the password is long.
        let rules = try #require(
            try world.live.store.read { try $0.connections.list(tenantID: world.live.sesame.tenant.id, page: Page()) }
                .first { $0.strategy == .database })
        #expect(PasswordRulesParser.parse(rules.password.rules).rules.allows(password))
        #expect(password.count >= 24)
        // The old password is gone, the new one signs in and is not breached.
        let old = await world.passwordLogin(U.oldPassword)
        #expect(old.status == 1 && old.stderr.contains("Wrong email or password."), "\(old.stderr)")
        let new = await world.passwordLogin(password)
        #expect(new.status == 0, "\(new.stderr)")
        #expect(!new.stdout.contains("breached"))
        // The session that authorized kept its refresh token.
        #expect(await world.run(["token", "refresh"]).status == 0)
    }

    @Test func aGivenStrongPasswordWithThePasswordForm() async throws {
        let world = try await U()
        var fresh = ClientCLI()
        defer { fresh.removeState() }
        fresh.standardInput = { index, _ in index == 0 ? U.oldPassword : nil }
        let base = [
            "upgrade", "strong-password", "--server", world.live.url, "--client-id", world.live.clientID,
            "--username", U.email, "--password-file", "-",
        ]
        // A weak one is refused with the rules, a wrong current password with the server's words.
        let weak = await fresh.run(base + ["--new-password-file", try world.file("short")])
        #expect(weak.status == 1)
        #expect(weak.stderr.hasPrefix("sesame: upgrade strong-password: the password does not meet the rules"))
        #expect(weak.stderrLines.count == 1)
        var wrong = fresh
        wrong.standardInput = { index, _ in index == 0 ? "not it" : nil }
        let refused = await wrong.run(base + ["--new-password-file", try world.file("v8#Lq-2mZp!rT4wX")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Wrong email or password."), "\(refused.stderr)")
        let done = await fresh.run(base + ["--new-password-file", try world.file("v8#Lq-2mZp!rT4wX")])
        #expect(done.status == 0, "\(done.stderr)")
        // This state directory had no session; Ada's other CLI did, and the server ended it.
        #expect(done.stdout == "The password is now a strong one.\n")
        // From Ada's own CLI the password form reports that her saved session ended too.
        let own = await world.run(
            ["upgrade", "strong-password", "--username", U.email, "--password-file", "-", "--json"],
            stdin: ["v8#Lq-2mZp!rT4wX"])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(try own.json()["saved_session_ended"] as? Bool == true)
        #expect(try own.json()["stepped_up"] as? Bool == false)
        let password = try #require(try own.json()["new_password"] as? String)
        #expect(await world.passwordLogin(password).status == 0)
    }

    @Test func aPasskeyReplacesThePassword() async throws {
        let world = try await U()
        let upgrade = await world.run(["upgrade", "passkey"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(upgrade.stdout.hasPrefix("The password was replaced by a passkey; the password no longer works.\n"))
        let config = try #require(try ClientState(directory: world.cli.stateDirectory).loadConfig())
        let credentialID = try #require(config.credentialID)
        #expect(upgrade.stdout.contains("  passkey        \(credentialID)"))
        // The old password says so; the passkey signs in.
        let old = await world.passwordLogin(U.oldPassword)
        #expect(old.status == 1)
        #expect(old.stderr.contains("This account signs in with a passkey."), "\(old.stderr)")
        let login = await world.run(["login", "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try login.json()["credential_id"] as? String == credentialID)
        // A second upgrade is refused with its reason.
        let again = await world.run(["upgrade", "strong-password"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("upgrade_not_allowed: no_password") || again.stderr.contains("already_upgraded"))
    }

    @Test func signInWithAppleThenLogInWithApple() async throws {
        let world = try await U()
        // Without an apple connection the upgrade is not offered.
        let off = await world.run([
            "upgrade", "apple", "--identity-token", try world.file("a.b.c"), "--nonce", "n",
        ])
        #expect(off.status == 1 && off.stderr.contains("type_disabled"), "\(off.stderr)")
        try await world.addApple()
        let token = try world.identityTokenFile(nonce: "raw-nonce-1")
        // The wrong nonce: the server names the check, and the token is not spent.
        let wrongNonce = await world.run(["upgrade", "apple", "--identity-token", token, "--nonce", "another"])
        #expect(wrongNonce.status == 1)
        #expect(wrongNonce.stderr.contains("nonce"), "\(wrongNonce.stderr)")
        let upgrade = await world.run(["upgrade", "apple", "--identity-token", token, "--nonce", "raw-nonce-1"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(upgrade.stdout == "The account now signs in with Apple; its password no longer works.\n")
        let old = await world.passwordLogin(U.oldPassword)
        #expect(old.status == 1 && old.stderr.contains("This account signs in with Apple."), "\(old.stderr)")
        // Sign in with Apple: the token-exchange grant with the identity token and its raw nonce.
        let second = try world.identityTokenFile(nonce: "n-2")
        let login = await world.run(["login", "--apple-identity-token", second, "--nonce", "n-2"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.hasPrefix("Logged in to \(world.live.url) as "), "\(login.stdout)")
        #expect(login.stdout.contains("with Sign in with Apple."))
        let show = await world.run(["token", "show", "--json"])
        let user = try #require(
            try world.live.store.read {
                try $0.users.search(tenantID: world.live.sesame.tenant.id, query: nil, page: Page())
            }.first)
        #expect(try show.json()["user_id"] as? String == user.id)
        #expect(user.passwordReplacement == .apple)
        // A token for nobody's Apple ID signs no one in.
        let stranger = try world.identityTokenFile(nonce: nil)
        var nobody = try #require(world.apple).mintIdentityToken(
            AppleIdentityClaims(audience: U.bundleID, subject: "999.apple.nobody", rawNonce: nil))
        nobody += "\n"
        try Data(nobody.utf8).write(to: URL(fileURLWithPath: stranger))
        let refused = await world.run(["login", "--apple-identity-token", stranger])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no account is linked to this Apple ID"), "\(refused.stderr)")
    }

    @Test func aStepUpWithTheAuthenticatorAppsCode() async throws {
        let world = try await U()
        let live = world.live
        try live.store.write(.durable) { transaction in
            guard var tenant = try transaction.tenants.get(id: live.sesame.tenant.id) else { return }
            tenant.mfa = MFASettings(factors: [.otp, .recoveryCode], policy: .enrolledUsers)
            try transaction.tenants.update(tenant)
        }
        // The saved session signed in with the password only; then TOTP is enrolled.
        let now = live.sesame.clock.now()
        var cli = world.cli
        cli.standardInput = { index, printed in
            index == 0 ? U.oldPassword : PasswordCommandLiveTests.code(printed: printed, at: now)
        }
        let enrolled = await cli.run(["mfa", "enroll", "otp", "--password-stdin"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let code = try #require(PasswordCommandLiveTests.code(printed: enrolled.stdout, at: now, offset: 1))
        // A wrong code is refused; the right one steps up, authorizes again and commits.
        let wrong = await world.run(["upgrade", "strong-password", "--otp", code == "000000" ? "111111" : "000000"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("Invalid otp_code."), "\(wrong.stderr)")
        #expect(wrong.stderrLines.count == 1)
        let upgrade = await world.run(["upgrade", "strong-password", "--otp", code])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(upgrade.stdout.hasPrefix("The password is now a strong one.\n  new password   "))
        // The step-up's token authorized, so the saved session ended with the others.
        #expect(
            upgrade.stdout.hasSuffix(
                "  the upgrade ended this CLI's saved session: sign in again with 'sesame login --password'\n"))
        let refresh = await world.run(["token", "refresh"])
        #expect(refresh.status == 1)
    }

    @Test func aStepUpBySMSReadsTheCodeFromStandardInput() async throws {
        let world = try await U()
        let live = world.live
        try live.store.write(.durable) { transaction in
            guard var tenant = try transaction.tenants.get(id: live.sesame.tenant.id) else { return }
            tenant.mfa = MFASettings(factors: [.sms, .recoveryCode], policy: .enrolledUsers)
            try transaction.tenants.update(tenant)
        }
        let phone = "+15550101"
        var cli = world.cli
        cli.standardInput = { index, _ in index == 0 ? U.oldPassword : world.newCode(to: phone, seen: []) }
        let enrolled = await cli.run(["mfa", "enroll", "sms", "--phone", phone, "--password-stdin"])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        // --otp is not an SMS code.
        let otp = await world.run(["upgrade", "strong-password", "--otp", "123456"])
        #expect(otp.status == 1)
        #expect(otp.stderr.contains("the server asks for a code sent by SMS"), "\(otp.stderr)")
        // The code of the SMS the upgrade sends, the one message after the enrollment's.
        let seen = Set(try world.outbox(to: phone).keys)
        #expect(seen.count == 1)
        cli.standardInput = { _, _ in world.newCode(to: phone, seen: seen) }
        let upgrade = await cli.run(["upgrade", "passkey", "--code-stdin", "--json"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(try upgrade.json()["stepped_up"] as? Bool == true)
        #expect(try upgrade.json()["type"] as? String == "passkey")
    }

    @Test(
        arguments: [
            (["upgrade"], "missing what to upgrade to"),
            (["upgrade", "face-id"], "unknown upgrade 'face-id'"),
            (["upgrade", "apple", "--nonce", "n"], "--identity-token is required"),
            (["upgrade", "apple", "--identity-token", "t"], "--nonce is required"),
            (["upgrade", "passkey", "--identity-token", "t"], "unknown option '--identity-token'"),
            (["upgrade", "passkey", "--new-password-file", "f"], "unknown option '--new-password-file'"),
            (["upgrade", "strong-password", "--otp", "12ab56"], "--otp '12ab56' is not an authenticator app's code"),
            (["upgrade", "strong-password", "--username", "ada@example.com"], "--username and --connection go with"),
            (["upgrade", "passkey", "--server", "ftp://x"], "--server 'ftp://x' must be http(s)://host[:port]"),
            (
                ["upgrade", "strong-password", "--password-file", "-", "--new-password-file", "-"],
                "only one of --password-file and --new-password-file can be '-'"
            ),
            (["upgrade", "passkey"], "--server is required"),
            (
                [
                    "upgrade", "strong-password", "--server", "http://a.test", "--client-id", "c", "--password-file",
                    "/nonexistent/p",
                ],
                "--password-file: cannot read '/nonexistent/p'"
            ),
            (
                [
                    "upgrade", "passkey", "--server", "http://a.test", "--client-id", "c", "--password-file",
                    "/dev/null",
                ],
                "--password-file: '/dev/null' has no password on its first line"
            ),
            (
                [
                    "upgrade", "apple", "--server", "http://a.test", "--client-id", "c", "--password-file",
                    "/etc/hostname",
                    "--username", "a@b.c", "--identity-token", "/etc/hostname", "--nonce", "n",
                ],
                "--identity-token: '/etc/hostname' does not hold an identity token"
            ),
            (["login", "--nonce", "n"], "--nonce goes with --apple-identity-token"),
            (
                ["login", "--apple-identity-token", "f", "--password"],
                "--apple-identity-token does not go with --password"
            ),
        ] as [([String], String)])
    func badArgumentsExitTwo(_ arguments: [String], _ message: String) async throws {
        let cli = ClientCLI()
        defer { cli.removeState() }
        let run = await cli.run(arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderrLines.count == 1)
        #expect(run.stdout.isEmpty)
    }

    @Test func helpForUpgrade() async {
        for arguments in [["upgrade", "--help"], ["upgrade", "apple", "--help"]] {
            let run = await ClientCLI().run(arguments)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("usage: sesame upgrade strong-password"))
        }
        #expect(CLI.run(["help", "upgrade"]).stdout.hasPrefix("usage: sesame upgrade"))
    }
}

@Suite("generated passwords meet the rules")
struct PasswordGeneratorTests {
    @Test(arguments: [
        "",
        "minlength: 12; required: lower; required: upper; required: digit; allowed: ascii-printable;",
        "minlength: 30; maxlength: 32; required: [-!#]; allowed: lower;",
        "maxlength: 8; required: digit; required: upper; max-consecutive: 2;",
        "required: lower, upper; required: digit; allowed: [-_]; minlength: 40; max-repeating: 1;",
    ])
    func eachMeetsItsRules(_ text: String) throws {
        var random = SystemRandomNumberGenerator()
        let rules = PasswordRulesParser.parse(text).rules
        for _ in 0..<50 {
            let password = try #require(PasswordGenerator.generate(rules: text, using: &random))
            #expect(rules.allows(password), "\(password)")
            #expect(!password.contains { " '\"`\\$".contains($0) })
        }
    }

    @Test func awkwardCharactersOnlyWhenTheRulesLeaveNothingElse() throws {
        var random = SystemRandomNumberGenerator()
        let password = try #require(PasswordGenerator.generate(rules: "allowed: [$']; minlength: 4;", using: &random))
        #expect(password.allSatisfy { $0 == "$" || $0 == "'" } && password.count == 24)
    }

    @Test func rulesNoPasswordMeetsGiveNil() {
        var random = SystemRandomNumberGenerator()
        #expect(
            PasswordGenerator.generate(rules: "maxlength: 2; max-consecutive: 1; allowed: [a];", using: &random) == nil)
    }
}

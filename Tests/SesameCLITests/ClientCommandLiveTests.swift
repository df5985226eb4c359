import Foundation
import SesameClient
import SesameSoftwareAuthenticator
import SesameSoftwarePasskey
import Testing

@testable import SesameCLI

/// The client commands end to end: a real server on loopback, the commands run in-process with a
/// temporary state directory, the software authenticator's keys in a file there.
@Suite("client commands against a live server")
struct ClientCommandLiveTests {
    @Test func signupLoginTokensPasskeysAndRevoke() async throws {
        let live = try ClientLiveServer()
        let cli = ClientCLI()
        defer { cli.removeState() }

        // signup: an account, a passkey in the CLI's key store, tokens with a refresh token.
        let signup = await cli.run([
            "signup", "--server", live.url, "--client-id", live.clientID, "--email", "alice@example.com", "--name",
            "Alice", "--json",
        ])
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(signup.stderr.isEmpty)
        let signedUp = try signup.json()
        let user = try #require(signedUp["user_id"] as? String)
        let credentialID = try #require(signedUp["credential_id"] as? String)
        #expect(signedUp["email"] as? String == "alice@example.com")
        #expect(signedUp["has_refresh_token"] as? Bool == true)
        #expect(signedUp["server"] as? String == live.url)
        for file in ["config.json", "credentials.json", "passkeys.json"] {
            #expect(try cli.mode(file) == 0o600, "\(file)")
        }
        let config = try #require(try ClientState(directory: cli.stateDirectory).loadConfig())
        #expect(
            config
                == ClientConfig(
                    server: live.url, clientID: live.clientID, origin: nil, credentialID: credentialID,
                    email: "alice@example.com"))

        // token show reads the saved state only.
        let show = await cli.run(["token", "show", "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        let shown = try show.json()
        #expect(shown["user_id"] as? String == user)
        #expect(shown["expired"] as? Bool == false)
        #expect((shown["scope"] as? String)?.contains("offline_access") == true)
        #expect((shown["access_token"] as? String)?.split(separator: ".").count == 3)
        let human = await cli.run(["token", "show"])
        #expect(human.stdout.hasPrefix("Signed in to \(live.url) as alice@example.com (\(user)).\n"))

        // login without flags uses the saved server and client.
        let login = await cli.run(["login", "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try login.json()["user_id"] as? String == user)
        #expect(try login.json()["credential_id"] as? String == credentialID)

        // token refresh rotates the refresh token and saves the new one.
        let store = FileCredentialsStore(path: cli.path("credentials.json"))
        let beforeRefresh = try #require(try store.load()?.refreshToken)
        let refresh = await cli.run(["token", "refresh", "--json"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(try refresh.json()["refresh_token_rotated"] as? Bool == true)
        let afterRefresh = try #require(try store.load()?.refreshToken)
        #expect(afterRefresh != beforeRefresh)

        // passkeys list gets a My Account token (saved in my-account.json) and shows the CLI's passkey.
        let list = await cli.run(["passkeys", "list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let passkeys = try #require(try list.json()["passkeys"] as? [[String: Any]])
        #expect(passkeys.count == 1)
        let local = try #require(passkeys.first)
        let localID = try #require(local["id"] as? String)
        #expect(local["key_id"] as? String == credentialID)
        #expect(local["in_this_cli"] as? Bool == true)
        #expect(try cli.mode("my-account.json") == 0o600)
        let myAccountToken = try #require(try FileCredentialsStore(path: cli.path("my-account.json")).load())
        #expect(TokenClaims(myAccountToken.accessToken).subject == user)

        // rename, seen by the next list (which reuses the saved My Account token).
        let rename = await cli.run(["passkeys", "rename", localID, "CLI key", "--json"])
        #expect(rename.status == 0, "\(rename.stderr)")
        #expect(try rename.json()["name"] as? String == "CLI key")
        let table = await cli.run(["passkeys", "list"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("* \(localID)  CLI key"), "\(table.stdout)")
        #expect(try FileCredentialsStore(path: cli.path("my-account.json")).load() == myAccountToken)

        // The last passkey cannot be deleted: the server's 409 and its description, exit 1.
        let last = await cli.run(["passkeys", "delete", localID])
        #expect(last.status == 1)
        #expect(last.stdout.isEmpty)
        #expect(last.stderrLines.count == 1)
        #expect(last.stderr.hasPrefix("sesame: passkeys delete: "))
        #expect(last.stderr.hasSuffix("(conflict, HTTP 409)\n"), "\(last.stderr)")

        // A second passkey from another authenticator (enroll is not a CLI command; the SDK does it).
        let otherStore = cli.path("other-authenticator.json")
        let account = MyAccount(
            configuration: SesameConfiguration(domain: try #require(URL(string: live.url)), clientID: live.clientID),
            accessToken: myAccountToken.accessToken)
        let enrolled = try await account.enrollPasskey(
            provider: try SoftwarePasskeyProvider(storePath: otherStore, origin: Origin(live.url)))
        let two = await cli.run(["passkeys", "list", "--json"])
        #expect((try two.json()["passkeys"] as? [[String: Any]])?.count == 2)

        // Deleting the CLI's own passkey removes its key locally too; login then has no passkey.
        let delete = await cli.run(["passkeys", "delete", localID, "--json"])
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(try delete.json()["local_key_removed"] as? Bool == true)
        #expect(try FileCredentialStore(path: cli.path("passkeys.json")).allCredentials().isEmpty)
        let one = await cli.run(["passkeys", "list", "--json"])
        let remaining = try #require(try one.json()["passkeys"] as? [[String: Any]])
        #expect(remaining.map { $0["id"] as? String } == [enrolled.id])
        #expect(remaining.first?["in_this_cli"] as? Bool == false)
        let noPasskey = await cli.run(["login"])
        #expect(noPasskey.status == 1)
        #expect(noPasskey.stderrLines.count == 1)
        #expect(noPasskey.stderr.contains("holds no credential for localhost"), "\(noPasskey.stderr)")

        // revoke ends both sessions at the server and removes both credentials files.
        let saved = try Data(contentsOf: URL(fileURLWithPath: cli.path("credentials.json")))
        let revoke = await cli.run(["token", "revoke", "--json"])
        #expect(revoke.status == 0, "\(revoke.stderr)")
        #expect(try revoke.json()["revoked_refresh_tokens"] as? Int == 2)
        #expect(!FileManager.default.fileExists(atPath: cli.path("credentials.json")))
        #expect(!FileManager.default.fileExists(atPath: cli.path("my-account.json")))
        let gone = await cli.run(["token", "show"])
        #expect(gone.status == 1)
        #expect(gone.stderrLines == ["sesame: token show: not signed in: run 'sesame signup' or 'sesame login' first"])

        // The revoked refresh token, put back, is refused by the server: exit 1 with its description.
        try ClientState.writeAtomically(saved, to: cli.path("credentials.json"))
        let refused = await cli.run(["token", "refresh"])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderr.hasPrefix("sesame: token refresh: "))
        #expect(
            refused.stderr.contains("(invalid_grant, HTTP 400); run 'sesame login' to sign in again"),
            "\(refused.stderr)")
    }

    @Test func aWrongClientIDShowsTheServersDescription() async throws {
        let live = try ClientLiveServer()
        let cli = ClientCLI()
        defer { cli.removeState() }
        let run = await cli.run([
            "signup", "--server", live.url, "--client-id", "no-such-client", "--email", "bob@example.com",
        ])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["sesame: signup: unknown client (invalid_client, HTTP 401)"])
        // Nothing was saved: no config, no credentials.
        #expect(!FileManager.default.fileExists(atPath: cli.path("config.json")))
        #expect(!FileManager.default.fileExists(atPath: cli.path("credentials.json")))
    }

    @Test func aServerThatIsDownFailsFastWithOneLine() async throws {
        let url = try closedLoopbackURL()
        var cli = ClientCLI()
        cli.variables["SESAME_TIMEOUT"] = "5"
        defer { cli.removeState() }
        let run = await cli.run(["signup", "--server", url, "--client-id", "c", "--email", "carol@example.com"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix("sesame: signup: cannot reach \(url): "), "\(run.stderr)")
        #expect(!run.stderr.contains("cannot reach the server"), "\(run.stderr)")
    }

    @Test func aBadTimeoutSettingIsRefused() async {
        var cli = ClientCLI()
        cli.variables["SESAME_TIMEOUT"] = "0"
        defer { cli.removeState() }
        let run = await cli.run(["token", "show"])
        #expect(run.status == 1)
        #expect(run.stderrLines == ["sesame: token show: SESAME_TIMEOUT must be a number of seconds from 1 to 300"])
    }
}

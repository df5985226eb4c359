import Foundation
import Testing

/// The client commands through the built `sesame` executable: the synchronous entry point that
/// waits for the SDK's async calls, real exit statuses, and XDG_CONFIG_HOME from the environment.
@Suite("sesame binary: client commands", .enabled(if: SesameBinary.url != nil, SesameBinary.missingMessage))
struct ClientSubprocessTests {
    @Test func signupThenTokenShowThroughTheBinary() throws {
        let live = try ClientLiveServer()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-cli-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_CONFIG_HOME": home.path]
        let signup = try Self.run(
            ["signup", "--server", live.url, "--client-id", live.clientID, "--email", "dave@example.com"], environment)
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(signup.stdout.hasPrefix("Signed up dave@example.com ("), "\(signup.stdout)")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("sesame/credentials.json").path))
        let show = try Self.run(["token", "show", "--json"], environment)
        #expect(show.status == 0, "\(show.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        #expect(json["server"] as? String == live.url)
        #expect(json["has_refresh_token"] as? Bool == true)
    }

    @Test func badArgumentsExitTwoAndAMissingServerExitsOne() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-cli-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_CONFIG_HOME": home.path]
        let bad = try Self.run(["passkeys", "rename", "passkey|1"], environment)
        #expect(bad.status == 2)
        #expect(bad.stderr == "sesame: passkeys rename: NAME is required\n")
        let url = try closedLoopbackURL()
        let down = try Self.run(["login", "--server", url, "--client-id", "c"], environment)
        #expect(down.status == 1)
        #expect(down.stderr.hasPrefix("sesame: login: cannot reach \(url): "), "\(down.stderr)")
        #expect(down.stderr.split(separator: "\n").count == 1)
    }

    /// Runs the binary with `environment` added to this process's environment.
    static func run(_ arguments: [String], _ environment: [String: String]) throws -> SesameBinary.Result {
        let process = Process()
        guard let url = SesameBinary.url else { throw SesameBinaryMissing() }
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let error = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errorData = SesameBinary.LockedData()
        let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return SesameBinary.Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.waitForValue(), as: UTF8.self))
    }
}

/// The `sesame` executable is not next to the tests (the suite is disabled then; this is a guard).
struct SesameBinaryMissing: Error {}

import Foundation
import Testing

@testable import SesameCLI

/// `--password` reads from the terminal with echo off: the built binary runs under `script`, which
/// gives it a pseudo-terminal, and the password is typed only after the prompt shows.
@Suite(
    "passwords typed at a terminal",
    .enabled(if: SesameBinary.url != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
struct TerminalPasswordTests {
    /// Runs `arguments` under a pseudo-terminal and types each of `typed` when its prompt shows.
    static func runAtTerminal(_ arguments: [String], typed: [(prompt: String, line: String)], state: String) throws
        -> (status: Int32, screen: String)
    {
        let binary = try #require(SesameBinary.url)
        let command = ([binary.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(["SESAME_CONFIG_DIR": state]) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A liveness bound, not a timing assertion: a run that waits for input it never gets ends.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        defer { watchdog.cancel() }
        var screen = ""
        var next = 0
        var searched = screen.endIndex
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the terminal closed: the command is done
            let offset = screen.distance(from: screen.startIndex, to: searched)
            screen += String(decoding: chunk, as: UTF8.self)
            searched = screen.index(screen.startIndex, offsetBy: offset)
            while next < typed.count, let found = screen[searched...].range(of: typed[next].prompt) {
                input.fileHandleForWriting.write(Data((typed[next].line + "\n").utf8))
                searched = found.upperBound
                next += 1
            }
        }
        process.waitUntilExit()
        return (process.terminationStatus, screen)
    }

    @Test func thePasswordIsNotEchoed() throws {
        let live = try ClientLiveServer()
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-tty-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let password = "a secret typed at the terminal"
        let (status, screen) = try Self.runAtTerminal(
            [
                "signup", "--password", "--server", live.url, "--client-id", live.clientID, "--email",
                "tty@example.com",
            ],
            typed: [("Password: ", password), ("Password again: ", password)], state: state)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("Password: "))
        #expect(screen.contains("Signed up tty@example.com"))
        #expect(!screen.contains(password))
    }
}

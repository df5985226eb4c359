import Foundation
import Testing

/// Runs the built `sesame` executable to check real exit statuses and standard streams.
@Suite("sesame binary", .enabled(if: SesameBinary.url != nil, SesameBinary.missingMessage))
struct SubprocessTests {
    @Test func verifyRegistrationSucceeds() throws {
        let vector = try Vector("registration/packed-x5c-es256-yubikey-firefox.json")
        let result = try vector.withResponseFile { path in
            try SesameBinary.run(Array(vector.registrationArguments(path)))
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["credential_id"] as? String == vector.expect["credential_id"] as? String)
        #expect(json["fmt"] as? String == "packed")
    }

    @Test func failedVerificationExitsOne() throws {
        let vector = try Vector("registration/bad-origin-mismatch.json")
        let result = try vector.withResponseFile { path in
            try SesameBinary.run(vector.registrationArguments(path))
        }
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["check"] as? String == "origin")
    }

    @Test func badArgumentsExitTwoWithOneLine() throws {
        let result = try SesameBinary.run([
            "verify", "registration", "--origin", "https://e", "--challenge", "AAAA", "f",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "sesame: verify registration: --rp-id is required\n")
    }

    @Test func inspectReadsStandardInput() throws {
        let vector = try Vector("authentication/es256-security-key-localhost.json")
        let result = try SesameBinary.run(["inspect", "--json", "-"], stdin: try vector.responseJSON())
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["kind"] as? String == "authentication")
    }

    @Test func helpExitsZero() throws {
        let result = try SesameBinary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: sesame"))
    }
}

/// Finds the `sesame` executable in the products directory the tests were built into.
enum SesameBinary {
    static let missingMessage: Comment =
        "the sesame executable is not built next to the tests; run `swift build --product sesame` first"

    /// The products directory is the test bundle's parent: walk up from the running test
    /// binary (or bundle) until a directory holds an executable named `sesame`.
    static let url: URL? = {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()]
        candidates.append(Bundle.main.bundleURL)
        for start in candidates {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let binary = directory.appendingPathComponent("sesame")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: binary.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: binary.path)
                {
                    return binary
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: Data = Data()) throws -> Result {
        let binary = try #require(url)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        // Read both streams to the end before waiting, so a full pipe cannot block the child.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = errorData.waitForValue()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Data handed from the stderr reader thread.
    final class LockedData: @unchecked Sendable {
        private let condition = NSCondition()
        private var value: Data?

        func set(_ data: Data) {
            condition.lock()
            value = data
            condition.signal()
            condition.unlock()
        }

        func waitForValue() -> Data {
            condition.lock()
            defer { condition.unlock() }
            while value == nil { condition.wait() }
            return value ?? Data()
        }
    }
}

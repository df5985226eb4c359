import Foundation
import Testing

@testable import SesameCLI

/// What one in-process run of the command line produced.
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output parsed as a JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(object as? [String: Any], "stdout is not a JSON object: \(stdout)")
    }

    /// The lines written to standard error.
    var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Runs `SesameCommandLine` in-process with captured output, fixed standard input and a fixed clock.
enum CLI {
    /// The clock tests use unless they pass their own: inside most vectors' certificate windows.
    static let defaultNow = Date(timeIntervalSince1970: 1_600_000_000)  // 2020-09-13

    static func run(
        _ arguments: [String], stdin: [UInt8] = [], now: Date = defaultNow, variables: [String: String] = [:]
    ) -> CLIRun {
        final class Buffers {
            var out = ""
            var err = ""
        }
        let buffers = Buffers()
        var environment = CommandEnvironment(
            readStandardInput: { stdin },
            readFile: CommandEnvironment.process.readFile,
            writeOutput: { buffers.out += $0 },
            writeError: { buffers.err += $0 },
            now: { now })
        environment.variables = variables
        let status = SesameCommandLine.run(arguments, environment: environment)
        return CLIRun(status: status, stdout: buffers.out, stderr: buffers.err)
    }
}

/// A conformance vector from Tests/Data/conformance (schema in its README), plus a temporary
/// file holding its `response` member for the commands to read.
struct Vector {
    let name: String
    let object: [String: Any]

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/conformance")

    init(_ name: String) throws {
        self.name = name
        let data = try Data(contentsOf: Vector.directory.appendingPathComponent(name))
        object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    var rpID: String { object["rp_id"] as? String ?? "" }
    var origin: String { object["expected_origin"] as? String ?? "" }
    var challenge: String { object["expected_challenge"] as? String ?? "" }
    var requireUV: Bool { object["require_user_verification"] as? Bool ?? false }
    var publicKey: String { object["credential_public_key"] as? String ?? "" }
    var signCount: Int { object["current_sign_count"] as? Int ?? 0 }
    var expect: [String: Any] { object["expect"] as? [String: Any] ?? [:] }

    /// `verify_at`, else the start of `x5c_validity` plus a day, else nil (no certificates to check).
    var at: String? {
        if let at = object["verify_at"] as? String { return at }
        guard let validity = object["x5c_validity"] as? [String: Any], let start = validity["not_before"] as? String,
            let date = ISO8601DateFormatter().date(from: start)
        else { return nil }
        return ISO8601DateFormatter().string(from: date.addingTimeInterval(86_400))
    }

    /// The `response` member as JSON bytes.
    func responseJSON() throws -> Data {
        let response = try #require(object["response"])
        return try JSONSerialization.data(withJSONObject: response)
    }

    /// Writes `contents` to a fresh temporary file, runs `body` with its path, then removes it.
    static func withTemporaryFile<T>(_ contents: Data, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-cli-\(UUID().uuidString).json")
        try contents.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    /// Runs `body` with the path of a temporary file holding the `response` member.
    func withResponseFile<T>(_ body: (String) throws -> T) throws -> T {
        try Vector.withTemporaryFile(try responseJSON(), body)
    }

    /// `verify registration` arguments for this vector (plus `extra`), ending with `path`.
    func registrationArguments(_ path: String, extra: [String] = []) -> [String] {
        var arguments = ["verify", "registration", "--rp-id", rpID, "--origin", origin, "--challenge", challenge]
        if requireUV { arguments.append("--require-uv") }
        if let at { arguments += ["--at", at] }
        return arguments + extra + [path]
    }

    /// `verify authentication` arguments for this vector (plus `extra`), ending with `path`.
    func authenticationArguments(_ path: String, extra: [String] = []) -> [String] {
        var arguments = [
            "verify", "authentication", "--rp-id", rpID, "--origin", origin, "--challenge", challenge,
            "--public-key", publicKey, "--sign-count", String(signCount),
        ]
        if requireUV { arguments.append("--require-uv") }
        return arguments + extra + [path]
    }
}

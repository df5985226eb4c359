import Foundation
import Testing

@testable import SesameCLI

@Suite("sesame usage and bad arguments")
struct UsageTests {
    static let key =
        "pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI"
    static let registration = ["verify", "registration", "--rp-id", "example.com", "--origin", "https://example.com"]
    static let authentication = [
        "verify", "authentication", "--rp-id", "example.com", "--origin", "https://example.com", "--challenge", "AAAA",
        "--sign-count", "0",
    ]

    /// A path that exists for the whole test run (the vectors' README).
    static let existing = Vector.directory.appendingPathComponent("README.md").path

    @Test(
        arguments: [
            ([], "sesame: missing command (try 'sesame help')"),
            (["frobnicate"], "sesame: unknown command 'frobnicate' (try 'sesame help')"),
            (["help", "frobnicate"], "sesame: help: no help for 'frobnicate'"),
            (["verify"], "sesame: verify: missing what to verify: registration or authentication"),
            (
                ["verify", "login", "f"],
                "sesame: verify: unknown kind 'login' (expected registration or authentication)"
            ),
            (["inspect", "--yaml", "f"], "sesame: inspect: unknown option '--yaml'"),
            (["inspect", "a", "b"], "sesame: inspect: unexpected argument 'b'"),
            (
                ["inspect", "--at", "tomorrow", "f"],
                "sesame: inspect: --at 'tomorrow' is not an ISO 8601 date and time (e.g. 2024-05-01T12:00:00Z)"
            ),
            (
                ["inspect", "/nonexistent/sesame-test"],
                "sesame: inspect: cannot read '/nonexistent/sesame-test': No such file or directory"
            ),
            (
                ["verify", "registration", "--origin", "https://e", "--challenge", "AAAA", "f"],
                "sesame: verify registration: --rp-id is required"
            ),
            (registration + ["f"], "sesame: verify registration: --challenge is required"),
            (
                ["verify", "registration", "--rp-id", "e", "--challenge", "AAAA", "f"],
                "sesame: verify registration: --origin is required"
            ),
            (registration + ["--challenge", "AAAA"], "sesame: verify registration: FILE is required"),
            (registration + ["--challenge"], "sesame: verify registration: --challenge needs a value"),
            (
                registration + ["--challenge", "AAAA", "--verbose", "f"],
                "sesame: verify registration: unknown option '--verbose'"
            ),
            (
                registration + ["--challenge", "AA+/", "f"],
                "sesame: verify registration: --challenge is not valid base64url (base64url: '+' at offset 2 is not in the url-safe alphabet)"
            ),
            (
                registration + ["--challenge", "AAAA", "--at", "2024-13-01T00:00:00Z", "f"],
                "sesame: verify registration: --at '2024-13-01T00:00:00Z' is not an ISO 8601 date and time (e.g. 2024-05-01T12:00:00Z)"
            ),
            (
                registration + ["--challenge", "AAAA", "--at", "2024-05-01", "f"],
                "sesame: verify registration: --at '2024-05-01' is not an ISO 8601 date and time (e.g. 2024-05-01T12:00:00Z)"
            ),
            (
                registration + ["--challenge", "AAAA", "--alg", "ES257", "f"],
                "sesame: verify registration: --alg 'ES257' is not a known algorithm (known: ES256, ES384, ES512, EdDSA, RS256, RS384, RS512, PS256, PS384, PS512, RS1)"
            ),
            (
                registration + ["--challenge", "AAAA", "--require-uv=no", "f"],
                "sesame: verify registration: --require-uv does not take a value"
            ),
            (
                registration + ["--challenge", "AAAA", "--rp-id", "again", "f"],
                "sesame: verify registration: --rp-id is given more than once"
            ),
            (
                registration + ["--challenge", "AAAA", "/nonexistent/sesame-test"],
                "sesame: verify registration: cannot read '/nonexistent/sesame-test': No such file or directory"
            ),
            (
                registration + ["--challenge", "AAAA", "/"],
                "sesame: verify registration: cannot read '/': Is a directory"
            ),
            (authentication + ["f"], "sesame: verify authentication: --public-key is required"),
            (
                authentication + ["--public-key", "pQE*", "f"],
                "sesame: verify authentication: --public-key is not valid base64url (base64url: '*' at offset 3 is not in the url-safe alphabet)"
            ),
            (
                authentication + ["--public-key", "oA", "f"],
                "sesame: verify authentication: --public-key is not a usable COSE key (COSE key: kty (1) is missing)"
            ),
            (
                [
                    "verify", "authentication", "--rp-id", "e", "--origin", "https://e", "--challenge", "AAAA",
                    "--public-key", key, "--sign-count", "-1", "f",
                ], "sesame: verify authentication: --sign-count '-1' is not a number from 0 to 4294967295"
            ),
            (
                [
                    "verify", "authentication", "--rp-id", "e", "--origin", "https://e", "--challenge", "AAAA",
                    "--public-key", key, "--sign-count", "4294967296", "f",
                ], "sesame: verify authentication: --sign-count '4294967296' is not a number from 0 to 4294967295"
            ),
            (
                [
                    "verify", "authentication", "--rp-id", "e", "--origin", "https://e", "--challenge", "AAAA",
                    "--public-key", key, "f",
                ], "sesame: verify authentication: --sign-count is required"
            ),
            (
                authentication + ["--public-key", key, "--at", "2024-05-01T00:00:00Z", "f"],
                "sesame: verify authentication: unknown option '--at'"
            ),
        ] as [([String], String)])
    func badArgumentsPrintOneLineAndExitTwo(_ arguments: [String], _ line: String) {
        let run = CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == line + "\n")
    }

    @Test func argumentErrorsComeBeforeReadingTheFile() {
        // The file exists, the arguments are bad: still status 2, and no verification output.
        let run = CLI.run(Self.registration + ["--challenge", "A", Self.existing])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
    }

    @Test(
        arguments: [
            (["help"], "usage: sesame <command>"),
            (["--help"], "usage: sesame <command>"),
            (["-h"], "usage: sesame <command>"),
            (["help", "inspect"], "usage: sesame inspect"),
            (["inspect", "--help"], "usage: sesame inspect"),
            (["inspect", "-h", "--bogus"], "usage: sesame inspect"),
            (["verify", "--help"], "usage: sesame verify registration"),
            (["help", "verify"], "usage: sesame verify registration"),
            (["verify", "registration", "--help"], "usage: sesame verify registration --rp-id"),
            (["help", "verify", "registration"], "usage: sesame verify registration --rp-id"),
            (["verify", "authentication", "--help"], "usage: sesame verify authentication --rp-id"),
            (["verify", "authentication", "--rp-id", "x", "--help"], "usage: sesame verify authentication --rp-id"),
        ] as [([String], String)])
    func helpPrintsUsageAndExitsZero(_ arguments: [String], _ prefix: String) {
        let run = CLI.run(arguments)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasPrefix(prefix), "\(run.stdout)")
    }
}

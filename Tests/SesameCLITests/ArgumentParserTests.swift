import Testing

@testable import SesameCLI

@Suite("ArgumentParser")
struct ArgumentParserTests {
    static let spec = CommandSpec(
        options: [
            OptionSpec("rp-id", .single, required: true),
            OptionSpec("origin", .repeated),
            OptionSpec("require-uv", .flag),
        ],
        positionals: ["FILE"], requiredPositionals: 1)

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, spec: Self.spec)
    }

    func failure(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func separateAndInlineValues() throws {
        let parsed = try parse([
            "--rp-id", "example.com", "--origin=https://a.example", "--origin", "https://b.example", "f",
        ])
        #expect(parsed.value("rp-id") == "example.com")
        #expect(parsed.all("origin") == ["https://a.example", "https://b.example"])
        #expect(parsed.positionals == ["f"])
        #expect(!parsed.flag("require-uv"))
    }

    @Test func flagsAndOrderDoNotMatter() throws {
        let parsed = try parse(["file.json", "--require-uv", "--rp-id", "x"])
        #expect(parsed.flag("require-uv"))
        #expect(parsed.positional(0) == "file.json")
        #expect(parsed.positional(1) == nil)
    }

    @Test func inlineValueMayContainEqualsAndDashes() throws {
        let parsed = try parse(["--rp-id=--a=b", "f"])
        #expect(parsed.value("rp-id") == "--a=b")
    }

    @Test func singleDashIsStandardInput() throws {
        #expect(try parse(["--rp-id", "x", "-"]).positionals == ["-"])
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try parse(["--rp-id", "x", "--", "--require-uv"]).positionals == ["--require-uv"])
        #expect(failure(["--rp-id", "x", "--", "a", "b"]) == "unexpected argument 'b'")
    }

    @Test func helpWinsOverOtherErrors() throws {
        #expect(try parse(["--bogus", "--help"]).helpRequested)
        #expect(try parse(["-h"]).helpRequested)
        // After `--`, "--help" is a file name.
        #expect(try parse(["--rp-id", "x", "--", "--help"]).helpRequested == false)
    }

    @Test(arguments: [
        (["--bogus", "f"], "unknown option '--bogus'"),
        (["-x", "f"], "unknown option '-x'"),
        (["--rp-id"], "--rp-id needs a value"),
        (["--rp-id", "--require-uv", "f"], "--rp-id needs a value"),
        (["--rp-id=", "f"], "--rp-id needs a value"),
        (["--rp-id", "a", "--rp-id", "b", "f"], "--rp-id is given more than once"),
        (["--rp-id", "a", "--require-uv", "--require-uv", "f"], "--require-uv is given more than once"),
        (["--rp-id", "a", "--require-uv=yes", "f"], "--require-uv does not take a value"),
        (["f"], "--rp-id is required"),
        (["--rp-id", "a"], "FILE is required"),
        (["--rp-id", "a", "f", "g"], "unexpected argument 'g'"),
    ])
    func rejects(_ arguments: [String], _ message: String) {
        #expect(failure(arguments) == message)
    }
}

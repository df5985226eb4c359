import Testing

@testable import SesameCLI

@Suite("sesame password-rules")
struct PasswordRulesCommandTests {
    @Test func cleanRulesPrintTheirCanonicalForm() {
        let run = CLI.run(["password-rules", "check", "required: upper, lower; minlength: 8; minlength: 12;"])
        #expect(run.status == 0)
        #expect(run.stdout == "canonical: required: upper, lower; allowed: upper, lower; minlength: 12;\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func aProblemIsReportedWithItsPositionAndStatusOne() {
        let run = CLI.run(["password-rules", "check", "minlength: 8; unknown: 12;"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("problem: at 14: unknown rule \"unknown\"\n"))
        #expect(run.stdout.hasPrefix("canonical: allowed: ascii-printable;\n"))
    }

    @Test func aPasswordGetsOneLinePerRule() {
        let rules = "minlength: 10; required: digit; allowed: lower; max-consecutive: 2;"
        let failing = CLI.run(["password-rules", "check", rules, "abcd1"])
        #expect(failing.status == 1)
        #expect(
            failing.stdout.split(separator: "\n").dropFirst() == [
                "FAIL: At least 10 characters in length",
                "pass: Contain at least 1 of the following 1 types of characters: numbers (i.e. 0-9)",
                "pass: Contain only the following types of characters: lower case letters (a-z), numbers (i.e. 0-9)",
                "pass: No more than 2 identical characters in a row",
                "FAIL: No more than 2 sequential characters in a row (abc, 321)",
            ])
        let passing = CLI.run(["password-rules", "check", rules, "qwerty1qaz"])
        #expect(passing.status == 0)
        #expect(!passing.stdout.contains("FAIL"))
    }

    @Test(
        arguments: [
            (["password-rules"], "sesame: password-rules: missing action: check"),
            (["password-rules", "verify", "x"], "sesame: password-rules: unknown action 'verify' (expected check)"),
            (["password-rules", "check"], "sesame: password-rules check: missing RULES"),
            (
                ["password-rules", "check", "a", "b", "c"],
                "sesame: password-rules check: expected RULES and at most one PASSWORD"
            ),
        ])
    func badArgumentsAreOneLineAndStatusTwo(_ arguments: [String], _ message: String) {
        let run = CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderrLines == [Substring(message)])
        #expect(run.stdout.isEmpty)
    }

    @Test func helpIsPrinted() {
        for arguments in [
            ["help", "password-rules"], ["password-rules", "--help"], ["password-rules", "check", "-h"],
        ] {
            let run = CLI.run(arguments)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("usage: sesame password-rules check RULES [PASSWORD]"))
        }
    }
}

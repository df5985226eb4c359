import SesameService
import Testing

@testable import SesameHTTP

/// The password rules as the pages word them, and as the script reads them.
@Suite("Hosted pages: the password checklist")
struct PasswordChecklistTests {
    /// The parser puts classes in its canonical order (upper before lower; a custom class's
    /// characters ascending, `-` first when written).
    @Test("each kind of rule has its words in both languages, in the order the server checks them")
    func words() {
        let rules = "required: lower, upper; required: digit; allowed: [-!]]; max-consecutive: 3; minlength: 10;"
        let list = PasswordRulesParser.parse(rules).rules.list
        #expect(
            list.map { PasswordChecklist.text($0, .en) } == [
                "At least 10 characters", "At least one uppercase letter (A–Z) or lowercase letter (a–z)",
                "At least one digit (0–9)",
                "Only uppercase letter (A–Z), lowercase letter (a–z), digit (0–9), one of !-]",
                "No more than 3 of the same character in a row",
                "No more than 3 characters in sequence, such as abc or 321",
            ])
        #expect(PasswordChecklist.text(list[1], .ja) == "英大文字（A〜Z）または英小文字（a〜z）を 1 文字以上含む")
        #expect(
            list.map(PasswordChecklist.json) == [
                #"{"min":10}"#, #"{"required":["upper","lower"]}"#, #"{"required":["digit"]}"#,
                #"{"allowed":["upper","lower","digit","[-!]]"]}"#, #"{"repeating":3}"#, #"{"sequential":3}"#,
            ])
    }

    @Test("the reason lists only the rules the password broke; any-character rules are never shown")
    func broken() {
        let rules = "minlength: 12; maxlength: 64; allowed: ascii-printable;"
        let parsed = PasswordRulesParser.parse(rules).rules
        #expect(
            PasswordChecklist.broken(rules: rules, verdicts: parsed.check("ひらけ"), locale: .en) == [
                "At least 12 characters", "Only letters, digits, spaces and symbols of an English keyboard",
            ])
        #expect(
            PasswordChecklist.broken(rules: rules, verdicts: parsed.check("correct horse battery"), locale: .en).isEmpty
        )
        let open = "minlength: 8; allowed: unicode;"
        #expect(
            PasswordChecklist.list(open, fieldID: "password", locale: .en).markup.contains(
                "<li>At least 8 characters</li></ul>"))
        #expect(PasswordChecklist.list("allowed: unicode;", fieldID: "password", locale: .en) == .empty)
    }
}
